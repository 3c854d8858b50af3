package jsonv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

func TestParseKeepsOrderAndOffsets(t *testing.T) {
	src := `{"b": 1, "a": {"y": [1, "two", null], "x": true}, "c": "é"}`
	v, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(v.Keys(), ","); got != "b,a,c" {
		t.Errorf("keys %s, want b,a,c", got)
	}
	a := v.Get("a")
	if got := strings.Join(a.Keys(), ","); got != "y,x" {
		t.Errorf("nested keys %s", got)
	}
	if src[a.Off:a.End] != `{"y": [1, "two", null], "x": true}` {
		t.Errorf("offsets of a: %q", src[a.Off:a.End])
	}
	if ko, _ := v.KeyOffset("c"); src[ko:ko+3] != `"c"` {
		t.Errorf("KeyOff of c wrong")
	}
	if y := a.Get("y"); src[y.Arr()[1].Off:y.Arr()[1].End] != `"two"` {
		t.Errorf("array element offsets: %q", src[y.Arr()[1].Off:y.Arr()[1].End])
	}
	if v.Text() != `{"b":1,"a":{"y":[1,"two",null],"x":true},"c":"é"}` {
		t.Errorf("Text = %s", v.Text())
	}
	c := v.Clone()
	c.Get("a").Set("z", NewString("new"))
	if v.Get("a").Has("z") || !Equal(v.Get("b"), c.Get("b")) {
		t.Errorf("Clone is not deep")
	}
}

func TestSyntaxErrorsExplainCause(t *testing.T) {
	cases := []struct{ in, cause string }{
		{`{"a": 1,}`, "trailing comma"},
		{"{\"a\": [1, 2,]}", "trailing comma"},
		{`{'a': 1}`, "single quotes"},
		{`{a: 1}`, "unquoted key"},
		{"{\"a\": 1 // note\n}", "comment"},
		{"{\"a\": 1 /* note */}", "comment"},
		{`{"a": True}`, "not a JSON literal"},
		{`{"a": 1`, "truncated"},
		{`{"a": 1 "b": 2}`, "missing comma"},
		{`[1 2]`, "missing comma between array elements"},
		{`{"a": [1, 2}`, "mismatched brace"},
		{`{"a": 1]`, "mismatched bracket"},
		{`{"a": "b`, "unterminated string"},
		{"{\"a\": \"b\nc\"}", "line break in a string"},
		{"{\"a\": \"b\x01c\"}", "control character"},
		{`{"a": "\x"}`, "invalid escape"},
		{`{"a": "\u12g4"}`, `invalid \u escape`},
		{`{"a": nul}`, "misspelt literal"},
		{`{"a": None}`, "use null"},
		{`{"a": NaN}`, "not a JSON number"},
		{`{"a": foo}`, "unquoted text"},
		{`{"a": +1}`, "no plus sign"},
		{`{"a": .5}`, "digit must come before the decimal point"},
		{`{"a": 1.}`, "decimal point"},
		{`{"a": -x}`, "minus sign"},
		{`{"a": 1e}`, "exponent"},
		{`{"a" = 1}`, "separated by ':'"},
		{`{"a" 1}`, "missing colon"},
		{`{"a": }`, "missing value"},
		{`[1,,2]`, "missing value before this comma"},
		{`{"a": 1} {"b": 2}`, "extra text after the JSON value"},
		{`{"a": 1}}`, "extra closing brace"},
		{``, "empty input"},
		{"  \n", "empty input"},
		{strings.Repeat("[", 1001), "too deep"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.in))
		se, ok := err.(*SyntaxError)
		if !ok {
			t.Errorf("%s: got %v, want a SyntaxError", c.in, err)
			continue
		}
		if !strings.Contains(se.Cause, c.cause) {
			t.Errorf("%s: cause %q, want %q", c.in, se.Cause, c.cause)
		}
		if se.Off < 0 || se.Off > len(c.in) {
			t.Errorf("%s: offset %d out of range", c.in, se.Off)
		}
	}
	if _, err := Parse([]byte(`{"a":1} trailing`)); err == nil {
		t.Errorf("data after the value accepted")
	}
}

var parseSeeds = []string{
	`{"a":1,"b":[true,false,null,-1.5e3,0,"x\"y\\z\/\n\u00e9\ud83d\ude00"],"c":{"d":{}},"e":[]}`,
	` [ 1 , { "k" : "v" } ] `, `"\ud800"`, `"\ud800\u0041"`, "\"\xff\"", `123`, `-0.0e+1`,
	`{"dup":1,"dup":2}`, `{"a":1,}`, `{'a':1}`, `[1 2]`, `01`, `1.`, `"a` + "\n" + `b"`, `{"a"}`, `tru`, `[`, ``, `{"a":1} x`,
	"\xEF\xBB\xBF{}", `{"a":{"b":{"c":[[[]]]}}}`, `[1,,2]`, `{"a" 1}`, `"\x"`, `"\u12g4"`, `+1`, `.5`, `1e`, `-`, "\"tab\there\"",
}

