package jsonv

import (
	"strings"
	"testing"
)

func TestParseKeepsOrderAndOffsets(t *testing.T) {
	src := `{"b": 1, "a": {"y": [1, "two", null], "x": true}, "c": "é"}`
	v, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(v.Keys, ","); got != "b,a,c" {
		t.Errorf("keys %s, want b,a,c", got)
	}
	a := v.Get("a")
	if got := strings.Join(a.Keys, ","); got != "y,x" {
		t.Errorf("nested keys %s", got)
	}
	if src[a.Off:a.End] != `{"y": [1, "two", null], "x": true}` {
		t.Errorf("offsets of a: %q", src[a.Off:a.End])
	}
	if src[v.KeyOff["c"]:v.KeyOff["c"]+3] != `"c"` {
		t.Errorf("KeyOff of c wrong")
	}
	if y := a.Get("y"); src[y.Arr[1].Off:y.Arr[1].End] != `"two"` {
		t.Errorf("array element offsets: %q", src[y.Arr[1].Off:y.Arr[1].End])
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

// TestFastMatchesSlow: the hand-written decoder and the encoding/json based
// one agree on values, key order and offsets, and on what is invalid.
func TestFastMatchesSlow(t *testing.T) {
	inputs := []string{
		`{"a":1,"b":[true,false,null,-1.5e3,0,"x\"y\\z\/\n\u00e9\ud83d\ude00"],"c":{"d":{}},"e":[]}`,
		` [ 1 , { "k" : "v" } ] `, `"\ud800"`, `"\ud800\u0041"`, "\"\xff\"", `123`, `-0.0e+1`,
		`{"dup":1,"dup":2}`, `{"a":1,}`, `{'a':1}`, `[1 2]`, `01`, `1.`, `"a` + "\n" + `b"`, `{"a"}`, `tru`, `[`, ``, `{"a":1} x`,
	}
	for _, in := range inputs {
		fv, fok := fastParse([]byte(in))
		sv, serr := slowParse([]byte(in))
		if fok != (serr == nil) {
			t.Errorf("%q: fast ok=%v, slow err=%v", in, fok, serr)
			continue
		}
		if !fok {
			continue
		}
		if fv.Text() != sv.Text() || !Equal(fv, sv) {
			t.Errorf("%q: fast %s, slow %s", in, fv.Text(), sv.Text())
		}
		var walk func(a, b *Value)
		walk = func(a, b *Value) {
			if a.Off != b.Off || a.End != b.End {
				t.Errorf("%q: offsets fast [%d,%d) slow [%d,%d) for %s", in, a.Off, a.End, b.Off, b.End, a.Text())
			}
			for i := range a.Arr {
				walk(a.Arr[i], b.Arr[i])
			}
			for _, k := range a.Keys {
				if a.KeyOff[k] != b.KeyOff[k] {
					t.Errorf("%q: key %s offset fast %d slow %d", in, k, a.KeyOff[k], b.KeyOff[k])
				}
				walk(a.Map[k], b.Map[k])
			}
		}
		walk(fv, sv)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(`{"a":[1,"b",{"c":null}]}`)
	f.Add(`{"a":"\u00e9\ud83d\ude00"}`)
	f.Fuzz(func(t *testing.T, in string) {
		fv, fok := fastParse([]byte(in))
		sv, serr := slowParse([]byte(in))
		if fok != (serr == nil) {
			t.Fatalf("%q: fast ok=%v, slow err=%v", in, fok, serr)
		}
		if fok && (fv.Text() != sv.Text() || fv.Off != sv.Off || fv.End != sv.End) {
			t.Fatalf("%q: fast %s [%d,%d), slow %s [%d,%d)", in, fv.Text(), fv.Off, fv.End, sv.Text(), sv.Off, sv.End)
		}
	})
}
