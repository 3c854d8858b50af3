package body

import "golang.org/x/sys/cpu"

// lineBlock is the number of bytes lineMasks looks at.
const lineBlock = 64

// vectorLines reports whether lineEnds reads lineMasks (AVX2). A
// variable, so that tests compare both ways in one run.
var vectorLines = cpu.X86.HasAVX2

// lineMasks returns, for each byte of b (bit k for b[k]), whether it is a
// control character (below 0x20, or 0x7f) and whether it is a backtick.
//
//go:noescape
func lineMasks(b *[lineBlock]byte) (ctl, tick uint64)
