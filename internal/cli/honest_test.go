package cli

import (
	"encoding/json"
	"fmt"
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

// TestJSONArtifactFindingsAtTheirValues: the findings of a JSON artifact
// object point at the JSON values they are about (here the created_at
// value and the hypothesis without a claim), not at 1:1.
func TestJSONArtifactFindingsAtTheirValues(t *testing.T) {
	dir := t.TempDir()
	src := `{
  "metadata": {
    "session_id": "RS-20260310-json-pos",
    "created_at": "not a date",
    "version": 1,
    "contributors": [{"agent": "AmberFox"}],
    "status": "active"
  },
  "sections": {
    "hypothesis_slate": [
      {"id": "H1", "name": "Threshold", "claim": "C1"},
      {"id": "H2", "name": "Timer"}
    ]
  }
}
`
	if err := os.MkdirAll(filepath.Join(dir, "artifacts"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "artifacts", "RS-20260310-json-pos.json")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	_, stdout, errs := runCLI(t, "check", "--repo-root", dir, "artifacts")
	for _, want := range []string{
		"artifacts/RS-20260310-json-pos.json:4:19: error: Front matter created_at",    // the created_at value
		"artifacts/RS-20260310-json-pos.json:12:7: error: H2 has no **Claim** field.", // H2's object
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s%s", want, stdout, errs)
		}
	}
	if strings.Contains(stdout, "json-pos.json:1:1:") {
		t.Errorf("a finding is still at 1:1:\n%s", stdout)
	}
}

// TestTruncationNoticeNamesReportsWritten: when the markdown report is cut
// short, its notice names the reports of the run that list every finding,
// and no report that was not written (no "text output of the job log"
// when standard output has annotations, no JSON report when there is none).
func TestTruncationNoticeNamesReportsWritten(t *testing.T) {
	root := testutil.ModuleRoot(t)
	dir := t.TempDir()
	md := filepath.Join(dir, "summary.md")
	runCLI(t, "check", "--format", "github", "--markdown", md, "--markdown-max", "1000", "--repo-root", root, demo(t))
	data, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	notice := string(data)
	if i := strings.Index(notice, "not shown**"); i >= 0 {
		notice = notice[i:]
	} else {
		t.Fatalf("no truncation notice in\n%s", data)
	}
	if strings.Contains(notice, "job log") || strings.Contains(notice, "text output") || strings.Contains(notice, "SARIF") ||
		!strings.Contains(notice, "this run did not write it") {
		t.Errorf("the notice names reports this run did not write:\n%s", notice)
	}

	out := filepath.Join(dir, "out")
	runCLI(t, "check", "--format", "github", "--out", out, "--markdown-max", "1000", "--repo-root", root, demo(t))
	if data, err = os.ReadFile(filepath.Join(out, "brenner-ci.md")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "Every finding is in this run's JSON report and JUnit report.") {
		t.Errorf("the notice does not name the JSON and JUnit reports:\n%s", data[strings.Index(string(data), "not shown**"):])
	}
}

// TestSARIFKeepsFiveThousandResults: code scanning keeps 5,000 results per
// run, so a run with more findings writes 5,000 results (the most severe)
// and every report says how many the SARIF file left out.
func TestSARIFKeepsFiveThousandResults(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 5200; i++ { // each subject is an MB-001 error
		fmt.Fprintf(&b, `{"id": %d, "thread_id": "RS-20260301-big", "subject": "Re: note %d", "from": "LindenFox", "to": ["CopperWren"], "created_ts": "2026-03-01T09:%02d:%02dZ", "body_md": "hello"}`+"\n",
			i+1, i, i/60%60, i%60)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, _, errs := runCLI(t, "check", "--repo-root", dir, "--out", "out", "--format", "github", "big.jsonl")
	if code != ExitFindings {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Level string `json:"level"`
			} `json:"results"`
			Invocations []struct {
				Notifications []struct {
					Message struct{ Text string } `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	data, err := os.ReadFile(filepath.Join("out", "brenner-ci.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	levels := map[string]int{}
	for _, r := range run.Results {
		levels[r.Level]++
	}
	if len(run.Results) != 5000 || levels["error"] != 5000 {
		t.Errorf("SARIF holds %d results (%v), want 5000 errors", len(run.Results), levels)
	}
	said := false
	for _, n := range run.Invocations[0].Notifications {
		said = said || strings.HasPrefix(n.Message.Text, "201 results left out of this SARIF file: GitHub code scanning keeps at most 5000")
	}
	if !said {
		t.Errorf("the SARIF file does not say what it left out: %+v", run.Invocations[0].Notifications)
	}
	// The other reports say so, and where every finding is.
	const note = "The SARIF report holds 5000 of the 5201 findings that can be code scanning results"
	for _, name := range []string{"brenner-ci.json", "brenner-ci.junit.xml", "brenner-ci.md"} {
		data, err := os.ReadFile(filepath.Join("out", name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), note) || !strings.Contains(string(data), "leaves out 201. Every finding is in this run") {
			t.Errorf("%s does not say what the SARIF file left out", name)
		}
	}
	if md, _ := os.ReadFile(filepath.Join("out", "brenner-ci.md")); strings.Index(string(md), note) > strings.Index(string(md), "### ") {
		t.Errorf("the markdown report does not say it before its sections")
	}
	if !strings.Contains(errs, "brenner-ci: warning: "+note) {
		t.Errorf("standard error does not say it:\n%s", errs)
	}
}

// TestInputsOutsideTheRepositoryAreAnError: code scanning cannot show
// findings of files outside the repository, and an upload of a SARIF file
// without them closes their alerts. A run that writes SARIF stops (exit 2)
// when an input lies outside the repository root, and its reports say it
// could not run (SARIF: executionSuccessful false); without a SARIF report
// the input is checked as before.
func TestInputsOutsideTheRepositoryAreAnError(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	input := filepath.Join(elsewhere, "mailbox")
	if err := os.CopyFS(input, os.DirFS(filepath.Join(demo(t), "mailbox"))); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	for _, args := range [][]string{
		{"--out", "out"},
		{"--sarif", "out/brenner-ci.sarif"},
		{"--format", "sarif"},
	} {
		argv := append(append([]string{"check", "--repo-root", root}, args...), input)
		code, stdout, errs := runCLI(t, argv...)
		if code != ExitUsage || !strings.Contains(errs, "outside the repository root") {
			t.Errorf("%v: exit %d, stderr %q; want %d and the reason", args, code, errs, ExitUsage)
		}
		data := []byte(stdout)
		if args[0] != "--format" {
			var err error
			if data, err = os.ReadFile(filepath.Join("out", "brenner-ci.sarif")); err != nil {
				t.Fatal(err)
			}
		}
		if !strings.Contains(string(data), `"executionSuccessful":false`) {
			t.Errorf("%v: the SARIF report is marked successful:\n%.300s", args, data)
		}
		os.RemoveAll("out")
	}
	// The same path inside the repository is checked.
	inside := filepath.Join(root, "mailbox")
	if err := os.CopyFS(inside, os.DirFS(input)); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI(t, "check", "--repo-root", root, "--out", "out", inside); code != ExitFindings {
		t.Errorf("inside the repository: exit %d: %s", code, errs)
	}
	// No SARIF report: nothing is lost, the input is checked.
	if code, _, errs := runCLI(t, "check", "--repo-root", root, "--json", filepath.Join(root, "r.json"), input); code != ExitFindings {
		t.Errorf("without SARIF: exit %d: %s", code, errs)
	}
}

// TestMarkdownFooterNamesTheDataTime: the markdown report's footer time
// is the instant of the data's last message (or SOURCE_DATE_EPOCH), never
// the run's: it says which.
func TestMarkdownFooterNamesTheDataTime(t *testing.T) {
	md := filepath.Join(t.TempDir(), "r.md")
	footer := func() string {
		t.Helper()
		data, err := os.ReadFile(md)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.TrimRight(string(data), "\n")
		return s[strings.LastIndexByte(s, '\n')+1:]
	}
	t.Setenv("SOURCE_DATE_EPOCH", "")
	runCLI(t, "check", "--markdown", md, "--repo-root", testutil.ModuleRoot(t), demo(t))
	if got := footer(); !strings.HasSuffix(got, " · data as of 2026-03-02 09:00:00 UTC</sub>") {
		t.Errorf("footer %q does not name the data's last time", got)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600")
	runCLI(t, "check", "--markdown", md, "--repo-root", testutil.ModuleRoot(t), demo(t))
	if got := footer(); !strings.HasSuffix(got, " · as of 2026-01-01 00:00:00 UTC (SOURCE_DATE_EPOCH)</sub>") {
		t.Errorf("footer %q does not name SOURCE_DATE_EPOCH", got)
	}
}

// TestSARIFNoticeFirstOnStandardError: standard error shows the first 20
// notifications; the SARIF file's results left out come first.
func TestSARIFNoticeFirstOnStandardError(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 5100; i++ {
		fmt.Fprintf(&b, `{"id": %d, "thread_id": "RS-20260301-big", "subject": "Re: note %d", "from": "LindenFox", "to": ["CopperWren"], "created_ts": "2026-03-01T09:%02d:%02dZ", "body_md": "hello"}`+"\n",
			i+1, i, i/60%60, i%60)
	}
	os.WriteFile(filepath.Join(dir, "big.jsonl"), []byte(b.String()), 0o644)
	// 25 threads whose artifacts cannot be written: 25 notifications.
	for i := 0; i < 25; i++ {
		id := fmt.Sprintf("RS-20260301-t%02d/../x", i)
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("t%02d.json", i)), []byte(fmt.Sprintf(
			`{"thread_id": %q, "messages": [{"id": 1, "subject": "INFO: x", "from": "A", "created_ts": "2026-03-01T10:00:00Z", "body_md": "x"}]}`, id)), 0o644)
	}
	t.Chdir(dir)
	_, _, errs := runCLI(t, "check", "--repo-root", dir, "--out", "out", ".")
	lines := strings.Split(errs, "\n")
	if !strings.Contains(errs, "more notifications (every report lists them)") || !strings.HasPrefix(lines[0], "brenner-ci: warning: The SARIF report holds 5000 of") {
		t.Errorf("standard error:\n%s", errs)
	}
}
