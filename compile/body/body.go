// Package body parses a message body or artifact once with goldmark
// (CommonMark) and keeps what compile and the rules need: headings with their
// sections, fenced code blocks (and upstream's :::delta blocks) and HTML
// comments, all positioned by byte offsets into the body.
package body

import (
	"bytes"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Doc is a parsed markdown body.
type Doc struct {
	Src      string
	Headings []Heading // in document order
	Fences   []Fence   // fenced code blocks (any container depth) and :::delta blocks, in document order
	Comments []Comment // HTML comments (block or inline), in document order

	// code holds the byte ranges of every code block (fenced, indented and
	// :::delta) and code span, sorted by start; see InCode.
	code    []span
	codeMax []int // codeMax[i] is the largest end among code[:i+1]
}

// Heading is an ATX or setext heading.
type Heading struct {
	Level      int
	Text       string // plain text, trimmed
	Start, End int    // byte range of the heading line(s)
	// SectionEnd is the offset where the heading's section ends: the start of
	// the next heading of the same or a higher level, or len(Src).
	SectionEnd int
	// Nested is true for a heading inside a block quote or a list item. The
	// section of a top-level heading is ended by top-level headings only.
	Nested bool
	// Setext is true for an underlined (=== / ---) heading.
	Setext bool
}

// Fence is a fenced block.
type Fence struct {
	Char         byte   // '`', '~', or ':' for a :::delta block
	Info         string // info string as written, trimmed
	Lang         string // first word of Info
	Content      string // the block's content (without the fence lines)
	Start, End   int    // byte range of the whole block, fences included
	ContentStart int    // byte offset where Content starts
	Closed       bool   // false when the block runs to the end of its container

	// FenceLen is the number of fence characters of the opening fence.
	FenceLen int
	// InfoStart and InfoEnd are the byte range of Info in the body; both are
	// just after the opening fence characters when there is no info string.
	InfoStart, InfoEnd int
	// Nested is true for a fence inside a block quote or a list item.
	Nested bool
	// Segs, when not nil, says where Content comes from: Content is the
	// concatenation of, for each segment, Padding spaces (an expanded tab)
	// followed by Src[Start:Stop]. It is nil when Content is exactly
	// Src[ContentStart:ContentStart+len(Content)], which is the case for every
	// fence that is not inside a block quote or list item. Use BodyOffset.
	Segs []Seg
}

// Seg is a piece of a fence's content in the source: Padding spaces, then
// the bytes Start..Stop.
type Seg struct {
	Start, Stop, Padding int
}

// BodyOffset maps a byte offset in Content to a byte offset in the body.
// Offsets inside an expanded tab map to the tab; offsets at or past the end
// of Content map to the end of the content.
func (f *Fence) BodyOffset(off int) int {
	if off < 0 {
		off = 0
	}
	if f.Segs == nil {
		if off > len(f.Content) {
			off = len(f.Content)
		}
		return f.ContentStart + off
	}
	pos := 0
	for _, s := range f.Segs {
		n := s.Padding + s.Stop - s.Start
		if off < pos+n {
			in := off - pos - s.Padding
			if in < 0 {
				in = 0
			}
			return s.Start + in
		}
		pos += n
	}
	if len(f.Segs) == 0 {
		return f.ContentStart
	}
	return f.Segs[len(f.Segs)-1].Stop
}

// Comment is an HTML comment <!-- … -->.
type Comment struct {
	Text       string // inner text, trimmed
	Start, End int
}

type span struct{ start, end int }

// md is brenner-ci's one goldmark set-up (CommonMark plus GFM tables and
// strikethrough), used for message bodies here and for persisted artifacts
// (compile/artifact) through Parser. It is shared: goldmark's parser keeps
// no per-document state outside the parser.Context each parse creates, so
// one instance serves every goroutine.
var md = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))

// lean is the parser for message bodies: CommonMark blocks with only the
// inline parsers whose nodes a Doc records (code spans; raw HTML, for
// comments; autolinks, which take precedence over code spans). Emphasis,
// links, images and strikethrough build nodes nobody reads — in a body,
// only headings need their text, and headingText gives them the full
// parser — and cost a quarter of compile's allocations. GFM tables are
// kept (tables, for paragraphs that could hold one): a paragraph that
// becomes a table is not a setext heading's text. Block structure is the
// same as md's, so headings, fences and HTML blocks are found identically;
// code spans differ only where a link destination or title holds
// backticks.
var lean = newLean(true, true)

// outline is lean without inline parsers, for bodies whose code spans
// nobody reads (see ParseOutline).
var outline = newLean(true, false)

// newLean builds the lean parser; without plain, every paragraph is parsed
// for inlines (tests compare the two); without inlines, no inline parser
// is set up at all.
func newLean(plain, inlines bool) parser.Parser {
	pts := []util.PrioritizedValue{util.Prioritized(linkRefs{}, 100), util.Prioritized(tables{}, 200)}
	if plain {
		pts = append(pts, util.Prioritized(plainParagraphs{}, 1000))
	}
	var ips []util.PrioritizedValue
	if inlines {
		ips = []util.PrioritizedValue{
			util.Prioritized(parser.NewCodeSpanParser(), 100),
			util.Prioritized(parser.NewAutoLinkParser(), 300),
			util.Prioritized(parser.NewRawHTMLParser(), 400),
		}
	}
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(ips...),
		parser.WithParagraphTransformers(pts...),
		parser.WithASTTransformers(util.Prioritized(extension.NewTableASTTransformer(), 0)),
	)
}

