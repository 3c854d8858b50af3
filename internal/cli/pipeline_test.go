package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

var findingLine = regexp.MustCompile(`^.+:\d+:\d+: (error|warning|note): .* \[[A-Z]{2}-[A-Z]?\d+\]$`)

// findingLines returns the lines of out that are findings.
func findingLines(out string) []string {
	var fs []string
	for _, l := range strings.Split(out, "\n") {
		if findingLine.MatchString(l) {
			fs = append(fs, l)
		}
	}
	return fs
}

// TestCompileAndCheckAgree: compile prints rule ids ([DL-002], never the
// spec code [INVALID_SECTION]) through the same pipeline as check, so every
// finding compile prints is printed identically by check.
func TestCompileAndCheckAgree(t *testing.T) {
	inputs := []string{filepath.Join(demo(t), "mailbox"), filepath.Join(testutil.ModuleRoot(t), "testdata", "rules", "DL-002", "fail")}
	for _, in := range inputs {
		_, cout, _ := runCLI(t, "compile", in)
		_, kout, _ := runCLI(t, "check", "--format", "text", in)
		comp, chk := findingLines(cout), findingLines(kout)
		if len(comp) == 0 {
			t.Fatalf("compile %s printed no findings:\n%s", in, cout)
		}
		have := map[string]bool{}
		for _, l := range chk {
			have[l] = true
		}
		for _, l := range comp {
			if !have[l] {
				t.Errorf("compile printed a finding check did not:\n  %s", l)
			}
		}
		if strings.Contains(cout, "[INVALID_SECTION]") || strings.Contains(cout, "[MISSING_") {
			t.Errorf("compile prints spec codes instead of rule ids:\n%s", cout)
		}
	}
	_, cout, _ := runCLI(t, "compile", inputs[1])
	if !strings.Contains(cout, "[DL-002]") {
		t.Errorf("compile does not report DL-002 on its fixture:\n%s", cout)
	}
}

// TestCompileRepoRoot: compile --repo-root names the files of its findings
// from that folder, as check --repo-root does; the two print the same lines.
func TestCompileRepoRoot(t *testing.T) {
	root := filepath.Join(testutil.ModuleRoot(t), "testdata", "rules")
	in := filepath.Join(root, "DL-002", "fail")
	_, cout, _ := runCLI(t, "compile", "--repo-root", root, in)
	_, kout, _ := runCLI(t, "check", "--format", "text", "--repo-root", root, in)
	comp, chk := findingLines(cout), findingLines(kout)
	if len(comp) == 0 {
		t.Fatalf("compile printed no findings:\n%s", cout)
	}
	have := map[string]bool{}
	for _, l := range chk {
		have[l] = true
	}
	for _, l := range comp {
		if !strings.HasPrefix(l, "DL-002/fail/") {
			t.Errorf("compile --repo-root %s: path not relative to it:\n  %s", root, l)
		}
		if !have[l] {
			t.Errorf("compile printed a finding check did not:\n  %s", l)
		}
	}
}

// TestCompileReadsConfig: compile honours .brenner-ci.yaml like check
// (agents: changes MG-007; rules: changes severities).
func TestCompileReadsConfig(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(t), "testdata", "rules", "MG-007", "fail", "RS-20260301-quorum-timing.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "t.json"), src, 0o644)
	has := func(cmd string) bool {
		_, out, errs := runCLI(t, cmd, dir)
		if strings.Contains(errs, "configuration error") {
			t.Fatal(errs)
		}
		return strings.Contains(out, "[MG-007]")
	}
	if !has("compile") || !has("check") {
		t.Fatal("MG-007 not reported without configuration")
	}
	os.WriteFile(filepath.Join(dir, ".brenner-ci.yaml"), []byte("agents: [MysteryAgent, LindenFox, GreenDog, BlueLake, RedFox, QuietOwl, BrightSwan]\n"), 0o644)
	c1, c2 := has("compile"), has("check")
	if c1 != c2 {
		t.Fatalf("with agents: compile reports MG-007 %v, check %v", c1, c2)
	}
	os.WriteFile(filepath.Join(dir, ".brenner-ci.yaml"), []byte("rules:\n  MG-007: off\n"), 0o644)
	if has("compile") || has("check") {
		t.Fatal("MG-007: off in the config is ignored")
	}
}

