package markdown_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/reporters/internal/fixture"
	"github.com/brenner-ci/brenner-ci/reporters/markdown"
)

// section returns the text of the "### title" section of md (up to the next
// "### " heading or the footer), and whether it is there.
func section(md, title string) (string, bool) {
	_, rest, ok := strings.Cut(md, "\n### "+title+"\n")
	if !ok {
		return "", false
	}
	if i := strings.Index(rest, "\n### "); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.Index(rest, "\n<sub>"); i >= 0 {
		rest = rest[:i]
	}
	return rest, true
}

// TestPullRequestHeadline: in a pull request that adds one error to a
// mailbox of 32 old errors, the headline counts what gates: one new
// finding, said to be new.
func TestPullRequestHeadline(t *testing.T) {
	root := fixture.Repo(t)
	got := write(t, fixture.PullRequest(t, root), 0)
	if want := "## ❌ brenner-ci: failed — 1 new finding at or above `error`\n"; !strings.Contains(got, want) {
		t.Errorf("headline: want %q in\n%s", want, got)
	}
	// Without a baseline every finding is new and gates: the headline
	// counts them all and does not call them new.
	r := fixture.PullRequest(t, root)
	r.CompareWith(nil)
	got = write(t, r, 0)
	if want := "## ❌ brenner-ci: failed — 33 findings at or above `error`\n"; !strings.Contains(got, want) {
		t.Errorf("headline without a baseline: want %q in\n%s", want, got)
	}
}

// TestNewFirst: the one new finding of a pull request is listed first, in
// an expanded "New in this pull request" section before the rules and the
// collapsed thread groups; the old findings follow in those groups, each
// saying how many of its thread's findings are new.
func TestNewFirst(t *testing.T) {
	root := fixture.Repo(t)
	got := write(t, fixture.PullRequest(t, root), 0)
	newSec, ok := section(got, "New in this pull request")
	if !ok {
		t.Fatalf("no \"New in this pull request\" section:\n%s", got)
	}
	at := strings.Index(got, "### New in this pull request")
	for _, later := range []string{"### Rules", "<details>"} {
		if i := strings.Index(got, later); i >= 0 && i < at {
			t.Errorf("%q comes before the new findings", later)
		}
	}
	if strings.Contains(newSec, "<details>") || !strings.Contains(newSec, fixture.NewMessage) {
		t.Errorf("the new finding is not listed, expanded, in the new section:\n%s", newSec)
	}
	if n := strings.Count(got, fixture.NewMessage); n != 1 {
		t.Errorf("the new finding is listed %d times", n)
	}
	if strings.Count(newSec, "\n- ") != 1 {
		t.Errorf("the new section lists old findings:\n%s", newSec)
	}
	// Every old finding is in a collapsed group; each group's summary says
	// how many new findings its thread has.
	summaries := regexp.MustCompile(`(?m)^<details><summary>(.*)</summary>$`).FindAllStringSubmatch(got, -1)
	if len(summaries) != 4 {
		t.Fatalf("%d thread groups, want 4:\n%s", len(summaries), got)
	}
	for _, s := range summaries {
		want := "· 0 new"
		if strings.Contains(s[1], "<b>t4</b>") {
			want = "· 🆕 1 new, listed above"
		}
		if !strings.HasSuffix(s[1], want) {
			t.Errorf("group summary %q does not end with %q", s[1], want)
		}
	}
	if n := strings.Count(got, "Old error "); n != 32 {
		t.Errorf("%d old errors listed, want 32", n)
	}
}

var newFooterRE = regexp.MustCompile(`⚠️ \*\*(\d+) of 3000 findings( \(\d+ new\))? not shown\*\*`)

