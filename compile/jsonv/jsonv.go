// Package jsonv decodes strict JSON (RFC 8259, no repair) into values that
// keep object key order and the byte offset of every value, and explains
// syntax errors with their position and likely cause.
package jsonv

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
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
	Keys []string // Object: keys in document order (duplicates keep the last value)
	Map  map[string]*Value
	Off  int // byte offset of the value's first byte in the input
	End  int // byte offset just after the value
	// KeyOff maps an object key to the byte offset of the key's opening quote.
	KeyOff map[string]int
}

// Get returns the member k of an object value, or nil.
func (v *Value) Get(k string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	return v.Map[k]
}

// Has reports whether an object has member k (even when it is null).
func (v *Value) Has(k string) bool {
	if v == nil || v.Kind != Object {
		return false
	}
	_, ok := v.Map[k]
	return ok
}

// IsNull reports whether v is absent or JSON null.
func (v *Value) IsNull() bool { return v == nil || v.Kind == Null }

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
	if v.Map != nil {
		c.Keys = append([]string(nil), v.Keys...)
		c.Map = make(map[string]*Value, len(v.Map))
		for k, e := range v.Map {
			c.Map[k] = e.Clone()
		}
		if v.KeyOff != nil {
			c.KeyOff = make(map[string]int, len(v.KeyOff))
			for k, o := range v.KeyOff {
				c.KeyOff[k] = o
			}
		}
	}
	return &c
}

// Set assigns member k of an object, appending k to Keys when it is new.
func (v *Value) Set(k string, e *Value) {
	if v.Map == nil {
		v.Map = map[string]*Value{}
	}
	if _, ok := v.Map[k]; !ok {
		v.Keys = append(v.Keys, k)
	}
	v.Map[k] = e
}

// Delete removes member k of an object.
func (v *Value) Delete(k string) {
	if _, ok := v.Map[k]; !ok {
		return
	}
	delete(v.Map, k)
	for i, kk := range v.Keys {
		if kk == k {
			v.Keys = append(v.Keys[:i:i], v.Keys[i+1:]...)
			break
		}
	}
}

