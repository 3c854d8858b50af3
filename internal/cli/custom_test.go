package cli

import (
	"bytes"
	"encoding/json"
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

// rootRules is a repository configuration with two custom rules.
const rootRules = `custom-rules:
  - id: LAB-001
    name: every-thread
    scope: thread
    severity: warning
    when: thread.id != ""
    message: "root rule on {{ thread.id }}"
    short: Every thread.
  - id: LAB-003
    name: every-kickoff
    scope: message
    severity: warning
    when: message.type == "KICKOFF"
    message: "kickoff {{ message.id }}"
    short: Every kickoff.
`

// TestCustomRulesAreRules: custom rules take severities, off and suppress
// entries as built-in rules do, and a configuration below the repository
// root may add custom rules but neither change nor turn off the ones in
// force (SP-005, the repository's rule applies).
func TestCustomRulesAreRules(t *testing.T) {
	for _, tc := range []struct {
		name, root, nested string
		want, not          []string
		code               int
	}{
		{name: "as declared", root: rootRules,
			want: []string{"warning: root rule on RS-20260301-escapes [LAB-001]", "warning: kickoff", "[LAB-003]"}},
		{name: "severity and suppress", root: rootRules + "rules:\n  LAB-001: error\nsuppress:\n  - {rule: LAB-003, thread: RS-20260301-escapes, reason: known}\n",
			want: []string{"error: root rule on RS-20260301-escapes [LAB-001]"}, not: []string{"[LAB-003]"}, code: 1},
		{name: "off", root: rootRules + "rules:\n  LAB-001: off\n  LAB-003: {enabled: false}\n", not: []string{"[LAB-001]", "[LAB-003]"}},
		{name: "nested adds a rule", root: rootRules,
			nested: "custom-rules:\n  - {id: TEAM-001, name: team-rule, scope: thread, severity: note, when: 'true', message: team rule, short: A team's rule.}\n",
			want:   []string{"note: team rule [TEAM-001]", "[LAB-001]"}, not: []string{"[SP-005]"}},
		{name: "nested redefines a rule", root: rootRules,
			nested: "custom-rules:\n  - {id: LAB-001, name: every-thread, scope: thread, severity: warning, when: 'false', message: m, short: Every thread.}\n",
			want:   []string{"root rule on RS-20260301-escapes [LAB-001]", "custom rule LAB-001 differs from the one in force", "[SP-005]"}, code: 1},
		{name: "nested turns a rule off", root: rootRules, nested: "rules:\n  LAB-001: off\n",
			want: []string{"root rule on RS-20260301-escapes [LAB-001]", "[SP-005]"}, code: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := nestedRepo(t, tc.nested)
			if err := os.WriteFile(filepath.Join(dir, ".brenner-ci.yaml"), []byte(tc.root), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.nested == "" {
				os.Remove(filepath.Join(dir, "mailbox", ".brenner-ci.yaml"))
			}
			code, stdout, stderr := runCLI(t, "check", "--repo-root", dir, "--fail-on", "error", filepath.Join(dir, "mailbox"))
			if code > 1 {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("%q missing:\n%s", w, stdout)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(stdout, n) {
					t.Errorf("%q present:\n%s", n, stdout)
				}
			}
		})
	}
}

// TestRulesTestReportsFailures: `rules --test` exits 1 and says why when a
// bad example reports nothing, a good one reports (listing the findings),
// or the condition cannot be evaluated on an example; 0 when all pass.
func TestRulesTestReportsFailures(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "rules.yaml")
	os.WriteFile(cfg, []byte(`custom-rules:
  - id: LAB-001
    name: swapped
    scope: message
    severity: warning
    when: message.body.contains("§")
    message: "cites {{ message.id }}"
    short: s
    examples:
      bad: "no anchor"
      good: "anchor §1"
  - id: LAB-002
    name: missing-key
    scope: message
    severity: warning
    when: message.sections["notes"] == "x"
    message: m
    short: s
    examples:
      bad: "## Other\n\ntext"
  - id: LAB-003
    name: right
    scope: message
    severity: warning
    when: message.body.contains("§")
    message: m
    short: s
    examples:
      bad: "anchor §1"
      good: "no anchor"
`), 0o644)
	code, out, errs := runCLI(t, "rules", "--test", "--config", cfg)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errs)
	}
	for _, w := range []string{
		"FAIL LAB-001 bad example: the rule reported nothing",
		"FAIL LAB-001 good example: the rule reported 1 finding(s) (want none):\n    mailbox/thread-0.json:",
		"cites 101",
		"FAIL LAB-002 bad example: mailbox/thread-0.json:7: Rule LAB-002 could not be evaluated here: no such key: notes.",
		"ok   LAB-003 bad example\nok   LAB-003 good example",
		"5 example(s) of 3 custom rule(s): 3 failed",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("%q missing:\n%s", w, out)
		}
	}
	if code, out, _ := runCLI(t, "rules", "--test", "--config", filepath.Join(dir, "no-such.yaml")); code != 2 {
		t.Errorf("a missing configuration: exit %d, want 2\n%s", code, out)
	}
}

