package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// runIDs reads the run id of each report in out (the SARIF invocation
// property, the JSON run_id, the markdown comment), "" for a missing file.
func runIDs(t *testing.T, out string) map[string]string {
	t.Helper()
	pats := map[string]*regexp.Regexp{
		"brenner-ci.sarif":     regexp.MustCompile(`"brenner-ci/run-id":"([0-9a-f]{16})"`),
		"brenner-ci.json":      regexp.MustCompile(`"run_id": "([0-9a-f]{16})"`),
		"brenner-ci.md":        regexp.MustCompile(`<!-- brenner-ci-run ([0-9a-f]{16}) -->`),
		"brenner-ci.junit.xml": regexp.MustCompile(`<property name="run-id" value="([0-9a-f]{16})"/>`),
	}
	ids := map[string]string{}
	for name, re := range pats {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			ids[name] = ""
			continue
		}
		m := re.FindSubmatch(data)
		if m == nil {
			t.Fatalf("%s has no run id", name)
		}
		ids[name] = string(m[1])
	}
	return ids
}

// TestInterruptLeavesOneRunsReports: SIGINT while the reports are being
// written removes every temporary file, and the output folder holds the
// reports of one run only — the previous run's or this one's — never a mix.
func TestInterruptLeavesOneRunsReports(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds the binary and checks 1,500 threads twice (-short)")
	}
	bin := filepath.Join(t.TempDir(), "brenner-ci")
	build := exec.Command("go", "build", "-o", bin, "./cmd/brenner-ci")
	build.Dir = testutil.ModuleRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	src, err := os.ReadFile(filepath.Join(demo(t), "mailbox", "biofilm.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	in := t.TempDir()
	for i := range 1500 { // distinct threads: identical files would be de-duplicated
		data := strings.ReplaceAll(string(src), "RS-20260302-biofilm-onset", fmt.Sprintf("RS-20260302-biofilm-%04d", i))
		os.WriteFile(filepath.Join(in, fmt.Sprintf("t%04d.jsonl", i)), []byte(data), 0o644)
	}
	out := filepath.Join(t.TempDir(), "out")
	if err := exec.Command(bin, "check", "--repo-root", in, "--out", out, in).Run(); err != nil && procExit(err) != ExitFindings {
		t.Fatalf("first run: %v", err)
	}
	before := runIDs(t, out)

	// The second run has other results (one more thread), so another id.
	os.WriteFile(filepath.Join(in, "extra.jsonl"), []byte(strings.ReplaceAll(string(src), "RS-20260302-biofilm-onset", "RS-20260302-biofilm-extra")), 0o644)
	cmd := exec.Command(bin, "check", "--repo-root", in, "--out", out, in)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	interrupted := false
poll:
	for {
		select {
		case err := <-done:
			t.Logf("the run finished before a temporary file was seen (%v): nothing to interrupt", err)
			break poll
		default:
		}
		if tmps, _ := filepath.Glob(filepath.Join(out, ".*.tmp-*")); len(tmps) > 0 {
			cmd.Process.Signal(syscall.SIGINT)
			interrupted = true
			err := <-done
			if code := procExit(err); code != ExitInternal && code != ExitFindings {
				t.Errorf("interrupted run: exit %d (%v)\n%s", code, err, stderr.String())
			}
			break poll
		}
		time.Sleep(200 * time.Microsecond)
	}
	if tmps, _ := filepath.Glob(filepath.Join(out, ".*.tmp-*")); len(tmps) > 0 {
		t.Errorf("temporary files left behind: %v", tmps)
	}
	after := runIDs(t, out)
	first := ""
	for _, id := range after {
		if first == "" {
			first = id
		}
		if id != first {
			t.Fatalf("reports of two runs side by side: %v (before: %v)", after, before)
		}
	}
	if interrupted && first == before["brenner-ci.json"] {
		t.Logf("interrupted before the rename: the previous run's reports are intact")
	}
	if interrupted && strings.Contains(stderr.String(), "interrupted") && first != before["brenner-ci.json"] {
		t.Errorf("the run reported an interruption but its reports replaced the previous ones")
	}
}

func procExit(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}