// TestDirectiveInCodeIsCode: a disable comment inside a code fence is code
// and suppresses nothing, in a message body and in an artifact alike; the
// same comment outside the fence suppresses in both.
func TestDirectiveInCodeIsCode(t *testing.T) {
	root := testutil.ModuleRoot(t)
	// Artifact: IP-P01 fires on this fixture (line 22).
	art, err := os.ReadFile(filepath.Join(root, "testdata", "rules", "IP-P01", "fail", "artifacts", "RS-20260310-no-quotes.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		comment  string
		reported bool
	}{
		{"```\n<!-- brenner-ci-disable-file IP-P01: quotes are in the evidence pack -->\n```\n", true},
		{"<!-- brenner-ci-disable-file IP-P01: quotes are in the evidence pack -->\n", false},
	} {
		dir := filepath.Join(t.TempDir(), "artifacts")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "RS-20260310-no-quotes.md"), append(art, []byte("\n"+tc.comment)...), 0o644)
		_, out, _ := runCLI(t, "check", "--format", "text", dir)
		if got := strings.Contains(out, "[IP-P01]"); got != tc.reported {
			t.Errorf("artifact, comment %q: IP-P01 reported %v, want %v\n%s", tc.comment, got, tc.reported, out)
		}
	}
	// Message body: MB-003 (KICKOFF without Context).
	for _, tc := range []struct {
		comment  string
		reported bool
	}{
		{"```\\n<!-- brenner-ci-disable-file MB-003: context is in the pack -->\\n```\\n", true},
		{"<!-- brenner-ci-disable-file MB-003: context is in the pack -->\\n", false},
	} {
		dir := t.TempDir()
		thread := `{"thread_id": "RS-20260301-quorum-timing", "messages": [{"id": 1, "thread_id": "RS-20260301-quorum-timing",
 "subject": "KICKOFF: Quorum switch timing", "from": "GreenDog", "created_ts": "2026-03-01T10:00:00Z", "ack_required": true,
 "body_md": "# Quorum timing\n\n## Research Question\nWhen does the switch happen?\n\n` + tc.comment + `"}]}`
		os.WriteFile(filepath.Join(dir, "t.json"), []byte(thread), 0o644)
		_, out, _ := runCLI(t, "check", "--format", "text", dir)
		if got := strings.Contains(out, "[MB-003]"); got != tc.reported {
			t.Errorf("body, comment %q: MB-003 reported %v, want %v\n%s", tc.comment, got, tc.reported, out)
		}
	}
}

// TestRulesJSONOneSeverity: every id is listed once, with one default
// severity, a scope and who reports it.
func TestRulesJSONOneSeverity(t *testing.T) {
	_, out, _ := runCLI(t, "rules", "--format", "json")
	var rs []struct{ ID, Severity, Scope, ReportedBy string }
	if err := jsonUnmarshal(out, &rs); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range rs {
		if seen[r.ID] {
			t.Errorf("%s listed twice", r.ID)
		}
		seen[r.ID] = true
		if r.Severity != "error" && r.Severity != "warning" && r.Severity != "note" {
			t.Errorf("%s: severity %q", r.ID, r.Severity)
		}
		if r.Scope == "" || r.ReportedBy == "" {
			t.Errorf("%s: no scope or reporter", r.ID)
		}
	}
	if len(rs) < 120 {
		t.Errorf("only %d rules", len(rs))
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// TestUsageErrorStillWritesReports: a path that does not exist is a usage
// error (exit 2), and every requested report is still written, saying so.
func TestUsageErrorStillWritesReports(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	code, _, _ := runCLI(t, "check", "--out", out, filepath.Join(t.TempDir(), "missing"))
	if code != ExitUsage {
		t.Fatalf("exit %d, want %d", code, ExitUsage)
	}
	for _, name := range []string{"brenner-ci.sarif", "brenner-ci.junit.xml", "brenner-ci.md", "brenner-ci.json"} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Errorf("%s not written: %v", name, err)
			continue
		}
		if !strings.Contains(string(data), "could not run") {
			t.Errorf("%s does not say the run failed", name)
		}
	}
}