// tables is the GFM table transformer (md's, at md's priority), called only
// for a paragraph with a line after its first that could be a delimiter
// row: "|", ":", "-" and blanks, with a "-". A table is not what a Doc
// records, but it changes the block structure around it: a paragraph that
// becomes a table is not the text of a setext heading ("0\n:-\n-" is a table
// and an empty list item, not a heading).
type tables struct{}

func (tables) Transform(p *ast.Paragraph, reader text.Reader, pc parser.Context) {
	if anyLine(p, reader.Source(), 1, delimiterRow) {
		extension.NewTableParagraphTransformer().Transform(p, reader, pc)
	}
}

// anyLine reports whether f holds for one of p's lines from the one at
// index from.
func anyLine(p *ast.Paragraph, src []byte, from int, f func([]byte) bool) bool {
	lines := p.Lines()
	for i := from; i < lines.Len(); i++ {
		seg := lines.At(i)
		if f(seg.Value(src)) {
			return true
		}
	}
	return false
}

// delimiterRow reports whether a line could be a table's delimiter row: it
// holds a "-" and nothing but "|", ":", "-" and white space.
func delimiterRow(line []byte) bool {
	dash := false
	for _, c := range line {
		switch c {
		case '-':
			dash = true
		case '|', ':', ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return dash
}

// linkRefs is goldmark's link reference definition transformer, called
// only for a paragraph whose first non-space byte is "[": goldmark skips
// the same white space and gives up on any other byte, and calling it set
// up a reader for every paragraph of every body.
type linkRefs struct{}

func (linkRefs) Transform(p *ast.Paragraph, reader text.Reader, pc parser.Context) {
	lines := p.Lines()
	src := reader.Source()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		for _, c := range seg.Value(src) {
			if !util.IsSpace(c) {
				if c == '[' {
					parser.LinkReferenceParagraphTransformer.Transform(p, reader, pc)
				}
				return
			}
		}
	}
	parser.LinkReferenceParagraphTransformer.Transform(p, reader, pc)
}

// plainParagraphs is the lean parser's last paragraph transformer: a
// closed paragraph whose lines hold no "`" and no "<" can only give text
// nodes, which a Doc does not record (no code span, autolink or comment can
// start without one of them), so it is replaced by a raw block, which
// goldmark does not parse for inlines. Most of a message body is such
// paragraphs. Link reference definitions have been taken out before
// (linkRefs runs first: headings need them for their text). A paragraph closed
// because a setext underline follows it is kept: goldmark turns it into the
// heading's lines and reads a removed paragraph as "no heading".
type plainParagraphs struct{}

func (plainParagraphs) Transform(p *ast.Paragraph, reader text.Reader, _ parser.Context) {
	if anyLine(p, reader.Source(), 0, opensRecorded) {
		return
	}
	if line, _ := reader.PeekLine(); setextBar(line) {
		return
	}
	parent := p.Parent()
	if parent == nil {
		return
	}
	raw := &rawBlock{}
	raw.SetLines(p.Lines())
	raw.SetBlankPreviousLines(p.HasBlankPreviousLines())
	raw.SetPos(p.Pos())
	parent.ReplaceChild(parent, p, raw)
}

// opensRecorded reports whether a line holds a "`" or a "<", without which
// no code span, autolink or comment can start.
func opensRecorded(line []byte) bool {
	return bytes.IndexByte(line, '`') >= 0 || bytes.IndexByte(line, '<') >= 0
}

// setextBar reports whether line could underline a setext heading: after
// blanks and block-quote markers, a run of "=" or of "-" and blanks only.
// It is looser than CommonMark's rule (a miss only keeps a paragraph).
func setextBar(line []byte) bool {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '>') {
		i++
	}
	if i == len(line) || (line[i] != '=' && line[i] != '-') {
		return false
	}
	c := line[i]
	for ; i < len(line); i++ {
		if b := line[i]; b != c && b != ' ' && b != '\t' && b != '\r' && b != '\n' {
			return false
		}
	}
	return true
}

// rawBlock is a paragraph left unparsed by plainParagraphs.
type rawBlock struct{ ast.BaseBlock }

var kindRawBlock = ast.NewNodeKind("BrennerPlainParagraph")

func (n *rawBlock) Kind() ast.NodeKind         { return kindRawBlock }
func (n *rawBlock) IsRaw() bool                { return true }
func (n *rawBlock) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// Parser returns the shared goldmark parser.
func Parser() parser.Parser { return md.Parser() }

