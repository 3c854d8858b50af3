package rules

import (
	"strings"
	"testing"
	"unicode"
)

// TestClaimKeyMatchesLowerCased holds ClaimKey, which lower-cases rune by
// rune, to the hash of the claim lower-cased whole (strings.ToLower), for
// ASCII, other scripts, case-changing runes, invalid UTF-8 and spacing.
func TestClaimKeyMatchesLowerCased(t *testing.T) {
	ref := func(claim string) uint64 {
		h := uint64(14695981039346656037)
		space, wrote := false, false
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
	for _, s := range []string{"", "  ", "Cache latency", "CACHE   latency!", "Ünïcode ΣΑΣ İstanbul ǅ ẞ", "a\xffb", "\xc3", "K (Kelvin) and ſ", "x—y 1.5 μs", "日本語 テキスト"} {
		if got, want := ClaimKey(s), ref(s); got != want {
			t.Errorf("ClaimKey(%q) = %x, want %x", s, got, want)
		}
	}
}

// TestWindowsDeviceNames: the rune-count gate changes no answer.
func TestWindowsDeviceNames(t *testing.T) {
	ref := func(name string) bool {
		base, _, _ := strings.Cut(name, ".")
		base = strings.ToUpper(strings.TrimRight(base, " "))
		switch base {
		case "CON", "PRN", "AUX", "NUL":
			return true
		}
		return len(base) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) && base[3] >= '1' && base[3] <= '9'
	}
	for _, s := range []string{"con", "CON.md", "nul ", "aux.x.y", "com1", "LPT9.txt", "com0", "coM1 ", "comı", "lpt¹", "ſon", "RS-20260122-x", "", "co", "prn  .md", "conx"} {
		if got, want := windowsDevice(s), ref(s); got != want {
			t.Errorf("windowsDevice(%q) = %t, want %t", s, got, want)
		}
	}
}
