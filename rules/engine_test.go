package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// TestPanickingRuleIsIsolated: a rule that panics becomes an internal-error
// notification; the other rules and threads still report.
func TestPanickingRuleIsIsolated(t *testing.T) {
	r := Lookup("MB-002")
	saved := r.Check
	r.Check = func(c *Ctx) { panic("boom") }
	defer func() { r.Check = saved }()

	demo := filepath.Join(testutil.ModuleRoot(t), "testdata", "demo", "mailbox")
	batch, err := mailbox.Scan([]string{demo}, mailbox.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eng := NewEngine(All(), osFiles{}, limits.Parse{})
	res := eng.Run(batch, RunOptions{Jobs: 2})
	if !res.Internal {
		t.Fatal("a panicking rule did not mark the run as internal error")
	}
	var note string
	for _, n := range res.Notifications {
		note += n.Message
	}
	if !strings.Contains(note, "MB-002") || !strings.Contains(note, "boom") {
		t.Errorf("notification does not name the rule and the panic: %q", note)
	}
	seen := map[string]bool{}
	for _, f := range res.Findings {
		seen[f.Rule] = true
	}
	for _, id := range []string{"MB-001", "MB-003", "DL-002", "MB-005"} {
		if !seen[id] {
			t.Errorf("rule %s reported nothing after MB-002 panicked", id)
		}
	}
}
