package artifact

import (
	"bytes"
	"strings"

	mdbody "github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/diag"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	gmtext "github.com/yuin/goldmark/text"
)

// The markdown is read in two layers. goldmark (one parse of the body, after
// the front matter) decides the block structure: which lines are top-level
// headings, tables, code blocks, HTML blocks, block quotes and thematic
// breaks. Fields are then read line by line from the source bytes, so that a
// value is exactly the text after its label (goldmark would turn "a * b" or
// "[x](y)" into inline nodes, and merges "**Label**: value" lines and list
// items into lazy paragraphs).

// Line kinds.
const (
	lnText    = iota // paragraph or list text (where fields live)
	lnBlank          // empty or white space only
	lnHeading        // a top-level heading line (ATX, or a setext heading's lines)
	lnTable          // a line of a top-level table
	lnOpaque         // code block, HTML block, thematic break (skipped)
	lnQuote          // a line of a top-level block quote
)

// line is one source line.
type line struct {
	start, end int // byte range without the line terminator ("\n" or "\r\n")
	next       int // start of the next line (len(src) for the last one)
	kind       int
}

// heading is a top-level heading.
type heading struct {
	level    int
	l0, l1   int    // first and last line index (l1 > l0 for a setext heading)
	raw      string // the heading text as written (markers and closing #s removed)
	rawStart int    // byte offset of raw in src
	plain    string // goldmark's plain text (emphasis markup removed)
}

// table is a top-level table.
type table struct {
	l0, l1 int // first (header) and last line index
	header []tcell
	rows   []int // line index of each body row
}

// tcell is one table cell.
type tcell struct {
	text       string // trimmed, with "\|" unescaped
	start, end int    // byte range of the trimmed cell text as written
}

// doc is the block structure of an artifact.
type doc struct {
	src      []byte
	lines    []line
	headings []heading
	tables   []table
	bodyLine int // index of the first line after the front matter
}

// splitLines indexes the lines of src.
func splitLines(src []byte) []line {
	n := bytes.Count(src, []byte{'\n'}) + 1
	out := make([]line, 0, n)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			e := len(src)
			if e > i && src[e-1] == '\r' {
				e--
			}
			out = append(out, line{start: i, end: e, next: len(src)})
			break
		}
		e := i + j
		if e > i && src[e-1] == '\r' {
			e--
		}
		out = append(out, line{start: i, end: e, next: i + j + 1})
		i += j + 1
	}
	for k := range out {
		if isBlank(src[out[k].start:out[k].end]) {
			out[k].kind = lnBlank
		}
	}
	return out
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\v' && c != '\f' && c != '\r' {
			return false
		}
	}
	return true
}

