package markdown_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters/internal/fixture"
	"github.com/brenner-ci/brenner-ci/reporters/markdown"
)

func TestMain(m *testing.M) { os.Exit(fixture.Main(m)) }

func write(t testing.TB, r *diag.Report, maxChars int) string {
	t.Helper()
	var buf bytes.Buffer
	if err := markdown.Write(&buf, r, maxChars); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestGolden(t *testing.T) {
	r := fixture.Report(t)
	got := write(t, r, 0)
	fixture.Golden(t, "report.md", []byte(got))
	if got != write(t, r, 0) {
		t.Error("two writes of the same report differ")
	}
	// Truncated: the same report in a small budget.
	fixture.Golden(t, "report.truncated.md", []byte(write(t, r, 2600)))
}

// TestGoldenNoBaseline: the report without a baseline (no --baseline, no
// --new-from-rev): no new section, no New column, nothing called new.
func TestGoldenNoBaseline(t *testing.T) {
	r := fixture.NoBaseline(t)
	fixture.Golden(t, "report.nobaseline.md", []byte(write(t, r, 0)))
	fixture.Golden(t, "report.nobaseline.truncated.md", []byte(write(t, r, 2600)))
}

func TestContents(t *testing.T) {
	r := fixture.Report(t)
	got := write(t, r, 0)
	for _, want := range []string{
		markdown.Marker,
		"## ❌ brenner-ci: failed — 2 new findings at or above `error`",
		"| ❌ error | [`MG-001`](https://example.org/brenner-ci/v0.1.0/docs/rules.md#mg-001) | invalid-target | 1 | 1 |",
		"| ⚠️ warning | `XX-999` |  | 1 | 1 |",
		// links to the line on GitHub; the space in the path is encoded
		"[threads/alpha.json:4:5](https://github.com/octo/lab/blob/0123456789abcdef0123456789abcdef01234567/threads/alpha.json#L4)",
		"(https://github.com/octo/lab/blob/0123456789abcdef0123456789abcdef01234567/docs/with%20space.md)",
		// outside the repository: no link
		"· ../outside/x.json:2:1 ·",
		// escaped: pipe, stars, tags, mention, ticks; one line
		`Body uses a \| pipe, \*stars\*, \<b\>tags\</b\>, @` + "\u200b" + "someone and \\`ticks\\` over two lines.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q", want)
		}
	}
	if strings.Contains(got, "<b>gamma") {
		t.Error("a thread without findings got a section")
	}
	if strings.Contains(got, "not shown") {
		t.Error("truncation footer without truncation")
	}

	r.Findings = nil
	r.Fingerprints = nil
	r.Notifications = nil
	got = write(t, r, 0)
	if !strings.Contains(got, "## ✅ brenner-ci: passed — no new findings at or above `error`") || !strings.Contains(got, "No findings.") {
		t.Errorf("clean report:\n%s", got)
	}
}

// TestNoLinksFromInput: a bare URL, a www. address or an e-mail address
// in input text (a subject, a message) does not become a link in the job
// summary: GFM links them by themselves, so a pull request could place
// links in the report a reviewer trusts.
func TestNoLinksFromInput(t *testing.T) {
	r := fixture.Report(t)
	r.Findings[0].Message = "See https://evil.example/x, WWW.evil.example and bob@evil.example."
	got := write(t, r, 0)
	for _, raw := range []string{"https://evil", "WWW.evil", "bob@evil"} {
		if strings.Contains(got, raw) {
			t.Errorf("%q is in the report as written: GFM would link it", raw)
		}
	}
	if !strings.Contains(got, "See https:\u200b//evil.example/x, WWW\u200b.evil.example and bob@\u200bevil.example.") {
		t.Errorf("the message is not shown whole:\n%s", got)
	}
}

var footerRE = regexp.MustCompile(`⚠️ \*\*(\d+) of (\d+) findings not shown\*\*`)

func TestSizeCap(t *testing.T) {
	root := fixture.Repo(t)
	r := fixture.Many(t, root, 10000)
	for _, max := range []int{markdown.DefaultMaxChars, 20000, 1000} {
		got := write(t, r, max)
		if n := utf8.RuneCountInString(got); n >= max {
			t.Errorf("maxChars %d: %d characters", max, n)
		}
		if len(got) >= 1<<20 {
			t.Errorf("maxChars %d: %d bytes", max, len(got))
		}
		shown := strings.Count(got, "\n- ")
		m := footerRE.FindStringSubmatch(got)
		if m == nil {
			t.Fatalf("maxChars %d: no truncation footer", max)
		}
		left, _ := strconv.Atoi(m[1])
		if m[2] != "10000" || left != 10000-shown {
			t.Errorf("maxChars %d: footer says %s of %s left out; %d shown", max, m[1], m[2], shown)
		}
		t.Logf("maxChars %d: %d findings shown, %d characters", max, shown, utf8.RuneCountInString(got))
		if errs := strings.Count(got, "\n- ❌"); errs != shown {
			t.Errorf("maxChars %d: %d findings shown but only %d errors; the most severe must come first", max, shown, errs)
		}
		if max == markdown.DefaultMaxChars && shown < 300 {
			t.Errorf("only %d findings shown in %d characters", shown, max)
		}
		if strings.Count(got, "<details>") != strings.Count(got, "</details>") {
			t.Errorf("maxChars %d: unbalanced <details>", max)
		}
	}
	// A huge budget still stays under 1 MiB.
	got := write(t, r, 10<<20)
	if len(got) >= 1<<20 || !footerRE.MatchString(got) {
		t.Errorf("1 MiB cap: %d bytes", len(got))
	}
}

