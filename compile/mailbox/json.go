package mailbox

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/diag"
)

// This file holds a small strict JSON (RFC 8259) scanner. It builds a flat
// tree of value spans without decoding strings, so Scan can look at message
// metadata, skip bodies cheaply and report exact byte offsets for every value
// and every syntax error. Strings are decoded on demand (decodeString).

type jkind uint8

const (
	jNull jkind = iota
	jFalse
	jTrue
	jNum
	jStr
	jArr
	jObj
)

func (k jkind) String() string {
	switch k {
	case jNull:
		return "null"
	case jFalse, jTrue:
		return "a boolean"
	case jNum:
		return "a number"
	case jStr:
		return "a string"
	case jArr:
		return "an array"
	case jObj:
		return "an object"
	}
	return "?"
}

// jnode is one value. Object children alternate key (a string node) and value.
type jnode struct {
	start, end int   // byte range of the value in the parsed buffer
	child      int32 // first child, or -1
	next       int32 // next sibling, or -1
	kind       jkind
	esc        bool // string: contains a backslash escape
}

// jsonError is a syntax error at byte offset Off.
type jsonError struct {
	Off int
	Msg string
	EOF bool // the input ended too early
}

func (e *jsonError) Error() string { return e.Msg }

const maxDepth = 1000

// jparser parses one value from src[pos:end]. It is reusable: parse resets
// the node arena but keeps its capacity.
type jparser struct {
	src   []byte
	pos   int
	end   int
	nodes []jnode
	depth int
}

// parse parses exactly one JSON value in src[start:end], surrounded by
// optional white space (and an optional UTF-8 byte order mark before it),
// and returns the root node index.
func (p *jparser) parse(src []byte, start, end int) (root int32, err error) {
	p.src, p.pos, p.end, p.depth = src, start, end, 0
	p.nodes = p.nodes[:0]
	defer func() {
		if r := recover(); r != nil {
			je, ok := r.(*jsonError)
			if !ok {
				panic(r)
			}
			err = je
		}
	}()
	if p.pos < p.end && p.src[p.pos] == 0xEF && p.end-p.pos >= 3 && p.src[p.pos+1] == 0xBB && p.src[p.pos+2] == 0xBF {
		p.pos += 3 // UTF-8 byte order mark
	}
	root = p.value()
	p.skipWS()
	if p.pos < p.end {
		p.fail(p.pos, "invalid character %s after top-level value", p.quoteAt(p.pos))
	}
	return root, nil
}

func (p *jparser) fail(off int, format string, args ...any) {
	panic(&jsonError{Off: off, Msg: fmt.Sprintf(format, args...)})
}

func (p *jparser) failEOF() {
	panic(&jsonError{Off: p.end, Msg: "unexpected end of JSON input", EOF: true})
}

// quoteAt renders the character at off for an error message.
func (p *jparser) quoteAt(off int) string {
	r, _ := utf8.DecodeRune(p.src[off:p.end])
	switch r {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	q := strconv.QuoteRune(r)
	return q
}

func (p *jparser) skipWS() {
	for p.pos < p.end {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jparser) add(n jnode) int32 {
	p.nodes = append(p.nodes, n)
	return int32(len(p.nodes) - 1)
}

func (p *jparser) value() int32 {
	p.skipWS()
	if p.pos >= p.end {
		p.failEOF()
	}
	start := p.pos
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		esc := p.str()
		return p.add(jnode{start: start, end: p.pos, child: -1, next: -1, kind: jStr, esc: esc})
	case c == '-' || (c >= '0' && c <= '9'):
		p.number()
		return p.add(jnode{start: start, end: p.pos, child: -1, next: -1, kind: jNum})
	case c == 't':
		p.literal("true")
		return p.add(jnode{start: start, end: p.pos, child: -1, next: -1, kind: jTrue})
	case c == 'f':
		p.literal("false")
		return p.add(jnode{start: start, end: p.pos, child: -1, next: -1, kind: jFalse})
	case c == 'n':
		p.literal("null")
		return p.add(jnode{start: start, end: p.pos, child: -1, next: -1, kind: jNull})
	}
	p.fail(p.pos, "invalid character %s looking for beginning of value", p.quoteAt(p.pos))
	return -1
}

func (p *jparser) literal(word string) {
	for i := 0; i < len(word); i++ {
		if p.pos >= p.end {
			p.failEOF()
		}
		if p.src[p.pos] != word[i] {
			p.fail(p.pos, "invalid character %s in literal %s (expecting %q)", p.quoteAt(p.pos), word, word[i])
		}
		p.pos++
	}
}

func (p *jparser) digits() int {
	n := 0
	for p.pos < p.end && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
		n++
	}
	return n
}