// Parse parses a message body. Offsets in the result are byte offsets into
// src. A body of the commonest kind — headings, paragraphs, simple list and
// quote lines and top-level fences, no backtick outside the fences, no
// comment — is read in one pass over its lines (fastDoc); goldmark parses
// every other.
//
// A ":::" line (upstream's delta blocks) is never one fastDoc reads, so only
// a comment, which can sit inside a paragraph, is looked for first.
func Parse(src string) *Doc {
	if !strings.Contains(src, "<!--") {
		if d, ok := fastDoc(src, true); ok {
			return d
		}
	}
	return parseAt(src, 0)
}

// ParseOutline parses a body whose code spans nobody reads (a message that
// is not a DELTA: only the delta extraction asks InCode): its headings,
// fences and comments are Parse's, but InCode knows only code blocks.
// Without a "<!--" (a comment inside a paragraph is inline HTML) or a ":::"
// (upstream's delta blocks are found outside code spans) in the body, no
// inline parser is needed: a heading that holds one of the characters that
// open an inline construct gets its text from the full parser.
func ParseOutline(src string) *Doc {
	comment := strings.Contains(src, "<!--")
	if !comment {
		if d, ok := fastOutline(src); ok {
			return d
		}
	}
	return outlineSlow(src, comment)
}

// outlineSlow is ParseOutline of a body the one-pass reader declined
// (comment: it holds a "<!--").
func outlineSlow(src string, comment bool) *Doc {
	if comment || strings.Contains(src, ":::") {
		return Parse(src)
	}
	return parseWith(outline, src, 0)
}

// ParseFile parses a markdown file that may start with a YAML front matter
// block ("---" line, YAML, "---" or "..." line). The front matter is not
// parsed as markdown (goldmark would read it as a thematic break and a setext
// heading); front is its YAML text, src[frontStart:frontEnd]. Without front
// matter front is "" and frontStart = frontEnd = -1. All offsets in d are
// relative to the whole src.
func ParseFile(src string) (front string, frontStart, frontEnd int, d *Doc) {
	fs, fe, bodyStart, ok := FrontMatter(src)
	if !ok {
		return "", -1, -1, Parse(src)
	}
	return src[fs:fe], fs, fe, parseAt(src, bodyStart)
}

// FrontMatter finds a YAML front matter block at the very start of src (after
// an optional UTF-8 byte order mark): a line "---", then the YAML, then a line
// "---" or "...". It returns the YAML's byte range and the offset where the
// markdown after the block starts.
func FrontMatter(src string) (start, end, bodyStart int, ok bool) {
	i := 0
	if strings.HasPrefix(src, "\ufeff") {
		i = 3
	}
	first, next := lineAt(src, i)
	if strings.TrimRight(first, " \t\r") != "---" || next < 0 {
		return 0, 0, 0, false
	}
	start = next
	for p := next; p >= 0 && p < len(src); {
		line, n := lineAt(src, p)
		if t := strings.TrimRight(line, " \t\r"); t == "---" || t == "..." {
			if n < 0 {
				n = len(src)
			}
			return start, p, n, true
		}
		p = n
	}
	return 0, 0, 0, false
}

// firstWord is an info string's first word (a fence's language): up to
// its first space or tab.
func firstWord(info string) string {
	if k := strings.IndexAny(info, " \t"); k >= 0 {
		return info[:k]
	}
	return info
}

// lineAt returns the line starting at i (without its "\n") and the offset of
// the next line, or -1 when the line is the last one.
func lineAt(s string, i int) (string, int) {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return s[i : i+j], i + j + 1
	}
	return s[i:], -1
}

// parseAt parses src[base:] and positions everything relative to src.
func parseAt(src string, base int) *Doc {
	return parseWith(lean, src, base)
}

// parseWith parses with p (lean; md in tests, to compare).
func parseWith(p parser.Parser, src string, base int) *Doc {
	// goldmark only reads its source (segments are offsets into it), so it
	// is given the string's bytes rather than a copy of every body.
	str := src[base:]
	b := unsafe.Slice(unsafe.StringData(str), len(str))
	pc := parser.NewContext()
	root := p.Parse(text.NewReader(b), parser.WithContext(pc))
	w := &walker{src: b, str: src[base:], base: base, d: &Doc{Src: src}, pc: pc, opener: &inlineOpener}
	if p == outline {
		w.opener = &outlineOpener
	}
	_ = ast.Walk(root, w.visit)
	w.finish()
	return w.d
}

type walker struct {
	src    []byte
	str    string // the same bytes as src, for substrings without copies
	base   int
	d      *Doc
	depth  int // block quotes and list items around the current node
	fences []*ast.FencedCodeBlock
	nested []bool
	pc     parser.Context // the document's (link reference definitions)
	// opener marks the characters after which a heading's text needs the
	// full parser: inlineOpener, or outlineOpener without inline parsers.
	opener *[256]bool
}

