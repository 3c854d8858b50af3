// Package jsonv is brenner-ci's one strict JSON reader (RFC 8259, no repair).
// Its scanner (Scanner) checks syntax and builds a flat tree of value spans;
// Parse turns that into Values that keep object key order and the byte offset
// of every value. All JSON input - Agent Mail exports (package mailbox reads
// the span tree directly), delta blocks, evidence packs and JSON artifact
// objects - goes through it, so nesting is limited by one depth limit and every
// syntax error is a *SyntaxError explained in the same words everywhere.
package jsonv

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/brenner-ci/brenner-ci/compile/chunk"
)

// Kind of a JSON value.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// Value is one decoded JSON value.
//
// A Value is allocated for every value of every delta block and artifact
// item, most of them strings, so it holds only what a scalar needs (64
// bytes); an array's elements and an object's members are in a container
// of their own (Arr, Keys, Vals). One thread of 100,000 delta messages held
// 750,000 values, at 144 bytes each before the split.
type Value struct {
	Kind Kind
	Bool bool
	Num  json.Number // Number: the literal as written
	Str  string
	Off  int // byte offset of the value's first byte in the input
	End  int // byte offset just after the value
	// c holds an array's elements or an object's members; nil for a
	// scalar and for an empty array or object built without room.
	c *container
}

// poisonKind is the kind of the values an arena's Reset leaves behind when
// PoisonOnReset is set (see arena.go): Arr, Keys, Vals and Len show its poison.
const poisonKind Kind = 99

// container is the part of an array or object value that scalars do
// without.
type container struct {
	// vals are an array's elements, or an object's members' values
	// (aligned with keys).
	vals []*Value
	// keys are an object's keys in document order; a repeated key keeps
	// its first value (see Dups).
	keys []string
	// keyOffs are the byte offsets of the keys' opening quotes, aligned
	// with keys (-1 for a member added by Set); nil for objects not parsed.
	keyOffs []int
	// idx maps keys to their index in objects of more than smallObject
	// members, kept by the parser, Set and Delete (never built on a read,
	// so a Value may be read from several goroutines).
	idx map[string]int
	// dups lists the repeated keys of an object after their first
	// occurrence, with the offset of the repeated key: the first value is
	// the one used (what a reader sees first), and callers report the rest.
	dups []Dup
}

// Arr returns an array's elements (nil for any other kind). The slice is
// the value's own: change it only through Append.
func (v *Value) Arr() []*Value {
	if v == nil || v.c == nil || v.Kind != Array && v.Kind != poisonKind {
		return nil
	}
	return v.c.vals
}

// Keys returns an object's keys in document order (nil for any other
// kind); a repeated key is listed once (see Dups). The slice is the
// value's own: change it only through Set and Delete.
func (v *Value) Keys() []string {
	if v == nil || v.c == nil || v.Kind != Object && v.Kind != poisonKind {
		return nil
	}
	return v.c.keys
}

// Vals returns an object's members' values, aligned with Keys (nil for
// any other kind).
func (v *Value) Vals() []*Value {
	if v == nil || v.c == nil || v.Kind != Object && v.Kind != poisonKind {
		return nil
	}
	return v.c.vals
}

// NewArray returns an array value of the elements elems (the slice is
// kept, not copied).
func NewArray(elems []*Value) *Value {
	return &Value{Kind: Array, c: &container{vals: elems}}
}

// Append adds e at the end of an array.
func (v *Value) Append(e *Value) {
	c := v.cont()
	c.vals = append(c.vals, e)
}

// Dups lists the repeated keys of a parsed object after their first
// occurrence (the first value is the one Get returns).
func (v *Value) Dups() []Dup {
	if v == nil || v.c == nil {
		return nil
	}
	return v.c.dups
}

// ClearKeyOffsets forgets where an object's keys were (its value no longer
// stands for that input).
func (v *Value) ClearKeyOffsets() {
	if v.c != nil {
		v.c.keyOffs = nil
	}
}

// cont returns v.c, creating it.
func (v *Value) cont() *container {
	if v.c == nil {
		v.c = &container{}
	}
	return v.c
}

// Dup is a repeated object key.
type Dup struct {
	Key string
	Off int // byte offset of the repeated key's opening quote
}

// Objects are slices of keys and values (a map per object was the largest
// allocation of a run); objects with more members than this also keep an
// index, so that lookups in an object of any size stay cheap.
const smallObject = 16

