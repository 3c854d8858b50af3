package run

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/gen"
)

// TestSpilledResultsMatch: a check whose every thread's results go through
// the temporary file (cache.Results with nothing kept first) writes the
// reports of one that keeps them all, on generated threads with faults,
// persisted artifacts and a custom rule, and on the shared corpus when it
// is there.
func TestSpilledResultsMatch(t *testing.T) {
	repo := t.TempDir()
	if _, err := gen.WriteCorpus(repo, gen.Options{Seed: 5, Threads: 60, FaultRate: 0.3}); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.WriteArtifacts(repo, 3); err != nil {
		t.Fatal(err)
	}
	cfg := `custom-rules:
  - {id: LAB-001, name: ends-in-zero, scope: thread, severity: warning, short: s,
     when: 'thread.applied > 0 && thread.id.endsWith("0")', message: "{{ thread.id }} ends in 0."}
`
	if err := os.WriteFile(filepath.Join(repo, ".brenner-ci.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	roots := []string{repo}
	if shared, err := filepath.Abs("../../../shared/corpus"); err == nil {
		if _, err := os.Stat(shared); err == nil {
			roots = append(roots, shared)
		} else {
			t.Log("../shared/corpus is absent: checking the generated threads only")
		}
	}
	defer func(v int) { keepResults = v }(keepResults)
	t.Setenv("SOURCE_DATE_EPOCH", "")
	for _, root := range roots {
		var reports [2][]byte
		for i, keep := range []int{1 << 30, 0} {
			keepResults = keep
			out := t.TempDir()
			var so, se bytes.Buffer
			e := &Env{Stdout: &so, Stderr: &se}
			c := &checker{CheckOptions: CheckOptions{Paths: []string{root}, RepoRoot: root, Format: "text", Jobs: 2,
				JSON: filepath.Join(out, "r.json"), Sarif: filepath.Join(out, "r.sarif"), Markdown: filepath.Join(out, "r.md"),
				Junit: filepath.Join(out, "r.xml")}, env: e}
			if err := c.run(e); err != nil {
				if ee, ok := err.(*ExitError); !ok || ee.Code > 1 {
					t.Fatalf("%s, keep %d: %v\n%s", root, keep, err, se.String())
				}
			}
			reports[i] = append(readReports(t, out, "r.json", "r.sarif", "r.md", "r.xml"), so.Bytes()...)
		}
		if !bytes.Equal(reports[0], reports[1]) {
			t.Errorf("%s: the reports differ with the results kept and spilled", root)
		}
		if root == repo && !bytes.Contains(reports[0], []byte("[LAB-001]")) {
			t.Errorf("the custom rule found nothing: the test shows less than it says")
		}
	}
}