func (p *jparser) number() {
	if p.src[p.pos] == '-' {
		p.pos++
		if p.pos >= p.end {
			p.failEOF()
		}
	}
	switch c := p.src[p.pos]; {
	case c == '0':
		p.pos++
	case c >= '1' && c <= '9':
		p.digits()
	default:
		p.fail(p.pos, "invalid character %s in numeric literal", p.quoteAt(p.pos))
	}
	if p.pos < p.end && p.src[p.pos] == '.' {
		p.pos++
		if p.pos >= p.end {
			p.failEOF()
		}
		if p.digits() == 0 {
			p.fail(p.pos, "invalid character %s after decimal point in numeric literal", p.quoteAt(p.pos))
		}
	}
	if p.pos < p.end && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < p.end && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if p.pos >= p.end {
			p.failEOF()
		}
		if p.digits() == 0 {
			p.fail(p.pos, "invalid character %s in exponent of numeric literal", p.quoteAt(p.pos))
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// plainStr marks bytes that need no attention inside a string literal
// (everything but '"', '\\' and control characters).
var plainStr = func() (t [256]bool) {
	for i := range t {
		t[i] = i >= 0x20 && i != '"' && i != '\\'
	}
	return t
}()

// str scans a string literal starting at the opening quote and reports
// whether it contains escapes.
func (p *jparser) str() (esc bool) {
	i := p.pos + 1
	src, end := p.src, p.end
	for {
		for i < end && plainStr[src[i]] {
			i++
		}
		if i >= end {
			p.failEOF()
		}
		c := src[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return esc
		case c == '\\':
			esc = true
			if i+1 >= end {
				p.failEOF()
			}
			switch src[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= end {
						p.failEOF()
					}
					if !isHex(src[i+k]) {
						p.fail(i+k, "invalid character %s in \\u hexadecimal character escape", p.quoteAt(i+k))
					}
				}
				i += 6
			default:
				p.fail(i+1, "invalid character %s in string escape code", p.quoteAt(i+1))
			}
		default: // c < 0x20
			p.fail(i, "invalid character %s in string literal (control characters must be escaped)", p.quoteAt(i))
		}
	}
}

func (p *jparser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail(p.pos, "JSON nested more than %d levels deep", maxDepth)
	}
}

func (p *jparser) object() int32 {
	p.enter()
	self := p.add(jnode{start: p.pos, child: -1, next: -1, kind: jObj})
	p.pos++ // {
	p.skipWS()
	if p.pos >= p.end {
		p.failEOF()
	}
	last := int32(-1)
	link := func(n int32) {
		if last < 0 {
			p.nodes[self].child = n
		} else {
			p.nodes[last].next = n
		}
		last = n
	}
	if p.src[p.pos] == '}' {
		p.pos++
		p.nodes[self].end = p.pos
		p.depth--
		return self
	}
	for {
		p.skipWS()
		if p.pos >= p.end {
			p.failEOF()
		}
		if p.src[p.pos] != '"' {
			p.fail(p.pos, "invalid character %s looking for beginning of object key string", p.quoteAt(p.pos))
		}
		ks := p.pos
		esc := p.str()
		link(p.add(jnode{start: ks, end: p.pos, child: -1, next: -1, kind: jStr, esc: esc}))
		p.skipWS()
		if p.pos >= p.end {
			p.failEOF()
		}
		if p.src[p.pos] != ':' {
			p.fail(p.pos, "invalid character %s after object key", p.quoteAt(p.pos))
		}
		p.pos++
		link(p.value())
		p.skipWS()
		if p.pos >= p.end {
			p.failEOF()
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			p.nodes[self].end = p.pos
			p.depth--
			return self
		default:
			p.fail(p.pos, "invalid character %s after object key:value pair", p.quoteAt(p.pos))
		}
	}
}

