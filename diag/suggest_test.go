package diag

import "testing"

func TestEditDistanceAndClosest(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"MB-01", "MB-001", 1}, {"enable", "enabled", 1}, {"kitten", "sitting", 3}, {"abc", "", 3}} {
		if got := EditDistance(c.a, c.b); got != c.d {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
	ids := []string{"MB-001", "MB-010", "TH-001"}
	if got := Closest("MB-01", ids, 2); got != "MB-001" {
		t.Errorf("Closest(MB-01) = %q", got)
	}
	if got := Closest("XX-999", ids, 2); got != "" {
		t.Errorf("Closest(XX-999) = %q, want none", got)
	}
}
