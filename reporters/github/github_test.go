package github_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters/github"
	"github.com/brenner-ci/brenner-ci/reporters/internal/fixture"
)

func TestMain(m *testing.M) { os.Exit(fixture.Main(m)) }

func write(t testing.TB, r *diag.Report) string {
	t.Helper()
	var buf bytes.Buffer
	if err := github.Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestGolden(t *testing.T) {
	r := fixture.Report(t)
	fixture.Golden(t, "annotations.txt", []byte(write(t, r)))
}

// TestGoldenNoBaseline: without a baseline the annotations are what they
// have always been.
func TestGoldenNoBaseline(t *testing.T) {
	fixture.Golden(t, "annotations.nobaseline.txt", []byte(write(t, fixture.NoBaseline(t))))
}

func TestEscaping(t *testing.T) {
	if got, want := github.EscapeData("100% done\r\nnext: a,b"), "100%25 done%0D%0Anext: a,b"; got != want {
		t.Errorf("EscapeData: %q, want %q", got, want)
	}
	if got, want := github.EscapeProperty("C:\\a,b%\n"), "C%3A\\a%2Cb%25\\n"; got != want {
		t.Errorf("EscapeProperty: %q, want %q", got, want)
	}
	r := &diag.Report{
		Rules: []diag.Rule{{ID: "MG-001", Name: "invalid-target"}},
		Findings: []diag.Finding{{Rule: "MG-001", Severity: diag.Error, Message: "50% of a,b: bad\nsecond line\x1b[31m",
			Pos: diag.Pos{File: "dir,x/a:b.json", Line: 3, Col: 2, EndLine: 4, EndCol: 1}}},
		RepoRoot: t.TempDir(),
	}
	got := write(t, r)
	want := "::error file=dir%2Cx/a%3Ab.json,line=3,endLine=4,title=MG-001 invalid-target::50%25 of a,b: bad%0Asecond line\\x1b[31m\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestCap(t *testing.T) {
	root := fixture.Repo(t)
	r := fixture.Many(t, root, 45) // 15 of each level
	out := write(t, r)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	count := map[string]int{}
	order := []string{}
	for _, l := range lines {
		lv := l[2 : strings.IndexAny(l[2:], " :")+2]
		count[lv]++
		if len(order) == 0 || order[len(order)-1] != lv {
			order = append(order, lv)
		}
	}
	if count["error"] != 10 || count["warning"] != 10 || count["notice"] != 10 {
		t.Errorf("per level: %v", count)
	}
	if fmt.Sprint(order) != "[error warning notice]" {
		t.Errorf("not most severe first: %v", order)
	}
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "::notice title=brenner-ci::brenner-ci: 16 more findings not annotated (5 errors, 5 warnings, 6 notes)") {
		t.Errorf("summary notice: %q", last)
	}

	// Within the caps: no summary notice.
	r = fixture.Many(t, root, 30)
	if out := write(t, r); strings.Contains(out, "not annotated") || strings.Count(out, "\n") != 30 {
		t.Errorf("uncapped output:\n%s", out)
	}
}

// TestNewFindingsAnnotatedFirst: with a baseline, the one new error is
// annotated even when ten old errors come before it, and the overflow notice
// points only at outputs that exist.
func TestNewFindingsAnnotatedFirst(t *testing.T) {
	r := &diag.Report{RepoRoot: t.TempDir()}
	base := map[string]bool{}
	for i := 0; i < 12; i++ {
		r.Findings = append(r.Findings, diag.Finding{Rule: "MB-001", Severity: diag.Error, Message: fmt.Sprintf("old %d", i), Pos: diag.Pos{File: "a.json", Line: i + 1}})
		r.Fingerprints = append(r.Fingerprints, fmt.Sprintf("fp%d", i))
		base[fmt.Sprintf("fp%d", i)] = true
	}
	r.Findings = append(r.Findings, diag.Finding{Rule: "MB-002", Severity: diag.Error, Message: "the new one", Pos: diag.Pos{File: "b.json", Line: 1}})
	r.Fingerprints = append(r.Fingerprints, "fresh")
	r.CompareWith(base)
	got := write(t, r)
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if !strings.Contains(lines[0], "the new one") {
		t.Errorf("the new finding is not annotated first:\n%s", got)
	}
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "::notice title=brenner-ci::") || !strings.Contains(last, "3 more findings") || strings.Contains(last, "job log") {
		t.Errorf("overflow notice: %q", last)
	}
}

func writeWith(t testing.TB, r *diag.Report, o github.Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := github.WriteOptions(&buf, r, o); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// levels counts the annotations per command (error, warning, notice), the
// run's own notices (title=brenner-ci) apart.
func levels(out string) (map[string]int, []string) {
	count := map[string]int{}
	var own []string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if strings.HasPrefix(l, "::notice title=brenner-ci::") {
			own = append(own, l)
			continue
		}
		count[l[2:strings.IndexAny(l[2:], " :")+2]]++
	}
	return count, own
}

