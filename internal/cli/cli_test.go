package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

func demo(t *testing.T) string {
	return filepath.Join(testutil.ModuleRoot(t), "testdata", "demo")
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "version")
	if code != 0 || !strings.HasPrefix(out, "brenner-ci ") {
		t.Fatalf("version: code %d, out %q", code, out)
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"check", "--fail-on", "sometimes", demo(t)},
		{"check", "--format", "yaml", demo(t)},
		{"nosuchcommand"},
		{"check", filepath.Join(t.TempDir(), "missing")},
		{"check", "--jobs=-2", demo(t)},
		{"compile", "--jobs=-1", demo(t)},
		{"graph", "--jobs=-1", demo(t)},
		{"check", "--thread-timeout=-1s", demo(t)},
		{"compile", "--timeout=-1m", demo(t)},
	} {
		if code, _, _ := runCLI(t, args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, ExitUsage)
		}
	}
}

func TestConfigErrorHasPosition(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "bad.yaml")
	os.WriteFile(cfg, []byte("fail-on: error\nrules:\n  MB-001: {severity: loud}\n"), 0o644)
	code, _, errs := runCLI(t, "check", "--config", cfg, demo(t))
	if code != ExitUsage || !strings.Contains(errs, "bad.yaml:3:") {
		t.Fatalf("exit %d, stderr %q; want 2 and bad.yaml:3:", code, errs)
	}
	os.WriteFile(cfg, []byte("fail-on: error\nunknown-key: 1\n"), 0o644)
	code, _, errs = runCLI(t, "check", "--config", cfg, demo(t))
	if code != ExitUsage || !strings.Contains(errs, "bad.yaml:2:") {
		t.Fatalf("unknown key: exit %d, stderr %q", code, errs)
	}
}

func TestCheckExitCodes(t *testing.T) {
	quorum := filepath.Join(demo(t), "mailbox", "RS-20260301-quorum-timing.json")
	// The clean demo thread has no error findings.
	if code, out, errs := runCLI(t, "check", "--config", filepath.Join(demo(t), ".brenner-ci.yaml"), quorum); code != 0 {
		t.Fatalf("clean thread: exit %d\n%s\n%s", code, out, errs)
	}
	// The whole demo has errors: exit 1; with --fail-on none: 0.
	if code, _, _ := runCLI(t, "check", demo(t)); code != ExitFindings {
		t.Fatalf("demo: exit %d, want 1", code)
	}
	if code, _, _ := runCLI(t, "check", "--fail-on", "none", demo(t)); code != 0 {
		t.Fatalf("--fail-on none: exit %d, want 0", code)
	}
}

func TestBaselineGatesOnlyNewFindings(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "baseline.json")
	if code, _, _ := runCLI(t, "check", "--write-baseline", base, demo(t)); code != ExitFindings {
		t.Fatalf("write-baseline run: exit %d", code)
	}
	if code, out, _ := runCLI(t, "check", "--baseline", base, demo(t)); code != 0 {
		t.Fatalf("with baseline of the same findings: exit %d\n%s", code, out)
	}
	// An empty baseline gates everything again.
	empty := filepath.Join(dir, "empty.json")
	os.WriteFile(empty, []byte(`[]`), 0o644)
	if code, _, errs := runCLI(t, "check", "--baseline", empty, demo(t)); code != ExitFindings {
		t.Fatalf("with an empty baseline: exit %d (%s)", code, errs)
	}
}

