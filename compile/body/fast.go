package body

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"unsafe"

	"github.com/brenner-ci/brenner-ci/compile/chunk"
)

// fastOutline is ParseOutline for the commonest message body: ATX headings
// at the start of a line, paragraphs, bullet, numbered and block-quote
// lines whose text starts a paragraph, and fenced code blocks that open at
// the start of a line. Such a body has no indented code block, no HTML
// block or comment and no nested heading or fence, so its Doc is its
// headings and fences; finding them takes one pass over its lines instead
// of a goldmark parse (which was a quarter of a check's time).
//
// It answers only when every line is one it is sure about; ok is false for
// anything else (a tab, a CR or another control character, an indented heading or fence, a line that could underline a setext
// heading or start a thematic break, an indented code block, a nested
// container, a heading whose text holds a "[", a fence that is not closed …), and the body is
// parsed by goldmark. TestLeanParseMatchesFull, FuzzOutlineLines and
// FuzzParse hold its Doc to the parser's wherever it answers.
func fastOutline(src string) (d *Doc, ok bool) { return fastDoc(src, false) }

// fastDoc is fastOutline; with spans it is Parse's (the Doc records code
// spans too), and it answers only for a body without a backtick outside
// its fences, which has none.
func fastDoc(src string, spans bool) (d *Doc, ok bool) {
	d, _, ok = readFast(nil, src, spans, false)
	return d, ok
}

// readFast is fastDoc; with guard it also applies Guard's test to each
// line it reads (guardLine), and returns the first line's reason, with a
// nil Doc and ok, as soon as one fails: ok then says every line before it
// was read, so that reason is Guard's unless the size or the links stop
// the body.
func readFast(a *Arena, src string, spans, guard bool) (d *Doc, why string, ok bool) {
	// Gathered on the stack, then copied to slices of their exact size.
	var hbuf [48]Heading
	var fbuf [8]Fence
	hs, fences := hbuf[:0], fbuf[:0]
	lines := newLineEnds(src)
	for p := 0; p < len(src); {
		end, ctl, tick := lines.at(p)
		if ctl || spans && tick && src[p] != '`' {
			return nil, "", false
		}
		line := src[p:end]
		// No line the reader accepts outside a fence nests or is indented
		// far enough to fail Guard's test today; it is applied all the
		// same, so that a reader that learns more lines stays guarded.
		if guard {
			if why := guardLine(line); why != "" {
				return nil, why, true
			}
		}
		switch {
		case len(line) > 0 && line[0] == '#':
			h, ok := atxHeading(line, p)
			if !ok {
				return nil, "", false
			}
			hs = append(hs, h)
		case len(line) > 2 && (line[0] == '`' || line[0] == '~') && line[1] == line[0] && line[2] == line[0]:
			f, next, why, ok := fastFence(src, p, end, guard, &lines)
			if !ok || why != "" {
				return nil, why, ok
			}
			fences = append(fences, f)
			p = next
			continue
		case !plainLine(line):
			return nil, "", false
		}
		p = end + 1
	}
	if a == nil {
		a = heapArena
	}
	d = &chunk.Take(&a.docs, 1, a.heap)[0]
	d.Src, d.Fences, d.code = src, []Fence{}, []span{}
	if len(hs) > 0 {
		d.Headings = chunk.Copy(&a.heads, hs, a.heap) // nil without headings, as the walker leaves it
	}
	if len(fences) > 0 {
		d.Fences = chunk.Copy(&a.fences, fences, a.heap)
		d.code = chunk.Take(&a.spans, len(fences), a.heap)
		d.codeMax = chunk.Take(&a.ints, len(fences), a.heap)
		for i, f := range fences {
			d.code[i] = span{f.Start, f.End}
			d.codeMax[i] = f.End // fences do not overlap: ends grow
		}
	}
	sections(d.Headings, len(src))
	return d, "", true
}

