//go:build !amd64

package jsonv

const strBlock = 64

// vectorStr: strMasks and decodeBlocks are written for amd64 only (a variable, as on amd64,
// for the tests that set it).
var vectorStr = false

// strMasks is never called where vectorStr is false.
func strMasks(b *[strBlock]byte) (quote, backslash, ctl, simple uint64) {
	panic("jsonv: no vectorised string search on this architecture")
}

// decodeBlocks is never called where vectorStr is false.
func decodeBlocks(out, raw []byte, o, i int, tab *[256]byte) (int, int, uint32) {
	panic("jsonv: no vectorised decoding on this architecture")
}