func (p *jparser) array() int32 {
	p.enter()
	self := p.add(jnode{start: p.pos, child: -1, next: -1, kind: jArr})
	p.pos++ // [
	p.skipWS()
	if p.pos >= p.end {
		p.failEOF()
	}
	if p.src[p.pos] == ']' {
		p.pos++
		p.nodes[self].end = p.pos
		p.depth--
		return self
	}
	last := int32(-1)
	for {
		n := p.value()
		if last < 0 {
			p.nodes[self].child = n
		} else {
			p.nodes[last].next = n
		}
		last = n
		p.skipWS()
		if p.pos >= p.end {
			p.failEOF()
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			p.nodes[self].end = p.pos
			p.depth--
			return self
		default:
			p.fail(p.pos, "invalid character %s after array element", p.quoteAt(p.pos))
		}
	}
}

// decodeString appends the decoded content of the string literal raw
// (including its quotes) to dst. Invalid UTF-8 and lone surrogates become
// U+FFFD, as encoding/json does. When esc is non-nil, every place where the
// decoded text is not a verbatim copy of the raw text is recorded: decoded
// bytes [Dec, Dec+DecN) come from raw bytes [Raw, Raw+RawN), offsets relative
// to the first byte after the opening quote and to the first decoded byte.
func decodeString(dst, raw []byte, esc *[]escape) []byte {
	raw = raw[1 : len(raw)-1]
	base := len(dst)
	i := 0
	for i < len(raw) {
		c := raw[i]
		if c != '\\' {
			// copy the run up to the next escape when it is valid UTF-8
			j := bytes.IndexByte(raw[i:], '\\')
			if j < 0 {
				j = len(raw)
			} else {
				j += i
			}
			if utf8.Valid(raw[i:j]) {
				dst = append(dst, raw[i:j]...)
				i = j
				continue
			}
			if c < utf8.RuneSelf {
				dst = append(dst, c)
				i++
				continue
			}
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				if esc != nil {
					*esc = append(*esc, escape{Dec: len(dst) - base, Raw: i, DecN: 3, RawN: 1})
				}
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, raw[i:i+size]...)
			}
			i += size
			continue
		}
		// backslash escape (validated by the scanner)
		dec := len(dst) - base
		rawStart := i
		switch raw[i+1] {
		case '"', '\\', '/':
			dst = append(dst, raw[i+1])
			i += 2
		case 'b':
			dst = append(dst, '\b')
			i += 2
		case 'f':
			dst = append(dst, '\f')
			i += 2
		case 'n':
			dst = append(dst, '\n')
			i += 2
		case 'r':
			dst = append(dst, '\r')
			i += 2
		case 't':
			dst = append(dst, '\t')
			i += 2
		case 'u':
			r := hex4(raw[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					r2 = hex4(raw[i+2 : i+6])
				}
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					r = d
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, r)
		default:
			// not reachable for scanned input; keep the byte
			dst = append(dst, raw[i])
			i++
		}
		if esc != nil {
			*esc = append(*esc, escape{Dec: dec, Raw: rawStart, DecN: len(dst) - base - dec, RawN: i - rawStart})
		}
	}
	return dst
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// jdoc is a parsed JSON value with the information needed to map its byte
// offsets to file positions.
type jdoc struct {
	src   []byte
	nodes []jnode
	buf   *[]byte // scratch buffer for decoding
	file  string  // path for positions

	// src[0] is at byte fileOff of the file, at line0:col0.
	fileOff     int64
	line0, col0 int
	lm          *lineMap
	mem         []byte   // embedded JSON (decoded from a string field)
	approx      diag.Pos // mem != nil: every position maps here
}

