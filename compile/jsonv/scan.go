package jsonv

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"sort"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/compile/limits"
)

// This file holds brenner-ci's one strict JSON (RFC 8259) scanner. It checks
// syntax and builds a flat tree of value spans without decoding strings;
// Parse turns that tree into Values, and package mailbox reads it directly
// (so it can skip message bodies cheaply). Every syntax error it finds is a
// *SyntaxError explained by explain (explain.go).
//
// The scanner is iterative: nesting depth costs a slot in an explicit stack,
// never a goroutine stack frame, and is limited to Scanner.MaxDepth.

// NodeKind is the kind of a scanned value.
type NodeKind uint8

const (
	NodeNull NodeKind = iota
	NodeFalse
	NodeTrue
	NodeNumber
	NodeString
	NodeArray
	NodeObject
)

// Kind returns the Value kind of a node kind.
func (k NodeKind) Kind() Kind {
	return [...]Kind{Null, Bool, Bool, Number, String, Array, Object}[k]
}

// Node is one scanned value. The children of an object alternate key (a
// string node) and value. Nodes are stored in document order (a container
// before its children).
type Node struct {
	Start, End int32 // byte range of the value in the scanned buffer (inputs are under 2 GiB)
	Child      int32 // first child, or -1
	Next       int32 // next sibling, or -1
	N          int32 // number of children (an object's are keys and values)
	Kind       NodeKind
	Esc        bool // string: contains a backslash escape
}

// Scanner scans JSON text into Nodes. It is reusable: each Scan resets the
// node arena but keeps its capacity. The zero value is ready to use.
type Scanner struct {
	Nodes []Node
	// MaxDepth is the deepest nesting of arrays and objects accepted (0:
	// limits.DefaultJSONDepth); deeper input is a syntax error "too deep".
	MaxDepth int
	stack    []frame
	slots    []int32 // Parse: node to Value index
}

type frame struct {
	node, last int32
	obj        bool // the container is an object
}

