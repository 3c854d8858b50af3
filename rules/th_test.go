package rules

import "testing"

// TestSlugLength: thread_subject_conventions_v0.1.md, "Slug should be 10-40
// characters total".
func TestSlugLength(t *testing.T) {
	for _, c := range []struct {
		id   string
		slug string
		ok   bool
	}{
		{"RS-20251230-cell-fate", "cell-fate", false},
		{"RS-20251230-cell-fates", "cell-fates", true},
		{"RS-20251230-gradient-vs-lineage", "gradient-vs-lineage", true},
		{"RS-20251230-" + "abcdefghij-abcdefghij-abcdefghij-abcdefg", "abcdefghij-abcdefghij-abcdefghij-abcdefg", true},
		{"RS-20251230-" + "abcdefghij-abcdefghij-abcdefghij-abcdefgh", "abcdefghij-abcdefghij-abcdefghij-abcdefgh", false},
	} {
		slug, ok := slugLengthOK(c.id)
		if slug != c.slug || ok != c.ok {
			t.Errorf("slugLengthOK(%q) = %q, %v; want %q, %v", c.id, slug, ok, c.slug, c.ok)
		}
	}
}
