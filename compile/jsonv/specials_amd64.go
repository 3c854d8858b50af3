package jsonv

import "golang.org/x/sys/cpu"

// strBlock is the number of bytes specials looks at.
const strBlock = 64

// vectorStr reports whether str finds a string's special bytes with
// specials (AVX2). A variable, so that tests compare both ways in one run.
var vectorStr = cpu.X86.HasAVX2

// specials returns one bit per byte of b (bit k for b[k]) that is '"',
// '\\' or a control character (below 0x20): the bytes str stops at.
//
//go:noescape
func specials(b *[strBlock]byte) uint64
