package jsonv

import (
	"bytes"
	"fmt"
	"math/rand"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// guardPieces are what the guard-page tests build string contents from.
var guardPieces = []string{"a", "bcdefgh", `\"`, `\\`, `\/`, `\n`, `\t`, `\u00e9`, `\ud83d\ude00`, "é", "\x01", `"`, `\x`, `\`}

func guardBody(r *rand.Rand, n int) []byte {
	var b []byte
	for len(b) < n {
		if r.Intn(3) == 0 {
			b = append(b, strings.Repeat("x", r.Intn(36))...)
		}
		b = append(b, guardPieces[r.Intn(len(guardPieces))]...)
	}
	return b[:n]
}

func guardScan(in []byte) string {
	var s Scanner
	root, err := s.Scan(in, 0, len(in))
	return fmt.Sprint(root, err, s.Nodes)
}

// TestVectorGuardPages scans and decodes inputs of every length up to 300
// that end at, or start right after, a page that faults on any access, and
// decodes into a buffer whose capacity ends at one: a read or a write past
// either end fails the test. Results are held to the plain forms'.
func TestVectorGuardPages(t *testing.T) {
	if !vectorStr {
		t.Skip("no vectorised string search on this machine (amd64 with AVX2 only)")
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func(was bool) { vectorStr = was }(vectorStr)
	g, room := testutil.NewGuarded(t), testutil.NewGuarded(t)
	r := rand.New(rand.NewSource(2))
	for n := 0; n <= 300; n++ {
		for rep := 0; rep < 15; rep++ {
			body := guardBody(r, n)
			lit := append(append([]byte(`"`), body...), '"')
			for _, in := range [][]byte{lit, append([]byte(`"`), body...), append(append([]byte(`{"k":"`), body...), `"}`...)} {
				vectorStr = false
				want := guardScan(in)
				vectorStr = true
				for _, placed := range [][]byte{g.AtEnd(in), g.AtStart(in)} {
					if got := guardScan(placed); got != want {
						t.Fatalf("%q: vectorised %v, plain %v", in, got, want)
					}
				}
			}
			if _, err := new(Scanner).Scan(lit, 0, len(lit)); err != nil {
				continue
			}
			raw := lit[1 : len(lit)-1]
			for _, n0 := range []int{0, 3, 61} {
				prefix := bytes.Repeat([]byte{'p'}, n0)
				vectorStr = false
				wantOut, wantASCII := appendValid(append([]byte(nil), prefix...), raw)
				vectorStr = true
				for _, placed := range [][]byte{g.AtEnd(raw), g.AtStart(raw)} {
					dst := room.Room(n0 + len(placed) + DecodeSlack)[:n0]
					copy(dst, prefix)
					out, ascii := appendValid(dst, placed)
					if &out[:1][0] != &dst[:1][0] || !bytes.Equal(out, wantOut) || ascii != wantASCII {
						t.Fatalf("%q: vectorised %q %v, plain %q %v", lit, out, ascii, wantOut, wantASCII)
					}
				}
			}
		}
	}
}

// TestDecodeBlocksGuardPages calls decodeBlocks on any bytes with exactly
// the room it asks for, ending at a guard page; and holds the check of
// that room: one byte less panics before the assembly runs.
func TestDecodeBlocksGuardPages(t *testing.T) {
	if !vectorStr {
		t.Skip("no vectorised decoding on this machine (amd64 with AVX2 only)")
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	g, room := testutil.NewGuarded(t), testutil.NewGuarded(t)
	r := rand.New(rand.NewSource(3))
	alpha := []byte("ab\\\\\\nu\"/\xe9")
	for n := 32; n <= 300; n++ {
		for rep := 0; rep < 15; rep++ {
			raw := make([]byte, n)
			for k := range raw {
				raw[k] = alpha[r.Intn(len(alpha))]
			}
			if rep == 0 {
				raw[n-1] = '\\'
			}
			i, o := r.Intn(n-31), r.Intn(5)
			for _, placed := range [][]byte{g.AtEnd(raw), g.AtStart(raw)} {
				out := room.Room(o - i + n)
				o2, i2, _ := decodeBlocks(out, placed, o, i, &simpleEscape)
				if i2 < i || i2 > n || o2-i2 > o-i {
					t.Fatalf("%q from %d: o2=%d i2=%d", raw, i, o2, i2)
				}
			}
		}
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("decodeBlocks ran with one byte too little room")
			}
		}()
		raw := bytes.Repeat([]byte("a"), 40)
		decodeBlocks(make([]byte, 39), raw, 0, 0, &simpleEscape)
	}()
}