// fastFence reads the fenced code block whose opening fence is the line
// src[p:end] (three or more "`" or "~" at its very start) as goldmark does:
// the info string is the rest of the line without surrounding spaces (a
// "`" in it makes the line no fence: ok is false), the content is every
// line up to the closing fence — up to three spaces, at least as many
// fence characters, then spaces only — and next is where the line after
// the closing fence starts. A fence that is not closed, or holds a control
// character, is left to goldmark (ok false).
//
// With guard, each content and closing line gets Guard's test: the first
// reason is returned with ok (the lines before it were read). lines finds
// the line ends of src.
func fastFence(src string, p, end int, guard bool, lines *lineEnds) (f Fence, next int, why string, ok bool) {
	c := src[p]
	n := 0
	for p+n < end && src[p+n] == c {
		n++
	}
	f = Fence{Char: c, FenceLen: n, Start: p, InfoStart: p + n, InfoEnd: p + n}
	rest := src[p+n : end]
	if c == '`' && strings.IndexByte(rest, '`') >= 0 || end == len(src) {
		return Fence{}, 0, "", false
	}
	if t := strings.TrimRight(rest, " "); t != "" {
		f.InfoStart += len(rest) - len(strings.TrimLeft(rest, " "))
		f.InfoEnd += len(t)
		f.Info = strings.TrimSpace(src[f.InfoStart:f.InfoEnd])
		f.Lang = firstWord(f.Info)
	}
	f.ContentStart = end + 1
	for q := end + 1; q < len(src); {
		le, ctl, _ := lines.at(q)
		if ctl {
			return Fence{}, 0, "", false
		}
		line := src[q:le]
		if guard {
			if why := guardLine(line); why != "" {
				return Fence{}, 0, why, true
			}
		}
		if closesFence(line, c, n) {
			f.Content = src[f.ContentStart:q]
			f.End = le
			f.Closed = true
			return f, min(le+1, len(src)), "", true
		}
		q = le + 1
	}
	return Fence{}, 0, "", false
}

// closesFence reports whether line closes a fence of n characters c: up
// to three spaces, at least n of c, then spaces only.
func closesFence(line string, c byte, n int) bool {
	i := 0
	for i < len(line) && i < 4 && line[i] == ' ' {
		i++
	}
	if i == 4 {
		return false
	}
	k := i
	for k < len(line) && line[k] == c {
		k++
	}
	return k-i >= n && strings.TrimRight(line[k:], " ") == ""
}

// atxHeading reads a heading line "#… text" that starts at offset p: one to
// six "#", one space, and text that is not empty, does not end with "#"
// (a closing sequence) and holds no "[" (whose meaning can depend on a
// link reference definition elsewhere in the body). Text holding another
// character that can open an inline construct is parsed as a heading of its
// own by the full parser, which is what the walker does with such a heading
// (headingText); any other text is the heading's text as it stands.
func atxHeading(line string, p int) (Heading, bool) {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n > 6 || n == len(line) || line[n] != ' ' {
		return Heading{}, false
	}
	text := strings.TrimSpace(line[n+1:])
	if text == "" || text[len(text)-1] == '#' || strings.IndexByte(text, '[') >= 0 {
		return Heading{}, false
	}
	if t, ok := struckOut(text); ok {
		text = t
	} else if hasInlineMark(text) {
		if text, ok = fullHeadingText(append([]byte(line), '\n'), nil); !ok {
			return Heading{}, false
		}
	}
	return Heading{Level: n, Text: text, Start: p, End: p + len(line)}, true
}

// inlineMarks are the bytes after which a heading's text (without a "[")
// may differ from the text as written.
const inlineMarks = "*_~`<\\&"

var isInlineMark = func() (t [256]bool) {
	for i := 0; i < len(inlineMarks); i++ {
		t[inlineMarks[i]] = true
	}
	return t
}()

// hasInlineMark is strings.ContainsAny(s, inlineMarks) with the set built
// once (ContainsAny builds it on every call: a third of an outline's time).
func hasInlineMark(s string) bool {
	for i := 0; i < len(s); i++ {
		if isInlineMark[s[i]] {
			return true
		}
	}
	return false
}

// struckOut is the text of a heading "~~X~~ rest" (a killed item of a
// compiled artifact) whose parts hold no other inline markup: X, which
// starts and ends with an ASCII letter or digit, struck through (its "~~"
// can open and close whatever X holds in between), then rest, which is
// empty or starts with a space.
func struckOut(text string) (string, bool) {
	x, ok := strings.CutPrefix(text, "~~")
	if !ok {
		return "", false
	}
	k := strings.Index(x, "~~")
	if k <= 0 || !alnum(x[0]) || !alnum(x[k-1]) {
		return "", false
	}
	rest := x[k+2:]
	if rest != "" && rest[0] != ' ' || hasInlineMark(x[:k]) || hasInlineMark(rest) {
		return "", false
	}
	return strings.TrimSpace(x[:k] + rest), true
}

// plainLine reports whether a line (no control characters) is blank or
// sure to hold paragraph text only: up to three spaces, then at most one
// bullet ("-", "+" or "*"), number ("1." or "1)") or
// block-quote marker with one to three spaces after it, then text whose
// first byte cannot open a block (plainStart).
func plainLine(line string) bool {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	if i == len(line) {
		return true // blank
	}
	if i > 3 {
		return false // an indented code block, or a list item's code
	}
	rest := line[i:]
	switch c := rest[0]; {
	case c == '-' || c == '+' || c == '*':
		if len(rest) > 1 && rest[1] == ' ' {
			return markerText(rest[2:])
		}
		return c == '*' && plainStart(rest) // "**Label**: …"
	case c == '>':
		if len(rest) > 1 && rest[1] == ' ' {
			return markerText(rest[2:])
		}
		return len(rest) == 1 // an empty quote line
	case c >= '0' && c <= '9':
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j < len(rest) && (rest[j] == '.' || rest[j] == ')') {
			if j > 9 || j+1 >= len(rest) || rest[j+1] != ' ' {
				return false
			}
			return markerText(rest[j+2:])
		}
		return true // "2026-01-14 …"
	}
	return plainStart(rest)
}

