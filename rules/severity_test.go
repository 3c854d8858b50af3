package rules_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/run"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
	"github.com/brenner-ci/brenner-ci/rules"
)

// TestOneSeverityPerID: every finding that the compiler and the checks
// produce — before the pipeline stamps severities — already has its rule's
// default severity. A producer that wants another severity for a variant
// must use another rule id, so that a team can tune one without the other.
// Inputs: every golden fixture, the demo and, when present, the shared
// corpus.
func TestOneSeverityPerID(t *testing.T) {
	root := testutil.ModuleRoot(t)
	paths, _ := filepath.Glob(filepath.Join(root, "testdata", "rules", "*", "fail"))
	paths = append(paths, filepath.Join(root, "testdata", "demo"))
	if corpus := filepath.Join(root, "..", "shared", "corpus"); dirExists(corpus) {
		paths = append(paths, corpus)
	} else {
		t.Log("../shared/corpus is absent: checking the fixtures and the demo only")
	}
	seen := 0
	for _, p := range paths {
		res, _, err := run.NewPlan([]string{p}, nil, 2).Lint()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Findings {
			seen++
			r := rules.Lookup(f.Rule)
			if r == nil {
				t.Errorf("%s: finding of unregistered rule %s", f.String(), f.Rule)
				continue
			}
			if f.Severity != r.Severity {
				t.Errorf("%s reported as %s, but its default severity is %s: %s", f.Rule, f.Severity, r.Severity, f.String())
			}
		}
	}
	if seen < 100 {
		t.Fatalf("only %d findings: the inputs did not run", seen)
	}
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
