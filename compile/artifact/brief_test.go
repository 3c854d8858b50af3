package artifact

import (
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/jsonv"
)

// TestBriefRedactsBeforeCutting: a value quoted in a conflict message is
// cut to 80 bytes after its credentials are redacted, so a credential
// across the cut is not quoted in part.
func TestBriefRedactsBeforeCutting(t *testing.T) {
	tok := "ghp_" + strings.Repeat("Bq9x", 9)
	got := brief(jsonv.NewString(strings.Repeat("v", 60) + " " + tok))
	if strings.Contains(got, "Bq9xBq9x") || !strings.Contains(got, "[redacted") {
		t.Errorf("brief = %q", got)
	}
}
