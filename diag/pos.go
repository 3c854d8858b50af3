// Positions: byte offsets in input files mapped to line and column.
//
// Columns are 1-based and counted in Unicode code points, which is the column
// kind brenner-ci declares in SARIF (unicodeCodePoints).

package diag

import (
	"sort"
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
type LineIndex struct {
	src    []byte
	starts []int // byte offset of the first byte of each line
}

// NewLineIndex indexes src. It keeps a reference to src.
func NewLineIndex(src []byte) *LineIndex {
	starts := make([]int, 1, 64)
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &LineIndex{src: src, starts: starts}
}

// Lines returns the number of lines.
func (li *LineIndex) Lines() int { return len(li.starts) }

// LineCol returns the 1-based line and code-point column of byte offset off.
// Offsets past the end clamp to the end of the text.
func (li *LineIndex) LineCol(off int) (line, col int) {
	if off < 0 {
		off = 0
	}
	if off > len(li.src) {
		off = len(li.src)
	}
	i := sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, utf8.RuneCount(li.src[li.starts[i]:off]) + 1
}

// LineStart returns the byte offset where 1-based line n starts.
func (li *LineIndex) LineStart(n int) int {
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
	el, ec := li.LineCol(end)
	return Pos{File: file, Line: l, Col: c, EndLine: el, EndCol: ec}
}
