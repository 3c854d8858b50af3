package markdown_test

import (
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/reporters/internal/fixture"
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
