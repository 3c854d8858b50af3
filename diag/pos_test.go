package diag

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLineCol(t *testing.T) {
	src := []byte("ab\nçd\n\nxyz")
	li := NewLineIndex(src)
	for _, c := range []struct{ off, line, col int }{
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {5, 2, 2}, {6, 2, 3}, {7, 3, 1}, {8, 4, 1}, {11, 4, 4}, {99, 4, 4},
	} {
		l, col := li.LineCol(c.off)
		if l != c.line || col != c.col {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.col)
		}
	}
	p := li.Span("f", 3, 6)
	if p != (Pos{File: "f", Line: 2, Col: 1, EndLine: 2, EndCol: 3}) {
		t.Errorf("Span = %+v", p)
	}
	if n := (Pos{File: "f", Line: 3}).Normalize(); n.Col != 1 || n.EndLine != 3 || n.EndCol != 1 {
		t.Errorf("Normalize = %+v", n)
	}
}

// naiveLineCol is the reference: count lines and code points from the start.
func naiveLineCol(src []byte, off int) (int, int) {
	off = max(0, min(off, len(src)))
	line, col := 1, 1
	for _, r := range string(src[:off]) {
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	// a partial rune at off counts like utf8.RuneCount does
	return line, col
}

func TestLineIndexMatchesNaiveAndResets(t *testing.T) {
	texts := []string{"", "\n", "a", "abcdefghij\nklmnopqrstuvwxyz0123\n", "é\nçà\n\nxyz ünï\r\nend", "\n\n\nlong ascii line of text\nÀ"}
	li := NewLineIndex(nil)
	for _, s := range texts {
		src := []byte(s)
		li.Reset(src)
		if want := 1 + len(bytesIndexAll(src)); li.Lines() != want {
			t.Errorf("%q: Lines = %d, want %d", s, li.Lines(), want)
		}
		for off := -1; off <= len(src)+1; off++ {
			l, c := li.LineCol(off)
			nl, nc := naiveLineCol(src, off)
			if l != nl || c != nc {
				t.Errorf("%q: LineCol(%d) = %d:%d, want %d:%d", s, off, l, c, nl, nc)
			}
			for end := off; end <= len(src)+1; end++ {
				p := li.Span("f", off, end)
				el, ec := naiveLineCol(src, max(off, end))
				if p.Line != l || p.Col != c || p.EndLine != el || p.EndCol != ec {
					t.Errorf("%q: Span(%d, %d) = %+v, want end %d:%d", s, off, end, p, el, ec)
				}
			}
		}
		fresh := NewLineIndex(src)
		for n := 0; n <= li.Lines()+1; n++ {
			if li.LineStart(n) != fresh.LineStart(n) {
				t.Errorf("%q: reused LineStart(%d) = %d, fresh %d", s, n, li.LineStart(n), fresh.LineStart(n))
			}
		}
	}
}

func bytesIndexAll(b []byte) []int {
	var r []int
	for i, c := range b {
		if c == '\n' {
			r = append(r, i)
		}
	}
	return r
}

// TestLineIndexConcurrent: the lazy build is safe for concurrent readers
// (run with -race).
func TestLineIndexConcurrent(t *testing.T) {
	src := []byte("one\ntwo\nthree\nfour")
	li := NewLineIndex(src)
	done := make(chan [2]int)
	for range 4 {
		go func() {
			l, c := li.LineCol(9)
			done <- [2]int{l, c}
		}()
	}
	for range 4 {
		if r := <-done; r != [2]int{3, 2} {
			t.Errorf("LineCol(9) = %v, want 3:2", r)
		}
	}
}

// TestLineIndexLongLines: columns inside a very long line (a compact
// single-line export) are exact, through the rune checkpoints.
func TestLineIndexLongLines(t *testing.T) {
	var b []byte
	for i := 0; len(b) < 200_000; i++ {
		b = append(b, `{"id":`...)
		b = append(b, byte('0'+i%10))
		b = append(b, `,"s":"§ é ✓ 𝄞 ascii"},`...)
	}
	b = append(b, '\n')
	b = append(b, "tail é"...)
	li := NewLineIndex(b)
	for _, off := range []int{0, 1, 4095, 4096, 4097, 5000, 99_999, 100_000, 150_001, len(b) - 8, len(b) - 1, len(b)} {
		for off < len(b) && b[off]&0xC0 == 0x80 {
			off++ // positions are at code point starts
		}
		nl, nc := naiveLineCol(b, off)
		if l, c := li.LineCol(off); l != nl || c != nc {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", off, l, c, nl, nc)
		}
	}
}

// BenchmarkLineColLongLine: a column query in a 10 MB single line costs the
// same as in a short one (compare ns/op with -bench).
func BenchmarkLineColLongLine(b *testing.B) {
	src := make([]byte, 10<<20)
	for i := range src {
		src[i] = 'a'
	}
	li := NewLineIndex(src)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		li.LineCol(len(src) - 1 - i%1000)
	}
}