func TestReportsWrittenAndDeterministic(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "")
	var prev map[string][]byte
	for _, jobs := range []string{"1", "4"} {
		out := filepath.Join(t.TempDir(), "out")
		code, _, errs := runCLI(t, "check", "--jobs", jobs, "--out", out, "--repo-root", testutil.ModuleRoot(t), demo(t))
		if code != ExitFindings {
			t.Fatalf("jobs %s: exit %d: %s", jobs, code, errs)
		}
		files := map[string][]byte{}
		filepath.Walk(out, func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				rel, _ := filepath.Rel(out, p)
				files[rel], _ = os.ReadFile(p)
			}
			return nil
		})
		for _, want := range []string{"brenner-ci.sarif", "brenner-ci.junit.xml", "brenner-ci.md", "brenner-ci.json", "artifacts/RS-20260301-quorum-timing.md"} {
			if len(files[filepath.FromSlash(want)]) == 0 {
				t.Errorf("jobs %s: %s not written", jobs, want)
			}
		}
		var js map[string]any
		if err := json.Unmarshal(files["brenner-ci.json"], &js); err != nil {
			t.Errorf("JSON report: %v", err)
		}
		if prev != nil {
			for name, b := range files {
				if !bytes.Equal(prev[name], b) {
					t.Errorf("%s differs between --jobs 1 and --jobs 4", name)
				}
			}
		}
		prev = files
	}
}

func TestCompileWritesArtifactsSafely(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.json")
	os.WriteFile(in, []byte(`{"thread_id":"RS-20260301-../../escape","messages":[{"id":1,"subject":"KICKOFF: x","from":"A","created_ts":"2026-03-01T00:00:00Z","body_md":"# x\n"}]}`), 0o644)
	out := filepath.Join(dir, "out")
	code, stdout, errs := runCLI(t, "compile", "--out", out, in)
	if code != ExitFindings {
		t.Errorf("an artifact that could not be written: exit %d, want %d\n%s\n%s", code, ExitFindings, stdout, errs)
	}
	if !strings.Contains(errs, "not safe as a file name") {
		t.Errorf("unsafe thread id not reported: %q", errs)
	}
	// Nothing outside out/, and nothing for the unsafe id inside it.
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && p != in {
			t.Errorf("unexpected file written: %s", p)
		}
		return nil
	})
	// A symlink inside the output folder is never followed.
	target := t.TempDir()
	os.MkdirAll(out, 0o755)
	os.Symlink(target, filepath.Join(out, "artifacts"))
	if code, _, errs := runCLI(t, "compile", "--out", out, filepath.Join(demo(t), "mailbox")); code != ExitFindings || !strings.Contains(errs, "symbolic link") {
		t.Errorf("symlinked artifacts/: exit %d, stderr %q", code, errs)
	}
	if entries, _ := os.ReadDir(target); len(entries) != 0 {
		t.Errorf("wrote through a symlink: %v", entries)
	}
}

func TestCompileCorpusDeterministic(t *testing.T) {
	threads := testutil.Shared(t, "corpus", "threads")
	var prev string
	for _, jobs := range []string{"1", "4"} {
		out := filepath.Join(t.TempDir(), "o")
		_, stdout, _ := runCLI(t, "compile", "--jobs", jobs, "--out", out, "--compiled-body", threads)
		var b strings.Builder
		b.WriteString(stdout)
		filepath.Walk(out, func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				data, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(out, p)
				b.WriteString("== " + rel + "\n")
				b.Write(data)
			}
			return nil
		})
		if prev != "" && b.String() != prev {
			t.Fatalf("compile output differs between --jobs 1 and --jobs %s", jobs)
		}
		prev = b.String()
	}
	for _, want := range []string{
		"RS-20260102-round2-nanochat: 8 messages, 14 delta blocks (14 valid, 0 invalid), 14 applied",
		"E2E-ARTIFACT-1768495211384: 5 messages, 14 delta blocks (14 valid, 0 invalid), 14 applied, version 1",
	} {
		if !strings.Contains(prev, want) {
			t.Errorf("compile summary lacks %q:\n%s", want, prev)
		}
	}
}

func TestRulesDocUpToDate(t *testing.T) {
	p := filepath.Join(testutil.ModuleRoot(t), "docs", "rules.md")
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (generate it with make docs)", err)
	}
	if string(got) != RulesMarkdown() {
		t.Fatalf("docs/rules.md is stale: run `make docs`")
	}
	code, out, _ := runCLI(t, "rules", "--format", "markdown")
	if code != 0 || out != string(got) {
		t.Fatalf("brenner-ci rules --format markdown differs from docs/rules.md")
	}
}

