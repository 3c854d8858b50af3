package diag

import (
	"math/rand"
	"runtime/debug"
	"testing"
	"unsafe"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// TestPrefilterGuardPages runs the vectorised prefilter on texts of every
// length up to 300 that end at, or start right after, a page that faults
// on any access: a read past either end of the text fails the test. Each
// answer is also held to the plain form's.
func TestPrefilterGuardPages(t *testing.T) {
	if !vectorised() {
		t.Skip("no vectorised prefilter on this machine (amd64 with AVX2 only)")
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	g := testutil.NewGuarded(t)
	alpha := []byte("ghpu_-JAKIzSeyBbkKrtsaxoNE GIN\x00\xff")
	r := rand.New(rand.NewSource(1))
	for n := 0; n <= 300; n++ {
		for rep := 0; rep < 20; rep++ {
			b := make([]byte, n)
			for k := range b {
				b[k] = alpha[r.Intn(len(alpha))]
				if rep == 0 {
					b[k] = '_'
				}
			}
			want := mayHoldSecretPlain(string(b))
			for _, placed := range [][]byte{g.AtEnd(b), g.AtStart(b)} {
				s := unsafe.String(unsafe.SliceData(placed), len(placed))
				if got := mayHoldSecretVector(s); got != want {
					t.Fatalf("%q: vectorised %v, plain %v", b, got, want)
				}
				for i := 2; n >= 36 && i <= n-34; i++ {
					anchors(s, i)
				}
			}
		}
	}
}