// find returns the index of member k, or -1.
func (v *Value) find(k string) int {
	if v.c == nil {
		return -1
	}
	if v.c.idx != nil {
		if i, ok := v.c.idx[k]; ok {
			return i
		}
		return -1
	}
	for i, kk := range v.c.keys {
		if kk == k {
			return i
		}
	}
	return -1
}

// Get returns the member k of an object value, or nil.
func (v *Value) Get(k string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	if i := v.find(k); i >= 0 {
		return v.c.vals[i]
	}
	return nil
}

// Has reports whether an object has member k (even when it is null).
func (v *Value) Has(k string) bool {
	if v == nil || v.Kind != Object {
		return false
	}
	return v.find(k) >= 0
}

// KeyOffset returns the byte offset of member k's key in the input, when
// the object was parsed and k was in it.
func (v *Value) KeyOffset(k string) (int, bool) {
	if v == nil || v.Kind != Object || v.c == nil || v.c.keyOffs == nil {
		return 0, false
	}
	if i := v.find(k); i >= 0 && v.c.keyOffs[i] >= 0 {
		return v.c.keyOffs[i], true
	}
	return 0, false
}

// Len is the number of members of an object (elements of an array).
func (v *Value) Len() int {
	if v == nil || v.c == nil || v.Kind != Array && v.Kind != Object && v.Kind != poisonKind {
		return 0
	}
	return len(v.c.vals)
}

// reindex rebuilds the index of a large object (drops it for a small one).
func (v *Value) reindex() {
	o := v.cont()
	if len(o.keys) <= smallObject {
		o.idx = nil
		return
	}
	o.idx = make(map[string]int, len(o.keys))
	for i, k := range o.keys {
		o.idx[k] = i
	}
}

// IsNull reports whether v is absent or JSON null.
func (v *Value) IsNull() bool { return v == nil || v.Kind == Null }

// Phrase names the kind with its article, as messages quote a value's
// kind: "an object", "an array", "a string", "null".
func (k Kind) Phrase() string {
	switch k {
	case Null:
		return "null"
	case Array, Object:
		return "an " + k.String()
	}
	return "a " + k.String()
}

// IsBlank reports whether v says nothing: absent (nil), null, a string of
// white space, or an empty object or array. A required field that is
// blank counts as missing (delta validation), and two blank values are
// the same (DR-001).
func (v *Value) IsBlank() bool {
	if v.IsNull() {
		return true
	}
	switch v.Kind {
	case String:
		return strings.TrimSpace(v.Str) == ""
	case Object, Array:
		return v.Len() == 0
	}
	return false
}

// AsString returns the string and true when v is a string.
func (v *Value) AsString() (string, bool) {
	if v == nil || v.Kind != String {
		return "", false
	}
	return v.Str, true
}

// Float returns the number as float64 when v is a number.
func (v *Value) Float() (float64, bool) {
	if v == nil || v.Kind != Number {
		return 0, false
	}
	f, err := v.Num.Float64()
	return f, err == nil
}

// Clone returns a deep copy of v.
func (v *Value) Clone() *Value {
	if v == nil {
		return nil
	}
	c := *v
	if o := v.c; o != nil {
		c.c = &container{vals: make([]*Value, len(o.vals))}
		for i, e := range o.vals {
			c.c.vals[i] = e.Clone()
		}
		if o.keys != nil {
			c.c.keys = append([]string(nil), o.keys...)
		}
		if o.keyOffs != nil {
			c.c.keyOffs = append([]int(nil), o.keyOffs...)
		}
		c.c.dups = append([]Dup(nil), o.dups...)
		if o.idx != nil {
			c.reindex()
		}
	}
	return &c
}

// Set assigns member k of an object, appending k to Keys when it is new.
func (v *Value) Set(k string, e *Value) {
	if i := v.find(k); i >= 0 {
		v.c.vals[i] = e
		return
	}
	o := v.cont()
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, e)
	if o.keyOffs != nil {
		o.keyOffs = append(o.keyOffs, -1)
	}
	switch {
	case o.idx != nil:
		o.idx[k] = len(o.keys) - 1
	case len(o.keys) > smallObject:
		v.reindex()
	}
}