func (w *walker) visit(n ast.Node, entering bool) (ast.WalkStatus, error) {
	switch x := n.(type) {
	case *ast.Blockquote, *ast.ListItem:
		if entering {
			w.depth++
		} else {
			w.depth--
		}
	case *ast.Heading:
		if entering {
			w.heading(x)
		}
	case *ast.FencedCodeBlock:
		if entering {
			w.fences = append(w.fences, x)
			w.nested = append(w.nested, w.depth > 0)
		}
		return ast.WalkSkipChildren, nil
	case *ast.CodeBlock:
		if entering {
			if l := x.Lines(); l.Len() > 0 {
				w.d.code = append(w.d.code, span{w.base + l.At(0).Start, w.base + l.At(l.Len()-1).Stop})
			}
		}
		return ast.WalkSkipChildren, nil
	case *ast.CodeSpan:
		if entering {
			w.codeSpan(x)
		}
		return ast.WalkSkipChildren, nil
	case *ast.HTMLBlock:
		if entering {
			segs := make([]text.Segment, 0, x.Lines().Len()+1)
			for i := 0; i < x.Lines().Len(); i++ {
				segs = append(segs, x.Lines().At(i))
			}
			if x.HasClosure() {
				segs = append(segs, x.ClosureLine)
			}
			w.comments(segs, false)
		}
		return ast.WalkSkipChildren, nil
	case *ast.RawHTML:
		if entering && x.Segments.Len() > 0 {
			segs := make([]text.Segment, x.Segments.Len())
			for i := range segs {
				segs[i] = x.Segments.At(i)
			}
			w.comments(segs, true)
		}
		return ast.WalkSkipChildren, nil
	}
	return ast.WalkContinue, nil
}

// codeSpan records the range of an inline code span, backticks included.
func (w *walker) codeSpan(x *ast.CodeSpan) {
	pos := x.Pos()
	if pos < 0 {
		return
	}
	src := w.src
	n := 0
	for pos+n < len(src) && src[pos+n] == '`' {
		n++
	}
	end := pos + n
	for c := x.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok && t.Segment.Stop > end {
			end = t.Segment.Stop
		}
	}
	for end < len(src) && src[end] != '`' {
		end++
	}
	k := 0
	for end+k < len(src) && src[end+k] == '`' && k < n {
		k++
	}
	w.d.code = append(w.d.code, span{w.base + pos, w.base + end + k})
}

func (w *walker) heading(x *ast.Heading) {
	src := w.src
	lines := x.Lines()
	// goldmark's Pos is off when a container prefix holds a tab, so the
	// heading line is re-read from the source.
	ref := clampPos(x.Pos(), len(src))
	if lines.Len() > 0 {
		ref = lines.At(0).Start
	}
	m := skipContainer(src, lineStart(src, ref))
	if lines.Len() == 0 {
		// An empty ATX heading: goldmark's Pos is off by up to 3 bytes when
		// a tab is in the container prefix, possibly past the end of the
		// heading's line. Prefer the previous line when it is such a line
		// and no earlier heading holds it.
		prev := -1
		if n := len(w.d.Headings); n > 0 {
			prev = w.d.Headings[n-1].Start - w.base
		}
		if ls := lineStart(src, clampPos(ref-3, len(src))); ls != lineStart(src, ref) {
			if n := skipContainer(src, ls); isATX(src, n) && n > prev && bytes.IndexByte(src[ls:n], '\t') >= 0 {
				m = n
			}
		}
	}
	h := Heading{Level: x.Level, Nested: w.depth > 0}
	switch {
	case isATX(src, m) && (lines.Len() == 0 || m < lines.At(0).Start):
		h.Start, h.End = m, lineEnd(src, m)
	case lines.Len() == 0:
		h.Start, h.End = ref, ref
	default:
		h.Setext = true
		h.Start = ref
		ul := nextLine(src, lines.At(lines.Len()-1).Start)
		h.End = lineEnd(src, ul)
		if ul >= len(src) {
			h.End = lineEnd(src, ref)
		}
	}
	var atx []byte // an ATX heading's line, from its first "#"
	if !h.Setext && lines.Len() > 0 && h.Start < h.End {
		atx = src[h.Start:h.End]
	}
	h.Start += w.base
	h.End += w.base
	h.Text = w.headingText(x, h.Setext, atx)
	w.d.Headings = append(w.d.Headings, h)
}

// inlineOpener marks the bytes that open the inline constructs the lean
// parser leaves out.
var inlineOpener = [256]bool{'*': true, '_': true, '[': true, '~': true}

// outlineOpener adds the openers of the inline constructs lean parses
// (code spans, autolinks, inline HTML).
var outlineOpener = [256]bool{'*': true, '_': true, '[': true, '~': true, '`': true, '<': true}

