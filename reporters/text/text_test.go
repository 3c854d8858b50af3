package text_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
	"github.com/brenner-ci/brenner-ci/reporters/internal/fixture"
	"github.com/brenner-ci/brenner-ci/reporters/text"
)

func TestMain(m *testing.M) { os.Exit(fixture.Main(m)) }

func write(t testing.TB, r *diag.Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := text.Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	r := fixture.Report(t)
	fixture.Golden(t, "report.txt", write(t, r))
}

// TestGoldenNoBaseline: without a baseline the text output is what it has
// always been.
func TestGoldenNoBaseline(t *testing.T) {
	fixture.Golden(t, "report.nobaseline.txt", write(t, fixture.NoBaseline(t)))
}

func TestSummary(t *testing.T) {
	r := &diag.Report{FailOn: diag.Warning, Threads: make([]diag.Thread, 1)}
	if got, want := text.Summary(r), "brenner-ci: 0 errors, 0 warnings, 0 notes in 1 thread (fail-on warning: passed)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	r.Findings = []diag.Finding{{Severity: diag.Warning}, {Severity: diag.Note}}
	r.FailOn = diag.Off
	r.Internal = true
	if got, want := text.Summary(r), "brenner-ci: 0 errors, 1 warning, 1 note in 1 thread (fail-on none: passed; internal error)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestProblemMatcher applies .github/brenner-ci-matcher.json to the text
// output (RE2 accepts the pattern as written for JavaScript).
func TestProblemMatcher(t *testing.T) {
	root := testutil.ModuleRoot(t)
	data, err := os.ReadFile(filepath.Join(root, ".github", "brenner-ci-matcher.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		ProblemMatcher []struct {
			Owner   string `json:"owner"`
			Pattern []struct {
				Regexp                                      string `json:"regexp"`
				File, Line, Column, Severity, Message, Code int
			} `json:"pattern"`
		} `json:"problemMatcher"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.ProblemMatcher) != 1 || m.ProblemMatcher[0].Owner != "brenner-ci" || len(m.ProblemMatcher[0].Pattern) != 1 {
		t.Fatalf("unexpected matcher: %+v", m)
	}
	p := m.ProblemMatcher[0].Pattern[0]
	re := regexp.MustCompile(p.Regexp)

	r := fixture.Report(t)
	lines := strings.Split(strings.TrimSuffix(string(write(t, r)), "\n"), "\n")
	if len(lines) != len(r.Findings)+2 { // + the configuration line and the summary
		t.Fatalf("%d lines for %d findings", len(lines), len(r.Findings))
	}
	for _, line := range lines[len(lines)-2:] {
		if re.MatchString(line) {
			t.Errorf("the matcher reads a summary line as a finding: %q", line)
		}
	}
	for i, line := range lines[:len(lines)-2] {
		f := r.Findings[i]
		g := re.FindStringSubmatch(line)
		if f.Severity == diag.Note {
			if g != nil {
				t.Errorf("note matched (GitHub matchers know only error and warning): %q", line)
			}
			continue
		}
		if g == nil {
			t.Errorf("line not matched: %q", line)
			continue
		}
		wantLine := ""
		if f.Pos.Line > 0 {
			wantLine = strconv.Itoa(f.Pos.Line)
		}
		// A new finding is matched too: its marker starts the message.
		wantMsg := f.Message
		if r.HasBaseline && r.IsNew(i) {
			wantMsg = text.NewMarker + wantMsg
		}
		if g[p.Severity] != f.Severity.String() || g[p.Code] != f.Rule || g[p.Line] != wantLine || g[p.Message] != wantMsg {
			t.Errorf("line %q: groups %q", line, g)
		}
	}
	if re.MatchString(lines[len(lines)-1]) {
		t.Errorf("summary line matched: %q", lines[len(lines)-1])
	}
	g := re.FindStringSubmatch("dir:with:colons/a.json:12:3: error: Text: with error: inside [MG-001]")
	if g == nil || g[p.File] != "dir:with:colons/a.json" || g[p.Line] != "12" || g[p.Column] != "3" || g[p.Message] != "Text: with error: inside" {
		t.Errorf("colons: %q", g)
	}
}

// TestNewMarked: with a baseline each new finding's line says "new" after
// its severity ("path:line:col: error: new: message [ID]"), so that
// grep ': new: ' lists what the pull request introduced; old findings'
// lines are as without a baseline, and the summary counts the new ones.
func TestNewMarked(t *testing.T) {
	root := fixture.Repo(t)
	r := fixture.PullRequest(t, root)
	lines := strings.Split(strings.TrimSuffix(string(write(t, r)), "\n"), "\n")
	var marked []string
	for _, l := range lines[:len(lines)-2] {
		if strings.Contains(l, ": new: ") {
			marked = append(marked, l)
		}
	}
	if want := "threads/t4.json:11:1: error: new: " + fixture.NewMessage + " [MG-001]"; len(marked) != 1 || marked[0] != want {
		t.Errorf("new lines %q, want [%q]", marked, want)
	}
	if want := "threads/t4.json:1:1: error: Old error 1 of t4. [MG-001]"; !strings.Contains(string(write(t, r)), want+"\n") {
		t.Errorf("old finding not written as %q", want)
	}
	if sum := lines[len(lines)-1]; !strings.Contains(sum, ", 1 new (") {
		t.Errorf("summary %q does not count the new finding", sum)
	}
	// Without a baseline nothing is marked: every finding is new.
	r.CompareWith(nil)
	if out := string(write(t, r)); strings.Contains(out, ": new: ") {
		t.Errorf("a line is marked new without a baseline:\n%s", out)
	}
}

// TestSummaryCountsArtifactsApart: persisted artifacts are summaries too,
// but they are not threads: the summary line counts each kind.
func TestSummaryCountsArtifactsApart(t *testing.T) {
	r := fixture.Mixed(t, fixture.Repo(t))
	if got, want := text.Summary(r), "brenner-ci: 2 errors, 1 warning, 1 note in 2 threads and 1 artifact (fail-on error: failed)"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	r.Threads = r.Threads[:1]
	if got, want := text.Summary(r), "brenner-ci: 2 errors, 1 warning, 1 note in 1 artifact (fail-on error: failed)"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