// TestOldFindingsNotice: in a pull request that adds one error to 32 old
// errors, the ::error level belongs to the new one; old findings are
// annotated as notices (the default), saying what they are, after the new.
func TestOldFindingsNotice(t *testing.T) {
	root := fixture.Repo(t)
	r := fixture.PullRequest(t, root)
	for _, o := range []github.Options{{}, {Old: github.OldNotice}} {
		out := writeWith(t, r, o)
		count, own := levels(out)
		if count["error"] != 1 || count["warning"] != 0 || count["notice"] != 9 || len(own) != 1 {
			t.Errorf("%+v: annotations per level %v, own notices %d:\n%s", o, count, len(own), out)
		}
		first := strings.SplitN(out, "\n", 2)[0]
		if !strings.HasPrefix(first, "::error ") || !strings.Contains(first, "title=MG-001 invalid-target (new)::"+fixture.NewMessage) {
			t.Errorf("%+v: first annotation %q", o, first)
		}
		if !strings.Contains(out, "::notice file=threads/t1.json,line=1,endLine=1,col=1,endColumn=1,title=MG-001 invalid-target (old error)::Old error 1 of t1.\n") {
			t.Errorf("%+v: the first old error is not a notice saying it is an old error:\n%s", o, out)
		}
		if len(own) == 1 && !strings.Contains(own[0], "31 more findings not annotated (23 errors, 4 warnings, 4 notes)") {
			t.Errorf("%+v: overflow notice %q", o, own[0])
		}
	}
	// Without a baseline every finding keeps its level and no title says new.
	r.CompareWith(nil)
	out := write(t, r)
	if count, _ := levels(out); count["error"] != 10 || count["warning"] != 4 || strings.Contains(out, "(new)") || strings.Contains(out, "(old ") {
		t.Errorf("without a baseline: %v\n%s", count, out)
	}
}

// TestOldFindingsHide: with hide only the new findings are annotated, and
// one notice says how many old ones are not.
func TestOldFindingsHide(t *testing.T) {
	root := fixture.Repo(t)
	r := fixture.PullRequest(t, root)
	out := writeWith(t, r, github.Options{Old: github.OldHide})
	count, own := levels(out)
	if count["error"] != 1 || count["warning"] != 0 || count["notice"] != 0 || len(own) != 1 {
		t.Fatalf("annotations per level %v, own notices %d:\n%s", count, len(own), out)
	}
	if !strings.Contains(own[0], "40 old findings") || !strings.Contains(own[0], "old-findings hide") || strings.Contains(own[0], "more finding") {
		t.Errorf("hidden notice: %q", own[0])
	}
}

// TestOldFindingsKeep: with keep old findings are annotated at their own
// level, after the new ones, and say they are old.
func TestOldFindingsKeep(t *testing.T) {
	root := fixture.Repo(t)
	r := fixture.PullRequest(t, root)
	out := writeWith(t, r, github.Options{Old: github.OldKeep})
	count, own := levels(out)
	if count["error"] != 10 || count["warning"] != 4 || count["notice"] != 4 || len(own) != 1 {
		t.Fatalf("annotations per level %v, own notices %d:\n%s", count, len(own), out)
	}
	if first := strings.SplitN(out, "\n", 2)[0]; !strings.Contains(first, fixture.NewMessage) {
		t.Errorf("the new finding is not annotated first: %q", first)
	}
	if !strings.Contains(out, "::warning file=threads/t1.json,line=9,endLine=9,col=1,endColumn=1,title=TH-002 thread-id-mismatch (old warning)::") {
		t.Errorf("old warning not kept at its level:\n%s", out)
	}
}

func TestParseOldFindings(t *testing.T) {
	for in, want := range map[string]github.OldFindings{"": github.OldNotice, "notice": github.OldNotice, "hide": github.OldHide, "keep": github.OldKeep} {
		if got, err := github.ParseOldFindings(in); err != nil || got != want {
			t.Errorf("%q: %q, %v", in, got, err)
		}
	}
	if _, err := github.ParseOldFindings("loud"); err == nil {
		t.Error("loud accepted")
	}
	var buf bytes.Buffer
	if err := github.WriteOptions(&buf, fixture.Report(t), github.Options{Old: "loud"}); err == nil {
		t.Error("WriteOptions accepted old-findings loud")
	}
}

// TestOverflowNoticeNamesReportsWritten: the notice that counts the
// findings not annotated says where every finding is among the reports the
// run writes, never a report it does not write.
func TestOverflowNoticeNamesReportsWritten(t *testing.T) {
	root := fixture.Repo(t)
	r := fixture.Many(t, root, 45)
	r.Outputs = []diag.Output{{Format: "markdown", Path: "out/brenner-ci.md"}, {Format: "github"}, {Format: "summary"}}
	_, own := levels(write(t, r))
	if len(own) != 1 || strings.Contains(own[0], "SARIF") || strings.Contains(own[0], "JSON and") ||
		!strings.Contains(own[0], "The JSON report (--json FILE, or --out DIR) lists every finding; this run did not write it.") {
		t.Errorf("notice %q", own)
	}
	r.Outputs = []diag.Output{{Format: "junit", Path: "out/r.xml"}, {Format: "json", Path: "out/r.json"}, {Format: "github"}}
	if _, own = levels(write(t, r)); len(own) != 1 || !strings.HasSuffix(own[0], "Every finding is in this run's JSON report and JUnit report.") {
		t.Errorf("notice %q", own)
	}
}