// plainStr marks bytes that need no attention inside a string literal
// (everything but '"', '\\' and control characters).
var plainStr = func() (t [256]bool) {
	for i := range t {
		t[i] = i >= 0x20 && i != '"' && i != '\\'
	}
	return t
}()

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipWS returns the offset of the first byte at or after i that is not
// white space. Exports are indented: after a line break the spaces that
// follow are skipped eight at a time (the lowest byte of the word that is
// not a space ends the run).
func skipWS(src []byte, i, end int) int {
	for i < end && isSpace(src[i]) {
		i++
		if src[i-1] != '\n' {
			continue
		}
		for i+8 <= end {
			if x := binary.LittleEndian.Uint64(src[i:]) ^ (' ' * swarLo); x != 0 {
				i += bits.TrailingZeros64(x) >> 3
				break
			}
			i += 8
		}
	}
	return i
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// maxInput bounds the offsets a Scan handles: nodes keep 32-bit offsets (a
// node is 24 bytes, and a large document has a node every few bytes). A
// variable for tests.
var maxInput = math.MaxInt32

// Scan scans exactly one JSON value in src[start:end], surrounded by optional
// white space, into s.Nodes and returns the root node's index (0). Offsets in
// nodes and errors are offsets in src. The error is a *SyntaxError.
func (s *Scanner) Scan(src []byte, start, end int) (root int32, err error) {
	s.Nodes = s.Nodes[:0]
	s.stack = s.stack[:0]
	if end >= maxInput {
		return -1, newSyntaxError(src, start, end, start, errSize, 0)
	}
	if end-start >= countFirst {
		// A large input is counted first and its nodes allocated once:
		// grown by appending, a 100 MB document of small values held its
		// nodes twice over while copying them (the peak of a 100,000-thread
		// audit).
		c := scan{src: src, end: end, s: s, depth: s.maxDepth(), counting: true}
		if k, _ := c.run(start); k == errNone {
			s.Nodes = make([]Node, 0, c.count)
		}
		s.stack = s.stack[:0]
	}
	sc := scan{src: src, end: end, s: s, depth: s.maxDepth()}
	if k, off := sc.run(start); k != errNone {
		return -1, newSyntaxError(src, start, end, off, k, sc.depth)
	}
	return 0, nil
}

func (s *Scanner) maxDepth() int {
	return limits.Parse{JSONDepth: s.MaxDepth}.Depth()
}

// countFirst is the input size from which Scan counts the nodes before it
// stores them (a variable for tests).
var countFirst = 4 << 20

// scan is the state of one Scan.
type scan struct {
	src   []byte
	end   int
	s     *Scanner
	depth int // the nesting limit
	// counting: only count the nodes (count), store none.
	counting bool
	count    int
}

func (sc *scan) add(n Node) int32 {
	if sc.counting {
		sc.count++
		return int32(sc.count - 1)
	}
	sc.s.Nodes = append(sc.s.Nodes, n)
	id := int32(len(sc.s.Nodes) - 1)
	if k := len(sc.s.stack); k > 0 {
		f := &sc.s.stack[k-1]
		if f.last < 0 {
			sc.s.Nodes[f.node].Child = id
		} else {
			sc.s.Nodes[f.last].Next = id
		}
		sc.s.Nodes[f.node].N++
		f.last = id
	}
	return id
}

// run scans from i; it returns errNone, or the error kind and offset.
//
// It is long on purpose: the scanner's state machine in one loop with an explicit stack (no recursion), on the hot path of every input.
func (sc *scan) run(i int) (errKind, int) {
	src, end := sc.src, sc.end
	s := sc.s
	for {
		// A value starts at i (after white space).
		i = skipWS(src, i, end)
		if i >= end {
			return errEOF, end
		}
		switch c := src[i]; {
		case c == '{' || c == '[':
			if len(s.stack) >= sc.depth {
				return errDepth, i
			}
			kind, closer := NodeObject, byte('}')
			if c == '[' {
				kind, closer = NodeArray, ']'
			}
			n := sc.add(Node{Start: int32(i), Child: -1, Next: -1, Kind: kind})
			i = skipWS(src, i+1, end)
			if i >= end {
				return errEOF, end
			}
			if src[i] == closer {
				i++
				if !sc.counting {
					s.Nodes[n].End = int32(i)
				}
				break
			}
			s.stack = append(s.stack, frame{node: n, last: -1, obj: kind == NodeObject})
			if kind == NodeObject {
				var k errKind
				if i, k = sc.key(i); k != errNone {
					return k, i
				}
			}
			continue
		case c == '"':
			j, esc, k := sc.str(i)
			if k != errNone {
				return k, j
			}
			sc.add(Node{Start: int32(i), End: int32(j), Child: -1, Next: -1, Kind: NodeString, Esc: esc})
			i = j
		case c == '-' || (c >= '0' && c <= '9'):
			j, k := sc.number(i)
			if k != errNone {
				return k, j
			}
			sc.add(Node{Start: int32(i), End: int32(j), Child: -1, Next: -1, Kind: NodeNumber})
			i = j
		case c == 't' || c == 'f' || c == 'n':
			word, kind := "null", NodeNull
			if c == 't' {
				word, kind = "true", NodeTrue
			} else if c == 'f' {
				word, kind = "false", NodeFalse
			}
			for k := 0; k < len(word); k++ {
				if i+k >= end {
					return errEOF, end
				}
				if src[i+k] != word[k] {
					return errLiteral, i + k
				}
			}
			sc.add(Node{Start: int32(i), End: int32(i + len(word)), Child: -1, Next: -1, Kind: kind})
			i += len(word)
		default:
			return errValue, i
		}
		// A value ended at i: close containers until one continues.
		for {
			if len(s.stack) == 0 {
				i = skipWS(src, i, end)
				if i < end {
					return errTop, i
				}
				return errNone, i
			}
			i = skipWS(src, i, end)
			if i >= end {
				return errEOF, end
			}
			f := s.stack[len(s.stack)-1]
			obj := f.obj
			c := src[i]
			if c == ',' {
				i++
				if obj {
					var k errKind
					if i, k = sc.key(i); k != errNone {
						return k, i
					}
				}
				break
			}
			if obj && c == '}' || !obj && c == ']' {
				i++
				if !sc.counting {
					s.Nodes[f.node].End = int32(i)
				}
				s.stack = s.stack[:len(s.stack)-1]
				continue
			}
			if obj {
				return errMember, i
			}
			return errElem, i
		}
	}
}

// key scans an object key and the colon after it; it returns the offset
// after the colon, or the error kind and offset.
func (sc *scan) key(i int) (int, errKind) {
	src, end := sc.src, sc.end
	i = skipWS(src, i, end)
	if i >= end {
		return end, errEOF
	}
	if src[i] != '"' {
		return i, errKey
	}
	j, esc, k := sc.str(i)
	if k != errNone {
		return j, k
	}
	sc.add(Node{Start: int32(i), End: int32(j), Child: -1, Next: -1, Kind: NodeString, Esc: esc})
	j = skipWS(src, j, end)
	if j >= end {
		return end, errEOF
	}
	if src[j] != ':' {
		return j, errColon
	}
	return j + 1, errNone
}

const (
	swarLo = 0x0101010101010101
	swarHi = 0x8080808080808080
)

// str scans a string literal starting at its opening quote i and returns the
// offset after the closing quote and whether the literal has escapes.
func (sc *scan) str(i int) (int, bool, errKind) {
	src := sc.src[:sc.end] // no block read past the scanned bytes
	end := len(src)
	esc := false
	i++
	// The 64-byte block strMasks last looked at, and its special bytes
	// ('"', '\\', control characters): escapes come every 20 bytes or so
	// in a body, and the block's masks serve all of them.
	base, mask := i-strBlock, uint64(0)
	for {
		if vectorStr {
			for {
				if i-base < strBlock {
					if m := mask >> uint(i-base); m != 0 {
						i += bits.TrailingZeros64(m)
						goto special
					}
					i = base + strBlock
				}
				if i+strBlock > end {
					break // the last bytes: eight at a time
				}
				q, b, c, e := strMasks((*[strBlock]byte)(src[i : i+strBlock]))
				// A block whose escapes are all two bytes long, inside it
				// and simple (no escaped backslash, no \u) is read whole: the escaped
				// bytes are those after a backslash, and the string goes on
				// to the first quote not among them or a control character.
				if escd := b << 1; b&escd == 0 && b>>63 == 0 && escd&^e == 0 {
					if stop := q&^escd | c; stop != 0 {
						k := bits.TrailingZeros64(stop)
						esc = esc || b&(1<<k-1) != 0
						if c>>k&1 != 0 {
							return i + k, esc, errControl
						}
						return i + k + 1, esc, errNone
					}
					esc = esc || b != 0
					i += strBlock
					continue
				}
				base, mask = i, q|b|c // one special at a time
			}
		}
		// Eight bytes at a time while none of them is '"', '\\' or a
		// control character (SWAR: a zero byte of w^x marks a byte equal to
		// x; a zero byte of w&0xE0… marks one below 0x20). Bodies are long
		// strings, so this loop is most of a JSON scan.
		for i+8 <= end {
			w := binary.LittleEndian.Uint64(src[i:])
			q, b, c := w^(0x22*swarLo), w^(0x5C*swarLo), w&(0xE0*swarLo)
			if m := ((q-swarLo)&^q | (b-swarLo)&^b | (c-swarLo)&^c) & swarHi; m != 0 {
				i += bits.TrailingZeros64(m) >> 3 // the byte that stopped it
				goto special
			}
			i += 8
		}
		for i < end && plainStr[src[i]] {
			i++
		}
		if i >= end {
			return end, esc, errEOFString
		}
	special:
		switch c := src[i]; {
		case c == '"':
			return i + 1, esc, errNone
		case c == '\\':
			esc = true
			if i+1 >= end {
				return end, esc, errEOFString
			}
			switch src[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= end {
						return end, esc, errEOFString
					}
					if !isHex(src[i+k]) {
						return i + k, esc, errHex
					}
				}
				i += 6
			default:
				return i + 1, esc, errEscape
			}
		default: // c < 0x20
			return i, esc, errControl
		}
	}
}

