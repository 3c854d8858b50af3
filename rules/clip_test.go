package rules

import (
	"strings"
	"testing"
)

// TestClipsRedactFirst: the rules' quotes of input text (alClip) and the
// item names kept in facts (clipName, shown in the genealogy graph) are cut
// after their credentials are redacted, so a credential across the cut is
// not kept in part.
func TestClipsRedactFirst(t *testing.T) {
	tok := "ghp_" + strings.Repeat("Cq9x", 9)
	for name, got := range map[string]string{
		"alClip":   alClip("status "+tok, 30),
		"clipName": clipName(strings.Repeat("n", 40) + " " + tok),
	} {
		if strings.Contains(got, "Cq9xCq9x") || !strings.Contains(got, "[redacted") {
			t.Errorf("%s = %q", name, got)
		}
	}
}
