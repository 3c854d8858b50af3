// Positions: byte offsets in input files mapped to line and column.
//
// Columns are 1-based and counted in Unicode code points, which is the column
// kind brenner-ci declares in SARIF (unicodeCodePoints).

package diag

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Pos is a region in an input file. Lines and columns are 1-based; EndCol is
// the column just after the last character (SARIF convention). A zero Line
// means "no position inside the file" (the file as a whole).
type Pos struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"column"`
	EndLine int    `json:"end_line"`
	EndCol  int    `json:"end_column"`
}

// Where is p as text places are written: file:line:col (column 1 when
// unknown), or the file alone when p names no line.
func (p Pos) Where() string {
	if p.Line <= 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, max(p.Col, 1))
}

// Valid reports whether p names a line.
func (p Pos) Valid() bool { return p.Line > 0 }

// Normalize fills in missing columns and end positions so that the region is
// complete: a bare line becomes column 1 of that line, and an empty end equals
// the start.
func (p Pos) Normalize() Pos {
	if p.Line <= 0 {
		return p
	}
	if p.Col <= 0 {
		p.Col = 1
	}
	if p.EndLine < p.Line {
		p.EndLine = p.Line
		p.EndCol = p.Col
	}
	if p.EndLine == p.Line && p.EndCol < p.Col {
		p.EndCol = p.Col
	}
	return p
}

// LineIndex converts byte offsets of one text into line/column positions.
// The table of line starts is built on first use, so an index that is never
// asked costs nothing, and Reset lets one index (and its table's memory) serve
// many texts in turn. Columns on ASCII lines are computed without decoding.
// A LineIndex is safe for concurrent use by readers once created or reset.
type LineIndex struct {
	src    []byte
	starts []int // byte offset of the first byte of each line; valid when built
	built  atomic.Bool
	mu     sync.Mutex
	// runes[k] counts the code points that start in src[:k*runeBlock];
	// built on the first column query inside a long line, so that a
	// column costs O(log n + runeBlock) whatever the line length.
	runes      []int32
	runesBuilt atomic.Bool
}

// runeBlock is the distance between rune checkpoints (4 bytes each, 1.6%
// of the text): a column query inside a long line counts at most this
// many bytes past its checkpoint. A minified export of 40,000 messages (one
// line of 14 MB) makes a few column queries per message; with blocks of
// 1,024 bytes counted a byte at a time they were 6% of its check's
// instructions (docs/performance.md, thirty-third round).
const runeBlock = 256

// longLine is the length past which a column is counted through the
// checkpoints rather than from the line's start. Building them reads the
// whole text once, which a line of a few hundred bytes does not repay.
const longLine = 4096

// NewLineIndex indexes src. It keeps a reference to src.
func NewLineIndex(src []byte) *LineIndex { return &LineIndex{src: src} }

// Reset makes li index src instead, keeping its memory. It must not run
// concurrently with other methods.
func (li *LineIndex) Reset(src []byte) {
	li.src = src
	li.starts = li.starts[:0]
	li.built.Store(false)
	li.runes = li.runes[:0]
	li.runesBuilt.Store(false)
}

// buildRunes computes the rune checkpoints.
func (li *LineIndex) buildRunes() {
	if li.runesBuilt.Load() {
		return
	}
	li.mu.Lock()
	defer li.mu.Unlock()
	if li.runesBuilt.Load() {
		return
	}
	src := li.src
	runes := append(li.runes[:0], 0)
	n := int32(0)
	for k := runeBlock; k <= len(src); k += runeBlock {
		n += int32(runeStarts(src[k-runeBlock : k]))
		runes = append(runes, n)
	}
	li.runes = runes
	li.runesBuilt.Store(true)
}

// countedBytes, when non-nil (tests), accumulates how many bytes column
// queries count, to show that the cost does not grow with line length.
var countedBytes *int64

// runeStarts counts the bytes of b that start a code point (every byte
// that is not a UTF-8 continuation byte): utf8.RuneCount for valid UTF-8.
func runeStarts(b []byte) int {
	if countedBytes != nil {
		*countedBytes += int64(len(b))
	}
	n := len(b)
	for ; len(b) >= 8; b = b[8:] {
		// A continuation byte has its top bit set and the next one clear:
		// x<<1 brings each byte's second bit to its top.
		x := binary.LittleEndian.Uint64(b)
		n -= bits.OnesCount64(x &^ (x << 1) & 0x8080808080808080)
	}
	for _, c := range b {
		if c&0xC0 == 0x80 {
			n--
		}
	}
	return n
}

// runesBefore counts the code points that start in src[:off].
func (li *LineIndex) runesBefore(off int) int {
	k := off / runeBlock
	return int(li.runes[k]) + runeStarts(li.src[k*runeBlock:off])
}

func (li *LineIndex) build() {
	if li.built.Load() {
		return
	}
	li.mu.Lock()
	defer li.mu.Unlock()
	if li.built.Load() {
		return
	}
	starts := append(li.starts[:0], 0)
	src := li.src
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	li.starts = starts
	li.built.Store(true)
}

// Lines returns the number of lines.
func (li *LineIndex) Lines() int {
	li.build()
	return len(li.starts)
}

// line returns the 0-based line that holds byte offset off (0 <= off <= len(src)).
func (li *LineIndex) line(off int) int {
	starts := li.starts
	lo, hi := 0, len(starts) // first i with starts[i] > off is in [lo, hi]
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if starts[m] <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return 0
	}
	return lo - 1
}

// LineCol returns the 1-based line and code-point column of byte offset off.
// Offsets past the end clamp to the end of the text.
func (li *LineIndex) LineCol(off int) (line, col int) {
	li.build()
	if off < 0 {
		off = 0
	}
	if off > len(li.src) {
		off = len(li.src)
	}
	i := li.line(off)
	seg := li.src[li.starts[i]:off]
	if len(seg) > longLine {
		// A long line (a compact single-line export): count through the
		// checkpoints instead of from the line start.
		li.buildRunes()
		return i + 1, li.runesBefore(off) - li.runesBefore(li.starts[i]) + 1
	}
	if countedBytes != nil {
		*countedBytes += int64(len(seg))
	}
	if isASCII(seg) {
		return i + 1, len(seg) + 1
	}
	return i + 1, RuneCount(seg) + 1
}

// RuneCount counts the code points of b as utf8.RuneCount does (an
// invalid byte counts as one), without the copy utf8.RuneCount makes of
// any text past ASCII (it counts a string conversion of it): columns are
// counted on every line of a report's regions.
func RuneCount(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		switch {
		case i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 == 0:
			i, n = i+8, n+8 // eight ASCII bytes
		case b[i] < utf8.RuneSelf:
			i, n = i+1, n+1
		default:
			_, size := utf8.DecodeRune(b[i:])
			i, n = i+size, n+1
		}
	}
	return n
}

func isASCII(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// LineStart returns the byte offset where 1-based line n starts.
func (li *LineIndex) LineStart(n int) int {
	li.build()
	if n < 1 {
		return 0
	}
	if n > len(li.starts) {
		return len(li.src)
	}
	return li.starts[n-1]
}

// Span returns the region covering bytes [start, end) in file.
func (li *LineIndex) Span(file string, start, end int) Pos {
	l, c := li.LineCol(start)
	if end < start {
		end = start
	}
	if end > len(li.src) {
		end = len(li.src)
	}
	// Most spans are short ASCII text on one line: count the end from the start.
	if start >= 0 && start <= end {
		if seg := li.src[start:end]; bytes.IndexByte(seg, '\n') < 0 && isASCII(seg) {
			return Pos{File: file, Line: l, Col: c, EndLine: l, EndCol: c + len(seg)}
		}
	}
	el, ec := li.LineCol(end)
	return Pos{File: file, Line: l, Col: c, EndLine: el, EndCol: ec}
}
