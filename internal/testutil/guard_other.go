//go:build !linux

package testutil

import "testing"

// Guarded is memory between two pages that fault on any access (Linux
// only: elsewhere NewGuarded skips the test).
type Guarded struct{}

// NewGuarded skips the test: guard pages are mapped on Linux only.
func NewGuarded(t testing.TB) *Guarded {
	t.Skip("guard pages are mapped on Linux only")
	return nil
}

func (*Guarded) AtEnd(b []byte) []byte   { return b }
func (*Guarded) AtStart(b []byte) []byte { return b }
func (*Guarded) Room(n int) []byte       { return make([]byte, n) }
