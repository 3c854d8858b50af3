package jsonv

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unsafe"
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

// TestScanTooLarge: an input past the 32-bit offsets of nodes is a syntax
// error that says so, not wrapped offsets.
func TestScanTooLarge(t *testing.T) {
	defer func(m int) { maxInput = m }(maxInput)
	maxInput = 16
	var s Scanner
	if _, err := s.Scan([]byte(`{"a": "0123456789"}`), 0, 19); err == nil || !strings.Contains(err.Error(), "2 GiB") {
		t.Fatalf("Scan of an input over the limit: %v", err)
	}
	if _, err := s.Scan([]byte(`[1, 2]`), 0, 6); err != nil {
		t.Fatalf("Scan under the limit: %v", err)
	}
	if unsafe.Sizeof(Node{}) > 24 {
		t.Errorf("a Node is %d bytes; large documents hold one every few bytes", unsafe.Sizeof(Node{}))
	}
}

// TestScanCountsLargeInput: a large input's nodes, counted first and
// allocated once, are the nodes scanned without counting; a large input
// with an error gives the same error either way.
func TestScanCountsLargeInput(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"threads": [`)
	for i := 0; b.Len() < 1<<20; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`{"id": "RS-` + strings.Repeat("x", i%7) + `", "n": [1, 2.5e3, true, null, false], "s": "a\"b", "o": {}}`)
	}
	b.WriteString(`], "k": []}`)
	good := []byte(b.String())
	bad := append(append([]byte(nil), good[:len(good)-1]...), ',', ']')
	defer func(n int) { countFirst = n }(countFirst)
	for _, src := range [][]byte{good, bad} {
		countFirst = 1 << 30
		var plain Scanner
		_, perr := plain.Scan(src, 0, len(src))
		countFirst = 1 << 10
		var counted Scanner
		_, cerr := counted.Scan(src, 0, len(src))
		if (perr == nil) != (cerr == nil) || perr != nil && perr.Error() != cerr.Error() {
			t.Fatalf("errors differ: %v / %v", perr, cerr)
		}
		if perr != nil {
			continue
		}
		if !reflect.DeepEqual(plain.Nodes, counted.Nodes) {
			t.Fatal("counted nodes differ from the scanned ones")
		}
		if cap(counted.Nodes) != len(counted.Nodes) {
			t.Errorf("counted: %d nodes in room for %d", len(counted.Nodes), cap(counted.Nodes))
		}
	}
}
