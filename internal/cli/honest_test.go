package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// TestThreadsAndArtifactsCountedApart: the demo holds two threads and one
// persisted artifact; every report counts them apart instead of saying
// "3 threads".
func TestThreadsAndArtifactsCountedApart(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	_, stdout, errs := runCLI(t, "check", "--out", out, "--repo-root", testutil.ModuleRoot(t), demo(t))
	if !strings.Contains(stdout, " in 2 threads and 1 artifact (fail-on ") {
		t.Errorf("text summary does not count threads and artifacts apart:\n%s%s", lastLine(stdout), errs)
	}
	md, err := os.ReadFile(filepath.Join(out, "brenner-ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), " in 2 threads and 1 artifact (fail-on ") {
		t.Errorf("markdown headline does not count threads and artifacts apart:\n%.600s", md)
	}
	var js struct {
		Summary struct {
			Threads   int `json:"threads"`
			Artifacts int `json:"artifacts"`
		} `json:"summary"`
		Threads []struct {
			Key  string `json:"key"`
			Kind string `json:"kind"`
		} `json:"threads"`
	}
	data, err := os.ReadFile(filepath.Join(out, "brenner-ci.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &js); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, th := range js.Threads {
		kinds[th.Kind]++
	}
	if js.Summary.Threads != 2 || js.Summary.Artifacts != 1 || kinds["thread"] != 2 || kinds["artifact"] != 1 {
		t.Errorf("JSON report: summary %+v, kinds %v", js.Summary, kinds)
	}
	junit, err := os.ReadFile(filepath.Join(out, "brenner-ci.junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<property name="threads" value="2"/>`, `<property name="artifacts" value="1"/>`} {
		if !strings.Contains(string(junit), want) {
			t.Errorf("JUnit report lacks %s", want)
		}
	}
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:] + "\n"
}

// TestJUnitArtifactFindingsUnderTheArtifact: the demo's persisted
// artifact fails its own testcase with its findings; the thread it belongs
// to is not failed by them.
func TestJUnitArtifactFindingsUnderTheArtifact(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	runCLI(t, "check", "--out", out, "--repo-root", testutil.ModuleRoot(t), demo(t))
	data, err := os.ReadFile(filepath.Join(out, "brenner-ci.junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	x := string(data)
	if !strings.Contains(x, `<testcase name="WH-003 inference-not-labeled" classname="testdata/demo/artifacts/RS-20260301-quorum-timing.md"`) {
		t.Errorf("the artifact's WH-003 finding does not fail the artifact's testcase:\n%s", x)
	}
	if strings.Contains(x, `<testcase name="WH-003 inference-not-labeled" classname="RS-20260301-quorum-timing"`) {
		t.Errorf("the artifact's WH-003 finding fails its thread's testcase")
	}
}
