package mailbox

import (
	"bytes"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
)

// JSON documents are scanned by jsonv's scanner (one scanner, one depth
// limit and one explanation of syntax errors for all of brenner-ci) into a
// flat tree of value spans; this file reads that tree: Scan looks at message
// metadata, skips bodies cheaply and reports exact byte offsets for every
// value. Strings are decoded on demand (decodeString).

type (
	jkind = jsonv.NodeKind
	jnode = jsonv.Node
)

const (
	jNull  = jsonv.NodeNull
	jFalse = jsonv.NodeFalse
	jTrue  = jsonv.NodeTrue
	jNum   = jsonv.NodeNumber
	jStr   = jsonv.NodeString
	jArr   = jsonv.NodeArray
	jObj   = jsonv.NodeObject
)

// kindName names a kind in a message ("an object").
func kindName(k jkind) string {
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

// jparser scans one JSON value; it is reusable (the node arena keeps its
// capacity).
type jparser struct{ jsonv.Scanner }

// parse scans exactly one JSON value in src[start:end], surrounded by
// optional white space (and an optional UTF-8 byte order mark before it),
// and returns the root node index. The error is a *jsonv.SyntaxError.
func (p *jparser) parse(src []byte, start, end int) (root int32, err error) {
	if end-start >= 3 && src[start] == 0xEF && src[start+1] == 0xBB && src[start+2] == 0xBF {
		start += 3 // UTF-8 byte order mark
	}
	return p.Scan(src, start, end)
}

// escape records that decoded bytes [Dec, Dec+DecN) of a JSON string come
// from raw bytes [Raw, Raw+RawN) (an escape sequence, or an invalid UTF-8
// byte replaced by U+FFFD); everything between escapes is copied verbatim.
type escape = jsonv.Escape

// decodeString appends the decoded content of the string literal raw
// (including its quotes) to dst; see jsonv.AppendDecoded.
func decodeString(dst, raw []byte, esc *[]escape) []byte { return jsonv.AppendDecoded(dst, raw, esc) }

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
	lm          *diag.LineIndex
	mem         []byte   // embedded JSON (decoded from a string field)
	approx      diag.Pos // mem != nil: every position maps here
	maxDepth    int      // the JSON nesting limit (0: the default), for parsing again
	cur         lineCursor
}

// lineCursor is where jdoc.lineCol last answered: src[:off] holds breaks
// line breaks, and the line holding off starts at start.
type lineCursor struct{ off, breaks, start int }

// cursorLine is the longest line lineCol measures itself; the columns of
// longer ones come from the LineIndex, which counts them through
// checkpoints.
const cursorLine = 1 << 10

// lineCol is d.lm.LineCol(off). Scan asks for the positions of a file
// mostly in increasing order (each message's start, then its fields), so
// it counts the line breaks since the last offset asked for (bytes.Count)
// instead of indexing every line of the file first, which cost a search
// per line. An offset before the last one, or on a long line, is left to
// the index. TestLineColMatchesIndex holds the two equal.
func (d *jdoc) lineCol(off int) (line, col int) {
	c := &d.cur
	if off < c.off || off > len(d.src) {
		return d.lm.LineCol(off)
	}
	if seg := d.src[c.off:off]; len(seg) > 0 {
		if n := bytes.Count(seg, newline); n > 0 {
			c.breaks += n
			c.start = c.off + bytes.LastIndexByte(seg, '\n') + 1
		}
		c.off = off
	}
	text := d.src[c.start:off]
	switch {
	case len(text) > cursorLine:
		return d.lm.LineCol(off)
	case isASCII(text):
		return c.breaks + 1, len(text) + 1
	}
	return c.breaks + 1, diag.RuneCount(text) + 1
}

var newline = []byte{'\n'}

// pos returns the file line and column of byte offset off of src.
func (d *jdoc) pos(off int) (line, col int) {
	if d.mem != nil {
		return d.approx.Line, d.approx.Col
	}
	l, c := d.lineCol(off)
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
		return diag.Pos{File: d.file, Line: l, Col: c, EndLine: l, EndCol: c + diag.RuneCount(seg)}
	}
	el, ec := d.pos(end)
	return diag.Pos{File: d.file, Line: l, Col: c, EndLine: el, EndCol: ec}
}

// text returns the decoded text of string node n.
func (d *jdoc) text(n int32) string {
	nd := &d.nodes[n]
	raw := d.src[nd.Start:nd.End]
	if !nd.Esc {
		inner := raw[1 : len(raw)-1]
		if utf8.Valid(inner) {
			return string(inner)
		}
	}
	*d.buf = decodeString((*d.buf)[:0], raw, nil)
	return string(*d.buf)
}

// view is text without a copy when the literal needs no decoding: the
// string shares d.src's bytes, so it is valid only while they are. The
// scanner packs a message, whose subject and time text are views, before
// it reads on; keep clones them for the records it holds unpacked.
func (d *jdoc) view(n int32) string {
	nd := &d.nodes[n]
	if !nd.Esc {
		inner := d.src[nd.Start+1 : nd.End-1]
		if isASCII(inner) || utf8.Valid(inner) {
			return unsafe.String(unsafe.SliceData(inner), len(inner))
		}
	}
	return d.text(n)
}

// keyIs reports whether key node k equals s.
func (d *jdoc) keyIs(k int32, s string) bool {
	nd := &d.nodes[k]
	if !nd.Esc {
		return string(d.src[nd.Start+1:nd.End-1]) == s
	}
	return d.text(k) == s
}

// get returns the value of member name of object n, or -1. A repeated key
// keeps its first value, as message fields do (fieldsOf); the scanner
// reports the repeats (repeats, IN-007).
func (d *jdoc) get(n int32, name string) int32 {
	if n < 0 || d.nodes[n].Kind != jObj {
		return -1
	}
	for k := d.nodes[n].Child; k >= 0; {
		v := d.nodes[k].Next
		if d.keyIs(k, name) {
			return v
		}
		k = d.nodes[v].Next
	}
	return -1
}

// repeats returns the key nodes of object n that repeat an earlier key, in
// file order, counting only the keys names.
func (d *jdoc) repeats(n int32, names []string) []int32 {
	if n < 0 || d.nodes[n].Kind != jObj {
		return nil
	}
	var seen []string
	var out []int32
	for k := d.nodes[n].Child; k >= 0; k = d.nodes[d.nodes[k].Next].Next {
		key := d.text(k)
		if !slices.Contains(names, key) {
			continue
		}
		if slices.Contains(seen, key) {
			out = append(out, k)
		} else {
			seen = append(seen, key)
		}
	}
	return out
}

func (d *jdoc) kind(n int32) jkind { return d.nodes[n].Kind }

// str returns the text of n when it is a string.
func (d *jdoc) str(n int32) (string, bool) {
	if n < 0 || d.nodes[n].Kind != jStr {
		return "", false
	}
	return d.text(n), true
}

// raw returns the bytes of value n as written.
func (d *jdoc) raw(n int32) []byte { return d.src[d.nodes[n].Start:d.nodes[n].End] }
