package rules_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
)

// kickoffThread writes a thread whose KICKOFF has body and returns its
// folder.
func kickoffThread(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	export := map[string]any{
		"project": "/data/projects/quorum", "thread_id": "RS-20260301-quorum-heading",
		"messages": []map[string]any{{
			"id": 1, "subject": "KICKOFF: Quorum switch timing", "from": "LindenFox", "to": []string{"CopperWren"},
			"created_ts": "2026-03-01T09:00:00Z", "body_md": body,
		}},
	}
	src, err := json.MarshalIndent(export, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "thread.json"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestResearchQuestionHeadingAgrees: the rule that wants a research question
// in a KICKOFF (MB-002) and the compiler that seeds the research thread from
// it find the "## Research Question" section by the same heading key
// (body.HeadingKey). Before, MB-002 did not fold white space and the
// compiler did not strip a parenthesised suffix, so each said the other was
// wrong on one of these headings.
func TestResearchQuestionHeadingAgrees(t *testing.T) {
	for _, heading := range []string{
		"## Research  Question",                 // two spaces: MB-002 fired, the compiler seeded
		"## Research Question (Discriminative)", // suffix: MB-002 silent, the compiler did not seed
		"## research question:",
		"## Research\tQuestion (optional)",
	} {
		t.Run(heading, func(t *testing.T) {
			dir := kickoffThread(t, heading+"\nWhat sets the switch density?\n\n## Context\nThe switch point varies.\n")
			if got := lines(check(t, nil, dir), "MB-002", dir); got != "" {
				t.Errorf("MB-002 on a KICKOFF with %q:\n%s", heading, got)
			}
			b, err := mailbox.Scan([]string{dir}, mailbox.ScanOptions{Jobs: 1})
			if err != nil || len(b.Threads) != 1 {
				t.Fatalf("scan: %v (%d threads)", err, len(b.Threads))
			}
			mt, err := b.Threads[0].Load()
			if err != nil {
				t.Fatal(err)
			}
			th := compile.Compile(mt, compile.Options{})
			if th.Current.RT == nil {
				t.Fatalf("the compiler did not seed the research thread from %q", heading)
			}
			if got := th.Current.RT.Str("statement"); got != "What sets the switch density?" {
				t.Errorf("statement %q", got)
			}
		})
	}
}
