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