// TestParseMatchesEncodingJSON: Parse accepts exactly what encoding/json
// accepts, decodes to the same values, and every value's offsets delimit
// its own text.
func TestParseMatchesEncodingJSON(t *testing.T) {
	for _, in := range parseSeeds {
		checkAgainstEncodingJSON(t, []byte(in))
	}
}

func checkAgainstEncodingJSON(t *testing.T, in []byte) {
	t.Helper()
	v, err := Parse(in)
	if se, ok := err.(*SyntaxError); ok && strings.HasPrefix(se.Cause, "too deep") {
		return // encoding/json allows deeper nesting than our depth limit
	}
	if (err == nil) != json.Valid(in) {
		t.Fatalf("%q: Parse error %v, encoding/json valid %v", in, err, json.Valid(in))
	}
	if err != nil {
		se, ok := err.(*SyntaxError)
		if !ok || se.Off < 0 || se.Off > len(in) || se.Msg == "" {
			t.Fatalf("%q: bad error %#v", in, err)
		}
		return
	}
	if hasDups(v) {
		// A repeated key keeps its first value (encoding/json keeps the
		// last): check the first occurrence is what Map holds.
		checkDups(t, in, v)
		return
	}
	d := json.NewDecoder(bytes.NewReader(in))
	d.UseNumber()
	var want any
	if err := d.Decode(&want); err != nil {
		t.Fatal(err)
	}
	if got := toAny(v); !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: Parse gives %#v, encoding/json %#v", in, got, want)
	}
	var walk func(v *Value)
	walk = func(v *Value) {
		var w any
		d := json.NewDecoder(bytes.NewReader(in[v.Off:v.End]))
		d.UseNumber()
		if err := d.Decode(&w); err != nil || !reflect.DeepEqual(w, toAny(v)) {
			t.Fatalf("%q: value %s has offsets [%d,%d) holding %q", in, v.Text(), v.Off, v.End, in[v.Off:v.End])
		}
		for _, e := range v.Arr() {
			walk(e)
		}
		for _, k := range v.Keys() {
			var key string
			ko, _ := v.KeyOffset(k)
			d := json.NewDecoder(bytes.NewReader(in[ko:]))
			if err := d.Decode(&key); err != nil || key != k {
				t.Fatalf("%q: KeyOff[%q] = %d points at %q", in, k, ko, in[ko:])
			}
			walk(v.Get(k))
		}
	}
	walk(v)
}

func toAny(v *Value) any {
	switch v.Kind {
	case Bool:
		return v.Bool
	case Number:
		return v.Num
	case String:
		return v.Str
	case Array:
		a := []any{}
		for _, e := range v.Arr() {
			a = append(a, toAny(e))
		}
		return a
	case Object:
		m := map[string]any{}
		for i, k := range v.Keys() {
			m[k] = toAny(v.Vals()[i])
		}
		return m
	}
	return nil
}

func FuzzParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkAgainstEncodingJSON(t, []byte(in))
	})
}

func hasDups(v *Value) bool {
	if len(v.Dups()) > 0 {
		return true
	}
	for _, e := range v.Arr() {
		if hasDups(e) {
			return true
		}
	}
	for _, k := range v.Keys() {
		if hasDups(v.Get(k)) {
			return true
		}
	}
	return false
}

// checkDups: every Dup points at a repeated key after its first occurrence.
func checkDups(t *testing.T, in []byte, v *Value) {
	for _, d := range v.Dups() {
		var key string
		if err := json.NewDecoder(bytes.NewReader(in[d.Off:])).Decode(&key); err != nil || key != d.Key || d.Off <= keyOff(v, d.Key) {
			t.Fatalf("%q: Dup %+v does not point at a later %q", in, d, d.Key)
		}
	}
	for _, e := range v.Arr() {
		checkDups(t, in, e)
	}
	for _, k := range v.Keys() {
		checkDups(t, in, v.Get(k))
	}
}

// TestLongStringsEveryOffset: the eight-bytes-at-a-time string scan stops
// at a quote, a backslash or a control character wherever it falls in a
// word, and lets every other byte (UTF-8 included) through.
func TestLongStringsEveryOffset(t *testing.T) {
	for _, special := range []string{`\"`, `\\`, `\n`, `\u00e9`, "\x01", "\x1f", "\x7f", "é", "\xff", `"`} {
		for at := 0; at < 20; at++ {
			for tail := 0; tail < 10; tail++ {
				s := `"` + strings.Repeat("a", at) + special + strings.Repeat("b", tail) + `"`
				checkAgainstEncodingJSON(t, []byte(s))
				checkAgainstEncodingJSON(t, []byte(`{"k": `+s+`, "z": 1}`))
			}
		}
	}
}

