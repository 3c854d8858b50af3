package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestNewFromRev: in pull-request mode the findings already present at the
// base revision do not gate; a finding the change adds does, and it is
// annotated.
func TestNewFromRev(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipping: git is not installed")
	}
	repo := t.TempDir()
	gitRun(t, repo, "init", "-q")
	src, err := os.ReadFile(filepath.Join(demo(t), "mailbox", "RS-20260301-quorum-timing.json"))
	if err != nil {
		t.Fatal(err)
	}
	bio, err := os.ReadFile(filepath.Join(demo(t), "mailbox", "biofilm.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(repo, "mailbox"), 0o755)
	file := filepath.Join(repo, "mailbox", "t.json")
	os.WriteFile(file, src, 0o644)
	os.WriteFile(filepath.Join(repo, "mailbox", "biofilm.jsonl"), bio, 0o644) // has errors
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	t.Chdir(repo)

	// Unchanged inputs: the demo's errors are all old.
	code, out, errs := runCLI(t, "check", "--new-from-rev", "HEAD", "--repo-root", repo, "mailbox")
	if code != ExitOK || !strings.Contains(out, "0 new") || strings.Contains(out, " 0 errors") {
		t.Fatalf("unchanged inputs: exit %d\n%s\n%s", code, out, errs)
	}
	// The change breaks a subject: one new error, which gates and is annotated.
	testutil.BreakKickoff(t, file)
	code, out, _ = runCLI(t, "check", "--new-from-rev", "HEAD", "--repo-root", repo, "--format", "github", "mailbox")
	if code != ExitFindings {
		t.Fatalf("a new error: exit %d, want %d\n%s", code, ExitFindings, out)
	}
	first := strings.SplitN(out, "\n", 2)[0]
	if !strings.Contains(first, "MB-001") {
		t.Errorf("the new MB-001 is not annotated first: %q", first)
	}
	// A revision that does not exist is a usage error that writes reports.
	if code, _, _ := runCLI(t, "check", "--new-from-rev", "no-such-rev", "--repo-root", repo, "mailbox"); code != ExitUsage {
		t.Errorf("unknown revision: exit %d, want %d", code, ExitUsage)
	}
	// A path that is new since the revision: everything in it is new.
	os.MkdirAll(filepath.Join(repo, "new"), 0o755)
	os.WriteFile(filepath.Join(repo, "new", "biofilm.jsonl"), bio, 0o644)
	if code, _, _ := runCLI(t, "check", "--new-from-rev", "HEAD", "--repo-root", repo, "new"); code != ExitFindings {
		t.Errorf("new folder: exit %d, want %d", code, ExitFindings)
	}
}

// TestChangedBaselineIsAnnounced: a pull request that edits the baseline
// (or the configuration) decides what the gate sees; the summary says so.
func TestChangedBaselineIsAnnounced(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipping: git is not installed")
	}
	repo := t.TempDir()
	gitRun(t, repo, "init", "-q")
	src, err := os.ReadFile(filepath.Join(demo(t), "mailbox", "biofilm.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(repo, "mailbox"), 0o755)
	os.WriteFile(filepath.Join(repo, "mailbox", "biofilm.jsonl"), src, 0o644)
	os.WriteFile(filepath.Join(repo, ".brenner-ci.yaml"), []byte("fail-on: error\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "baseline.txt"), []byte("# accepted findings\n"), 0o644)
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	t.Chdir(repo)
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"check", "--new-from-rev", "HEAD", "--baseline", "baseline.txt", "--repo-root", repo, "--out", out, "mailbox"}

	_, _, stderr := runCLI(t, args...)
	if strings.Contains(stderr, "changed since") {
		t.Fatalf("unchanged baseline and configuration announced as changed:\n%s", stderr)
	}
	// The pull request accepts everything the run finds.
	if code, _, _ := runCLI(t, "check", "--repo-root", repo, "--write-baseline", "baseline.txt", "mailbox"); code > 1 {
		t.Fatalf("--write-baseline: exit %d", code)
	}
	os.WriteFile(filepath.Join(repo, ".brenner-ci.yaml"), []byte("fail-on: error\nrules:\n  MB-001: warning\n"), 0o644)
	_, _, stderr = runCLI(t, args...)
	for _, want := range []string{"The baseline baseline.txt changed since HEAD", "The configuration .brenner-ci.yaml changed since HEAD"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "brenner-ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "The baseline baseline.txt changed since HEAD") {
		t.Errorf("the markdown summary does not announce the changed baseline:\n%s", md)
	}
}

// TestNewFromRevKeepsLimits: the base revision is read with the run's own
// options. An unchanged file over the configured limits.file-bytes is an
// old IN-009, not a new one (the base used to be scanned without the
// limit, so the finding looked new and failed the gate).
func TestNewFromRevKeepsLimits(t *testing.T) {
	repo := demoRepo(t, map[string]string{"RS-20260301-quorum-timing.json": "t.json"})
	os.WriteFile(filepath.Join(repo, "mailbox", "big.json"), []byte(`{"note": "`+strings.Repeat("x", 4096)+`"}`), 0o644)
	os.WriteFile(filepath.Join(repo, ".brenner-ci.yaml"), []byte("limits:\n  file-bytes: 2048\n"), 0o644)
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	t.Chdir(repo)
	code, out, errs := runCLI(t, "check", "--format", "json", "--repo-root", repo, "mailbox")
	if !strings.Contains(out, `"IN-009"`) {
		t.Fatalf("the file over limits.file-bytes gives no IN-009 (exit %d):\n%s\n%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "check", "--new-from-rev", "HEAD", "--repo-root", repo, "--fail-on", "note", "mailbox")
	if code != ExitOK || !strings.Contains(out, "0 new") {
		t.Errorf("unchanged inputs with a file over the limit: exit %d, want 0 (every finding old)\n%s\n%s", code, out, errs)
	}
}

// demoRepo is a new git repository (the test skips without git) whose
// mailbox/ holds the demo mailbox files named in files (demo name → name),
// not yet committed.
func demoRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipping: git is not installed")
	}
	repo := t.TempDir()
	gitRun(t, repo, "init", "-q")
	os.MkdirAll(filepath.Join(repo, "mailbox"), 0o755)
	for from, to := range files {
		src, err := os.ReadFile(filepath.Join(demo(t), "mailbox", from))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(repo, "mailbox", to), src, 0o644)
	}
	return repo
}