func TestReportCheck(t *testing.T) {
	r := fixture.Report(t)
	dir := t.TempDir()
	for name, content := range map[string]string{
		"full.md":      write(t, r, 0),
		"truncated.md": write(t, r, 2600),
		"many.md":      write(t, fixture.Many(t, r.RepoRoot, 10000), 0),
		"huge.md":      write(t, fixture.Many(t, r.RepoRoot, 10000), 10<<20),
		"internal.md":  write(t, &diag.Report{Internal: true, FailOn: diag.Off}, 0),
		"genealogy.md": write(t, withLineage(t), 0),
		"gen.cut.md":   write(t, withLineage(t), 3000),
	} {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		out := fixture.Check(t, file, "markdown")
		if name != "huge.md" && strings.Contains(out, "warning[") {
			t.Errorf("%s: %s", name, out)
		}
	}
}

// TestLinksLandOnTheLine: a finding in a markdown file links to the plain
// view (?plain=1), where GitHub's line anchors work; other files link to
// the line directly.
func TestLinksLandOnTheLine(t *testing.T) {
	r := fixture.Report(t)
	r.Findings[0].Pos.File = filepath.Join(r.RepoRoot, "artifacts", "RS-1.md")
	r.Findings[0].Pos.Line, r.Findings[0].Pos.Col = 7, 1
	got := write(t, r, 0)
	if !strings.Contains(got, "/artifacts/RS-1.md?plain=1#L7)") {
		t.Errorf("no plain-view line link for a markdown file:\n%s", got)
	}
	if !strings.Contains(got, "threads/alpha.json#L4)") {
		t.Errorf("a JSON file's link changed:\n%s", got)
	}
}

// TestHeadlineCountsArtifactsApart: the counts line under the headline
// names threads and persisted artifacts apart.
func TestHeadlineCountsArtifactsApart(t *testing.T) {
	got := write(t, fixture.Mixed(t, fixture.Repo(t)), 0)
	if want := "2 errors, 1 warning and 1 note in 2 threads and 1 artifact (fail-on `error`)."; !strings.Contains(got, want) {
		t.Errorf("no %q in\n%.500s", want, got)
	}
}

// TestTruncationNoticeNamesReportsWritten: the notice of a report cut
// short names the reports of the run that list every finding, and no
// other (no job log's text output when standard output has annotations).
func TestTruncationNoticeNamesReportsWritten(t *testing.T) {
	r := fixture.Report(t)
	r.Outputs = []diag.Output{{Format: "markdown", Path: "out/brenner-ci.md"}, {Format: "json", Path: "out/brenner-ci.json"}, {Format: "github"}}
	got := write(t, r, 2600)
	if !strings.Contains(got, "not shown**") || strings.Contains(got, "job log") || strings.Contains(got, "SARIF and") ||
		!strings.Contains(got, "Every finding is in this run's JSON report.") {
		t.Errorf("truncation notice:\n%s", got[strings.Index(got, "⚠️ **"):])
	}
}

// TestFooterNamesTheDataTime: the footer's time is the data's (the instant
// of its last message) or SOURCE_DATE_EPOCH's, and it says which: it is
// never the time of the run.
func TestFooterNamesTheDataTime(t *testing.T) {
	r := fixture.NoBaseline(t)
	if got := write(t, r, 0); !strings.HasSuffix(got, "<sub>brenner-ci 0.1.0 · data as of 2026-03-01 12:30:45 UTC</sub>\n") {
		t.Errorf("footer: %q", got[strings.LastIndex(got, "<sub>"):])
	}
	r.TimeFromEpoch = true
	if got := write(t, r, 0); !strings.HasSuffix(got, "<sub>brenner-ci 0.1.0 · as of 2026-03-01 12:30:45 UTC (SOURCE_DATE_EPOCH)</sub>\n") {
		t.Errorf("footer: %q", got[strings.LastIndex(got, "<sub>"):])
	}
	r.Time = time.Time{}
	if got := write(t, r, 0); !strings.HasSuffix(got, "<sub>brenner-ci 0.1.0</sub>\n") {
		t.Errorf("footer: %q", got[strings.LastIndex(got, "<sub>"):])
	}
}

// TestNewSince: the counts line says what the new findings are new
// against — the baseline, the base revision of pull-request mode (escaped:
// it is the user's text), or both.
func TestNewSince(t *testing.T) {
	for _, c := range []struct {
		rev  string
		file bool
		want string
	}{
		{"", true, " new since the baseline (fail-on"},
		{"origin/main", false, " new since origin/main (fail-on"},
		{"HEAD~1", true, " new since the baseline and HEAD\\~1 (fail-on"},
		{"a`b*c", false, " new since a\\`b\\*c (fail-on"},
		{"63217b0fd5214342d45d019fc9516481aa223303", false, " new since commit 63217b0fd521 (fail-on"},
	} {
		r := fixture.Report(t)
		r.BaseRev, r.BaselineFile = c.rev, c.file
		if got := write(t, r, 0); !strings.Contains(got, c.want) {
			t.Errorf("--new-from-rev %q, baseline file %v: no %q in\n%.600s", c.rev, c.file, c.want, got)
		}
	}
}
