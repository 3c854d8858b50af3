package run

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// TestGraphReadsArtifacts: graph draws the references of persisted
// artifacts among the inputs beside the threads', dotted and with a legend
// line, and its JSON names the artifact an edge was read from; the
// markdown report's genealogy draws them the same way.
// (testdata/rules/RF-005/fail: a thread refines a killed H1, a markdown
// artifact extends it, a JSON artifact replicates it.)
func TestGraphReadsArtifacts(t *testing.T) {
	dir := filepath.Join(testutil.ModuleRoot(t), "testdata", "rules", "RF-005", "fail")
	graph := func(format string) string {
		var out, errs bytes.Buffer
		if err := Graph(GraphOptions{Paths: []string{dir}, Format: format, Jobs: 1}, &Env{Stdout: &out, Stderr: &errs}); err != nil {
			t.Fatalf("graph --format %s: %v\n%s", format, err, errs.String())
		}
		return out.String()
	}
	m := graph("mermaid")
	for _, want := range []string{"-->|refines|", "-.->|extends|", "-.->|replicates|", "legend>\"Dotted arrows: references read from persisted artifacts", "RS-20260310-lineage-notes", "RS-20260311-lineage-json"} {
		if !strings.Contains(m, want) {
			t.Errorf("mermaid lacks %q:\n%s", want, m)
		}
	}
	if d := graph("dot"); !strings.Contains(d, `[label="extends", style=dotted];`) || !strings.Contains(d, `[label="refines"];`) {
		t.Errorf("dot:\n%s", d)
	}
	js := graph("json")
	for _, want := range []string{`"artifact": "` + filepath.ToSlash(dir) + `/artifacts/RS-20260310-lineage-notes.md"`, `"artifact": "` + filepath.ToSlash(dir) + `/artifacts/RS-20260311-lineage-json.json"`} {
		if !strings.Contains(js, want) {
			t.Errorf("json lacks %s:\n%s", want, js)
		}
	}
	md := filepath.Join(t.TempDir(), "report.md")
	var out, errs bytes.Buffer
	err := Check(CheckOptions{Paths: []string{dir}, FailOn: "none", Format: "text", Markdown: md, Jobs: 1, Quiet: true}, &Env{Stdout: &out, Stderr: &errs})
	if err != nil {
		t.Fatalf("check: %v\n%s", err, errs.String())
	}
	data, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	report := string(data)
	if !strings.Contains(report, "```mermaid\nflowchart LR") || !strings.Contains(report, "-.->|extends|") || !strings.Contains(report, "Dotted arrows: references read from persisted artifacts") {
		t.Errorf("the markdown report's genealogy does not draw the artifacts' references:\n%s", report)
	}
}

// TestGenealogyMarksRealFindings: the markdown report marks each RF-
// finding of the rules' own failing examples on the reference it is about
// (reporters/genealogy.Marks matches the thread and anchor the rules
// write: a change to either format shows here).
func TestGenealogyMarksRealFindings(t *testing.T) {
	for rule, want := range map[string][]string{
		"RF-001": {"| RF-001 |"},
		"RF-002": {"-->|refines ⚠ RF-002|", "-.->|refines ⚠ RF-002|"},
		"RF-003": {"| builds\\_on | ", "| RF-003, RF-004 |"},
		"RF-004": {"-->|refines ⚠ RF-004|", "-.->|informed_by ⚠ RF-004|"},
		"RF-005": {"-->|refines ⚠ RF-005 RF-006|", "-.->|extends ⚠ RF-005|", "-.->|replicates ⚠ RF-005|"},
		"RF-006": {"-->|informed_by ⚠ RF-006|", "-.->|refutes ⚠ RF-006|"},
	} {
		dir := filepath.Join(testutil.ModuleRoot(t), "testdata", "rules", rule, "fail")
		md := filepath.Join(t.TempDir(), "report.md")
		var out, errs bytes.Buffer
		if err := Check(CheckOptions{Paths: []string{dir}, FailOn: "none", Format: "text", Markdown: md, Jobs: 1, Quiet: true}, &Env{Stdout: &out, Stderr: &errs}); err != nil {
			t.Fatalf("%s: check: %v\n%s", rule, err, errs.String())
		}
		data, err := os.ReadFile(md)
		if err != nil {
			t.Fatal(err)
		}
		_, gen, _ := strings.Cut(string(data), "### Session genealogy")
		for _, w := range want {
			if !strings.Contains(gen, w) {
				t.Errorf("%s: the genealogy lacks %q:\n%s", rule, w, gen)
			}
		}
	}
}
