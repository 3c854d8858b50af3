package body

import (
	"strings"
	"testing"
)

// checkLineEnds walks s as readFast does (each line start after the last
// line's end) and asks every other offset too, in increasing order, with a
// lineEnds vectorised and one plain; each answer must be scanLineEnd's.
func checkLineEnds(t *testing.T, s string) {
	t.Helper()
	was := vectorLines
	defer func() { vectorLines = was }()
	for _, vec := range []bool{true, false} {
		vectorLines = vec
		walk, every := newLineEnds(s), newLineEnds(s)
		next := 0
		for p := 0; p <= len(s); p++ {
			we, wctl, wtick := scanLineEnd(s, p)
			if p == next {
				e, ctl, tick := walk.at(p)
				if e != we || ctl != wctl || tick != wtick {
					t.Fatalf("walking %q (vectorised %v): at(%d) = %d, %t, %t; want %d, %t, %t", s, vec, p, e, ctl, tick, we, wctl, wtick)
				}
				next = e + 1
			}
			if p%3 == 0 {
				e, ctl, tick := every.at(p)
				if e != we || ctl != wctl || tick != wtick {
					t.Fatalf("%q (vectorised %v): at(%d) = %d, %t, %t; want %d, %t, %t", s, vec, p, e, ctl, tick, we, wctl, wtick)
				}
			}
		}
		// Asked out of order, it still answers.
		back := newLineEnds(s)
		for _, p := range []int{len(s) / 2, 0, len(s)} {
			e, ctl, tick := back.at(p)
			if we, wctl, wtick := scanLineEnd(s, p); e != we || ctl != wctl || tick != wtick {
				t.Fatalf("%q (vectorised %v): out of order at(%d) = %d, %t, %t; want %d, %t, %t", s, vec, p, e, ctl, tick, we, wctl, wtick)
			}
		}
	}
}

// TestLineEnds: each byte value, and lines of every length, across the
// edges of one and two blocks.
func TestLineEnds(t *testing.T) {
	if !vectorLines {
		t.Skip("no vectorised line search on this machine (amd64 with AVX2 only)")
	}
	for c := 0; c < 256; c++ {
		for _, at := range []int{0, 31, 32, 63, 64, 65, 100} {
			b := []byte(strings.Repeat("abc `d`\n", 20))
			b[at] = byte(c)
			checkLineEnds(t, string(b))
		}
	}
	for n := 0; n <= 2*lineBlock+3; n++ {
		line := strings.Repeat("x", n)
		checkLineEnds(t, line+"\n"+line+"`\n"+line)
		checkLineEnds(t, "`"+line+"\r"+line+"\n")
	}
}

// TestLineMasks: lineMasks flags exactly what scanLineEnd stops at and
// the backticks.
func TestLineMasks(t *testing.T) {
	if !vectorLines {
		t.Skip("no vectorised line search on this machine (amd64 with AVX2 only)")
	}
	var b [lineBlock]byte
	for c := 0; c < 256; c++ {
		for k := range b {
			b[k] = 'a'
		}
		pos := uint64(1 | 1<<1 | 1<<31 | 1<<32 | 1<<33 | 1<<63)
		for _, k := range []int{0, 1, 31, 32, 33, 63} {
			b[k] = byte(c)
		}
		var wantCtl, wantTick uint64
		if c < 0x20 || c == 0x7f {
			wantCtl = pos
		}
		if c == '`' {
			wantTick = pos
		}
		if ctl, tick := lineMasks(&b); ctl != wantCtl || tick != wantTick {
			t.Fatalf("byte %#x: masks %#x, %#x; want %#x, %#x", c, ctl, tick, wantCtl, wantTick)
		}
	}
}