// pos returns the file line and column of byte offset off of src.
func (d *jdoc) pos(off int) (line, col int) {
	if d.mem != nil {
		return d.approx.Line, d.approx.Col
	}
	l, c := d.lm.lineCol(off)
	if l == 1 {
		return d.line0, d.col0 + c - 1
	}
	return d.line0 + l - 1, c
}

// span returns the file region of src bytes [start, end).
func (d *jdoc) span(start, end int) diag.Pos {
	if d.mem != nil {
		return d.approx
	}
	l, c := d.pos(start)
	if end <= start {
		return diag.Pos{File: d.file, Line: l, Col: c, EndLine: l, EndCol: c}
	}
	// Most values sit on one line: count the end from the start instead of
	// from the beginning of the line.
	seg := d.src[start:end]
	if bytes.IndexByte(seg, '\n') < 0 {
		return diag.Pos{File: d.file, Line: l, Col: c, EndLine: l, EndCol: c + utf8.RuneCount(seg)}
	}
	el, ec := d.pos(end)
	return diag.Pos{File: d.file, Line: l, Col: c, EndLine: el, EndCol: ec}
}

// lineMap converts byte offsets of one buffer to 1-based line and
// code-point column. It is built lazily and reusable.
type lineMap struct {
	src    []byte
	starts []int
	built  bool
}

func (lm *lineMap) reset(src []byte) {
	lm.src, lm.built = src, false
	lm.starts = lm.starts[:0]
}

func (lm *lineMap) lineCol(off int) (line, col int) {
	if !lm.built {
		lm.starts = append(lm.starts[:0], 0)
		src := lm.src
		for i := 0; ; {
			j := bytes.IndexByte(src[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			lm.starts = append(lm.starts, i)
		}
		lm.built = true
	}
	if off < 0 {
		off = 0
	}
	if off > len(lm.src) {
		off = len(lm.src)
	}
	i := sort.Search(len(lm.starts), func(i int) bool { return lm.starts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	seg := lm.src[lm.starts[i]:off]
	if isASCII(seg) {
		return i + 1, len(seg) + 1
	}
	return i + 1, utf8.RuneCount(seg) + 1
}

// text returns the decoded text of string node n.
func (d *jdoc) text(n int32) string {
	nd := &d.nodes[n]
	raw := d.src[nd.start:nd.end]
	if !nd.esc {
		inner := raw[1 : len(raw)-1]
		if utf8.Valid(inner) {
			return string(inner)
		}
	}
	*d.buf = decodeString((*d.buf)[:0], raw, nil)
	return string(*d.buf)
}

// keyIs reports whether key node k equals s.
func (d *jdoc) keyIs(k int32, s string) bool {
	nd := &d.nodes[k]
	if !nd.esc {
		return string(d.src[nd.start+1:nd.end-1]) == s
	}
	return d.text(k) == s
}

// get returns the value of member name of object n, or -1. Later duplicate
// keys win, as in encoding/json.
func (d *jdoc) get(n int32, name string) int32 {
	if n < 0 || d.nodes[n].kind != jObj {
		return -1
	}
	found := int32(-1)
	for k := d.nodes[n].child; k >= 0; {
		v := d.nodes[k].next
		if d.keyIs(k, name) {
			found = v
		}
		k = d.nodes[v].next
	}
	return found
}

func (d *jdoc) kind(n int32) jkind { return d.nodes[n].kind }

// str returns the text of n when it is a string.
func (d *jdoc) str(n int32) (string, bool) {
	if n < 0 || d.nodes[n].kind != jStr {
		return "", false
	}
	return d.text(n), true
}

// raw returns the bytes of value n as written.
func (d *jdoc) raw(n int32) []byte { return d.src[d.nodes[n].start:d.nodes[n].end] }