// TestNeverAFalsePass: a configuration error, a missing path and a folder
// with no thread export or artifact exit 2, and no report reads as a pass:
// markdown headline "could not run", JSON failed with the error, SARIF
// executionSuccessful false with no results, a JUnit error, text and github
// formats saying so.
func TestNeverAFalsePass(t *testing.T) {
	badCfg := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(badCfg, []byte("nonsense: true\n"), 0o644)
	for name, args := range map[string][]string{
		"config error": {"--config", badCfg, demo(t)},
		"missing path": {filepath.Join(t.TempDir(), "missing")},
		"empty folder": {t.TempDir()},
	} {
		out := filepath.Join(t.TempDir(), "out")
		code, stdout, _ := runCLI(t, append([]string{"check", "--format", "github", "--out", out}, args...)...)
		if code != ExitUsage {
			t.Errorf("%s: exit %d, want %d", name, code, ExitUsage)
		}
		if !strings.HasPrefix(stdout, "::error title=brenner-ci::brenner-ci could not run") {
			t.Errorf("%s: github output %q", name, stdout)
		}
		read := func(f string) string {
			data, err := os.ReadFile(filepath.Join(out, f))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return string(data)
		}
		if md := read("brenner-ci.md"); !strings.Contains(md, "❌ brenner-ci could not run") || strings.Contains(md, "passed") {
			t.Errorf("%s: markdown headline:\n%s", name, md)
		}
		var js struct {
			Summary struct {
				Failed bool   `json:"failed"`
				Error  string `json:"error"`
			} `json:"summary"`
		}
		if err := json.Unmarshal([]byte(read("brenner-ci.json")), &js); err != nil || !js.Summary.Failed || js.Summary.Error == "" {
			t.Errorf("%s: JSON summary %+v (%v)", name, js.Summary, err)
		}
		var sf struct {
			Runs []struct {
				Results     []any `json:"results"`
				Invocations []struct {
					ExecutionSuccessful bool `json:"executionSuccessful"`
				} `json:"invocations"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(read("brenner-ci.sarif")), &sf); err != nil || len(sf.Runs) != 1 ||
			len(sf.Runs[0].Results) != 0 || len(sf.Runs[0].Invocations) != 1 || sf.Runs[0].Invocations[0].ExecutionSuccessful {
			t.Errorf("%s: SARIF run %+v (%v)", name, sf.Runs, err)
		}
		if x := read("brenner-ci.junit.xml"); !strings.Contains(x, "could not run") || !strings.Contains(x, "<error") {
			t.Errorf("%s: JUnit has no error testcase", name)
		}
	}
	_, text, _ := runCLI(t, "check", t.TempDir())
	if !strings.Contains(text, "could not run") || strings.Contains(text, "passed") {
		t.Errorf("text summary: %q", text)
	}
}

// TestStepSummaryAppended: in GitHub Actions the markdown report is appended
// to $GITHUB_STEP_SUMMARY; what earlier steps wrote there stays.
func TestStepSummaryAppended(t *testing.T) {
	summary := filepath.Join(t.TempDir(), "summary.md")
	os.WriteFile(summary, []byte("## Earlier step\n\nkept\n"), 0o644)
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	runCLI(t, "check", "--out", filepath.Join(t.TempDir(), "out"), filepath.Join(demo(t), "mailbox"))
	runCLI(t, "check", filepath.Join(demo(t), "mailbox"))
	data, _ := os.ReadFile(summary)
	s := string(data)
	if !strings.HasPrefix(s, "## Earlier step\n\nkept\n") || strings.Count(s, "brenner-ci") < 2 || strings.Count(s, "<!-- brenner-ci-report -->") != 2 {
		t.Errorf("summary not appended twice after the earlier step:\n%s", s)
	}
}

// TestOutputIsNeverInput: a run with --out inside the checked path reads
// neither its reports nor its compiled artifacts; it names the folder it
// does not read, once (IN-006) — the first run as the second (--out is
// made before the walk), so a re-run in the same workspace says nothing
// new.
func TestOutputIsNeverInput(t *testing.T) {
	dir := t.TempDir()
	src, _ := os.ReadFile(filepath.Join(demo(t), "mailbox", "RS-20260301-quorum-timing.json"))
	os.WriteFile(filepath.Join(dir, "t.json"), src, 0o644)
	out := filepath.Join(dir, "reports")
	// The inputs are the repository (--out writes SARIF: inputs outside
	// the repository root are an error).
	_, first, _ := runCLI(t, "check", "--repo-root", dir, "--out", out, "--fix", dir)
	_, second, _ := runCLI(t, "check", "--repo-root", dir, "--out", out, "--fix", dir)
	note := "reports: note: This folder is an output of brenner-ci (an --out or --cache folder, or a report file), and output is never read as input; it is not checked. [IN-006]\n"
	if !strings.HasPrefix(first, note) || second != first {
		t.Errorf("the second run read its own output, or did not name it:\n--- first\n%s--- second\n%s", first, second)
	}
	_, c1, _ := runCLI(t, "compile", "--out", out, dir)
	if _, c2, _ := runCLI(t, "compile", "--out", out, dir); c1 != c2 {
		t.Errorf("compile read its own output:\n%s\n%s", c1, c2)
	}
}

// TestVersionFromBuildInfo: `go install …@vX.Y.Z` reports vX.Y.Z; a build
// from a checkout reports its revision; --version works like version.
func TestVersionFromBuildInfo(t *testing.T) {
	for _, tc := range []struct {
		bi   *debug.BuildInfo
		want string
	}{
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}}}, "devel-0123456789ab"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}}, "devel-abc-dirty"},
		{nil, "devel"},
	} {
		if got := buildVersion(tc.bi, tc.bi != nil); got != tc.want {
			t.Errorf("buildVersion = %q, want %q", got, tc.want)
		}
	}
	c1, o1, _ := runCLI(t, "--version")
	c2, o2, _ := runCLI(t, "version")
	if c1 != 0 || c2 != 0 || o1 != o2 || !strings.HasPrefix(o1, "brenner-ci ") {
		t.Errorf("--version %d %q, version %d %q", c1, o1, c2, o2)
	}
}

// TestSymlinkedOutRefused: an output folder that is a symbolic link, or is
// reached through one, is refused (exit 2) and nothing is written through it.
func TestSymlinkedOutRefused(t *testing.T) {
	ws := t.TempDir()
	elsewhere := t.TempDir()
	d := demo(t)
	t.Chdir(ws)
	if err := os.Symlink(elsewhere, filepath.Join(ws, "brenner-ci-reports")); err != nil {
		t.Skip("skipping: symlinks unavailable:", err)
	}
	os.Symlink(elsewhere, filepath.Join(ws, "via"))
	for _, args := range [][]string{
		{"check", "--out", "brenner-ci-reports", d},
		{"check", "--out", "via/sub", d},
		{"check", "--sarif", "via/x.sarif", d},
		{"compile", "--out", "brenner-ci-reports", filepath.Join(d, "mailbox")},
	} {
		code, _, errs := runCLI(t, args...)
		if code != ExitUsage || !strings.Contains(errs, "symbolic link") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("wrote through a symbolic link: %v", entries)
	}
}

// TestCaseCollidingThreadsWriteOneArtifact: two threads whose ids differ only
// in case never write one artifact path (on a case-insensitive file system
// the second would overwrite the first).
func TestCaseCollidingThreadsWriteOneArtifact(t *testing.T) {
	dir := t.TempDir()
	for i, id := range []string{"RS-20260102-ab", "rs-20260102-AB"} {
		data, _ := json.Marshal(map[string]any{"thread_id": id, "messages": []map[string]any{{"id": i + 1, "thread_id": id,
			"subject": "INFO: status", "from": "GreenDog", "created_ts": "2026-01-02T10:00:00Z", "body_md": "# Status\n"}}})
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("t%d.json", i)), data, 0o644)
	}
	for _, cmd := range [][]string{{"compile"}, {"check", "--repo-root", dir}} {
		out := filepath.Join(t.TempDir(), "out")
		_, stdout, stderr := runCLI(t, append(cmd, "--out", out, dir)...)
		entries, _ := os.ReadDir(filepath.Join(out, "artifacts"))
		if len(entries) != 1 || !strings.Contains(stderr, "case-insensitive") {
			t.Errorf("%s: %d artifacts written; stderr %q\n%s", cmd[0], len(entries), stderr, stdout)
		}
	}
}

// TestThreadTimeout: a thread past --thread-timeout is reported (IN-010),
// the run finishes and the reports are written.
func TestThreadTimeout(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, _ := runCLI(t, "check", "--thread-timeout", "1ns", "--out", out, filepath.Join(demo(t), "mailbox"))
	if code != ExitFindings || !strings.Contains(stdout, "[IN-010]") {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	if _, err := os.Stat(filepath.Join(out, "brenner-ci.sarif")); err != nil {
		t.Error(err)
	}
}

// TestEchoedInputIsBounded: a 100 KB thread id repeated in every finding
// does not blow the reports up: echoed ids and messages are clipped with a
// hash, so the reports stay small.
func TestEchoedInputIsBounded(t *testing.T) {
	dir := t.TempDir()
	id := "RS-20260301-" + strings.Repeat("x", 100_000)
	var msgs []map[string]any
	for i := 0; i < 30; i++ {
		msgs = append(msgs, map[string]any{"id": i + 1, "thread_id": id, "subject": "Re: KICKOFF: " + id[:200], "from": "A",
			"created_ts": "2026-03-01T10:00:00Z", "body_md": "x"})
	}
	data, _ := json.Marshal(map[string]any{"thread_id": id, "messages": msgs})
	os.WriteFile(filepath.Join(dir, "t.json"), data, 0o644)
	out := filepath.Join(t.TempDir(), "out")
	runCLI(t, "check", "--out", out, dir)
	for _, name := range []string{"brenner-ci.sarif", "brenner-ci.json", "brenner-ci.md", "brenner-ci.junit.xml"} {
		st, err := os.Stat(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() > 2_000_000 {
			t.Errorf("%s is %d bytes for a %d-byte input", name, st.Size(), len(data))
		}
	}
}
