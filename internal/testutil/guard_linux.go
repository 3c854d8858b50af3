package testutil

import (
	"syscall"
	"testing"
)

// Guarded is memory between two pages that fault on any access. A test
// places its input against one of them, so that a read or a write past the
// input's end (AtEnd) or before its start (AtStart) faults, which
// debug.SetPanicOnFault turns into a panic the test fails on, instead of
// reading a neighbour's bytes unseen. It holds up to two pages.
type Guarded struct {
	mem  []byte
	page int
}

// NewGuarded maps the memory; it is unmapped when the test ends.
func NewGuarded(t testing.TB) *Guarded {
	t.Helper()
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 4*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mprotect(mem[:page], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mprotect(mem[3*page:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Munmap(mem) })
	return &Guarded{mem: mem, page: page}
}

// AtEnd copies b so that it ends where the upper guard page starts; the
// result's capacity is its length.
func (g *Guarded) AtEnd(b []byte) []byte {
	end := 3 * g.page
	s := g.mem[end-len(b) : end : end]
	copy(s, b)
	return s
}

// AtStart copies b so that it starts where the lower guard page ends.
func (g *Guarded) AtStart(b []byte) []byte {
	s := g.mem[g.page : g.page+len(b) : g.page+len(b)]
	copy(s, b)
	return s
}

// Room returns n bytes of zeroed memory ending at the upper guard page.
func (g *Guarded) Room(n int) []byte {
	end := 3 * g.page
	s := g.mem[end-n : end : end]
	clear(s)
	return s
}
