package diag

import (
	"strings"
	"testing"
	"unsafe"
)

func TestPluralCount(t *testing.T) {
	for _, tc := range []struct {
		n          int
		word, text string
	}{{0, "items", "0 items"}, {1, "item", "1 item"}, {2, "items", "2 items"}, {-1, "items", "-1 items"}} {
		if got := Plural(tc.n, "item", "items"); got != tc.word {
			t.Errorf("Plural(%d) = %q, want %q", tc.n, got, tc.word)
		}
		if got := Count(tc.n, "item", "items"); got != tc.text {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.text)
		}
	}
}

// collapseCases are CollapseSpace's seeds: clean text (returned as it is), every
// kind of white space at the ends and inside, runes past ASCII, white
// space past ASCII (NEL, no-break space, ideographic space) and bytes that
// are not UTF-8.
var collapseCases = []string{"", " ", "a", "a b", " a", "a ", "a  b", "a\tb", "a\nb\r\n", "\v\fa\u00a0b\u0085c\u3000",
	"héllo wörld", "héllo  wörld", "\xff a\xfe", "a \xc3", "x\u2028y", "  lead and trail  ", "one\ttwo  three\n",
	"H1: x — y", "a\u2003b", "x\fy"}

// TestCollapseSpace: CollapseSpace is strings.Join(strings.Fields(s), " ") on the
// seeds, and hands back s itself when s is already one line.
func TestCollapseSpace(t *testing.T) {
	for _, s := range collapseCases {
		want := strings.Join(strings.Fields(s), " ")
		got := CollapseSpace(s)
		if got != want {
			t.Errorf("CollapseSpace(%q) = %q, want %q", s, got, want)
		}
		if s == want && len(s) > 0 && unsafe.StringData(got) != unsafe.StringData(s) {
			t.Errorf("CollapseSpace(%q) made a copy of a string already on one line", s)
		}
	}
}

// FuzzCollapseSpace holds CollapseSpace to strings.Join(strings.Fields(s), " ").
func FuzzCollapseSpace(f *testing.F) {
	for _, s := range collapseCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := CollapseSpace(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("CollapseSpace(%q) = %q, want %q", s, got, want)
		}
	})
}
