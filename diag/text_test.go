package diag

import "testing"

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
