package jsonv

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// scanBothWays scans in with the string search vectorised and plain and
// fails when the nodes, the root or the error differ.
func scanBothWays(t *testing.T, in []byte) {
	t.Helper()
	was := vectorStr
	defer func() { vectorStr = was }()
	type result struct {
		root  int32
		err   string
		nodes []Node
	}
	run := func(vec bool) result {
		vectorStr = vec
		var s Scanner
		root, err := s.Scan(in, 0, len(in))
		return result{root, fmt.Sprint(err), append([]Node(nil), s.Nodes...)}
	}
	if v, p := run(true), run(false); !reflect.DeepEqual(v, p) {
		t.Fatalf("%q: vectorised scan %v (%d nodes), plain %v (%d nodes)", in, v.err, len(v.nodes), p.err, len(p.nodes))
	}
}

// decodeBothWays decodes the scanned literal lit vectorised and plain
// (into a buffer with text before, as Load decodes a thread's bodies one
// after another): appendValid must give the same text and ASCII answer
// both ways (for valid UTF-8, its contract, and past it), and
// AppendDecoded the text of the general loop.
func decodeBothWays(t *testing.T, lit []byte) {
	t.Helper()
	var s Scanner
	if _, err := s.Scan(lit, 0, len(lit)); err != nil || len(lit) < 2 || lit[0] != '"' {
		return
	}
	was := vectorStr
	defer func() { vectorStr = was }()
	raw := lit[1 : len(lit)-1]
	type result struct {
		valid   string
		ascii   bool
		decoded string
	}
	run := func(vec bool) result {
		vectorStr = vec
		dst := append(make([]byte, 0, 3+len(raw)+DecodeSlack), "abc"...)
		out, ascii := appendValid(dst, raw)
		if &out[0] != &dst[0] {
			t.Fatalf("%q: decoded into a new array (vectorised %v)", lit, vec)
		}
		return result{string(out), ascii, string(AppendDecoded([]byte("abc"), lit, nil))}
	}
	v, p := run(true), run(false)
	if v != p {
		t.Fatalf("%q: vectorised decoding %+v, plain %+v", lit, v, p)
	}
	if want := AppendDecoded([]byte("abc"), lit, &[]Escape{}); v.decoded != string(want) {
		t.Fatalf("%q: decoded %q, the general loop %q", lit, v.decoded, want)
	}
}

// strPieces are what a string's bytes may hold: plain text, every escape,
// broken escapes, control characters, bytes past ASCII.
var strPieces = []string{`a`, `\"`, `\\`, `\/`, `\n`, `\u00e9`, `\ud83d\ude00`, `\u12`, `\x`, "\t", "\x00", "é", `\`, `"`,
	`\\"`, `\\\"`, `\b\f\r\t`, "\\\x01", `\"\"\"`, "\x7f"}

// TestSpecialsBothWays puts each piece at every offset of strings around one
// and two blocks long, closed and unclosed, alone and in an object, so that
// each lands on a block's edges and in the last bytes of the input; and
// decodes each closed one both ways.
func TestSpecialsBothWays(t *testing.T) {
	if !vectorStr {
		t.Skip("no vectorised string search on this machine (amd64 with AVX2 only)")
	}
	for _, p := range strPieces {
		for n := 0; n <= 2*strBlock+8; n++ {
			for off := 0; off <= n; off++ {
				body := strings.Repeat("x", off) + p + strings.Repeat("y", n-off)
				for _, in := range []string{`"` + body + `"`, `"` + body, `{"k":"` + body + `","n":1}`, `["` + body + `",` + strings.Repeat(" ", n) + `"z"]`, `["` + body + `","\n\u0041"]`} {
					scanBothWays(t, []byte(in))
				}
				decodeBothWays(t, []byte(`"`+body+`"`))
			}
		}
	}
}

// TestStrMasks: strMasks flags exactly the quotes, backslashes, control
// characters (the bytes plainStr refuses) and simple escapes.
func TestStrMasks(t *testing.T) {
	if !vectorStr {
		t.Skip("no vectorised string search on this machine (amd64 with AVX2 only)")
	}
	var b [strBlock]byte
	pos := uint64(1 | 1<<1 | 1<<31 | 1<<32 | 1<<33 | 1<<63)
	for c := 0; c < 256; c++ {
		for k := range b {
			b[k] = 'a'
		}
		for _, k := range []int{0, 1, 31, 32, 33, 63} {
			b[k] = byte(c)
		}
		var want [4]uint64
		for i, in := range []bool{c == '"', c == '\\', c < 0x20, simpleEscape[c] != 0} {
			if in {
				want[i] = pos
			}
		}
		if q, bs, ctl, simple := strMasks(&b); [4]uint64{q, bs, ctl, simple} != want {
			t.Fatalf("byte %#x: masks %#x %#x %#x %#x, want %#x", c, q, bs, ctl, simple, want)
		}
		if plainStr[c] != (c != '"' && c != '\\' && c >= 0x20) {
			t.Fatalf("byte %#x: plainStr and the masks disagree", c)
		}
	}
}

// FuzzSpecials holds the vectorised string search and decoding to the
// plain ones: same nodes, same error, same decoded text, on any input, also
// with a long string around it.
func FuzzSpecials(f *testing.F) {
	for _, p := range strPieces {
		f.Add(`{"a":"` + strings.Repeat("x", 60) + p + strings.Repeat("y", 70) + `"}`)
	}
	f.Add(`["\u00e9\\\"` + strings.Repeat(`\n`, 40) + `"]`)
	f.Fuzz(func(t *testing.T, in string) {
		if !vectorStr {
			t.Skip("no vectorised string search on this machine")
		}
		scanBothWays(t, []byte(in))
		scanBothWays(t, []byte(`["`+strings.Repeat("w", 50)+in+`"]`))
		decodeBothWays(t, []byte(`"`+in+`"`))
		decodeBothWays(t, []byte(`"`+strings.Repeat("w", 31)+in+`"`))
	})
}
