package scripts

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite README.md's reviewer's view from the pull-request scenario's job summary")

// The pull request of TestActionCopiedWorkflowRename: it renames an export
// whose findings are all old and breaks one KICKOFF subject in another.
const (
	renamedFrom = "mailbox/biofilm.jsonl"
	renamedTo   = "mailbox/RS-20260302-biofilm-onset.jsonl"
	brokenFile  = "mailbox/RS-20260301-quorum-timing.json"
)

// readmeViewLines is how many lines of the job summary, from its headline,
// README.md shows as a reviewer's view.
const readmeViewLines = 25

// readmeViewMarker precedes the fenced reviewer's view in README.md.
const readmeViewMarker = "<!-- reviewer's view: the job summary of TestActionCopiedWorkflowRename (paths=workflow); go test ./scripts -run TestActionCopiedWorkflowRename -update-readme rewrites it -->"

var annotationRE = regexp.MustCompile(`^::(error|warning|notice) (?:file=([^,:]*))?`)

// TestActionCopiedWorkflowRename runs the copied workflow's brenner-ci step
// on a pull request (a real git repository: the base commit has old
// findings; the pull request git-mv's an export whose findings are all old
// and adds one new MB-001 error elsewhere), once on the Action's default
// paths (".") and once on explicit paths. In each: exactly one ::error
// annotation, the new finding; the renamed export's old findings are
// notices under its new name; nothing names the old path; the job
// summary's first section is "New in this pull request" with the one new
// finding; the step outputs count it. The workflow's own paths also give
// README.md's reviewer's view (first lines of the summary, byte for byte).
func TestActionCopiedWorkflowRename(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipping: git is not installed")
	}
	_, _, with := copiedWorkflow(t)
	def := loadAction(t).Inputs["paths"].Default
	if def != "." {
		t.Fatalf("the Action's default paths are %q; this test checks \".\"", def)
	}
	for _, tc := range []struct {
		name, paths             string
		errors, warnings, notes string
		unreadable              bool // the base also holds an export that is not JSON (an old IN-001 naming its file)
		readme                  bool
	}{
		// The reports folder lies inside ".": one IN-006 note names it
		// (old: the base revision's check names it too).
		{name: "paths=default", paths: def, errors: "16", warnings: "15", notes: "6"},
		{name: "paths=default/unreadable", paths: def, errors: "17", warnings: "15", notes: "6", unreadable: true},
		{name: "paths=workflow", paths: with["paths"], errors: "16", warnings: "15", notes: "5", readme: true},
		{name: "paths=mailbox", paths: "mailbox", errors: "15", warnings: "11", notes: "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRunner(t, nil)
			base, head := renamePullRequest(t, r.dir, tc.unreadable)
			r.github["event.pull_request.base.sha"] = base
			for k, v := range with {
				r.inputs[k] = r.expr(v)
			}
			r.inputs["version"] = "source"
			r.inputs["paths"] = tc.paths
			if r.inputs["new-from-rev"] != base {
				t.Fatalf("new-from-rev is %q, want the base SHA %s", r.inputs["new-from-rev"], base)
			}
			// What the runner sets for a pull request: the reports link
			// to the commit checked.
			r.extraEnv = []string{"GITHUB_SERVER_URL=https://github.com", "GITHUB_REPOSITORY=example-org/threads", "GITHUB_SHA=" + head}
			code := r.run()
			out := r.stdout.String()
			if code != 1 {
				t.Fatalf("exit %d, want 1 (one new error)\n%s\n%s", code, out, r.stderr.String())
			}

			// Annotations.
			var anns []string
			for _, l := range strings.Split(out, "\n") {
				if annotationRE.MatchString(l) && !strings.HasPrefix(l, "::notice title=brenner-ci::") {
					anns = append(anns, l)
				}
			}
			var errs, warns, renamed, news []string
			for _, a := range anns {
				m := annotationRE.FindStringSubmatch(a)
				switch m[1] {
				case "error":
					errs = append(errs, a)
				case "warning":
					warns = append(warns, a)
				}
				if m[2] == renamedTo {
					renamed = append(renamed, a)
				}
				if strings.Contains(a, " (new)::") {
					news = append(news, a)
				}
			}
			if len(errs) != 1 || !strings.HasPrefix(errs[0], "::error file="+brokenFile+",line=10,") ||
				!strings.Contains(errs[0], ",title=MB-001 invalid-subject-prefix (new)::") {
				t.Errorf("want exactly one ::error, the new MB-001 in %s; got %d:\n%s", brokenFile, len(errs), strings.Join(errs, "\n"))
			}
			if len(anns) == 0 || anns[0] != errs[0] {
				t.Errorf("the new error is not annotated first")
			}
			if len(news) != 1 {
				t.Errorf("want one annotation titled (new), got %d:\n%s", len(news), strings.Join(news, "\n"))
			}
			if len(warns) != 0 {
				t.Errorf("old findings annotated as warnings:\n%s", strings.Join(warns, "\n"))
			}
			if len(renamed) == 0 {
				t.Errorf("no annotation on the renamed export %s:\n%s", renamedTo, out)
			}
			for _, a := range renamed {
				if !strings.HasPrefix(a, "::notice ") || !regexp.MustCompile(` \(old (error|warning|note)\)::`).MatchString(a) {
					t.Errorf("an old finding of the renamed export is not an old notice: %s", a)
				}
			}
			if strings.Contains(out, filepath.Base(renamedFrom)) {
				t.Errorf("an annotation names the old path %s:\n%s", renamedFrom, out)
			}

			// Step outputs: every output the action declares.
			want := map[string]string{"errors": tc.errors, "warnings": tc.warnings, "notes": tc.notes, "new": "1", "exit-code": "1",
				"sarif": "brenner-ci-reports/brenner-ci.sarif", "junit": "brenner-ci-reports/brenner-ci.junit.xml",
				"markdown": "brenner-ci-reports/brenner-ci.md", "json": "brenner-ci-reports/brenner-ci.json"}
			var names []string
			for name := range r.a.Outputs {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				w, ok := want[name]
				if !ok {
					t.Errorf("output %s is declared by action.yml but not checked here", name)
					continue
				}
				if got := r.out(name); got != w {
					t.Errorf("output %s = %q, want %q", name, got, w)
				}
			}
			for _, name := range []string{"sarif", "junit", "markdown", "json"} {
				data, err := os.ReadFile(filepath.Join(r.dir, r.out(name)))
				if err != nil {
					t.Errorf("output %s: %v", name, err)
				} else if strings.Contains(string(data), filepath.Base(renamedFrom)) {
					t.Errorf("the %s report names the old path %s", name, renamedFrom)
				}
			}

			// The job summary: appended; its first section is the new
			// finding.
			data, _ := os.ReadFile(r.summary)
			s := string(data)
			if !strings.HasPrefix(s, "## Earlier step\n\nkept\n") {
				t.Errorf("the job summary was not appended to:\n%s", s)
			}
			view := summaryFromHeadline(s)
			if len(view) == 0 || view[0] != "## ❌ brenner-ci: failed — 1 new finding at or above `error`" {
				t.Fatalf("summary headline:\n%s", s)
			}
			for _, row := range []string{"| ❌ Error | " + tc.errors + " | 1 |", "| ⚠️ Warning | " + tc.warnings + " | 0 |", "| ℹ️ Note | " + tc.notes + " | 0 |"} {
				if !strings.Contains(s, "\n"+row+"\n") {
					t.Errorf("the summary's counts have no row %q:\n%s", row, s)
				}
			}
			first, rest := firstSection(view)
			if len(first) == 0 || first[0] != "### New in this pull request" {
				t.Fatalf("the summary's first section is not the new findings: %q\n%s", first, s)
			}
			var items []string
			for _, l := range first {
				if strings.HasPrefix(l, "- ") {
					items = append(items, l)
				}
			}
			if len(items) != 1 || !strings.HasPrefix(items[0], "- ❌ **error** 🆕 [`MB-001`]") ||
				!strings.Contains(items[0], "[mailbox/RS-20260301-quorum-timing.json:10:18](https://github.com/example-org/threads/blob/"+head+"/"+brokenFile+"#L10)") {
				t.Errorf("the first section does not hold exactly the new MB-001:\n%s", strings.Join(first, "\n"))
			}
			if strings.Contains(strings.Join(rest, "\n"), "🆕 [") {
				t.Errorf("a finding marked new outside the first section:\n%s", s)
			}
			// Every finding of the renamed export, old, under its new name
			// (README.md says so too).
			if line := "<details><summary><b>RS-20260302-biofilm-onset</b> · <code>" + renamedTo + "</code> · 14 errors, 11 warnings, 1 note · 0 new</summary>"; !strings.Contains(s, "\n"+line+"\n") {
				t.Errorf("the old findings do not list the renamed export under its new name, all old (%s):\n%s", line, s)
			}
			if strings.Contains(s, filepath.Base(renamedFrom)) {
				t.Errorf("the job summary names the old path %s", renamedFrom)
			}

			if tc.readme {
				checkReadmeView(t, view)
			}
		})
	}
}

