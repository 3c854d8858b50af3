package mailbox

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
)

// TestLineColMatchesIndex: jdoc.lineCol, which counts line breaks from the
// last offset asked for, answers what the file's LineIndex answers, for
// offsets asked in increasing order, going back, past the end and on long
// lines, in text with multi-byte and invalid UTF-8 and CRLF line ends.
func TestLineColMatchesIndex(t *testing.T) {
	pieces := []string{"a", "é", "日本", "\xff", "\r\n", "\n", "\n\n", " ", "\"k\": 1,",
		strings.Repeat("x", cursorLine-1), strings.Repeat("y", cursorLine+1), strings.Repeat("ü", 3000)}
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 300; round++ {
		var b strings.Builder
		for n := rng.Intn(60); n > 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		src := []byte(b.String())
		var lm diag.LineIndex
		lm.Reset(src)
		d := &jdoc{src: src, lm: &lm}
		var ref diag.LineIndex
		ref.Reset(src)
		off := 0
		for q := 0; q < 40; q++ {
			switch r := rng.Intn(10); {
			case r < 7: // onwards
				off += rng.Intn(len(src)/8 + 2)
			case r < 9: // back
				off -= rng.Intn(len(src)/4 + 2)
			default: // past either end
				off = []int{-3, len(src), len(src) + 5}[rng.Intn(3)]
			}
			wl, wc := ref.LineCol(off)
			if l, c := d.lineCol(off); l != wl || c != wc {
				t.Fatalf("round %d, offset %d of %q: lineCol = %d:%d, the index says %d:%d", round, off, src, l, c, wl, wc)
			}
		}
	}
}
