package rules_test

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/internal/run"
	"github.com/brenner-ci/brenner-ci/pipeline"
	"github.com/brenner-ci/brenner-ci/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/rules")

// check runs the whole pipeline (ingest, compile, rules) on paths.
func check(t testing.TB, policy *config.Resolved, paths ...string) *pipeline.Result {
	t.Helper()
	plan := run.NewPlan(paths, policy, 2)
	for _, p := range paths {
		// A fixture's .thread-timeout file stands for --thread-timeout.
		if d, err := os.ReadFile(filepath.Join(p, ".thread-timeout")); err == nil {
			if plan.ThreadTimeout, err = time.ParseDuration(strings.TrimSpace(string(d))); err != nil {
				t.Fatal(err)
			}
		}
	}
	res, out, err := plan.Lint()
	if err != nil {
		t.Fatal(err)
	}
	if res.Internal {
		t.Fatalf("internal error: %+v", res.Notifications)
	}
	return out
}

// lines renders the findings of rule id, with paths relative to dir.
func lines(res *pipeline.Result, id, dir string) string {
	var out []string
	prefix := filepath.ToSlash(dir) + "/"
	for i := range res.Findings {
		f := res.Findings[i]
		if f.Rule != id {
			continue
		}
		f.Pos.File = strings.TrimPrefix(f.Pos.File, prefix)
		if abs, err := filepath.Abs(dir); err == nil { // configuration files are found by absolute path
			f.Pos.File = strings.TrimPrefix(f.Pos.File, filepath.ToSlash(abs)+"/")
		}
		out = append(out, f.String())
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

// loadCfg resolves a fixture's configuration the way check does, with the
// fixture folder as the repository root and its mailbox/ subfolder, when
// there is one, as the checked path (so mailbox/.brenner-ci.yaml is a
// configuration below the root).
func loadCfg(t *testing.T, dir string) *config.Resolved {
	first := dir
	if fi, err := os.Stat(filepath.Join(dir, "mailbox")); err == nil && fi.IsDir() {
		first = filepath.Join(dir, "mailbox")
	}
	res, err := config.Resolve("", first, dir, rules.Known)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestGolden runs every rule's fixtures: testdata/rules/<ID>/fail must give
// exactly the findings in fail.out (and at least one), pass must give none
// of that rule. Run with -update to rewrite fail.out files.
func TestGolden(t *testing.T) {
	root := filepath.Join("..", "testdata", "rules")
	for _, m := range rules.All() {
		m := m
		t.Run(m.ID, func(t *testing.T) {
			dir := filepath.Join(root, m.ID)
			if _, err := os.Stat(dir); err != nil {
				t.Fatalf("rule %s has no golden fixtures in %s", m.ID, dir)
			}
			fail := filepath.Join(dir, "fail")
			got := lines(check(t, loadCfg(t, fail), fail), m.ID, dir)
			golden := filepath.Join(dir, "fail.out")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./rules -update)", err)
			}
			if got == "" {
				t.Errorf("%s: the failing input gave no %s finding", fail, m.ID)
			}
			if got != string(want) {
				t.Errorf("%s findings differ from %s\n--- got\n%s--- want\n%s", m.ID, golden, got, want)
			}
			pass := filepath.Join(dir, "pass")
			if got := lines(check(t, loadCfg(t, pass), pass), m.ID, dir); got != "" {
				t.Errorf("%s: the passing input gave findings:\n%s", pass, got)
			}
		})
	}
	// No stray fixture directories for unknown rules.
	entries, _ := os.ReadDir(root)
	var unknown []string
	for _, e := range entries {
		if e.IsDir() && rules.Lookup(e.Name()) == nil {
			unknown = append(unknown, e.Name())
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		t.Errorf("fixtures for unknown rules: %v", unknown)
	}
}

// TestEmptiedArtifactStillDrifts: emptying artifacts/<thread_id>.md gives
// DR-003 and does not make the drift against its thread disappear.
func TestEmptiedArtifactStillDrifts(t *testing.T) {
	dir := filepath.Join("..", "testdata", "rules", "DR-003", "fail")
	res := check(t, nil, dir)
	var drift, dr3 int
	for _, f := range res.Findings {
		if !strings.HasSuffix(filepath.ToSlash(f.Pos.File), "artifacts/RS-20260301-quorum-timing.md") {
			continue
		}
		switch f.Rule {
		case "DR-001":
			drift++
		case "DR-003":
			dr3++
		}
	}
	if drift == 0 || dr3 != 1 {
		t.Errorf("emptied artifact: %d DR-001 and %d DR-003 findings, want drift and one DR-003", drift, dr3)
	}
}
