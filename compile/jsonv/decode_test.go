package jsonv

import (
	"bytes"
	"encoding/json"
	"testing"
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
