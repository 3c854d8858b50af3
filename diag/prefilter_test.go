package diag

import (
	"math/bits"
	"strings"
	"testing"
)

// prefilterTriggers are texts at which secretAnchor accepts, and near misses
// that differ from one by a byte around its anchor.
var prefilterTriggers = []string{
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_", "registration_", "REGISTRATION_", "RegiStration_",
	"npm_", "sk_live_", "rk_live_", "sk-", "glpat-", "xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-",
	"-----BEGIN ", "eyJ", "AKIA", "ASIA", "AIza", "bearer", "BEARER", "bEaReR", "secret_key", "SECRET_ACCESS_KEY",
	"Secret.Access-Key", "secretkey",
	// near misses
	"gh_", "ghx_", "githu_", "egistration_", "np_", "sk_live", "s-", "k-", "glpa-", "xox-", "xoxc-",
	"----BEGIN ", "-----BEGIN", "ey J", "eJ", "AKI", "ASI", "AIz", "A K", "beare", "bearxr", "secre key",
	"secret_access_keY"[:16], "key", "Key secret", "_", "-", "J", "A", "b", "B", "k", "K", "é_", "ſecret_key",
}

// candidates returns the offsets the vectorised search flags in s, and the
// range of offsets it tested.
func candidates(s string) (flagged map[int]bool, from, to int) {
	flagged = map[int]bool{}
	if len(s) < 2+anchorBlock+2 {
		return flagged, 0, 0
	}
	i := 2
	for {
		at, mask := anchors(s, i)
		if mask == 0 {
			return flagged, 2, at
		}
		for ; mask != 0; mask &= mask - 1 {
			flagged[at+bits.TrailingZeros32(mask)] = true
		}
		i = at + anchorBlock
	}
}

// checkVector holds the vectorised prefilter to the plain one on s, and the
// search's candidates to secretAnchor: every offset it accepts in the
// tested range is flagged.
func checkVector(t *testing.T, s string) {
	t.Helper()
	if got, want := mayHoldSecretVector(s), mayHoldSecretPlain(s); got != want {
		t.Fatalf("vectorised prefilter says %v, plain %v, on %q", got, want, s)
	}
	flagged, from, to := candidates(s)
	if to < from || to > len(s) || len(s) >= 2+anchorBlock+2 && len(s)-to > anchorBlock+1 {
		t.Fatalf("search tested [%d, %d) of %d bytes", from, to, len(s))
	}
	for p := range flagged {
		if p < from || p >= to {
			t.Fatalf("search flagged %d outside [%d, %d)", p, from, to)
		}
	}
	for p := from; p < to; p++ {
		if secretAnchor(s, p) && !flagged[p] {
			t.Fatalf("search missed the anchor at %d of %q", p, s)
		}
	}
}

// TestPrefilterVector puts each trigger and near miss at every offset of
// texts around one and two blocks long, over fillers with and without anchor
// bytes, so that each lands at a block's edges and in the tail.
func TestPrefilterVector(t *testing.T) {
	if !vectorised() {
		t.Skip("no vectorised prefilter on this machine (amd64 with AVX2 only)")
	}
	fillers := []string{"x", "plain text, ", "b k - _ A J ", "ey_bee-kee "}
	for _, f := range fillers {
		for _, tr := range prefilterTriggers {
			for n := 0; n <= 2*anchorBlock+6; n++ {
				for off := 0; off <= n; off++ {
					base := strings.Repeat(f, n/len(f)+1)[:n]
					checkVector(t, base[:off]+tr+base[off:])
				}
			}
		}
	}
	// Fillers alone are long texts with many candidates and no secret.
	for _, f := range fillers {
		s := strings.Repeat(f, 500)
		checkVector(t, s)
		if mayHoldSecretVector(s) {
			t.Errorf("prefilter accepts %q × 500", f)
		}
	}
}

// TestPrefilterDispatch: mayHoldSecret takes the vectorised search exactly
// when the processor has it.
func TestPrefilterDispatch(t *testing.T) {
	s := strings.Repeat("plain text ", 10) + "token eyJhbGciOi"
	if !mayHoldSecret(s) || mayHoldSecret(strings.Repeat("plain text ", 10)) {
		t.Fatal("prefilter wrong on a plain text")
	}
	if vectorised() {
		checkVector(t, s)
	}
}

// FuzzPrefilterVector holds the vectorised prefilter to the plain one, on
// the input as it is and shifted across a block's edges.
func FuzzPrefilterVector(f *testing.F) {
	for _, tr := range prefilterTriggers {
		f.Add(strings.Repeat("a", 30) + tr + strings.Repeat("z", 30))
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !vectorised() {
			t.Skip("no vectorised prefilter on this machine")
		}
		for k := 0; k <= anchorBlock+2; k++ {
			checkVector(t, strings.Repeat(" ", k)+s)
		}
	})
}
