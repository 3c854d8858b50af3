//go:build !amd64

package body

const lineBlock = 64

// vectorLines: lineMasks is written for amd64 only (a variable, as on
// amd64, for the tests that set it).
var vectorLines = false

// lineMasks is never called where vectorLines is false.
func lineMasks(b *[lineBlock]byte) (ctl, tick uint64) {
	panic("body: no vectorised line search on this architecture")
}
