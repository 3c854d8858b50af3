package jsonv

// An Arena holds the Values of the documents parsed into it (ParseStringIn)
// until Reset, and is then used again: a thread's delta blocks were a
// quarter of everything a check allocated, all of it garbage once the
// thread was checked. Reset clears what was handed out, so that nothing
// parsed before it stays reachable through the arena, and a Value of an
// earlier document must not be used after it (compile.EachWith resets a
// thread's arena when work returns). A nil *Arena allocates from the
// heap. Not safe for concurrent use.
type Arena struct {
	vals  chunk[Value]
	infos chunk[objInfo]
	ptrs  chunk[*Value]
	keys  chunk[string]
	offs  chunk[int]
	// heap: every take is its own allocation (the arena of a parse
	// without one, heapArena, which holds nothing).
	heap bool
}

// heapArena stands for a nil *Arena: it allocates each slice from the
// heap and keeps none, so parses may share it.
var heapArena = Arena{heap: true}

// chunk hands out slices of one backing array; when it is full, a larger
// one takes its place (slices handed out keep the old one alive until the
// arena is reset).
type chunk[T any] struct {
	buf      []T
	poisoned bool // Reset filled buf with poison: take clears what it hands out
}

// PoisonOnReset is for tests: Reset fills what it takes back with values
// that show wherever they are read (strings "☠ arena reset ☠", values of a
// kind that is none of the six), so that a Value used after its arena was
// reset changes a report, where a zero value could pass unnoticed.
var PoisonOnReset bool

const poisonText = "☠ arena reset ☠"

// maxKept is the most elements a chunk keeps across Reset: a thread with
// far more values (a pathological one) does not leave its arena that large
// in the pool.
const maxKept = 1 << 16

func (c *chunk[T]) take(n int, heap bool) []T {
	if heap {
		return make([]T, n)
	}
	if cap(c.buf)-len(c.buf) < n {
		c.buf = make([]T, 0, max(2*cap(c.buf), n, 256))
	}
	s := c.buf[len(c.buf) : len(c.buf)+n : len(c.buf)+n]
	c.buf = c.buf[:len(c.buf)+n]
	if c.poisoned {
		clear(s)
	}
	return s
}

// reset takes back what the chunk handed out: cleared, so that the arena
// keeps nothing of it alive, or filled with poison (PoisonOnReset).
func (c *chunk[T]) reset(poison T) {
	if cap(c.buf) > maxKept {
		c.buf = nil
		return
	}
	if PoisonOnReset {
		c.buf = c.buf[:cap(c.buf)]
		for i := range c.buf {
			c.buf[i] = poison
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

// Reset makes the arena's memory available again; every Value parsed into
// it is invalid from then on.
func (a *Arena) Reset() {
	a.vals.reset(poisonValue)
	a.infos.reset(poisonInfo)
	a.ptrs.reset(&poisonValue)
	a.keys.reset(poisonText)
	a.offs.reset(-7)
}

// The poison of PoisonOnReset: a kind that is none of the six (its name
// panics), text that shows, members that lead back to it.
var (
	poisonValue = Value{Kind: Kind(99), Str: poisonText, Keys: []string{poisonText}}
	poisonInfo  = objInfo{keyOffs: []int{-7}, dups: []Dup{{Key: poisonText}}}
)

func init() {
	poisonValue.Vals = []*Value{&poisonValue}
	poisonValue.Arr = []*Value{&poisonValue}
}
