package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
)

// compileFixture compiles the one thread of a fixture file.
func compileFixture(t *testing.T, path string, agents ...string) *compile.Thread {
	t.Helper()
	b, err := mailbox.Scan([]string{path}, mailbox.ScanOptions{Jobs: 1})
	if err != nil || len(b.Threads) != 1 {
		t.Fatalf("%s: %v (%d threads)", path, err, len(b.Threads))
	}
	mt, err := b.Threads[0].Load()
	if err != nil {
		t.Fatal(err)
	}
	return compile.Compile(mt, compile.Options{Agents: agents})
}

// TestKickoffSeedsRT: message_body_schema_v0.1.md, KICKOFF: "## Research
// Question {One-sentence problem statement - will become the RT if this is a
// research session}". A thread that states its question in the KICKOFF and
// never EDITs research_thread has an RT (statement and context from the
// KICKOFF), and its persisted artifact passes ER-001 and ER-002.
func TestKickoffSeedsRT(t *testing.T) {
	dir := filepath.Join("..", "testdata", "rules", "MG-006")
	th := compileFixture(t, filepath.Join(dir, "pass", "RS-20260302-quorum-kickoff-rt.json"))
	rt := th.Current.RT
	if rt == nil {
		t.Fatal("no research thread")
	}
	if got := rt.Str("statement"); !strings.HasPrefix(got, "What sets the cell density") {
		t.Errorf("statement %q", got)
	}
	if got := rt.Str("context"); !strings.HasPrefix(got, "Autoinducer concentration rises") {
		t.Errorf("context %q", got)
	}
	if len(th.Current.Contributors) != 3 {
		t.Errorf("the seed credits a contributor: %d contributors", len(th.Current.Contributors))
	}
	p := artifact.ParseMarkdown(th.Current.Render(), "artifacts/"+th.ID()+".md")
	for _, id := range []string{"ER-001", "ER-002"} {
		if fs := lint(t, id, p, nil); len(fs) > 0 {
			t.Errorf("%s on the compiled artifact: %v", id, fs)
		}
	}

	// No "## Research Question" in the KICKOFF: no RT, as before.
	th = compileFixture(t, filepath.Join(dir, "fail", "RS-20260302-quorum-no-question.json"))
	if th.Current.RT != nil {
		t.Errorf("RT %v from a KICKOFF without a research question", th.Current.RT.Fields.Text())
	}
	p = artifact.ParseMarkdown(th.Current.Render(), "artifacts/"+th.ID()+".md")
	if fs := lint(t, "ER-001", p, nil); len(fs) == 0 {
		t.Error("ER-001 does not fire without a research thread")
	}
}