// renamePullRequest makes dir a git repository: the base commit holds the
// demo mailbox and artifacts (old findings); the pull request's commit
// renames biofilm.jsonl (git mv; all its findings are old) and breaks one
// KICKOFF subject (the one new finding). With unreadable the base also
// holds a truncated export (an IN-001 error whose fingerprint names its
// file), which the pull request leaves alone. It returns both commits.
func renamePullRequest(t *testing.T, dir string, unreadable bool) (base, head string) {
	t.Helper()
	copyDir(t, filepath.Join(repoRoot(t), "testdata", "demo", "mailbox"), filepath.Join(dir, "mailbox"))
	copyDir(t, filepath.Join(repoRoot(t), "testdata", "demo", "artifacts"), filepath.Join(dir, "artifacts"))
	if unreadable {
		if err := os.WriteFile(filepath.Join(dir, "mailbox", "truncated.json"), []byte(`{"messages": [{"id": 1,, `+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "base")
	base = gitIn(t, dir, "rev-parse", "HEAD")
	gitIn(t, dir, "mv", renamedFrom, renamedTo)
	testutil.BreakKickoff(t, filepath.Join(dir, filepath.FromSlash(brokenFile)))
	gitIn(t, dir, "commit", "-q", "-am", "the pull request")
	if st := gitIn(t, dir, "diff", "-M", "--name-status", base, "HEAD"); !strings.Contains(st, "R100\t"+renamedFrom+"\t"+renamedTo) {
		t.Fatalf("git does not see the rename:\n%s", st)
	}
	return base, gitIn(t, dir, "rev-parse", "HEAD")
}

// summaryFromHeadline returns brenner-ci's part of the job summary, from
// its headline on, as lines.
func summaryFromHeadline(s string) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "## ") && strings.Contains(l, " brenner-ci: ") {
			return lines[i:]
		}
	}
	return nil
}

