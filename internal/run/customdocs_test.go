package run

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
	"github.com/brenner-ci/brenner-ci/rules/custom"
)

// yamlBlocks are the ```yaml blocks of a markdown file that are whole
// configurations with custom rules.
func yamlBlocks(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(t), filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)\n```\n").FindAllStringSubmatch(string(data), -1) {
		if strings.HasPrefix(m[1], "custom-rules:") {
			out = append(out, m[1]+"\n")
		}
	}
	return out
}

// TestCustomRuleDocExamples: every configuration in docs/custom-rules.md
// and the README's "Your own rules" compiles, and its examples pass
// `rules --test` (the bad one reports the rule, the good one does not).
func TestCustomRuleDocExamples(t *testing.T) {
	docs := yamlBlocks(t, "docs/custom-rules.md")
	if len(docs) < 6 {
		t.Fatalf("docs/custom-rules.md: %d configurations, want the rule's anatomy and five worked examples", len(docs))
	}
	readme := yamlBlocks(t, "README.md")
	if len(readme) == 0 {
		t.Fatal("README.md has no custom rule example")
	}
	for i, cfg := range append(docs, readme...) {
		dir := t.TempDir()
		path := filepath.Join(dir, ".brenner-ci.yaml")
		if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		err := TestRules(RulesOptions{Config: path}, &Env{Stdout: &out, Stderr: &errb})
		if err != nil || !strings.Contains(out.String(), "ok ") || strings.Contains(out.String(), "FAIL") {
			t.Errorf("example %d: rules --test: %v\n%s%s\n%s", i+1, err, out.String(), errb.String(), cfg)
		}
	}
}

// TestCustomRuleDocVariables: the variables tables of docs/custom-rules.md
// list exactly the fields expressions can read.
func TestCustomRuleDocVariables(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(t), "docs", "custom-rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for name, typ := range map[string]reflect.Type{"message": reflect.TypeFor[custom.Message](), "thread": reflect.TypeFor[custom.Thread](),
		"item": reflect.TypeFor[custom.Item](), "artifact": reflect.TypeFor[custom.Artifact]()} {
		start := strings.Index(doc, "### `"+name+"`")
		if start < 0 {
			t.Errorf("no table for %s", name)
			continue
		}
		table := doc[start:]
		if end := strings.Index(table[4:], "\n### "); end >= 0 {
			table = table[:end+4]
		}
		if end := strings.Index(table[4:], "\nWhat CEL gives"); end >= 0 {
			table = table[:end+4]
		}
		documented := map[string]bool{}
		for _, m := range regexp.MustCompile("(?m)^\\| (`[^|]*`) \\|").FindAllStringSubmatch(table, -1) {
			for _, f := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(m[1], -1) {
				documented[f[1]] = true
			}
		}
		for i := 0; i < typ.NumField(); i++ {
			tag := typ.Field(i).Tag.Get("cel")
			if tag == "" || tag == "-" {
				continue
			}
			if !documented[tag] {
				t.Errorf("%s.%s is not in the table", name, tag)
			}
			delete(documented, tag)
		}
		for f := range documented {
			t.Errorf("the %s table lists %s, which expressions cannot read", name, f)
		}
	}
}
