package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/gen"
)

// budgetConfig has one cheap rule whose run budget the corpus exceeds,
// one whose condition passes the cost limit of one evaluation, and one
// cheap rule within every bound; the run budget is filled in.
const budgetConfig = `limits:
  custom-rule-cost: 400
  custom-rule-budget: %d
custom-rules:
  - id: LAB-001
    name: every-delta
    scope: message
    severity: warning
    when: message.type == "DELTA" && message.body.contains("delta")
    message: "delta {{ message.id }}"
    short: Every DELTA.
  - id: LAB-002
    name: too-costly
    scope: thread
    severity: warning
    when: thread.messages.map(m, thread.messages.map(n, m.body.size() + n.body.size())).size() > 0
    message: never rendered
    short: A condition that costs too much.
  - id: LAB-003
    name: any-thread
    scope: thread
    severity: note
    when: thread.id != ""
    message: "{{ thread.id }}"
    short: Every thread.
`

// TestCustomRuleBudgets: a condition past its cost limit is a finding on
// the rule where it was evaluated, and the run goes on; a rule past its run
// budget has all its findings withdrawn for one finding at its
// declaration. The reports are byte-identical with one or two workers,
// from a cache, and merged from shards.
func TestCustomRuleBudgets(t *testing.T) {
	corpus := t.TempDir()
	if _, err := gen.WriteCorpus(corpus, gen.Options{Seed: 3, Threads: 40}); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(corpus, ".brenner-ci.yaml")
	t.Chdir(corpus)
	t.Setenv("SOURCE_DATE_EPOCH", "")
	check := func(args ...string) string {
		t.Helper()
		out := t.TempDir()
		code, stdout, stderr := runCLI(t, append([]string{"check", "--repo-root", corpus, "--out", out}, append(args, ".")...)...)
		if code > 1 {
			t.Fatalf("check %v: exit %d\n%s%s", args, code, stdout, stderr)
		}
		return out
	}
	reportOf := func(budget int, args ...string) (string, string) {
		t.Helper()
		if err := os.WriteFile(cfg, []byte(fmt.Sprintf(budgetConfig, budget)), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := check(args...)
		data, err := os.ReadFile(filepath.Join(dir, "brenner-ci.json"))
		if err != nil {
			t.Fatal(err)
		}
		return dir, string(data)
	}
	// Within budget: every DELTA is reported; the costly rule is reported
	// where it stopped, once per thread; the cheap one on every thread.
	_, report := reportOf(1_000_000, "--jobs", "1")
	deltas := strings.Count(report, `"message": "delta `)
	if deltas == 0 || strings.Contains(report, "spent its run budget") {
		t.Fatalf("within budget: %d LAB-001 findings, or a budget finding", deltas)
	}
	if n := strings.Count(report, "could not be evaluated here: its cost limit (400) was reached"); n != 40 {
		t.Errorf("LAB-002: want one cost-limit finding per thread (40), got %d", n)
	}
	if n := strings.Count(report, `"rule": "LAB-003"`); n != 40 {
		t.Errorf("LAB-003: the run went on for the cheap rule: want 40 findings, got %d", n)
	}
	// A budget the rules pass: their findings are withdrawn, one finding
	// each at its declaration says so; the cheap rule keeps its own.
	base, report := reportOf(3000, "--jobs", "1")
	if n := strings.Count(report, `"rule": "LAB-001"`); n != 1 || !strings.Contains(report, "Rule LAB-001 spent its run budget (cost 3000)") {
		t.Errorf("LAB-001 past its run budget: want its findings withdrawn for one, got %d LAB-001 findings", n)
	}
	if !strings.Contains(report, `"file": ".brenner-ci.yaml"`) {
		t.Errorf("the budget finding is not at the rule's declaration")
	}
	if n := strings.Count(report, `"rule": "LAB-003"`); n != 40 {
		t.Errorf("LAB-003 within its budget: want 40 findings, got %d", n)
	}
	same := func(what, dir string) {
		t.Helper()
		for _, name := range []string{"brenner-ci.sarif", "brenner-ci.junit.xml", "brenner-ci.md", "brenner-ci.json"} {
			a, _ := os.ReadFile(filepath.Join(base, name))
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("%s: %s differs from --jobs 1's (%v)", what, name, err)
			}
		}
	}
	same("--jobs 2", check("--jobs", "2"))
	cache := t.TempDir()
	same("--cache, first run", check("--jobs", "2", "--cache", cache))
	same("--cache, second run", check("--jobs", "2", "--cache", cache))
	var shards []string
	for i := 1; i <= 3; i++ {
		dir := check("--shard", fmt.Sprintf("%d/3", i))
		shards = append(shards, filepath.Join(dir, "brenner-ci.shard.json"))
	}
	merged := t.TempDir()
	if code, out, errs := runCLI(t, append([]string{"merge", "--repo-root", corpus, "--out", merged}, shards...)...); code > 1 {
		t.Fatalf("merge: exit %d\n%s%s", code, out, errs)
	}
	same("3 shards merged", merged)
}
