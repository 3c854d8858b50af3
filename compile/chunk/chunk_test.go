package chunk

import "testing"

// TestResetClears: after Reset nothing the chunk handed out is reachable
// through it, a poisoned chunk shows the poison and hands out zero
// elements again, and a chunk grown past MaxKept is dropped.
func TestResetClears(t *testing.T) {
	var c Chunk[*int]
	x := 1
	for i, p := range c.take(300) {
		if p != nil {
			t.Fatalf("element %d handed out non-zero", i)
		}
	}
	s := c.take(2)
	s[0], s[1] = &x, &x
	c.Reset(false, nil)
	for _, p := range c.buf[:cap(c.buf)] {
		if p != nil {
			t.Fatal("a pointer survives Reset")
		}
	}
	if got := c.take(1); &got[0] != &c.buf[0] {
		t.Error("Reset did not take the memory back")
	}
	c.Reset(true, &x)
	for _, p := range c.buf[:cap(c.buf)] {
		if p != &x {
			t.Fatal("poison not set")
		}
	}
	if p := c.take(5); p[0] != nil || p[4] != nil {
		t.Error("a poisoned chunk handed out poison")
	}
	c.Reset(false, nil)
	for _, p := range c.buf[:cap(c.buf)] {
		if p != nil {
			t.Fatal("poison survives a clearing Reset")
		}
	}
	c.take(MaxKept + 1)
	c.Reset(false, nil)
	if c.buf != nil {
		t.Errorf("a chunk of %d elements was kept", MaxKept+1)
	}
}

// TestGrowthIsBounded: a chunk doubles its array until the next would pass
// MaxGrowBytes, then adds arrays of that size, so that the room left unused
// in the last one stays below MaxGrowBytes however much a thread takes.
func TestGrowthIsBounded(t *testing.T) {
	type big [136]byte // the size of a delta value
	var c Chunk[big]
	limit := MaxGrowBytes / 136
	caps := map[int]bool{}
	for i := 0; i < 20*limit; i++ {
		c.take(1)
		caps[cap(c.buf)] = true
		if cap(c.buf) > limit {
			t.Fatalf("after %d elements the array holds %d, more than %d", i+1, cap(c.buf), limit)
		}
	}
	if !caps[limit] || !caps[256] || !caps[512] {
		t.Errorf("array sizes %v: want doubling from 256 up to %d", caps, limit)
	}
	if got := c.take(3 * limit); len(got) != 3*limit {
		t.Errorf("a request larger than the bound got %d elements", len(got))
	}
}