// lineAt returns the index of the line holding byte offset off.
func (d *doc) lineAt(off int) int {
	lo, hi := 0, len(d.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if d.lines[mid].start <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

func (d *doc) text(i int) string { return string(d.src[d.lines[i].start:d.lines[i].end]) }

// scanBlocks parses src[base:] with goldmark and classifies d's lines.
func (d *doc) scanBlocks(base int) {
	src := d.src
	d.bodyLine = d.lineAt(base)
	if base >= len(src) {
		return
	}
	rest := src[base:]
	root := mdbody.Parser().Parse(gmtext.NewReader(rest), parser.WithContext(parser.NewContext()))
	type blk struct {
		n     ast.Node
		start int // line index
	}
	var blocks []blk
	for c := root.FirstChild(); c != nil; c = c.NextSibling() {
		p := blockPos(c)
		if p < 0 {
			continue
		}
		if p > len(rest) {
			p = len(rest)
		}
		blocks = append(blocks, blk{c, d.lineAt(base + p)})
	}
	for i, b := range blocks {
		// A block runs to the line before the next block, less trailing blanks.
		last := len(d.lines) - 1
		if i+1 < len(blocks) {
			last = blocks[i+1].start - 1
		}
		for last > b.start && d.lines[last].kind == lnBlank {
			last--
		}
		if last < b.start {
			last = b.start
		}
		switch x := b.n.(type) {
		case *ast.Heading:
			d.addHeading(x, rest, base, b.start, last)
		case *east.Table:
			d.addTable(x, base, b.start, last)
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *ast.ThematicBreak:
			d.mark(b.start, last, lnOpaque)
		case *ast.Blockquote:
			d.mark(b.start, last, lnQuote)
		}
	}
}

// blockPos returns the byte offset (in the parsed body) where a top-level
// block starts, or -1.
func blockPos(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	if n.Type() == ast.TypeBlock {
		if l := n.Lines(); l != nil && l.Len() > 0 {
			return l.At(0).Start
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if p := blockPos(c); p >= 0 {
			return p
		}
	}
	return -1
}

func (d *doc) mark(l0, l1, kind int) {
	for i := l0; i <= l1 && i < len(d.lines); i++ {
		if d.lines[i].kind != lnBlank || kind == lnOpaque {
			d.lines[i].kind = kind
		}
	}
}

func (d *doc) addHeading(x *ast.Heading, body []byte, base, l0, last int) {
	h := heading{level: x.Level, l0: l0, l1: l0}
	var sb strings.Builder
	mdbody.PlainText(x, body, &sb)
	h.plain = diag.CollapseSpace(sb.String())
	ln := d.lines[l0]
	s := d.src[ln.start:ln.end]
	i := 0
	for i < len(s) && i < 3 && s[i] == ' ' {
		i++
	}
	j := i
	for j < len(s) && s[j] == '#' {
		j++
	}
	if j > i && j-i <= 6 && (j == len(s) || s[j] == ' ' || s[j] == '\t') {
		// ATX: the text after the opening sequence. A closing sequence of
		// #s is kept: render.go writes names as they are, so "Foo ##" is a
		// name (goldmark's plain text, used to match section titles, drops it).
		t := s[j:]
		lead := 0
		for lead < len(t) && (t[lead] == ' ' || t[lead] == '\t') {
			lead++
		}
		h.raw = strings.TrimRight(string(t[lead:]), " \t")
		h.rawStart = ln.start + j + lead
	} else {
		// Setext: the paragraph lines, then the underline.
		h.l1 = last
		var parts []string
		for k := l0; k < last; k++ {
			parts = append(parts, strings.TrimSpace(d.text(k)))
		}
		h.raw = strings.Join(parts, " ")
		h.rawStart = ln.start + i
	}
	d.headings = append(d.headings, h)
	d.mark(h.l0, h.l1, lnHeading)
}

func (d *doc) addTable(x *east.Table, base, l0, last int) {
	t := table{l0: l0, l1: l0}
	for r := x.FirstChild(); r != nil; r = r.NextSibling() {
		p := r.Pos()
		if p < 0 {
			continue
		}
		li := d.lineAt(base + p)
		if _, ok := r.(*east.TableHeader); ok {
			t.l0 = li
			continue
		}
		if li > t.l0+1 && (len(t.rows) == 0 || li > t.rows[len(t.rows)-1]) {
			t.rows = append(t.rows, li)
		}
	}
	t.l1 = t.l0 + 1
	if n := len(t.rows); n > 0 {
		t.l1 = t.rows[n-1]
	}
	if t.l1 >= len(d.lines) {
		t.l1 = len(d.lines) - 1
	}
	t.header = d.cells(t.l0)
	d.tables = append(d.tables, t)
	d.mark(t.l0, t.l1, lnTable)
}

// cells splits a table row line into cells: unescaped pipes separate them,
// "\|" is a pipe inside a cell.
func (d *doc) cells(li int) []tcell {
	ln := d.lines[li]
	s := d.src[ln.start:ln.end]
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i < len(s) && s[i] == '|' {
		i++
	}
	var out []tcell
	var sb strings.Builder
	cs := i
	flush := func(end int) {
		a, b := cs, end
		for a < b && (s[a] == ' ' || s[a] == '\t') {
			a++
		}
		for b > a && (s[b-1] == ' ' || s[b-1] == '\t') {
			b--
		}
		out = append(out, tcell{text: strings.TrimSpace(sb.String()), start: ln.start + a, end: ln.start + b})
		sb.Reset()
	}
	for i < len(s) {
		c := s[i]
		if c == '\\' && i+1 < len(s) && s[i+1] == '|' {
			sb.WriteByte('|')
			i += 2
			continue
		}
		if c == '|' {
			flush(i)
			i++
			cs = i
			continue
		}
		sb.WriteByte(c)
		i++
	}
	if strings.TrimSpace(sb.String()) != "" || cs < len(s) && len(out) == 0 {
		flush(len(s))
	}
	return out
}
