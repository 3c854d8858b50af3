package jsonv

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

var decodeSeeds = []string{
	``, `plain`, `line\nbreak\nevery\nfew\nbytes\n`, `a \"quoted\" word`, `\\ \/ \b \f \r \t`,
	`\u00e9t\u00e9 \ud83d\ude00 \ud83d alone \u0000`, `é and 日本 between \n escapes`, `long run without escapes then \n`,
	`\\\\\\`, `x\`, // a lone final backslash: not scanned input, kept as it is
	"bad \xff byte then \\n an escape", "\xe6\x97\xa5 valid then \xc3 cut\\t", "\\u00e9\xff", // invalid UTF-8
}

// FuzzAppendValid: AppendDecoded's path for valid UTF-8 without escape
// positions (appendValid) decodes every literal the scanner accepts as the
// general loop does (run by asking for the escape positions), and a string
// encoding/json writes decodes back to itself.
func FuzzAppendValid(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		lit := []byte(`"` + in + `"`)
		var s Scanner
		if _, err := s.Scan(lit, 0, len(lit)); err == nil {
			var esc []Escape
			fast, plain := AppendDecoded(nil, lit, nil), AppendDecoded(nil, lit, &esc)
			if !bytes.Equal(fast, plain) {
				t.Fatalf("%q: appendValid %q, the general loop %q", lit, fast, plain)
			}
		}
		enc, err := json.Marshal(in)
		if err != nil {
			return
		}
		var want string
		json.Unmarshal(enc, &want)
		if got := AppendDecoded(nil, enc, nil); string(got) != want {
			t.Fatalf("%q: decoded %q, encoding/json %q", enc, got, want)
		}
	})
}

// TestAppendDecodedInPlace: with room for the literal's content and
// DecodeSlack, the decoded text is written into dst, not a new array (Load
// gives each body exactly that).
func TestAppendDecodedInPlace(t *testing.T) {
	for _, s := range decodeSeeds[:9] {
		lit := []byte(`"` + s + `"`)
		dst := make([]byte, 0, len(lit)-2+DecodeSlack)
		out := AppendDecoded(dst, lit, nil)
		if len(out) > 0 && &out[0] != &dst[:1][0] {
			t.Errorf("%q: decoded into a new array", s)
		}
	}
}

// FuzzRawOffsets: the walk (RawOffsets) maps every pair of decoded offsets
// of a scanned literal as the escape table does (RawOffset), and declines
// exactly the literals that are not valid UTF-8.
func FuzzRawOffsets(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add(s, uint16(0), uint16(3))
	}
	f.Fuzz(func(t *testing.T, in string, a, b uint16) {
		lit := []byte(`"` + in + `"`)
		var s Scanner
		if _, err := s.Scan(lit, 0, len(lit)); err != nil {
			return
		}
		var esc []Escape
		n := len(AppendDecoded(nil, lit, &esc))
		check := func(start, end int) {
			rs, re, ok := RawOffsets(lit, start, end)
			if ok != utf8.Valid(lit) {
				t.Fatalf("%q: RawOffsets ok = %v", lit, ok)
			}
			if ws, we := RawOffset(esc, start, false), RawOffset(esc, end, true); ok && (rs != ws || re != we) {
				t.Fatalf("%q: RawOffsets(%d, %d) = %d, %d; the table gives %d, %d", lit, start, end, rs, re, ws, we)
			}
		}
		start, end := min(int(a), n), min(int(b), n)
		if start > end {
			start, end = end, start
		}
		check(start, end)
		for dec := 0; dec <= n && dec < 512; dec++ {
			check(dec, dec)
			check(dec, n)
		}
	})
}

// TestRawOffsets: offsets before, at, inside and after escapes, of one walk.
func TestRawOffsets(t *testing.T) {
	lit := []byte(`"ab\ncd\u00e9\ud83d\ude00e"`) // decoded: a b \n c d é(2) 😀(4) e
	for _, c := range []struct{ start, end, rs, re int }{
		{0, 0, 0, 0}, {2, 2, 2, 2}, {3, 3, 4, 4}, {5, 6, 6, 12}, {6, 7, 6, 12},
		{7, 8, 12, 24}, {9, 11, 12, 24}, {0, 12, 0, 25},
	} {
		rs, re, ok := RawOffsets(lit, c.start, c.end)
		if !ok || rs != c.rs || re != c.re {
			t.Errorf("RawOffsets(%d, %d) = %d, %d, %v; want %d, %d", c.start, c.end, rs, re, ok, c.rs, c.re)
		}
	}
	if _, _, ok := RawOffsets([]byte("\"bad \xff\""), 0, 1); ok {
		t.Error("RawOffsets walks a literal that is not UTF-8")
	}
}