// markerText reports whether the text after a marker and its first space
// is up to two more spaces and then paragraph text.
func markerText(s string) bool {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i < len(s) && i <= 2 && plainStart(s[i:])
}

// plainStart reports whether a line's text, starting at s[0] (not a
// space), can only begin or continue a paragraph: a letter, a digit not
// followed by "." or ")", a byte of a multi-byte character, or one of the
// punctuation marks that open no block; "**" followed by text is allowed
// (bold, never a bullet or a thematic break). Anything else ("#", "-",
// "+", "=", "_", ">", "|" is allowed, ":" is not …) is left to goldmark.
func plainStart(s string) bool {
	c := s[0]
	switch {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
		return true
	case c >= '0' && c <= '9':
		j := 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return j == len(s) || s[j] != '.' && s[j] != ')'
	case c == '*':
		return len(s) > 2 && s[1] == '*' && s[2] != '*' && s[2] != ' '
	}
	return strings.IndexByte(`!"$%&'(),./;?@[\]^{}|`, c) >= 0
}

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// scanLineEnd finds the end of the line that starts at p, in one pass of eight
// bytes at a time that also looks for what fastDoc refuses: end is the
// offset of the line's "\n" (or len(s)), ctl reports a control character
// (a byte below 0x20 other than that "\n", or 0x7f: end is then where it
// is), and tick a backtick before end. (A search for the "\n" and a second
// pass over the line were 3% of a check.) TestScanLineEnd and FuzzScanLineEnd hold
// it to a byte loop.
func scanLineEnd(s string, p int) (end int, ctl, tick bool) {
	b := unsafe.Slice(unsafe.StringData(s), len(s)) // read only
	i := p
	var ticks uint64
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		c, d, t := w&(0xe0*lo8), w^(0x7f*lo8), w^(0x60*lo8)
		tm := (t - lo8) &^ t & hi8
		// The lowest flagged byte of each mask is exact; a borrow can
		// flag bytes above a flagged one only.
		if m := ((c-lo8)&^c | (d-lo8)&^d) & hi8; m != 0 {
			k := bits.TrailingZeros64(m) // the high bit of the first control byte
			ticks |= tm & (1<<k - 1)
			i += k >> 3
			return i, b[i] != '\n', ticks != 0
		}
		ticks |= tm
	}
	for ; i < len(b); i++ {
		switch x := b[i]; {
		case x < ' ' || x == 0x7f:
			return i, x != '\n', ticks != 0
		case x == '`':
			ticks = 1
		}
	}
	return len(b), false, ticks != 0
}

// lineEnds answers scanLineEnd for the lines of one text, asked in
// increasing order. Where the processor can (vectorLines), it reads the
// masks of control bytes and backticks of a 64-byte block once
// (lineMasks) and answers every line end in the block from them (a line
// asked before the block reads the block at it); a line in the text's
// last 63 bytes goes to scanLineEnd. TestLineEnds and FuzzScanLineEnd hold
// it to the byte loop.
type lineEnds struct {
	s         string
	base      int // the block ctl and tick describe starts here
	ctl, tick uint64
}

func newLineEnds(s string) lineEnds { return lineEnds{s: s, base: -lineBlock} }

// at is scanLineEnd(l.s, p).
func (l *lineEnds) at(p int) (end int, ctl, tick bool) {
	s := l.s
	if !vectorLines {
		return scanLineEnd(s, p)
	}
	ticks := false
	for {
		if p < l.base || p-l.base >= lineBlock {
			if p+lineBlock > len(s) {
				e, c, t := scanLineEnd(s, p)
				return e, c, ticks || t
			}
			l.base = p
			l.ctl, l.tick = lineMasks((*[lineBlock]byte)(unsafe.Pointer(unsafe.StringData(s[p:])))) // read only
		}
		sh := uint(p - l.base)
		if c := l.ctl >> sh; c != 0 {
			k := bits.TrailingZeros64(c)
			return p + k, s[p+k] != '\n', ticks || l.tick>>sh&(1<<k-1) != 0
		}
		ticks = ticks || l.tick>>sh != 0
		p = l.base + lineBlock
	}
}

func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