// headingText is the plain text of heading x as md's full inline parse
// gives it. The lean parse gives the same when the heading holds none of
// the characters that open the constructs it leaves out ("*", "_", "[",
// "~"); otherwise the heading is parsed again with md, in the document's
// context (so a reference link gives its text), as a heading of its own:
// an ATX heading's line as written (atx, from its first "#": its content
// is inline only, and its closing sequence is goldmark's to remove — the
// content without it, given "# " again, would lose a "#" that ends it), the
// content lines and "===" for a setext one (a paragraph's lines, which
// parse there as they did in place).
func (w *walker) headingText(x *ast.Heading, setext bool, atx []byte) string {
	lines := x.Lines()
	full := false
	for i := 0; i < lines.Len() && !full; i++ {
		seg := lines.At(i)
		for _, c := range seg.Value(w.src) {
			if w.opener[c] {
				full = true
				break
			}
		}
	}
	if !full {
		// Most headings are one text node: their text is a substring.
		if t, ok := x.FirstChild().(*ast.Text); ok && t.NextSibling() == nil && t.Segment.Padding == 0 &&
			!t.SoftLineBreak() && !t.HardLineBreak() {
			return strings.TrimSpace(w.str[t.Segment.Start:t.Segment.Stop])
		}
	}
	var sb strings.Builder
	if !full {
		plainText(x, w.src, &sb)
		return strings.TrimSpace(sb.String())
	}
	var doc []byte
	switch {
	case atx != nil:
		doc = append(append(doc, bytes.TrimRight(atx, "\r")...), '\n')
	case !setext:
		doc = append(doc, "# "...)
		fallthrough
	default:
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			doc = append(doc, bytes.TrimRight(seg.Value(w.src), "\r\n")...)
			doc = append(doc, '\n')
		}
	}
	if setext {
		doc = append(doc, "===\n"...)
	}
	if t, ok := fullHeadingText(doc, w.pc); ok {
		return t
	}
	plainText(x, w.src, &sb) // not expected: keep the lean text
	return strings.TrimSpace(sb.String())
}

// fullHeadingText is the plain text md's full parser gives the one heading
// doc holds (its lines, each ending in "\n"), parsed in context pc (nil: a
// context of its own); false when doc does not parse as one heading.
func fullHeadingText(doc []byte, pc parser.Context) (string, bool) {
	if pc == nil {
		pc = parser.NewContext()
	}
	root := md.Parser().Parse(text.NewReader(doc), parser.WithContext(pc))
	hd, ok := root.FirstChild().(*ast.Heading)
	if !ok || hd.NextSibling() != nil {
		return "", false
	}
	var sb strings.Builder
	plainText(hd, doc, &sb)
	return strings.TrimSpace(sb.String()), true
}

func clampPos(p, n int) int {
	if p < 0 {
		return 0
	}
	if p > n {
		return n
	}
	return p
}

// lineStart returns the start of the line containing i.
func lineStart(src []byte, i int) int {
	if i > len(src) {
		i = len(src)
	}
	for i > 0 && src[i-1] != '\n' {
		i--
	}
	return i
}

// skipContainer skips block-quote markers, list markers and indentation at
// the start of a line.
func skipContainer(src []byte, i int) int {
	for i < len(src) {
		switch c := src[i]; {
		case c == ' ' || c == '\t' || c == '>':
			i++
		case (c == '-' || c == '*' || c == '+') && i+1 < len(src) && (src[i+1] == ' ' || src[i+1] == '\t'):
			i += 2
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && j-i < 9 && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			if j+1 < len(src) && (src[j] == '.' || src[j] == ')') && (src[j+1] == ' ' || src[j+1] == '\t') {
				i = j + 2
				continue
			}
			return i
		default:
			return i
		}
	}
	return i
}

// isATX reports whether the line at pos starts with 1-6 '#' followed by a
// space, a tab or the end of the line.
func isATX(src []byte, pos int) bool {
	i := pos
	for i < len(src) && src[i] == '#' {
		i++
	}
	if n := i - pos; n < 1 || n > 6 {
		return false
	}
	return i == len(src) || src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r'
}

// PlainText appends the text of n's inline descendants (markup dropped).
func PlainText(n ast.Node, src []byte, sb *strings.Builder) { plainText(n, src, sb) }

// plainText appends the text of n's inline descendants.
func plainText(n ast.Node, src []byte, sb *strings.Builder) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch x := c.(type) {
		case *ast.Text:
			sb.Write(x.Segment.Value(src))
			if x.SoftLineBreak() || x.HardLineBreak() {
				sb.WriteByte(' ')
			}
		case *ast.String:
			sb.Write(x.Value)
		case *ast.AutoLink:
			sb.Write(x.Label(src))
		case *ast.RawHTML:
			// markup, not text
		default:
			plainText(c, src, sb)
		}
	}
}

// lineEnd returns the offset of the end of the line containing i, excluding
// the line terminator ("\n" or "\r\n").
func lineEnd(src []byte, i int) int {
	for i < len(src) && src[i] != '\n' {
		i++
	}
	if i > 0 && i <= len(src) && src[i-1] == '\r' {
		i--
	}
	return i
}

// nextLine returns the start of the line after the one containing i, or len(src).
func nextLine(src []byte, i int) int {
	for i < len(src) && src[i] != '\n' {
		i++
	}
	if i < len(src) {
		i++
	}
	return i
}