// Delete removes member k of an object.
func (v *Value) Delete(k string) {
	i := v.find(k)
	if i < 0 {
		return
	}
	o := v.c
	o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
	o.vals = append(o.vals[:i:i], o.vals[i+1:]...)
	if o.keyOffs != nil {
		o.keyOffs = append(o.keyOffs[:i:i], o.keyOffs[i+1:]...)
	}
	if o.idx != nil {
		v.reindex()
	}
}

// NewObject returns an empty object value.
func NewObject() *Value { return &Value{Kind: Object} }

// NewObjectCap returns an empty object with room for n members.
func NewObjectCap(n int) *Value {
	return &Value{Kind: Object, c: &container{keys: make([]string, 0, n), vals: make([]*Value, 0, n)}}
}

// NewObjectIn is NewObjectCap with the object and its member lists taken
// from arena (nil: the heap), so it is invalid once the arena is reset. A
// member past the n it has room for moves the lists to the heap.
func NewObjectIn(arena *Arena, n int) *Value {
	if arena == nil {
		return NewObjectCap(n)
	}
	v := &chunk.Take(&arena.vals, 1, arena.heap)[0]
	v.Kind = Object
	v.c = &chunk.Take(&arena.conts, 1, arena.heap)[0]
	v.c.keys = chunk.Take(&arena.keys, n, arena.heap)[:0]
	v.c.vals = chunk.Take(&arena.ptrs, n, arena.heap)[:0]
	return v
}

// NewString returns a string value.
func NewString(s string) *Value { return &Value{Kind: String, Str: s} }

// Equal reports deep equality (numbers compare by value, objects ignore key order).
func Equal(a, b *Value) bool {
	if a == nil || b == nil {
		return a.IsNull() && b.IsNull()
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Null:
		return true
	case Bool:
		return a.Bool == b.Bool
	case Number:
		fa, _ := a.Float()
		fb, _ := b.Float()
		return fa == fb
	case String:
		return a.Str == b.Str
	case Array:
		ea, eb := a.Arr(), b.Arr()
		if len(ea) != len(eb) {
			return false
		}
		for i := range ea {
			if !Equal(ea[i], eb[i]) {
				return false
			}
		}
		return true
	case Object:
		if a.Len() != b.Len() {
			return false
		}
		vals := a.Vals()
		for i, k := range a.Keys() {
			j := b.find(k)
			if j < 0 || !Equal(vals[i], b.c.vals[j]) {
				return false
			}
		}
		return true
	}
	return false
}

// Text renders v as compact JSON with keys in document order.
func (v *Value) Text() string {
	var b strings.Builder
	v.write(&b)
	return b.String()
}

func (v *Value) write(b *strings.Builder) {
	if v == nil {
		b.WriteString("null")
		return
	}
	switch v.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case Number:
		b.WriteString(v.Num.String())
	case String:
		writeString(b, v.Str)
	case Array:
		b.WriteByte('[')
		for i, e := range v.Arr() {
			if i > 0 {
				b.WriteByte(',')
			}
			e.write(b)
		}
		b.WriteByte(']')
	case Object:
		b.WriteByte('{')
		vals := v.Vals()
		for i, k := range v.Keys() {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			vals[i].write(b)
		}
		b.WriteByte('}')
	}
}

func writeString(b *strings.Builder, s string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Write(bytes.TrimRight(buf.Bytes(), "\n"))
}

// Parse decodes exactly one JSON value from data (surrounding white space
// allowed). Numbers keep their literal text. A syntax error is a
// *SyntaxError; input nested deeper than limits.DefaultJSONDepth is one.
func Parse(data []byte) (*Value, error) {
	return ParseStringDepth(string(data), 0)
}

// ParseString is Parse on a string. The strings of the result (keys,
// string values without escapes, number literals) are substrings of src,
// not copies: a delta block's values share its message body's memory.
func ParseString(src string) (*Value, error) {
	return ParseStringDepth(src, 0)
}

// ParseDepth is Parse with a nesting limit (0: limits.DefaultJSONDepth).
func ParseDepth(data []byte, maxDepth int) (*Value, error) {
	return ParseStringDepth(string(data), maxDepth)
}

// ParseStringDepth is ParseString with a nesting limit (0:
// limits.DefaultJSONDepth).
func ParseStringDepth(src string, maxDepth int) (*Value, error) {
	return ParseStringIn(nil, src, maxDepth)
}