// NewObject returns an empty object value.
func NewObject() *Value { return &Value{Kind: Object, Map: map[string]*Value{}} }

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
		if len(a.Map) != len(b.Map) {
			return false
		}
		for k, av := range a.Map {
			bv, ok := b.Map[k]
			if !ok || !Equal(av, bv) {
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
			v.Map[k].write(b)
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

// SyntaxError is a JSON decoding error with its byte offset in the input and a
// likely cause in words (trailing comma, single quotes, comment, unquoted key…).
type SyntaxError struct {
	Off   int
	Msg   string // the decoder's complaint
	Cause string // likely cause, may be empty
}

func (e *SyntaxError) Error() string {
	if e.Cause != "" {
		return fmt.Sprintf("%s (%s)", e.Msg, e.Cause)
	}
	return e.Msg
}

// Parse decodes exactly one JSON value from data (surrounding white space
// allowed). Numbers keep their literal text.
func Parse(data []byte) (*Value, error) {
	if v, ok := fastParse(data); ok {
		return v, nil
	}
	return slowParse(data)
}

// slowParse decodes with encoding/json's tokenizer; it is used when the fast
// path fails, so that syntax errors carry encoding/json's wording and offset.
func slowParse(data []byte) (*Value, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	p := &parser{d: d, data: data}
	v, err := p.value()
	if err != nil {
		return nil, p.explain(err)
	}
	if _, err := d.Token(); err != io.EOF {
		off := int(d.InputOffset())
		off = skipSpace(data, off)
		if err == nil || off < len(data) {
			return nil, &SyntaxError{Off: off, Msg: "unexpected data after the top-level value", Cause: causeAt(data, off)}
		}
	}
	return v, nil
}

type parser struct {
	d    *json.Decoder
	data []byte
}

func (p *parser) value() (*Value, error) {
	start := skipSpace(p.data, int(p.d.InputOffset()))
	start = skipSep(p.data, start)
	tok, err := p.d.Token()
	if err != nil {
		return nil, err
	}
	return p.fromToken(tok, start)
}

func (p *parser) fromToken(tok json.Token, start int) (*Value, error) {
	v := &Value{Off: start}
	switch t := tok.(type) {
	case nil:
		v.Kind = Null
	case bool:
		v.Kind, v.Bool = Bool, t
	case json.Number:
		v.Kind, v.Num = Number, t
	case string:
		v.Kind, v.Str = String, t
	case json.Delim:
		switch t {
		case '[':
			v.Kind = Array
			v.Arr = []*Value{}
			for p.d.More() {
				e, err := p.value()
				if err != nil {
					return nil, err
				}
				v.Arr = append(v.Arr, e)
			}
			if _, err := p.d.Token(); err != nil {
				return nil, err
			}
		case '{':
			v.Kind = Object
			v.Map = map[string]*Value{}
			v.KeyOff = map[string]int{}
			for p.d.More() {
				koff := skipSep(p.data, skipSpace(p.data, int(p.d.InputOffset())))
				kt, err := p.d.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, &SyntaxError{Off: koff, Msg: "object key is not a string"}
				}
				e, err := p.value()
				if err != nil {
					return nil, err
				}
				if _, dup := v.Map[k]; !dup {
					v.Keys = append(v.Keys, k)
				}
				v.Map[k] = e
				v.KeyOff[k] = koff
			}
			if _, err := p.d.Token(); err != nil {
				return nil, err
			}
		default:
			return nil, &SyntaxError{Off: start, Msg: fmt.Sprintf("unexpected %q", rune(t))}
		}
	}
	v.End = int(p.d.InputOffset())
	return v, nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipSep skips the ',' or ':' the decoder has not consumed yet.
func skipSep(b []byte, i int) int {
	if i < len(b) && (b[i] == ',' || b[i] == ':') {
		i = skipSpace(b, i+1)
	}
	return i
}

func (p *parser) explain(err error) error {
	var se *SyntaxError
	if errors.As(err, &se) {
		if se.Cause == "" {
			se.Cause = causeAt(p.data, se.Off)
		}
		return se
	}
	var jse *json.SyntaxError
	if errors.As(err, &jse) {
		// Decoder.Token reports the offset just before the offending byte.
		off := skipSpace(p.data, int(jse.Offset))
		if off < len(p.data) && p.data[off] == ':' {
			off = skipSpace(p.data, off+1)
		}
		if off >= len(p.data) && len(p.data) > 0 {
			off = len(p.data) - 1
		}
		return &SyntaxError{Off: off, Msg: strings.TrimPrefix(jse.Error(), "json: "), Cause: causeAt(p.data, off)}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &SyntaxError{Off: len(p.data), Msg: "unexpected end of JSON input", Cause: "the block is truncated or a brace or bracket is not closed"}
	}
	return &SyntaxError{Off: int(p.d.InputOffset()), Msg: err.Error()}
}

// causeAt guesses why decoding failed at off.
func causeAt(b []byte, off int) string {
	if off >= len(b) {
		return "the block is truncated or a brace or bracket is not closed"
	}
	if b[off] == ':' {
		off = skipSpace(b, off+1)
		if off >= len(b) {
			return "the block is truncated or a brace or bracket is not closed"
		}
	}
	c := b[off]
	switch {
	case c == '\'':
		return "single quotes: JSON strings and keys need double quotes"
	case c == '/' && off+1 < len(b) && (b[off+1] == '/' || b[off+1] == '*'):
		return "comment: JSON does not allow comments"
	case c == '}' || c == ']':
		// look back for a comma
		i := off - 1
		for i >= 0 && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
			i--
		}
		if i >= 0 && b[i] == ',' {
			return "trailing comma before a closing brace or bracket"
		}
	case isIdentStart(c):
		j := off
		for j < len(b) && (isIdentStart(b[j]) || (b[j] >= '0' && b[j] <= '9')) {
			j++
		}
		k := skipSpace(b, j)
		if k < len(b) && b[k] == ':' {
			return "unquoted key: object keys need double quotes"
		}
		word := string(b[off:j])
		switch word {
		case "True", "False", "None", "NULL", "Null", "undefined", "NaN", "Infinity":
			return fmt.Sprintf("%s is not a JSON literal (use true, false or null)", word)
		}
		return "unquoted text: strings need double quotes"
	case c == ',':
		return "a value is missing before this comma"
	case c == '"':
		// missing comma between members
		i := off - 1
		for i >= 0 && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
			i--
		}
		if i >= 0 && (b[i] == '"' || b[i] == '}' || b[i] == ']' || (b[i] >= '0' && b[i] <= '9') || b[i] == 'e' || b[i] == 'l') {
			return "missing comma between members"
		}
	}
	return ""
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}