// comments finds every <!-- … --> in the text made of segs. When inline is
// set, only a comment that starts the text counts (inline raw HTML holds one
// tag).
func (w *walker) comments(segs []text.Segment, inline bool) {
	if len(segs) == 0 {
		return
	}
	// Fast path: contiguous segments are a plain substring of the source.
	contiguous := true
	for i := 1; i < len(segs); i++ {
		if segs[i].Start != segs[i-1].Stop || segs[i].Padding != 0 {
			contiguous = false
			break
		}
	}
	var txt string
	var m []Seg
	if contiguous && segs[0].Padding == 0 {
		txt = w.str[segs[0].Start:segs[len(segs)-1].Stop]
	} else {
		var sb strings.Builder
		for _, s := range segs {
			m = append(m, Seg{s.Start, s.Stop, s.Padding})
			for k := 0; k < s.Padding; k++ {
				sb.WriteByte(' ')
			}
			sb.Write(w.src[s.Start:s.Stop])
		}
		txt = sb.String()
	}
	off := func(i int) int {
		if m == nil {
			return w.base + segs[0].Start + i
		}
		f := Fence{Segs: m}
		return w.base + f.BodyOffset(i)
	}
	if inline && !strings.HasPrefix(txt, "<!--") {
		return
	}
	for i := 0; i < len(txt); {
		j := strings.Index(txt[i:], "<!--")
		if j < 0 {
			return
		}
		open := i + j
		inner := open + 4
		var closeEnd, innerEnd int
		if k := strings.Index(txt[inner:], "-->"); k >= 0 {
			innerEnd = inner + k
			closeEnd = innerEnd + 3
		} else {
			innerEnd = len(strings.TrimRight(txt, " \t\r\n"))
			if innerEnd < inner {
				innerEnd = inner
			}
			closeEnd = innerEnd
		}
		w.d.Comments = append(w.d.Comments, Comment{
			Text:  strings.TrimSpace(txt[inner:innerEnd]),
			Start: off(open),
			End:   off(closeEnd-1) + 1,
		})
		if inline {
			return
		}
		i = closeEnd
	}
}

// finish turns the collected fence nodes into Fences (closing fences are not
// in goldmark's AST, so they are found in the source), adds :::delta blocks,
// and computes section ends.
func (w *walker) finish() {
	d := w.d
	starts := make([]int, len(w.fences))
	d.Fences = make([]Fence, 0, len(w.fences))
	d.code = append(make([]span, 0, len(w.fences)+len(d.code)), d.code...)
	for i, x := range w.fences {
		starts[i] = x.Pos()
	}
	for i, x := range w.fences {
		f := w.fence(x, starts)
		f.Nested = w.nested[i]
		d.Fences = append(d.Fences, f)
		d.code = append(d.code, span{f.Start, f.End})
	}
	sort.Slice(d.code, func(i, j int) bool { return d.code[i].start < d.code[j].start })
	if strings.Contains(d.Src[w.base:], ":::") {
		w.setCodeMax()
		w.colonFences()
	}
	w.setCodeMax()
	sections(d.Headings, len(d.Src))
}

func (w *walker) setCodeMax() {
	d := w.d
	d.codeMax = d.codeMax[:0]
	m := 0
	for _, c := range d.code {
		if c.end > m {
			m = c.end
		}
		d.codeMax = append(d.codeMax, m)
	}
}