// appendEscape appends the decoded backslash escape at raw[i] (validated
// by the scanner) and returns where the text goes on.
func appendEscape(dst, raw []byte, i int) ([]byte, int) {
	if i+1 >= len(raw) {
		return append(dst, raw[i]), i + 1 // not reachable for scanned input; keep the byte
	}
	switch raw[i+1] {
	case '"', '\\', '/':
		return append(dst, raw[i+1]), i + 2
	case 'b':
		return append(dst, '\b'), i + 2
	case 'f':
		return append(dst, '\f'), i + 2
	case 'n':
		return append(dst, '\n'), i + 2
	case 'r':
		return append(dst, '\r'), i + 2
	case 't':
		return append(dst, '\t'), i + 2
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
		return utf8.AppendRune(dst, r), i
	}
	return append(dst, raw[i]), i + 1 // not reachable for scanned input; keep the byte
}

// DecodeSlack is the room AppendDecoded wants in dst past the literal's
// content (the literal without its quotes): with that much capacity free,
// dst never grows.
const DecodeSlack = 8

// appendValid is AppendDecoded for a literal's content raw when nobody
// asks where the escapes were, for raw that is valid UTF-8; ascii reports
// whether every byte of raw is below 0x80 (then it is valid). Exported
// bodies escape a quote or a line break every 20 bytes or so, so the runs
// between escapes are short: where the processor can, decodeBlocks copies
// them 32 bytes at a time and decodes the two-byte escapes; the rest (a
// "\u" escape, the last 31 bytes, or all of it without AVX2) is copied eight
// bytes at a time with no call (a word is stored whole and the output
// advances to the backslash in it; the decoded text is never longer than
// the raw), and the commonest escapes are decoded in the loop.
// FuzzAppendValid holds it to the general loop, FuzzSpecials both ways to
// each other.
func appendValid(dst, raw []byte) (out []byte, ascii bool) {
	n := len(dst)
	dst = slices.Grow(dst, len(raw)+DecodeSlack)
	out = dst[:cap(dst)]
	var seen uint64 // the bytes read, or-ed: their high bits
	i := 0
	for i < len(raw) {
		if vectorStr && i+32 <= len(raw) {
			var high uint32
			if n, i, high = decodeBlocks(out, raw, n, i, &simpleEscape); high != 0 {
				seen |= swarHi
			}
		}
		for i+8 <= len(raw) {
			w := binary.LittleEndian.Uint64(raw[i:])
			binary.LittleEndian.PutUint64(out[n:], w)
			x := w ^ (0x5C * swarLo)
			if m := (x - swarLo) &^ x & swarHi; m != 0 {
				k := bits.TrailingZeros64(m) >> 3
				seen |= w & (1<<(8*k) - 1) // the bytes before the backslash
				n, i = n+k, i+k
				goto escape
			}
			seen |= w
			n, i = n+8, i+8
		}
		for i < len(raw) && raw[i] != '\\' {
			out[n] = raw[i]
			seen |= uint64(raw[i])
			n, i = n+1, i+1
		}
		if i == len(raw) {
			break
		}
	escape:
		if i+1 < len(raw) {
			if c := simpleEscape[raw[i+1]]; c != 0 {
				out[n] = c
				n, i = n+1, i+2
				continue
			}
		}
		d, next := appendEscape(out[:n], raw, i)
		for _, c := range raw[i:next] {
			seen |= uint64(c)
		}
		out, n, i = d[:cap(d)], len(d), next
	}
	return out[:n], seen&swarHi == 0
}