// TestCustomRuleInReports: the demo's custom rule is described in SARIF's
// tool.driver.rules with its help (no documentation link: it has no entry
// in docs/rules.md), its findings point at it, and JUnit, markdown and
// JSON carry them.
func TestCustomRuleInReports(t *testing.T) {
	out := t.TempDir()
	dir := demo(t)
	code, stdout, stderr := runCLI(t, "check", "--repo-root", filepath.Dir(filepath.Dir(dir)), "--config", filepath.Join(dir, ".brenner-ci.yaml"), "--out", out, dir)
	if code != 1 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "brenner-ci.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID      string `json:"id"`
						HelpURI string `json:"helpUri"`
						Help    struct {
							Markdown string `json:"markdown"`
						} `json:"help"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	idx := -1
	for i, r := range run.Tool.Driver.Rules {
		if r.ID == "LAB-001" {
			idx = i
			if r.HelpURI != "" || !strings.Contains(r.Help.Markdown, "cites a transcript section") || !strings.Contains(r.Help.Markdown, "§42") {
				t.Errorf("LAB-001's descriptor: helpUri %q, help %q", r.HelpURI, r.Help.Markdown)
			}
		}
	}
	n := 0
	for _, r := range run.Results {
		if r.RuleID == "LAB-001" {
			n++
			if r.RuleIndex != idx {
				t.Errorf("a LAB-001 result points at rule %d, not %d", r.RuleIndex, idx)
			}
		}
	}
	if idx < 0 || n != 2 {
		t.Fatalf("LAB-001: descriptor %d, %d results (want 2)", idx, n)
	}
	for _, name := range []string{"brenner-ci.junit.xml", "brenner-ci.md", "brenner-ci.json"} {
		b, _ := os.ReadFile(filepath.Join(out, name))
		if !bytes.Contains(b, []byte("LAB-001")) || bytes.Contains(b, []byte("#lab-001")) {
			t.Errorf("%s: LAB-001 missing, or linked to a documentation entry it does not have", name)
		}
	}
}

// TestCustomRuleBaselined: a custom rule's findings are fingerprinted and
// accepted by a baseline as every finding is; a new one is not.
func TestCustomRuleBaselined(t *testing.T) {
	dir := demo(t)
	cfg := filepath.Join(dir, ".brenner-ci.yaml")
	base := filepath.Join(t.TempDir(), "baseline.txt")
	root := filepath.Dir(filepath.Dir(dir))
	if code, out, errs := runCLI(t, "check", "--repo-root", root, "--config", cfg, "--write-baseline", base, dir); code > 1 {
		t.Fatalf("write-baseline: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCLI(t, "check", "--repo-root", root, "--config", cfg, "--fail-on", "warning", "--baseline", base, dir)
	if code != 0 || !strings.Contains(out, "[LAB-001]") {
		t.Fatalf("with the baseline: exit %d, want 0 with LAB-001 reported as old\n%s%s", code, out, errs)
	}
	// A stricter custom rule finds something the baseline does not hold.
	stricter := filepath.Join(t.TempDir(), "stricter.yaml")
	data, _ := os.ReadFile(cfg)
	os.WriteFile(stricter, []byte(strings.Replace(string(data), `!message.body.contains("§")`, `true`, 1)), 0o644)
	code, out, _ = runCLI(t, "check", "--repo-root", root, "--config", stricter, "--fail-on", "warning", "--baseline", base, dir)
	if code != 1 || !strings.Contains(out, "new: ") {
		t.Fatalf("a new LAB-001 finding: exit %d, want 1 with it marked new\n%s", code, out)
	}
}