// firstSection splits the summary at its first "### " heading: that section
// (heading included) and what follows it.
func firstSection(view []string) (first, rest []string) {
	start := -1
	for i, l := range view {
		if strings.HasPrefix(l, "### ") {
			if start >= 0 {
				return view[start:i], view[i:]
			}
			start = i
		}
	}
	if start < 0 {
		return nil, view
	}
	return view[start:], nil
}

// checkReadmeView: README.md's reviewer's view is the first readmeViewLines
// lines of the summary, from its headline, exactly (-update-readme rewrites
// it).
func checkReadmeView(t *testing.T, view []string) {
	t.Helper()
	if len(view) < readmeViewLines {
		t.Fatalf("the summary has %d lines from its headline, fewer than README.md shows (%d)", len(view), readmeViewLines)
	}
	view = view[:readmeViewLines]
	path := filepath.Join(repoRoot(t), "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	from, to, indent := -1, -1, ""
	for i, l := range lines {
		if strings.TrimSpace(l) == readmeViewMarker {
			for j := i + 1; j < len(lines); j++ {
				if strings.TrimSpace(lines[j]) == "```markdown" {
					indent = lines[j][:len(lines[j])-len(strings.TrimLeft(lines[j], " "))]
					from = j + 1
					break
				}
				if strings.TrimSpace(lines[j]) != "" {
					break
				}
			}
			break
		}
	}
	if from >= 0 {
		for j := from; j < len(lines); j++ {
			if lines[j] == indent+"```" {
				to = j
				break
			}
		}
	}
	if from < 0 || to < 0 {
		t.Fatalf("README.md has no reviewer's view: a line %q followed by a ```markdown fence", readmeViewMarker)
	}
	if *updateReadme {
		var block []string
		for _, l := range view {
			if l == "" {
				block = append(block, "")
			} else {
				block = append(block, indent+l)
			}
		}
		updated := append(append(append([]string{}, lines[:from]...), block...), lines[to:]...)
		if err := os.WriteFile(path, []byte(strings.Join(updated, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got := lines[from:to]
	for i, l := range got {
		got[i] = strings.TrimPrefix(l, indent)
	}
	if len(got) != len(view) {
		t.Errorf("README.md's reviewer's view has %d lines, the summary's first screen %d (go test ./scripts -run TestActionCopiedWorkflowRename -update-readme)", len(got), len(view))
	}
	for i := 0; i < len(got) && i < len(view); i++ {
		if got[i] != view[i] {
			t.Errorf("README.md's reviewer's view, line %d:\n  README:  %q\n  summary: %q\n(go test ./scripts -run TestActionCopiedWorkflowRename -update-readme)", i+1, got[i], view[i])
		}
	}
}
