package rules_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/internal/run"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
	"github.com/brenner-ci/brenner-ci/rules"
)

// This file runs every non-artifact rule's Bad and Good example through the
// real flow — files on disk, mailbox.Scan, the engine, the findings
// pipeline — so the documentation cannot drift from the checks. (Artifact
// rules' examples are run by TestArtifactRuleExamples.) How an example
// becomes input (see the Rule type's doc comment):
//
//   - "@@" lines make a script: "@@ SUBJECT | FROM | to: A, B | ack" starts a
//     message (FROM, recipients and ack_required optional; "tie" gives it
//     the previous message's created_ts), "@@ thread ID"
//     starts another thread file, "@@ file PATH" a file with the lines that
//     follow as its content, "@@ flag --thread-timeout=D" the command-line
//     flag;
//   - "Subject: …" lines are one message each;
//   - a JSON object with "subject" is one message's metadata;
//   - a TH- example without spaces is a thread id;
//   - anything else is the body of one message whose subject is the
//     rule's message type (exampleSubject).

// exampleSubject is the subject of a body example, by rule id or family.
func exampleSubject(id string) string {
	switch {
	case id == "MB-002" || id == "MB-003" || id == "SP-001" || id == "SP-003" || id == "SP-004":
		return "KICKOFF: Cell fate coordinates"
	case id == "MB-006" || id == "MB-007" || id == "SP-002":
		return "CRITIQUE: H2 timing"
	case id == "MB-008":
		return "HANDOFF: brenner_bot-5so.3 to BlueDog"
	case strings.HasPrefix(id, "AP-"):
		return "COMPILED: v1 initial artifact"
	}
	return "DELTA[gpt]: Hypotheses"
}

// writeExample turns example ex of rule r into files under dir.
func writeExample(t *testing.T, r *rules.Rule, ex, dir string) {
	t.Helper()
	files, err := rules.ExampleFiles(ex, exampleSubject(r.ID), r.Family == "TH")
	if err != nil {
		t.Fatalf("%s: %v", r.ID, err)
	}
	testutil.WriteTree(t, dir, files)
}

// runExample returns the findings of rule id on example ex.
func runExample(t *testing.T, r *rules.Rule, ex string) []string {
	t.Helper()
	dir := t.TempDir()
	writeExample(t, r, ex, dir)
	// The example folder is the repository root; its configuration is
	// found the way check finds it, from the folder of the thread files
	// upward.
	first := dir
	if fi, err := os.Stat(filepath.Join(dir, "mailbox")); err == nil && fi.IsDir() {
		first = filepath.Join(dir, "mailbox")
	}
	resolved, err := config.Resolve("", first, dir, rules.Known)
	if err != nil {
		t.Fatalf("%s: example configuration: %v", r.ID, err)
	}
	plan := run.NewPlan([]string{dir}, resolved, 1)
	if d, err := os.ReadFile(filepath.Join(dir, ".thread-timeout")); err == nil {
		if plan.ThreadTimeout, err = time.ParseDuration(strings.TrimSpace(string(d))); err != nil {
			t.Fatal(err)
		}
	}
	res, out, err := plan.Lint()
	if err != nil {
		t.Fatal(err)
	}
	if res.Internal {
		t.Fatalf("%s: internal error: %+v", r.ID, res.Notifications)
	}
	var got []string
	for _, f := range out.Findings {
		if f.Rule == r.ID {
			got = append(got, f.String())
		}
	}
	return got
}

// TestExamples: every rule's Bad example triggers it and its Good example
// does not, through the real flow (artifact-scope rules: see
// TestArtifactRuleExamples).
func TestExamples(t *testing.T) {
	var ran []string
	for _, r := range rules.All() {
		if r.Scope == rules.ScopeArtifact {
			continue
		}
		ran = append(ran, r.ID)
		t.Run(r.ID, func(t *testing.T) {
			if got := runExample(t, r, r.Bad); len(got) == 0 {
				t.Errorf("the Bad example does not trigger %s:\n%s", r.ID, r.Bad)
			}
			if got := runExample(t, r, r.Good); len(got) > 0 {
				t.Errorf("the Good example triggers %s:\n%s\n%s", r.ID, strings.Join(got, "\n"), r.Good)
			}
		})
	}
	sort.Strings(ran)
	t.Logf("ran the examples of %d rules", len(ran))
}