// fence describes one fenced block. It is long on purpose: its geometry (container prefixes, info string, content lines, closing fence) computed in one pass over its lines.
func (w *walker) fence(x *ast.FencedCodeBlock, starts []int) Fence {
	src := w.src
	pos := clampPos(x.Pos(), len(src)-1)
	if c := src[pos]; (c != '`' && c != '~') || (pos > 0 && src[pos-1] == c) {
		// goldmark's Pos is off when a container prefix holds a tab.
		if m := skipContainer(src, lineStart(src, pos)); m < len(src) && (src[m] == '`' || src[m] == '~') {
			pos = m
		}
	}
	f := Fence{Char: src[pos]}
	i := pos
	for i < len(src) && src[i] == f.Char {
		i++
	}
	f.FenceLen = i - pos
	f.InfoStart, f.InfoEnd = i, i
	if x.Info != nil {
		f.InfoStart, f.InfoEnd = x.Info.Segment.Start, x.Info.Segment.Stop
		f.Info = strings.TrimSpace(w.str[f.InfoStart:f.InfoEnd])
		f.Lang = firstWord(f.Info)
	}
	lines := x.Lines()
	n := lines.Len()
	after := nextLine(src, pos) // where the first content line (or the closing fence) starts
	f.ContentStart = after
	if n > 0 {
		first, last := lines.At(0), lines.At(n-1)
		f.ContentStart = first.Start
		contiguous := first.Padding == 0
		for k := 1; k < n && contiguous; k++ {
			s := lines.At(k)
			contiguous = s.Padding == 0 && s.Start == lines.At(k-1).Stop
		}
		if contiguous {
			f.Content = w.str[first.Start:last.Stop]
		} else {
			var sb strings.Builder
			f.Segs = make([]Seg, n)
			for k := 0; k < n; k++ {
				s := lines.At(k)
				f.Segs[k] = Seg{w.base + s.Start, w.base + s.Stop, s.Padding}
				for p := 0; p < s.Padding; p++ {
					sb.WriteByte(' ')
				}
				sb.Write(src[s.Start:s.Stop])
			}
			f.Content = sb.String()
		}
		after = last.Stop
		if after < len(src) && src[after-1] != '\n' {
			after = nextLine(src, after)
		}
	}
	// The closing fence, if any, is the line right after the content: after
	// container markers ('>' and indentation) it is a run of at least
	// FenceLen fence characters followed by white space only, and it is not
	// the opening of another fenced block.
	end := lineEnd(src, pos)
	if n > 0 {
		end = lineEnd(src, lines.At(n-1).Start)
	}
	if after < len(src) {
		j := after
		for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '>') {
			j++
		}
		k := j
		for k < len(src) && src[k] == f.Char {
			k++
		}
		le := lineEnd(src, after)
		if k-j >= f.FenceLen && isBlank(src[k:le]) {
			idx := sort.SearchInts(starts, j)
			if idx >= len(starts) || starts[idx] != j {
				f.Closed = true
				end = le
			}
		}
	}
	f.Start = w.base + pos
	f.End = w.base + end
	f.ContentStart += w.base
	f.InfoStart += w.base
	f.InfoEnd += w.base
	return f
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// colonFences adds upstream's ":::delta … :::" blocks: a line (outside any
// code block or HTML comment) made of optional white space, three or more
// colons and "delta" (any case, possibly with more letters or an info string
// after it), up to a line of three or more colons only, or the end of the body.
//
// It is long on purpose: one line scanner with the open block as state.
func (w *walker) colonFences() {
	d := w.d
	src := d.Src
	var added []Fence
	for p := w.base; p < len(src); {
		line, next := lineAt(src, p)
		lineStart := p
		if next < 0 {
			p = len(src)
		} else {
			p = next
		}
		t := strings.TrimLeft(line, " \t")
		if !strings.HasPrefix(t, ":::") {
			continue
		}
		indent := len(line) - len(t)
		nc := 0
		for nc < len(t) && t[nc] == ':' {
			nc++
		}
		info := strings.TrimSpace(strings.TrimRight(t[nc:], "\r"))
		lang := firstWord(info)
		if !strings.HasPrefix(strings.ToLower(lang), "delta") {
			continue
		}
		start := lineStart + indent
		if d.InCode(start) || d.inComment(start) {
			continue
		}
		f := Fence{Char: ':', Info: info, Lang: lang, Start: start, FenceLen: nc}
		f.InfoStart = start + nc + (len(t[nc:]) - len(strings.TrimLeft(t[nc:], " \t")))
		f.InfoEnd = f.InfoStart + len(info)
		if next < 0 {
			f.ContentStart = len(src)
		} else {
			f.ContentStart = next
		}
		f.End = len(src)
		contentEnd := len(src)
		for q := f.ContentStart; q < len(src); {
			l, nx := lineAt(src, q)
			tl := strings.TrimSpace(l)
			if len(tl) >= 3 && strings.Trim(tl, ":") == "" {
				f.Closed = true
				contentEnd = q
				f.End = q + len(strings.TrimRight(l, " \t\r"))
				if nx < 0 {
					p = len(src)
				} else {
					p = nx
				}
				break
			}
			if nx < 0 {
				break
			}
			q = nx
		}
		if !f.Closed {
			p = len(src)
			f.End = len(strings.TrimRight(src, "\r\n"))
			if f.End < f.ContentStart {
				f.End = f.ContentStart
			}
		}
		f.Content = src[f.ContentStart:contentEnd]
		added = append(added, f)
	}
	if len(added) == 0 {
		return
	}
	for _, f := range added {
		d.code = append(d.code, span{f.Start, f.End})
	}
	d.Fences = append(d.Fences, added...)
	sort.SliceStable(d.Fences, func(i, j int) bool { return d.Fences[i].Start < d.Fences[j].Start })
	sort.Slice(d.code, func(i, j int) bool { return d.code[i].start < d.code[j].start })
}

// sections fills SectionEnd. A top-level heading's section runs to the next
// top-level heading of the same or a higher level; a nested heading's to the
// next heading (at any depth) of the same or a higher level.
func sections(hs []Heading, n int) {
	for i := range hs {
		hs[i].SectionEnd = n
		for j := i + 1; j < len(hs); j++ {
			if hs[j].Level <= hs[i].Level && (hs[i].Nested || !hs[j].Nested) {
				hs[i].SectionEnd = hs[j].Start
				break
			}
		}
	}
}

// InCode reports whether byte offset off lies inside code: a code block
// (fenced, indented or :::delta, fences included) or an inline code span
// (backticks included).
func (d *Doc) InCode(off int) bool {
	_, in := d.CodeEnd(off)
	return in
}

// CodeEnd reports whether off lies inside code (InCode) and, when it does,
// where that code ends: every offset from off up to end is inside code too,
// so a search for something outside code may go on from end.
func (d *Doc) CodeEnd(off int) (end int, in bool) {
	i := sort.Search(len(d.code), func(i int) bool { return d.code[i].start > off }) - 1
	if i < 0 || d.codeMax[i] <= off {
		return 0, false
	}
	// The range that reaches codeMax[i] starts at or before code[i], so at
	// or before off: it covers all of [off, codeMax[i]).
	return d.codeMax[i], true
}

// InComment reports whether byte offset off lies inside an HTML comment.
func (d *Doc) InComment(off int) bool { return d.inComment(off) }

