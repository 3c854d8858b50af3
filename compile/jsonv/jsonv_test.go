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
