package rules_test

import (
	"os"
	"path/filepath"
	"testing"

	brennerci "github.com/brenner-ci/brenner-ci"
	"github.com/brenner-ci/brenner-ci/rules"
)

// TestExampleFiles: every rule has testdata/rules/<ID>/example.bad and
// example.good, embedded as they are on disk and read into the rule; no
// example file exists for an id the registry does not know.
func TestExampleFiles(t *testing.T) {
	root := filepath.Join("..", "testdata", "rules")
	for _, r := range rules.All() {
		bad, good := brennerci.RuleExamples(r.ID)
		for _, ex := range []struct{ name, embedded, rule string }{{"example.bad", bad, r.Bad}, {"example.good", good, r.Good}} {
			disk, err := os.ReadFile(filepath.Join(root, r.ID, ex.name))
			switch {
			case err != nil:
				t.Errorf("%s: %v", r.ID, err)
			case len(disk) == 0:
				t.Errorf("%s: %s is empty", r.ID, ex.name)
			case string(disk) != ex.embedded:
				t.Errorf("%s: the embedded %s differs from the file", r.ID, ex.name)
			case ex.rule != ex.embedded:
				t.Errorf("%s: the declaration's example differs from %s", r.ID, ex.name)
			}
		}
	}
	files, err := filepath.Glob(filepath.Join(root, "*", "example*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		id, name := filepath.Base(filepath.Dir(f)), filepath.Base(f)
		if rules.Lookup(id) == nil {
			t.Errorf("%s: example for an unknown rule", f)
		}
		if name != "example.bad" && name != "example.good" {
			t.Errorf("%s: neither example.bad nor example.good", f)
		}
	}
	if len(files) != 2*len(rules.All()) {
		t.Errorf("%d example files for %d rules", len(files), len(rules.All()))
	}
	if bad, good := brennerci.RuleExamples("XX-999"); bad != "" || good != "" {
		t.Errorf("examples for an unknown id: %q %q", bad, good)
	}
}