// TestLineColCostIndependentOfLineLength: 1,000 column queries at the end of
// a 4 MB single line count a bounded number of bytes (the checkpoints, built
// once, plus at most two blocks per query), not 4 MB per query as counting
// from the line start did (quadratic for a compact single-line export).
func TestLineColCostIndependentOfLineLength(t *testing.T) {
	var n int64
	countedBytes = &n
	defer func() { countedBytes = nil }()
	src := []byte(strings.Repeat("é", 2<<20)) // 4 MB, one line
	li := NewLineIndex(src)
	for i := 0; i < 1000; i++ {
		li.LineCol(len(src) - 2*i)
	}
	if limit := int64(len(src)) + 1000*2*runeBlock; n > limit {
		t.Fatalf("1,000 queries counted %d bytes, more than %d", n, limit)
	}
}

// TestRuneCount: RuneCount counts as utf8.RuneCount does, invalid and cut
// sequences included, and allocates nothing.
func TestRuneCount(t *testing.T) {
	pieces := []string{"a", "é", "漢", "😀", "\xff", "\xe6\x97", "\xf0\x9f", "\r\n", " "}
	r := rand.New(rand.NewPCG(5, 8))
	for range 2000 {
		var b []byte
		for range r.IntN(60) {
			b = append(b, pieces[r.IntN(len(pieces))]...)
		}
		if got, want := RuneCount(b), utf8.RuneCount(b); got != want {
			t.Fatalf("RuneCount(%q) = %d, want %d", b, got, want)
		}
	}
	long := []byte(strings.Repeat("é and ascii ", 50))
	if n := testing.AllocsPerRun(10, func() { RuneCount(long) }); n != 0 {
		t.Errorf("RuneCount allocates %v times", n)
	}
}

// runeStartsPlain is runeStarts a byte at a time: the plain form
// TestRuneStarts and FuzzRuneStarts hold it to.
func runeStartsPlain(b []byte) int {
	n := 0
	for _, c := range b {
		if c&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// TestRuneStarts: runeStarts, eight bytes at a time, counts as the plain
// loop does — every byte value at every place of a word and in the tail,
// beside every kind of neighbour — and as utf8.RuneCount on valid UTF-8.
func TestRuneStarts(t *testing.T) {
	for _, fill := range []byte{'a', 0x80, 0xBF, 0xC0, 0xE6, 0xFF, 0x00, 0x40} {
		for at := 0; at < 19; at++ {
			for c := 0; c < 256; c++ {
				b := bytes.Repeat([]byte{fill}, 19)
				b[at] = byte(c)
				for _, n := range []int{at + 1, 19} {
					if got, want := runeStarts(b[:n]), runeStartsPlain(b[:n]); got != want {
						t.Fatalf("runeStarts(%q) = %d, want %d", b[:n], got, want)
					}
				}
			}
		}
	}
	valid := []byte(strings.Repeat("a é 漢 😀 ", 40))
	if got, want := runeStarts(valid), utf8.RuneCount(valid); got != want {
		t.Errorf("runeStarts of valid UTF-8 = %d, utf8.RuneCount %d", got, want)
	}
}

func FuzzRuneStarts(f *testing.F) {
	f.Add([]byte("a é 漢 😀 \xff\xe6\x97 ascii tail"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := runeStarts(b), runeStartsPlain(b); got != want {
			t.Fatalf("runeStarts(%q) = %d, want %d", b, got, want)
		}
	})
}