func (d *Doc) inComment(off int) bool {
	for _, c := range d.Comments {
		if off >= c.Start && off < c.End {
			return true
		}
		if c.Start > off {
			break
		}
	}
	return false
}

// Find returns the first heading of the given level (0 = any level) whose
// key (HeadingKey) is the key of one of names. Top-level headings are
// preferred over headings inside block quotes or lists. It returns nil when
// none matches.
func (d *Doc) Find(level int, names ...string) *Heading {
	var keys [4]string
	want := keys[:0]
	// firsts holds the first byte of every key wanted, unless a key is
	// empty (then every heading is keyed; see mayBe).
	var firsts [256]bool
	prune := findPrefilter
	for _, n := range names {
		k := HeadingKey(n)
		want = append(want, k)
		if k == "" {
			prune = false
		} else {
			firsts[k[0]] = true
		}
	}
	var buf [64]byte
	nested := false
	for pass := 0; pass < 2 && (pass == 0 || nested); pass++ {
		for i := range d.Headings {
			h := &d.Headings[i]
			nested = nested || h.Nested
			if (level != 0 && h.Level != level) || h.Nested != (pass == 1) {
				continue
			}
			if prune && !mayBe(h.Text, &firsts) {
				continue
			}
			key := AppendHeadingKey(buf[:0], h.Text) // not kept: no allocation
			for _, w := range want {
				if string(key) == w {
					return h
				}
			}
		}
	}
	return nil
}

// mayBe reports whether the key of heading text text may start with a byte
// of firsts, judged by its first byte: a key keeps the text's first
// character, lower-cased (white space is trimmed, and only a suffix is
// removed), or is empty. An ASCII letter is lower-cased as the key does;
// any other first byte that could change (white space, a byte of a
// multi-byte character: 'K' (U+212A) lower-cases to 'k') keeps the
// heading. Find computed every heading's key for every name it was asked
// for, a tenth of the instructions of parsing a body.
func mayBe(text string, firsts *[256]bool) bool {
	if text == "" {
		return false // its key is empty, and no key wanted is
	}
	c := text[0]
	switch {
	case c >= utf8.RuneSelf || c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
		return true
	case 'A' <= c && c <= 'Z':
		c += 'a' - 'A'
	}
	return firsts[c]
}

// findPrefilter enables Find's first-byte test (mayBe); a test compares
// Find with and without it.
var findPrefilter = true

// HeadingKey is the one form in which a heading's text and a section name
// are compared, by the compiler (Doc.Find) and by the rules: white space
// folded to single spaces and trimmed, lower-cased, and without trailing
// colons and a trailing parenthesised suffix ("(optional)",
// "(Discriminative)"), removed repeatedly: "## Research  Question
// (Discriminative):" has the key "research question".
func HeadingKey(s string) string {
	if isHeadingKey(s) {
		return s
	}
	return string(AppendHeadingKey(nil, s))
}

// AppendHeadingKey appends HeadingKey(s) to dst (for comparisons that need
// not allocate).
func AppendHeadingKey(dst []byte, s string) []byte {
	start := len(dst)
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = len(dst) > start
			continue
		}
		if space {
			dst = append(dst, ' ')
			space = false
		}
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			dst = append(dst, byte(r))
		} else {
			dst = utf8.AppendRune(dst, unicode.ToLower(r))
		}
	}
	for {
		k := dst[start:]
		n := len(k)
		for n > 0 && (k[n-1] == ':' || k[n-1] == ' ') {
			n--
		}
		if n > 0 && k[n-1] == ')' {
			// The "(" after the last ")" before the final one: what
			// \s*\([^)]*\)\s*$ removes.
			closing := n - 1
			from := bytes.LastIndexByte(k[:closing], ')') + 1
			if open := bytes.IndexByte(k[from:closing], '('); open >= 0 {
				n = from + open
				for n > 0 && k[n-1] == ' ' {
					n--
				}
			}
		}
		if n == len(k) {
			return dst
		}
		dst = dst[:start+n]
	}
}

// isHeadingKey reports whether s is its own key (the common case of a
// section name): lower-case ASCII, single spaces inside, no trailing colon
// or parenthesis.
func isHeadingKey(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' || s[len(s)-1] == ':' || s[len(s)-1] == ')' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf, 'A' <= c && c <= 'Z', c <= ' ' && c != ' ', c == ' ' && s[i-1] == ' ':
			return false
		}
	}
	return true
}

// SectionText returns the text of h's section (after the heading line, up to
// SectionEnd), trimmed.
func (d *Doc) SectionText(h *Heading) string {
	if h == nil || h.End > h.SectionEnd || h.SectionEnd > len(d.Src) {
		return ""
	}
	return strings.TrimSpace(d.Src[h.End:h.SectionEnd])
}

// Title returns the first H1 (a top-level one when there is one), or nil.
func (d *Doc) Title() *Heading {
	for pass := 0; pass < 2; pass++ {
		for i := range d.Headings {
			if h := &d.Headings[i]; h.Level == 1 && h.Nested == (pass == 1) {
				return h
			}
		}
	}
	return nil
}
