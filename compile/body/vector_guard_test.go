package body

import (
	"math/rand"
	"runtime/debug"
	"testing"
	"unsafe"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// TestLineEndsGuardPages walks texts of every length up to 300 that end at,
// or start right after, a page that faults on any access: a read past
// either end of the text fails the test. Each answer is held to
// scanLineEnd's.
func TestLineEndsGuardPages(t *testing.T) {
	if !vectorLines {
		t.Skip("no vectorised line search on this machine (amd64 with AVX2 only)")
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	g := testutil.NewGuarded(t)
	r := rand.New(rand.NewSource(4))
	alpha := []byte("abcdefgh`\n\x7f\x01\xff  ")
	for n := 0; n <= 300; n++ {
		for rep := 0; rep < 15; rep++ {
			b := make([]byte, n)
			for k := range b {
				b[k] = 'x'
				if r.Intn(4) == 0 {
					b[k] = alpha[r.Intn(len(alpha))]
				}
			}
			heap := string(b)
			for _, placed := range [][]byte{g.AtEnd(b), g.AtStart(b)} {
				s := unsafe.String(unsafe.SliceData(placed), len(placed))
				walk, every := newLineEnds(s), newLineEnds(s)
				next := 0
				for p := 0; p <= n; p++ {
					we, wc, wt := scanLineEnd(heap, p)
					if p == next {
						e, c, tk := walk.at(p)
						if e != we || c != wc || tk != wt {
							t.Fatalf("%q walk at(%d) = %d %v %v, want %d %v %v", heap, p, e, c, tk, we, wc, wt)
						}
						next = e + 1
					}
					if e, c, tk := every.at(p); e != we || c != wc || tk != wt {
						t.Fatalf("%q at(%d) = %d %v %v, want %d %v %v", heap, p, e, c, tk, we, wc, wt)
					}
				}
			}
		}
	}
}
