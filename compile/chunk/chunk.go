// Package chunk hands out slices of one reused backing array: the arenas a
// worker keeps from thread to thread (jsonv.Arena for delta-block values,
// body.Arena for parsed bodies) are built of Chunks. What a Chunk handed out
// is valid until Reset; Reset clears it (so the arena keeps nothing of a
// thread alive) or fills it with poison (tests: a value read after its
// arena was reset then shows in a report).
package chunk

import "unsafe"

// MaxKept is the most elements a Chunk keeps across Reset: a thread with far
// more (a pathological one) does not leave its arena that large in the pool.
const MaxKept = 1 << 16

// Chunk hands out slices of one backing array; when it is full, a larger one
// takes its place (slices handed out keep the old one alive until Reset).
// The zero Chunk is ready to use. Not safe for concurrent use.
//
// A new array is twice the size of the full one, up to MaxGrowBytes: a
// full array stays alive (its elements are in use), so only the last one
// has room to spare, and a thread of 100,000 messages left up to half of
// an array of millions of delta values unused (a third of the values'
// memory in one measured run).
type Chunk[T any] struct {
	buf      []T
	poisoned bool // Reset filled buf with poison: Take clears what it hands out
}

// Take returns n zero elements (len and cap n) from c, or from the heap
// when heap is set: an arena that keeps nothing, which parses without an
// arena of their own share.
func Take[T any](c *Chunk[T], n int, heap bool) []T {
	if heap {
		return make([]T, n)
	}
	return c.take(n)
}

// Copy returns a copy of s of its exact length, from c or (heap) the heap.
func Copy[T any](c *Chunk[T], s []T, heap bool) []T {
	out := Take(c, len(s), heap)
	copy(out, s)
	return out
}

// MaxGrowBytes bounds the size of a new backing array (unless one request
// alone needs more).
const MaxGrowBytes = 1 << 20

func (c *Chunk[T]) take(n int) []T {
	if cap(c.buf)-len(c.buf) < n {
		c.buf = make([]T, 0, max(min(2*cap(c.buf), growMax[T]()), n, 256))
	}
	s := c.buf[len(c.buf) : len(c.buf)+n : len(c.buf)+n]
	c.buf = c.buf[:len(c.buf)+n]
	if c.poisoned {
		clear(s)
	}
	return s
}

// Reset takes back what the chunk handed out: cleared, or, with poison set,
// every element of the backing array set to p.
func (c *Chunk[T]) Reset(poison bool, p T) {
	if cap(c.buf) > MaxKept {
		c.buf = nil
		return
	}
	if poison {
		c.buf = c.buf[:cap(c.buf)]
		for i := range c.buf {
			c.buf[i] = p
		}
		c.poisoned = true
	} else if c.poisoned {
		clear(c.buf[:cap(c.buf)])
		c.poisoned = false
	} else {
		clear(c.buf)
	}
	c.buf = c.buf[:0]
}

// growMax is the most elements of T a new backing array grows to
// (MaxGrowBytes of them).
func growMax[T any]() int {
	var zero T
	return MaxGrowBytes / max(int(unsafe.Sizeof(zero)), 1)
}
