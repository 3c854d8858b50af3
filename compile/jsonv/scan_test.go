package jsonv

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestEscapesMatchesDecoder: Escapes records the escape table that
// AppendDecoded records, for escapes, multi-byte text, invalid UTF-8 and
// surrogates.
func TestEscapesMatchesDecoder(t *testing.T) {
	lits := []string{
		`""`, `"plain ascii"`, `"line\nbreak \"quoted\" \\ slash\/"`, `"é ü 漢字 🎉"`,
		`"\u00e9\u6f22\ud83c\udf89 lone \ud83c x \udc00 y"`, "\"bad \xff utf8 \xc3 end\"",
		"\"mix é\\n\xfe\\t\\u0041\"",
	}
	r := rand.New(rand.NewPCG(7, 9))
	pieces := []string{"a", "é", "\\n", "\\u00e9", "\\ud83c\\udf89", "\\ud800", "\xff", "漢", "\\\"", " "}
	for range 500 {
		var b strings.Builder
		b.WriteByte('"')
		for range r.IntN(20) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		b.WriteByte('"')
		lits = append(lits, b.String())
	}
	for _, lit := range lits {
		var want, got []Escape
		AppendDecoded(nil, []byte(lit), &want)
		Escapes([]byte(lit), &got)
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%q:\ndecoder %v\nEscapes %v", lit, want, got)
		}
	}
}
