package delta

import (
	"regexp"
	"testing"
)

// hypIDPlain is the pattern isHypID replaced.
var hypIDPlain = regexp.MustCompile(`^H[1-9][0-9]*$`)

// TestIsHypID holds isHypID to the pattern on every string of up to four
// bytes over an alphabet of the bytes that matter, and on a few longer
// ones.
func TestIsHypID(t *testing.T) {
	alphabet := []byte{'H', 'h', '0', '1', '9', 'x', ' ', '\n', 0xC5}
	var walk func(b []byte)
	walk = func(b []byte) {
		if got, want := isHypID(string(b)), hypIDPlain.MatchString(string(b)); got != want {
			t.Errorf("isHypID(%q) = %v, pattern %v", b, got, want)
		}
		if len(b) == 4 {
			return
		}
		for _, c := range alphabet {
			walk(append(b, c))
		}
	}
	walk(nil)
	for _, s := range []string{"H1234567890", "H12345678x0", "H10\n", "H1 ", " H1", "H١"} {
		if got, want := isHypID(s), hypIDPlain.MatchString(s); got != want {
			t.Errorf("isHypID(%q) = %v, pattern %v", s, got, want)
		}
	}
}

func FuzzIsHypID(f *testing.F) {
	for _, s := range []string{"H1", "H0", "H10", "h1", "H", "H1\n", "H٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isHypID(s), hypIDPlain.MatchString(s); got != want {
			t.Fatalf("isHypID(%q) = %v, pattern %v", s, got, want)
		}
	})
}