func TestConfigErrorStillWritesReports(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "bad.yaml")
	os.WriteFile(cfg, []byte("nonsense: true\n"), 0o644)
	out := filepath.Join(dir, "out")
	if code, _, _ := runCLI(t, "check", "--config", cfg, "--out", out, demo(t)); code != ExitUsage {
		t.Fatalf("exit %d, want 2", code)
	}
	data, err := os.ReadFile(filepath.Join(out, "brenner-ci.sarif"))
	if err != nil {
		t.Fatalf("SARIF not written on a config error: %v", err)
	}
	if !strings.Contains(string(data), "toolExecutionNotifications") || !strings.Contains(string(data), "configuration error") {
		t.Errorf("SARIF lacks the configuration-error notification")
	}
	for _, name := range []string{"brenner-ci.junit.xml", "brenner-ci.md", "brenner-ci.json"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("%s not written on a config error", name)
		}
	}
}

func TestConfigSuppressionAndSeverity(t *testing.T) {
	// The demo's configuration lies below this repository's root, where it
	// could only tighten; pinned, it governs (as make demo runs it).
	code, out, _ := runCLI(t, "check", "--format", "json", "--fail-on", "none", "--config", filepath.Join(demo(t), ".brenner-ci.yaml"), demo(t))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var rep struct {
		Findings []struct{ Rule, Severity, Thread, MessageID string } `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Rule == "MB-010" && f.Thread == "RS-20260302-biofilm-onset" {
			t.Errorf("MB-010 on the demo kickoff should be suppressed by .brenner-ci.yaml")
		}
		if f.Rule == "SP-002" {
			t.Errorf("the demo's config suppression is used, yet SP-002 reported it unused")
		}
		if f.Rule == "TH-005" && f.Severity == "error" {
			t.Errorf("TH-005 should be a warning under the demo config")
		}
	}
}

// TestFixWritesOnlyToOut: --fix writes the recompiled artifact to
// DIR/fixed/<its path> and rewrites nothing in place.
func TestFixWritesOnlyToOut(t *testing.T) {
	root := testutil.ModuleRoot(t)
	in := filepath.Join(root, "testdata", "rules", "DR-001", "fail")
	persisted := filepath.Join(in, "artifacts", "RS-20260301-quorum-timing.md")
	before, _ := os.ReadFile(persisted)
	if code, _, _ := runCLI(t, "check", "--fix", in); code != ExitUsage {
		t.Fatalf("--fix without --out: exit %d, want 2", code)
	}
	out := t.TempDir()
	code, stdout, errs := runCLI(t, "check", "--fix", "--out", out, "--repo-root", root, in)
	if code != ExitFindings || !strings.Contains(stdout, "[DR-001]") {
		t.Fatalf("exit %d, want 1 with DR-001\n%s\n%s", code, stdout, errs)
	}
	after, _ := os.ReadFile(persisted)
	if !bytes.Equal(before, after) {
		t.Fatal("--fix rewrote the persisted artifact in place")
	}
	fixed, err := os.ReadFile(filepath.Join(out, "fixed", "testdata", "rules", "DR-001", "fail", "artifacts", "RS-20260301-quorum-timing.md"))
	if err != nil {
		t.Fatalf("fixed artifact not written: %v", err)
	}
	want, _ := os.ReadFile(filepath.Join(root, "testdata", "rules", "DR-001", "pass", "artifacts", "RS-20260301-quorum-timing.md"))
	if !bytes.Equal(fixed, want) {
		t.Errorf("fixed artifact differs from the compiled one")
	}
	// The fixed file has no drift.
	if code, stdout, _ := runCLI(t, "check", filepath.Join(root, "testdata", "rules", "DR-001", "pass")); strings.Contains(stdout, "[DR-001]") {
		t.Errorf("the recompiled artifact still drifts (exit %d):\n%s", code, stdout)
	}
}

// TestParserLimitsAreARunsOwn: the limits: of one run's configuration bound
// that run's parsers only. Two checks in one process (as in the tests, the
// benchmarks or a server), the first under json-depth 3: the second, with
// no configuration, parses the same thread with the default limit. (The
// limits were process-wide variables that the first run left set.)
func TestParserLimitsAreARunsOwn(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(t), "testdata", "ingest", "thread", "thread.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	limited, plain := filepath.Join(dir, "limited"), filepath.Join(dir, "plain")
	for _, d := range []string{limited, plain} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "t.json"), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(limited, ".brenner-ci.yaml"), []byte("limits:\n  json-depth: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _ := runCLI(t, "check", limited, "--fail-on", "none")
	if !strings.Contains(out, "may nest at most 3 levels") {
		t.Fatalf("json-depth 3 did not apply:\n%s", out)
	}
	_, out, _ = runCLI(t, "check", plain, "--fail-on", "none")
	if strings.Contains(out, "too deep") || !strings.Contains(out, "in 1 thread") {
		t.Fatalf("the next run kept the first run's json-depth:\n%s", out)
	}
}

// TestScanCacheKeyHasTheLimits: a file scanned into a shared --cache under
// one JSON depth limit is not reused by a run under another (the scan
// cache was keyed by the program alone, so a run under json-depth 3 after a
// default one found nothing too deep).
func TestScanCacheKeyHasTheLimits(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(t), "testdata", "ingest", "thread", "thread.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, cacheDir, cfg := filepath.Join(dir, "in"), filepath.Join(dir, "cache"), filepath.Join(dir, "limits.yaml")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(in, "t.json"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("limits:\n  json-depth: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Both orders: the default first, then the lower limit, then the
	// default again.
	for i, limited := range []bool{false, true, false} {
		args := []string{"check", in, "--cache", cacheDir, "--fail-on", "none"}
		if limited {
			args = append(args, "--config", cfg)
		}
		_, out, _ := runCLI(t, args...)
		if got := strings.Contains(out, "may nest at most 3 levels"); got != limited {
			t.Fatalf("run %d (json-depth 3: %t): too deep reported %t:\n%s", i+1, limited, got, out)
		}
	}
}

// TestRunTimeout: past the run's time budget (--timeout) the threads not
// yet checked are IN-010 errors, every report is written, and the run ends
// (exit 1). (There was no run-wide budget: only each thread's.)
func TestRunTimeout(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "check", "--timeout", "1ns", "--out", out, demo(t))
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d\n%s%s", code, ExitFindings, stdout, stderr)
	}
	if !strings.Contains(stdout, "the run's time budget (--timeout) ran out") || !strings.Contains(stdout, "[IN-010]") {
		t.Errorf("no IN-010 for the threads past the run's budget:\n%s", stdout)
	}
	for _, name := range []string{"brenner-ci.sarif", "brenner-ci.junit.xml", "brenner-ci.md", "brenner-ci.json"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("%s not written: %v", name, err)
		}
	}
	if code, _, _ := runCLI(t, "check", "--timeout", "10m", "--fail-on", "none", demo(t)); code != ExitOK {
		t.Errorf("a generous --timeout: exit %d", code)
	}
}

// TestUnwritableOutAndCache: an --out that cannot be written is exit 2 with
// one line naming it (it was exit 3 after the whole run, with a line per
// report and per temporary file); a --cache that cannot be used is one
// warning, and the run goes on without it (it was silent).
func TestUnwritableOutAndCache(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, []byte("x"), 0o644)
	code, _, errs := runCLI(t, "check", "--fail-on", "none", "--out", file, demo(t))
	if code != ExitUsage || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "cannot write reports to "+file) {
		t.Errorf("--out to a file: exit %d, stderr:\n%s", code, errs)
	}
	code, _, errs = runCLI(t, "check", "--fail-on", "none", "--cache", file, demo(t))
	if code != ExitOK || strings.Count(errs, "--cache") != 1 || !strings.Contains(errs, "warning: --cache "+file+" cannot be used") {
		t.Errorf("--cache at a file: exit %d, stderr:\n%s", code, errs)
	}
}
