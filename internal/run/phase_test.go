package run

import (
	"bytes"
	"path/filepath"
	"runtime/trace"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// TestPhasesInTrace: a check run under the execution trace marks each of
// its phases there, by name.
func TestPhasesInTrace(t *testing.T) {
	dir := filepath.Join(testutil.ModuleRoot(t), "testdata", "demo")
	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		t.Skipf("an execution trace is already running (go test -trace?): %v", err)
	}
	var out, errs bytes.Buffer
	err := Check(CheckOptions{Paths: []string{dir}, RepoRoot: dir, FailOn: "none", Format: "text", Sarif: filepath.Join(t.TempDir(), "r.sarif"), Jobs: 2, Quiet: true},
		&Env{Stdout: &out, Stderr: &errs})
	trace.Stop()
	if err != nil {
		t.Fatalf("check: %v\n%s", err, errs.String())
	}
	for _, name := range []string{phaseList, phaseScan, phaseThreads, phaseBatch, phasePipeline, phaseWarm, phaseWrite} {
		if !bytes.Contains(buf.Bytes(), []byte(name)) {
			t.Errorf("the trace has no phase %q", name)
		}
	}
}
