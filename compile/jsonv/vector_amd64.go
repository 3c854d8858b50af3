package jsonv

import "golang.org/x/sys/cpu"

// strBlock is the number of bytes specials looks at.
const strBlock = 64

// vectorStr reports whether str finds a string's special bytes with
// specials (AVX2). A variable, so that tests compare both ways in one run.
var vectorStr = cpu.X86.HasAVX2

// strMasks returns, with one bit per byte of b (bit k for b[k]), where b
// holds '"', '\\', a control character (below 0x20), and a byte that may
// follow a backslash in a two-byte escape (simpleEscape's: " \\ / b f n r t).
//
//go:noescape
func strMasks(b *[strBlock]byte) (quote, backslash, ctl, simple uint64)

// decodeBlocks decodes raw[i:] into out[o:] while 32 bytes of raw are left:
// a block with no backslash is copied whole (32 bytes stored, of which the
// output keeps those before the first backslash), and an escape tab
// decodes to a byte (simpleEscape) is written as that byte. It stops at any
// other escape ("\u", which appendEscape decodes) and returns where it
// stopped in out and raw, with the high bits of the bytes it read (nonzero:
// one was past ASCII). out must have room for 32 bytes at o while o-i
// stays where it started or below, as decoding never lengthens the text.
//
//go:noescape
func decodeBlocks(out, raw []byte, o, i int, tab *[256]byte) (o2, i2 int, high uint32)