// TestNewFirstUnderCap: when not every finding fits, the new ones take the
// room first (most severe first among them), and the notice says how many
// of those left out are new.
func TestNewFirstUnderCap(t *testing.T) {
	root := fixture.Repo(t)
	r := fixture.Many(t, root, 3000)
	base := map[string]bool{}
	for i := range r.Findings {
		if i%10 != 0 { // one in ten is new: 300 new findings, 100 of each severity
			base[r.Fingerprints[i]] = true
		}
	}
	r.CompareWith(base)
	for _, max := range []int{4000, 20000, markdown.DefaultMaxChars} {
		got := write(t, r, max)
		if n := utf8.RuneCountInString(got); n >= max {
			t.Errorf("maxChars %d: %d characters", max, n)
		}
		newSec, ok := section(got, "New in this pull request")
		if !ok {
			t.Fatalf("maxChars %d: no new section", max)
		}
		shownNew := strings.Count(newSec, "\n- ")
		shownOld := strings.Count(got, "\n- ") - shownNew
		if shownOld > 0 && shownNew < 300 {
			t.Errorf("maxChars %d: %d old findings shown while %d of 300 new ones are left out", max, shownOld, 300-shownNew)
		}
		if errs := strings.Count(newSec, "\n- ❌"); errs != min(shownNew, 100) {
			t.Errorf("maxChars %d: %d new findings shown, %d of them errors: the most severe must come first", max, shownNew, errs)
		}
		m := newFooterRE.FindStringSubmatch(got)
		if m == nil {
			t.Fatalf("maxChars %d: no truncation notice:\n%s", max, got[len(got)-600:])
		}
		if left, _ := strconv.Atoi(m[1]); left != 3000-shownNew-shownOld {
			t.Errorf("maxChars %d: notice says %d left out, %d shown", max, left, shownNew+shownOld)
		}
		if wantNew := 300 - shownNew; wantNew > 0 && m[2] != " ("+strconv.Itoa(wantNew)+" new)" || wantNew == 0 && m[2] != "" {
			t.Errorf("maxChars %d: the notice does not say that %d new findings are left out: %q", max, wantNew, m[0])
		}
		t.Logf("maxChars %d: %d new and %d old findings shown", max, shownNew, shownOld)
	}
}

// TestPullRequestReportCheck: the pull request's report is valid for
// reportcheck, whole and truncated.
func TestPullRequestReportCheck(t *testing.T) {
	root := fixture.Repo(t)
	r := fixture.PullRequest(t, root)
	for name, max := range map[string]int{"pr.md": 0, "pr.truncated.md": 1500} {
		file := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(file, []byte(write(t, r, max)), 0o644); err != nil {
			t.Fatal(err)
		}
		if out := fixture.Check(t, file, "markdown"); strings.Contains(out, "warning[") {
			t.Errorf("%s: %s", name, out)
		}
	}
}

// TestRulesTableSeverityFirst: with a baseline the Rules table has a row
// per severity and rule, errors first, then warnings, then notes, by id
// within a severity, and a New column.
func TestRulesTableSeverityFirst(t *testing.T) {
	got := write(t, fixture.Report(t), 0)
	rules, ok := section(got, "Rules")
	if !ok {
		t.Fatalf("no Rules section:\n%s", got)
	}
	var rows []string
	for _, l := range strings.Split(strings.TrimSpace(rules), "\n") {
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		if len(cells) != 5 {
			t.Fatalf("row %q: %d cells, want 5 (Severity, Rule, Name, Findings, New)", l, len(cells))
		}
		rule := cells[1]
		if m := regexp.MustCompile("`([^`]*)`").FindStringSubmatch(rule); m != nil {
			rule = m[1]
		}
		rows = append(rows, cells[0]+" "+rule+" "+cells[3]+" "+cells[4])
	}
	want := []string{
		"Severity Rule Findings New",
		":-- :-- --: --:",
		"❌ error IN-001 1 1",
		"❌ error MG-001 1 1",
		"⚠️ warning IN-001 2 2",
		"⚠️ warning TH-002 1 0",
		"⚠️ warning XX-999 1 1",
		"ℹ️ note IN-001 1 1",
		"ℹ️ note MB-001 2 2",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("rules table rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}
