package jsonv

import "golang.org/x/sys/cpu"

// strBlock is the number of bytes strMasks looks at.
const strBlock = 64

// vectorStr reports whether str reads a string's blocks with strMasks and
// appendValid decodes with decodeBlocks (AVX2). A variable, so that tests compare both ways in one run.
var vectorStr = cpu.X86.HasAVX2

// strMasks returns, with one bit per byte of b (bit k for b[k]), where b
// holds '"', '\\', a control character (below 0x20), and a byte that may
// follow a backslash in a two-byte escape (simpleEscape's: " \\ / b f n r t).
//
//go:noescape
func strMasks(b *[strBlock]byte) (quote, backslash, ctl, simple uint64)

// decodeBlocks decodes raw[i:] into out[o:] while 32 bytes of raw are left.
// Each block is stored whole at the output's offset, which then advances
// over the bytes before the block's first backslash (all 32 when it has
// none); an escape tab decodes to a byte (simpleEscape) is written as that
// byte. It stops at any other escape ("\u", which appendEscape decodes, or
// one the scanner would have refused) and at a backslash that ends raw, and
// returns where it stopped in out and raw, with the high bits of the bytes
// it read (nonzero: one was past ASCII). Decoding never lengthens the text,
// so out needs o-i+len(raw) bytes: checked here, as the assembly would
// write past a shorter one.
func decodeBlocks(out, raw []byte, o, i int, tab *[256]byte) (o2, i2 int, high uint32) {
	if i < 0 || o < 0 || len(out) < o-i+len(raw) {
		panic("jsonv: decodeBlocks given too little room")
	}
	return decodeBlocksAVX2(out, raw, o, i, tab)
}

//go:noescape
func decodeBlocksAVX2(out, raw []byte, o, i int, tab *[256]byte) (o2, i2 int, high uint32)
