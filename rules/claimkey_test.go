package rules

import (
	"strings"
	"testing"
	"unicode"
)

// claimKeyPlain is ClaimKey as first written: the claim lowered with
// strings.ToLower, then read a rune at a time.
func claimKeyPlain(claim string) uint64 {
	h := uint64(14695981039346656037)
	space := false
	wrote := false
	for _, r := range strings.ToLower(claim) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && wrote {
				h = (h ^ ' ') * 1099511628211
			}
			space = false
			for _, b := range []byte(string(r)) {
				h = (h ^ uint64(b)) * 1099511628211
			}
			wrote = true
		} else {
			space = true
		}
	}
	if !wrote {
		return 0
	}
	return h
}

var claimSeeds = []string{
	"", "   ", "Caches are slow", "caches ARE   slow!", "İstanbul Straße ΣΑΣ", "Ⅻ ½ ٣ digits",
	"bad \xff utf8 \xc3", "K (Kelvin) and ſ", "tab\tand\nnewline", "under_score-dash",
}

// TestClaimKeyNormalises: claims that differ only in case, spacing and
// punctuation share a key; different words do not.
func TestClaimKeyNormalises(t *testing.T) {
	if ClaimKey("Caches are SLOW.") != ClaimKey("  caches, are slow ") {
		t.Error("case, punctuation and spacing changed the key")
	}
	if ClaimKey("caches are slow") == ClaimKey("caches are fast") {
		t.Error("different claims share a key")
	}
	if ClaimKey("?!") != 0 {
		t.Error("a claim without letters or digits has a key")
	}
	for _, s := range claimSeeds {
		if got, want := ClaimKey(s), claimKeyPlain(s); got != want {
			t.Errorf("ClaimKey(%q) = %x, the plain version %x", s, got, want)
		}
	}
}

func FuzzClaimKey(f *testing.F) {
	for _, s := range claimSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ClaimKey(s), claimKeyPlain(s); got != want {
			t.Fatalf("ClaimKey(%q) = %x, the plain version %x", s, got, want)
		}
	})
}