// ParseStringIn is ParseStringDepth with the Values allocated in a (nil:
// from the heap); they are valid until a is reset.
func ParseStringIn(a *Arena, src string, maxDepth int) (*Value, error) {
	s := scannerPool.Get().(*Scanner)
	s.MaxDepth = maxDepth
	defer func() {
		if cap(s.Nodes) > 1<<16 {
			s.Nodes, s.slots = nil, nil // do not keep huge arenas alive in the pool
		}
		scannerPool.Put(s)
	}()
	// The scanner only reads its input: it may see the string's bytes.
	data := unsafe.Slice(unsafe.StringData(src), len(src))
	root, err := s.Scan(data, 0, len(data))
	if err != nil {
		return nil, err
	}
	return s.tree(a, src, root), nil
}

var scannerPool = sync.Pool{New: func() any { return new(Scanner) }}

// tree builds the Values of the scanned nodes of src without recursion and
// returns the value of node root. Values, object members and array
// elements each come from one allocation shared by the whole tree.
func (s *Scanner) tree(a *Arena, src string, root int32) *Value {
	nodes := s.Nodes
	// slot[i] is node i's index in vals, or -1 for an object key.
	slot := s.slots[:0]
	slot = append(slot, make([]int32, len(nodes))...)
	s.slots = slot
	nv, members, elems, containers := int32(0), 0, 0, 0
	for i := range nodes {
		if slot[i] < 0 {
			continue
		}
		slot[i] = nv
		nv++
		switch nodes[i].Kind {
		case NodeObject:
			containers++
			members += int(nodes[i].N / 2)
			for c := nodes[i].Child; c >= 0; c = nodes[nodes[c].Next].Next {
				slot[c] = -1
			}
		case NodeArray:
			containers++
			elems += int(nodes[i].N)
		}
	}
	if a == nil {
		a = &heapArena
	}
	vals := chunk.Take(&a.vals, int(nv), a.heap)
	conts := chunk.Take(&a.conts, containers, a.heap)
	// Arenas, sliced with their capacity capped so that a later Set or
	// append on one value reallocates instead of overwriting a neighbour.
	ptrs := chunk.Take(&a.ptrs, members+elems, a.heap)
	keys := chunk.Take(&a.keys, members, a.heap)
	offs := chunk.Take(&a.offs, members, a.heap)
	var buf []byte
	valid := utf8.ValidString(src) // once, not once per string (most are short)
	str := func(n *Node) string {
		lit := src[n.Start:n.End]
		if !n.Esc {
			if inner := lit[1 : len(lit)-1]; valid || utf8.ValidString(inner) {
				return inner
			}
		}
		buf = AppendDecoded(buf[:0], unsafe.Slice(unsafe.StringData(lit), len(lit)), nil)
		return string(buf)
	}
	for i := range nodes {
		if slot[i] < 0 {
			continue
		}
		n := &nodes[i]
		v := &vals[slot[i]]
		v.Off, v.End = int(n.Start), int(n.End)
		v.Kind = n.Kind.Kind()
		switch n.Kind {
		case NodeTrue:
			v.Bool = true
		case NodeNumber:
			v.Num = json.Number(src[n.Start:n.End])
		case NodeString:
			v.Str = str(n)
		case NodeArray:
			k := int(n.N)
			o := &conts[0]
			conts = conts[1:]
			v.c = o
			o.vals, ptrs = ptrs[:0:k], ptrs[k:]
			for c := n.Child; c >= 0; c = nodes[c].Next {
				o.vals = append(o.vals, &vals[slot[c]])
			}
		case NodeObject:
			k := int(n.N / 2)
			o := &conts[0]
			conts = conts[1:]
			v.c = o
			o.keys, keys = keys[:0:k], keys[k:]
			o.vals, ptrs = ptrs[:0:k], ptrs[k:]
			o.keyOffs, offs = offs[:0:k], offs[k:]
			if k > smallObject {
				o.idx = make(map[string]int, k)
			}
			for c := n.Child; c >= 0; {
				e := nodes[c].Next
				key := str(&nodes[c])
				if v.find(key) >= 0 {
					o.dups = append(o.dups, Dup{Key: key, Off: int(nodes[c].Start)})
				} else {
					if o.idx != nil {
						o.idx[key] = len(o.keys)
					}
					o.keys = append(o.keys, key)
					o.vals = append(o.vals, &vals[slot[e]])
					o.keyOffs = append(o.keyOffs, int(nodes[c].Start))
				}
				c = nodes[e].Next
			}
		}
	}
	return &vals[slot[root]]
}