func keyOff(v *Value, k string) int {
	o, _ := v.KeyOffset(k)
	return o
}

// TestObjectsSmallAndLarge: objects are slices, with an index past
// smallObject members; lookups, Set, Delete, Clone, Equal and duplicate keys
// behave the same on both sides of that size.
func TestObjectsSmallAndLarge(t *testing.T) {
	for _, n := range []int{0, 1, smallObject, smallObject + 1, 300} {
		var b strings.Builder
		b.WriteString("{")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, `"k%d": %d, `, i, i)
		}
		b.WriteString(`"k0": "dup", "last": true}`)
		v, err := Parse([]byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		want := max(n, 1) + 1 // k0…k(n-1) (or the one k0) and last; a repeated k0 is a Dup
		if v.Len() != want || len(v.Vals()) != want || len(v.c.keyOffs) != want {
			t.Fatalf("n=%d: %d keys, %d values, %d offsets", n, v.Len(), len(v.Vals()), len(v.c.keyOffs))
		}
		if n > 0 && (len(v.Dups()) != 1 || v.Get("k0").Num != "0") {
			t.Fatalf("n=%d: dups %v, k0 %v", n, v.Dups(), v.Get("k0"))
		}
		for i := 0; i < n; i++ {
			k := fmt.Sprintf("k%d", i)
			if e := v.Get(k); e == nil || e.Num != json.Number(fmt.Sprint(i)) {
				t.Fatalf("n=%d: Get(%s) = %v", n, k, e)
			}
			if ko, ok := v.KeyOffset(k); !ok || b.String()[ko:ko+len(k)+2] != `"`+k+`"` {
				t.Fatalf("n=%d: KeyOffset(%s) = %d", n, k, ko)
			}
		}
		c := v.Clone()
		if !Equal(v, c) {
			t.Fatalf("n=%d: clone differs", n)
		}
		c.Set("new", NewString("x"))
		c.Set("last", NewString("replaced"))
		c.Delete("k0")
		c.Delete("absent")
		if c.Get("new").Str != "x" || c.Get("last").Str != "replaced" || c.Has("k0") || c.Len() != want {
			t.Fatalf("n=%d: after Set/Delete: %s", n, c.Text())
		}
		if _, ok := c.KeyOffset("new"); ok {
			t.Fatalf("n=%d: a member added by Set has a key offset", n)
		}
		for i := 1; i < n; i++ { // the index follows the deletion
			if k := fmt.Sprintf("k%d", i); c.Get(k) == nil {
				t.Fatalf("n=%d: %s lost after Delete", n, k)
			}
		}
		if Equal(v, c) || v.Get("last").Kind != Bool {
			t.Fatalf("n=%d: the clone shares state with the original", n)
		}
	}
}

// TestIsBlank: absent, null, white space and empty containers say
// nothing; everything else, false and 0 included, says something.
func TestIsBlank(t *testing.T) {
	var absent *Value
	if !absent.IsBlank() {
		t.Error("nil is not blank")
	}
	for src, want := range map[string]bool{
		`null`: true, `" \t\n"`: true, `{}`: true, `[]`: true,
		`"x"`: false, `0`: false, `false`: false, `[null]`: false, `{"a":null}`: false,
	} {
		v, err := Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.IsBlank(); got != want {
			t.Errorf("%s: IsBlank %t, want %t", src, got, want)
		}
	}
}

// TestWhiteSpaceRuns: the scanner skips indentation after a line break
// eight bytes at a time; runs of every length, with a tab, a CR or another
// line break inside and a value or the end of the input after them, scan
// as encoding/json reads them.
func TestWhiteSpaceRuns(t *testing.T) {
	for n := 0; n < 20; n++ {
		for _, mid := range []string{"", "\t", "\r", "\n", " \n  ", "x"} {
			gap := "\n" + strings.Repeat(" ", n) + mid + strings.Repeat(" ", n%5)
			for _, doc := range []string{`{"a":` + gap + `1,` + gap + `"b": [` + gap + `true` + gap + `]` + gap + `}`, `[1` + gap + `]` + gap, gap + `"s"` + gap} {
				checkAgainstEncodingJSON(t, []byte(doc))
			}
		}
	}
}

// TestValueStaysSmall: a Value is allocated for every value of every delta
// block and artifact item, so it holds only what a scalar needs; what an
// array or object needs more is in its container. A field added to Value
// that could live in the container fails this.
func TestValueStaysSmall(t *testing.T) {
	if n := unsafe.Sizeof(Value{}); n > 64 {
		t.Errorf("a Value takes %d bytes, more than 64", n)
	}
}
