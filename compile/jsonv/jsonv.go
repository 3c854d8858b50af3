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
type Kind int

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
type Value struct {
	Kind Kind
	Bool bool
	Num  json.Number // Number: the literal as written
	Str  string
	Arr  []*Value
	Keys []string // Object: keys in document order; a repeated key keeps its first value (see Dups)
	Vals []*Value // Object: the members' values, aligned with Keys
	Off  int      // byte offset of the value's first byte in the input
	End  int      // byte offset just after the value
	// obj holds what only some objects have (a Value is allocated for
	// every value of every delta block, so it is kept small): see objInfo.
	obj *objInfo
}

// objInfo is the part of an object value that most values do without.
type objInfo struct {
	// keyOffs are the byte offsets of the keys' opening quotes, aligned
	// with Keys (-1 for a member added by Set); nil for objects not parsed.
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

// Dups lists the repeated keys of a parsed object after their first
// occurrence (the first value is the one Get returns).
func (v *Value) Dups() []Dup {
	if v == nil || v.obj == nil {
		return nil
	}
	return v.obj.dups
}

// ClearKeyOffsets forgets where an object's keys were (its value no longer
// stands for that input).
func (v *Value) ClearKeyOffsets() {
	if v.obj != nil {
		v.obj.keyOffs = nil
	}
}

// info returns v.obj, creating it.
func (v *Value) info() *objInfo {
	if v.obj == nil {
		v.obj = &objInfo{}
	}
	return v.obj
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
	if v.obj != nil && v.obj.idx != nil {
		if i, ok := v.obj.idx[k]; ok {
			return i
		}
		return -1
	}
	for i, kk := range v.Keys {
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
		return v.Vals[i]
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
	if v == nil || v.Kind != Object || v.obj == nil || v.obj.keyOffs == nil {
		return 0, false
	}
	if i := v.find(k); i >= 0 && v.obj.keyOffs[i] >= 0 {
		return v.obj.keyOffs[i], true
	}
	return 0, false
}

// Len is the number of members of an object (elements of an array).
func (v *Value) Len() int {
	if v == nil {
		return 0
	}
	if v.Kind == Array {
		return len(v.Arr)
	}
	return len(v.Keys)
}

// reindex rebuilds the index of a large object (drops it for a small one).
func (v *Value) reindex() {
	if len(v.Keys) <= smallObject {
		if v.obj != nil {
			v.obj.idx = nil
		}
		return
	}
	o := v.info()
	o.idx = make(map[string]int, len(v.Keys))
	for i, k := range v.Keys {
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
	case Object:
		return len(v.Keys) == 0
	case Array:
		return len(v.Arr) == 0
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
	if v.Arr != nil {
		c.Arr = make([]*Value, len(v.Arr))
		for i, e := range v.Arr {
			c.Arr[i] = e.Clone()
		}
	}
	if v.Kind == Object {
		c.Keys = append([]string(nil), v.Keys...)
		c.Vals = make([]*Value, len(v.Vals))
		for i, e := range v.Vals {
			c.Vals[i] = e.Clone()
		}
		if o := v.obj; o != nil {
			c.obj = &objInfo{keyOffs: append([]int(nil), o.keyOffs...), dups: append([]Dup(nil), o.dups...)}
			if o.idx != nil {
				c.reindex()
			}
		}
	}
	return &c
}

// Set assigns member k of an object, appending k to Keys when it is new.
func (v *Value) Set(k string, e *Value) {
	if i := v.find(k); i >= 0 {
		v.Vals[i] = e
		return
	}
	v.Keys = append(v.Keys, k)
	v.Vals = append(v.Vals, e)
	if o := v.obj; o != nil && o.keyOffs != nil {
		o.keyOffs = append(o.keyOffs, -1)
	}
	switch {
	case v.obj != nil && v.obj.idx != nil:
		v.obj.idx[k] = len(v.Keys) - 1
	case len(v.Keys) > smallObject:
		v.reindex()
	}
}

// Delete removes member k of an object.
func (v *Value) Delete(k string) {
	i := v.find(k)
	if i < 0 {
		return
	}
	v.Keys = append(v.Keys[:i:i], v.Keys[i+1:]...)
	v.Vals = append(v.Vals[:i:i], v.Vals[i+1:]...)
	if o := v.obj; o != nil && o.keyOffs != nil {
		o.keyOffs = append(o.keyOffs[:i:i], o.keyOffs[i+1:]...)
	}
	if v.obj != nil && v.obj.idx != nil {
		v.reindex()
	}
}

// NewObject returns an empty object value.
func NewObject() *Value { return &Value{Kind: Object} }

// NewObjectCap returns an empty object with room for n members.
func NewObjectCap(n int) *Value {
	return &Value{Kind: Object, Keys: make([]string, 0, n), Vals: make([]*Value, 0, n)}
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
	v.Keys = chunk.Take(&arena.keys, n, arena.heap)[:0]
	v.Vals = chunk.Take(&arena.ptrs, n, arena.heap)[:0]
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
		if len(a.Arr) != len(b.Arr) {
			return false
		}
		for i := range a.Arr {
			if !Equal(a.Arr[i], b.Arr[i]) {
				return false
			}
		}
		return true
	case Object:
		if len(a.Keys) != len(b.Keys) {
			return false
		}
		for i, k := range a.Keys {
			j := b.find(k)
			if j < 0 || !Equal(a.Vals[i], b.Vals[j]) {
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
		for i, e := range v.Arr {
			if i > 0 {
				b.WriteByte(',')
			}
			e.write(b)
		}
		b.WriteByte(']')
	case Object:
		b.WriteByte('{')
		for i, k := range v.Keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			v.Vals[i].write(b)
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
	nv, members, elems, objects := int32(0), 0, 0, 0
	for i := range nodes {
		if slot[i] < 0 {
			continue
		}
		slot[i] = nv
		nv++
		switch nodes[i].Kind {
		case NodeObject:
			objects++
			members += int(nodes[i].N / 2)
			for c := nodes[i].Child; c >= 0; c = nodes[nodes[c].Next].Next {
				slot[c] = -1
			}
		case NodeArray:
			elems += int(nodes[i].N)
		}
	}
	if a == nil {
		a = &heapArena
	}
	vals := chunk.Take(&a.vals, int(nv), a.heap)
	infos := chunk.Take(&a.infos, objects, a.heap)
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
			v.Arr, ptrs = ptrs[:0:k], ptrs[k:]
			for c := n.Child; c >= 0; c = nodes[c].Next {
				v.Arr = append(v.Arr, &vals[slot[c]])
			}
		case NodeObject:
			k := int(n.N / 2)
			v.Keys, keys = keys[:0:k], keys[k:]
			v.Vals, ptrs = ptrs[:0:k], ptrs[k:]
			o := &infos[0]
			infos = infos[1:]
			v.obj = o
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
						o.idx[key] = len(v.Keys)
					}
					v.Keys = append(v.Keys, key)
					v.Vals = append(v.Vals, &vals[slot[e]])
					o.keyOffs = append(o.keyOffs, int(nodes[c].Start))
				}
				c = nodes[e].Next
			}
		}
	}
	return &vals[slot[root]]
}
