package mailbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
)

// Tests of issue 23, item 4: the walk skips nothing silently. Every file or
// folder a walk does not read is named once (IN-006), or is an IN-001 error
// when its content is mail brenner-ci cannot read, and a file named on the
// command line is treated as a walk treats it.

func threadJSON(id int, tid string) string {
	return fmt.Sprintf(`{"project":"/p","thread_id":%q,"messages":[{"id":%d,"subject":"KICKOFF: %s","from":"A","created_ts":"2026-01-01T00:00:00Z","body_md":"b"}]}`, tid, id, tid)
}

// rel renders findings as "RULE path:line" with paths relative to dir.
func rel(dir string, fs []diag.Finding) []string {
	var out []string
	d := filepath.ToSlash(dir) + "/"
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s %s:%d", f.Rule, strings.TrimPrefix(f.Pos.File, d), f.Pos.Line))
	}
	return out
}

// TestWalkNamesHiddenEntries: .git is skipped silently; every other name
// starting with "." is named once, a folder as a whole.
func TestWalkNamesHiddenEntries(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.json"), threadJSON(1, "A"))
	write(t, filepath.Join(dir, ".git", "x.json"), threadJSON(2, "GIT"))
	write(t, filepath.Join(dir, ".hidden.json"), threadJSON(3, "HIDDEN"))
	write(t, filepath.Join(dir, ".threads", "t.json"), threadJSON(4, "HIDDEN-DIR"))
	write(t, filepath.Join(dir, ".threads", "u.json"), threadJSON(5, "HIDDEN-DIR2"))
	write(t, filepath.Join(dir, "sub", ".git"), "gitdir: elsewhere\n") // a worktree's .git file
	b := scanT(t, dir)
	if !slices.Equal(keys(b), []string{"A"}) {
		t.Errorf("threads %v", keys(b))
	}
	want := []string{"IN-006 .hidden.json:0", "IN-006 .threads:0"}
	if got := rel(dir, b.Findings); !slices.Equal(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
	for _, f := range b.Findings {
		if !strings.Contains(f.Message, `"."`) || f.Severity != diag.Note {
			t.Errorf("note does not say why: %s", f.String())
		}
	}
}

// TestWalkNamesExcludedOutput: output is never input, and says so, in a
// walk and when named.
func TestWalkNamesExcludedOutput(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.json"), threadJSON(1, "A"))
	write(t, filepath.Join(dir, "reports", "artifacts", "x.json"), threadJSON(2, "OUT"))
	write(t, filepath.Join(dir, "report.json"), threadJSON(3, "REPORT"))
	opt := ScanOptions{Exclude: []string{filepath.Join(dir, "reports"), filepath.Join(dir, "report.json")}}
	for _, paths := range [][]string{{dir}, {dir, filepath.Join(dir, "report.json"), filepath.Join(dir, "reports")}} {
		b, err := Scan(paths, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(keys(b), []string{"A"}) {
			t.Errorf("%v: threads %v", paths, keys(b))
		}
		want := []string{"IN-006 report.json:0", "IN-006 reports:0"}
		if got := rel(dir, b.Findings); !slices.Equal(got, want) {
			t.Errorf("%v: findings %v, want %v", paths, got, want)
		}
	}
	// Named alone, it is named too (and the run has found something).
	b, err := Scan([]string{filepath.Join(dir, "report.json")}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := rel(dir, b.Findings); !slices.Equal(got, []string{"IN-006 report.json:0"}) {
		t.Errorf("named output: %v", got)
	}
}

// TestLinkNamedIsNotFollowed: a link named on the command line is named
// at its own path, as a walk names it, and is not read.
func TestLinkNamedIsNotFollowed(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "real", "t.json"), threadJSON(1, "REAL"))
	if err := os.Symlink(filepath.Join("real", "t.json"), filepath.Join(dir, "link.json")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	if err := os.Symlink("real", filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"link.json", "linkdir"} {
		b := scanT(t, filepath.Join(dir, p))
		if len(b.Threads) != 0 {
			t.Errorf("%s: the link was followed: threads %v", p, keys(b))
		}
		if got := rel(dir, b.Findings); !slices.Equal(got, []string{"IN-006 " + p + ":0"}) {
			t.Errorf("%s: findings %v", p, got)
		}
	}
}