// simpleEscape is the byte a two-byte escape stands for (0: not one, or
// "\u", which appendEscape decodes).
var simpleEscape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// number scans a number starting at i and returns the offset after it.
func (sc *scan) number(i int) (int, errKind) {
	src, end := sc.src, sc.end
	digits := func() int {
		n := 0
		for i < end && src[i] >= '0' && src[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if src[i] == '-' {
		i++
		if i >= end {
			return end, errEOF
		}
	}
	switch c := src[i]; {
	case c == '0':
		i++
	case c >= '1' && c <= '9':
		digits()
	default:
		return i, errNumber
	}
	if i < end && src[i] == '.' {
		i++
		if i >= end {
			return end, errEOF
		}
		if digits() == 0 {
			return i, errFrac
		}
	}
	if i < end && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < end && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if i >= end {
			return end, errEOF
		}
		if digits() == 0 {
			return i, errExp
		}
	}
	return i, errNone
}

// Escape records a place where decoded string text is not a verbatim copy
// of the literal: decoded bytes [Dec, Dec+DecN) come from literal bytes
// [Raw, Raw+RawN). Offsets are relative to the first byte after the opening
// quote and to the first decoded byte.
type Escape struct{ Dec, Raw, DecN, RawN int }

// AppendDecoded appends the decoded content of the scanned string literal lit
// (including its quotes) to dst. Invalid UTF-8 and lone surrogates become
// U+FFFD, as encoding/json does. When esc is non-nil, every place where the
// decoded text is not a verbatim copy of the literal is appended to it.
//
// It is long on purpose: the string decoder's loop with its escape cases inline, on the hot path of every export.
func AppendDecoded(dst, lit []byte, esc *[]Escape) []byte {
	raw := lit[1 : len(lit)-1]
	base := len(dst)
	// One validity check of the whole literal (escapes are ASCII, so every
	// run between them is then valid too) instead of one per run: a body
	// has an escaped newline on every line. Without escape positions the
	// text is copied first and checked after, only when it holds a byte
	// past ASCII (most bodies hold none).
	if esc == nil {
		out, ascii := appendValid(dst, raw)
		if ascii || utf8.Valid(raw) {
			return out
		}
		dst = out[:base] // invalid UTF-8: decoded again below
	}
	valid := esc != nil && utf8.Valid(raw)
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
			if valid || utf8.Valid(raw[i:j]) {
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
					*esc = append(*esc, Escape{Dec: len(dst) - base, Raw: i, DecN: 3, RawN: 1})
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
		dst, i = appendEscape(dst, raw, i)
		if esc != nil {
			*esc = append(*esc, Escape{Dec: dec, Raw: rawStart, DecN: len(dst) - base - dec, RawN: i - rawStart})
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

// Escapes appends to esc the escape table AppendDecoded records for the
// scanned string literal lit, decoding into a pooled scratch buffer (a
// body's position map needs only the table, not another decoded copy).
func Escapes(lit []byte, esc *[]Escape) {
	// One entry per backslash escape at most, plus invalid bytes (rare):
	// sized once instead of grown by doubling.
	if need := len(*esc) + bytes.Count(lit, []byte{'\\'}); cap(*esc) < need {
		grown := make([]Escape, len(*esc), need)
		copy(grown, *esc)
		*esc = grown
	}
	bp := scratch.Get().(*[]byte)
	*bp = AppendDecoded((*bp)[:0], lit, esc)
	if cap(*bp) <= 1<<20 {
		scratch.Put(bp)
	}
}

var scratch = sync.Pool{New: func() any { return new([]byte) }}

// RawOffset maps decoded offset dec of a literal to an offset in its raw
// content with the literal's escape table esc (Escapes): an offset inside a
// multi-byte escape maps to the escape's first raw byte, or, for an end
// offset, past its last.
func RawOffset(esc []Escape, dec int, end bool) int {
	i := sort.Search(len(esc), func(i int) bool { return esc[i].Dec > dec }) - 1
	if i < 0 {
		return dec
	}
	e := esc[i]
	switch {
	case dec == e.Dec:
		return e.Raw
	case dec < e.Dec+e.DecN: // inside a multi-byte escape
		if end {
			return e.Raw + e.RawN
		}
		return e.Raw
	}
	return e.Raw + e.RawN + dec - (e.Dec + e.DecN)
}

// RawOffsets maps decoded offsets start <= end of the scanned string
// literal lit (quotes included) to offsets in its raw content (the bytes
// between the quotes), as a lookup in the escape table AppendDecoded
// records would (RawOffset): an offset inside a multi-byte escape maps to the escape's
// first raw byte for start and past its last for end. It walks the
// literal once and builds no table, for a caller that wants one or two
// positions in a long text. ok is false when the content is not valid
// UTF-8: its invalid bytes are escapes of their own, which only the table
// knows (build it with Escapes).
func RawOffsets(lit []byte, start, end int) (rawStart, rawEnd int, ok bool) {
	raw := lit[1 : len(lit)-1]
	if !utf8.Valid(raw) {
		return 0, 0, false
	}
	var tmp [utf8.UTFMax]byte
	want, isEnd := start, false
	i, d := 0, 0 // raw and decoded offsets after the last escape
	for {
		run := bytes.IndexByte(raw[i:], '\\')
		last := run < 0 // no escape after i
		if last {
			run = len(raw) - i
		}
		for last || want <= d+run { // want is in the verbatim run before the escape
			r := i + want - d
			if isEnd {
				return rawStart, r, true
			}
			rawStart, want, isEnd = r, end, true
		}
		// The escape at raw[at]: want is inside it or after it.
		at := i + run
		dec, next := appendEscape(tmp[:0], raw, at)
		for want < d+run+len(dec) {
			if isEnd {
				return rawStart, next, true
			}
			rawStart, want, isEnd = at, end, true
		}
		i, d = next, d+run+len(dec)
	}
}
