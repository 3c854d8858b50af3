// Package github writes a report as GitHub Actions workflow commands
// (::error, ::warning, ::notice), which the runner turns into annotations on
// the pull request's files.
package github

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters"
)

// PerLevel is how many annotations of one level GitHub shows per step; it
// drops the rest silently (actions/toolkit docs/problem-matchers.md).
const PerLevel = 10

// OldFindings says how the annotations show findings that are not new
// with respect to a baseline (--baseline, --new-from-rev); without one
// every finding is new and keeps its level.
type OldFindings string

const (
	// OldNotice annotates old findings at notice level, after the new
	// notices, so that ::error and ::warning belong to what the change
	// introduced. It is the default ("" too).
	OldNotice OldFindings = "notice"
	// OldHide does not annotate old findings; one final notice counts them.
	OldHide OldFindings = "hide"
	// OldKeep annotates old findings at their own level, after the new
	// findings of that level.
	OldKeep OldFindings = "keep"
)

// ParseOldFindings reads an --old-findings value: notice (or empty), hide
// or keep.
func ParseOldFindings(s string) (OldFindings, error) {
	switch o := OldFindings(s); o {
	case "", OldNotice:
		return OldNotice, nil
	case OldHide, OldKeep:
		return o, nil
	}
	return "", fmt.Errorf("old-findings %q: want notice, hide or keep", s)
}

// Options are the github format's options.
type Options struct {
	Old OldFindings // how old findings are annotated ("": OldNotice)
}

// Write is WriteOptions with the default options.
func Write(w io.Writer, r *diag.Report) error {
	return WriteOptions(w, r, Options{})
}

// WriteOptions writes at most PerLevel annotations per level, most severe
// first (errors, then warnings, then notes as notices; input order within a
// level). With a baseline the new findings come first in every level and
// their titles end in "(new)"; old findings follow as o.Old says, their
// titles ending in "(old error)", "(old warning)" or "(old note)". When
// findings are left out (or old ones hidden), one final ::notice:: says how
// many and where to see them; it takes one of the notice slots, so at most
// PerLevel-1 notices are annotated then.
func WriteOptions(w io.Writer, r *diag.Report, o Options) error {
	old, err := ParseOldFindings(string(o.Old))
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if r.RunError != "" {
		bw.WriteString("::error title=brenner-ci::" + EscapeData("brenner-ci could not run: "+reporters.SafeText(r.RunError)) + "\n")
		return bw.Flush()
	}
	paths := reporters.PathsFor(r)
	// Per level, new findings (not in the baseline or --new-from-rev) come
	// first, so the annotation slots go to what the pull request changed;
	// the old ones follow, most severe first, at the level old says.
	var byLevel [3][]int
	var fresh, stale []int
	for i := range r.Findings {
		if r.IsNew(i) {
			fresh = append(fresh, i)
		} else {
			stale = append(stale, i)
		}
	}
	hidden := 0
	for _, i := range fresh {
		lv := level(r.Findings[i].Severity)
		byLevel[lv] = append(byLevel[lv], i)
	}
	for _, i := range reporters.MostSevere(r, stale, 0) {
		lv := level(r.Findings[i].Severity)
		switch old {
		case OldHide:
			hidden++
			continue
		case OldNotice:
			lv = 2
		}
		byLevel[lv] = append(byLevel[lv], i)
	}
	over := len(byLevel[0]) > PerLevel || len(byLevel[1]) > PerLevel || len(byLevel[2]) > PerLevel
	limits := [3]int{PerLevel, PerLevel, PerLevel}
	if over || hidden > 0 {
		limits[2] = PerLevel - 1
	}
	var left [3]int
	leftNew := 0
	for lv, idx := range byLevel {
		for k, i := range idx {
			if k >= limits[lv] {
				for _, j := range idx[k:] {
					left[level(r.Findings[j].Severity)]++
					if r.HasBaseline && r.IsNew(j) {
						leftNew++
					}
				}
				break
			}
			bw.WriteString(annotation(r, i, paths, lv))
			bw.WriteByte('\n')
		}
	}
	var said []string
	if n := left[0] + left[1] + left[2]; n > 0 {
		var parts []string
		for lv, noun := range []string{"error", "warning", "note"} {
			if left[lv] > 0 {
				parts = append(parts, reporters.Plural(left[lv], noun))
			}
		}
		if leftNew > 0 {
			parts = append(parts, fmt.Sprintf("%d of them new", leftNew))
		}
		said = append(said, fmt.Sprintf("%s not annotated (%s): GitHub shows at most %d annotations per level in a step. "+
			"New findings are annotated first.", reporters.Plural(n, "more finding"), strings.Join(parts, ", "), PerLevel))
	}
	if hidden > 0 {
		said = append(said, fmt.Sprintf("%s (already there before this change, or in the baseline) not annotated: --old-findings hide (the action's old-findings: hide).",
			reporters.Plural(hidden, "old finding")))
	}
	if len(said) > 0 {
		msg := "brenner-ci: " + strings.Join(said, " ") + " " + reporters.SafeText(reporters.EveryFinding(r))
		bw.WriteString("::notice title=brenner-ci::" + EscapeData(msg) + "\n")
	}
	return bw.Flush()
}

// level is the annotation level of a severity: 0 error, 1 warning, 2 notice.
func level(s diag.Severity) int {
	switch s {
	case diag.Error:
		return 0
	case diag.Warning:
		return 1
	}
	return 2
}

var commands = [...]string{"error", "warning", "notice"}

// Annotation renders finding i as one workflow command:
//
//	::error file=PATH,line=L,endLine=EL,col=C,endColumn=EC,title=ID name::message
//
// Columns are given only when the finding starts and ends on one line, as
// GitHub requires. The path is repo-relative when it lies in r.RepoRoot.
func Annotation(r *diag.Report, i int, paths *reporters.Paths) string {
	return annotation(r, i, paths, level(r.Findings[i].Severity))
}

// annotation renders finding i at level lv (see level). With a baseline
// the title says whether the finding is new or old (and, old, its
// severity, which a notice does not show).
func annotation(r *diag.Report, i int, paths *reporters.Paths, lv int) string {
	f := &r.Findings[i]
	cmd := commands[lv]
	var props []string
	if f.Pos.File != "" {
		// A file name is input too: control characters are shown escaped.
		props = append(props, "file="+EscapeProperty(reporters.Safe(paths.Display(f.Pos.File))))
		if p := f.Pos.Normalize(); p.Line > 0 {
			props = append(props, "line="+strconv.Itoa(p.Line), "endLine="+strconv.Itoa(p.EndLine))
			if p.EndLine == p.Line {
				props = append(props, "col="+strconv.Itoa(p.Col), "endColumn="+strconv.Itoa(p.EndCol))
			}
		}
	}
	title := f.Rule
	if name := ruleName(r, f.Rule); name != "" {
		title += " " + name
	}
	if r.HasBaseline {
		if r.IsNew(i) {
			title += " (new)"
		} else {
			title += " (old " + f.Severity.String() + ")"
		}
	}
	props = append(props, "title="+EscapeProperty(title))
	msg := reporters.SafeText(f.Message)
	if f.Hint != "" {
		msg += "\n" + reporters.SafeText(f.Hint)
	}
	return "::" + cmd + " " + strings.Join(props, ",") + "::" + EscapeData(msg)
}

func ruleName(r *diag.Report, id string) string {
	for k := range r.Rules {
		if r.Rules[k].ID == id {
			return r.Rules[k].Name
		}
	}
	return ""
}

// EscapeData escapes a workflow command's message as actions/toolkit does:
// % → %25, CR → %0D, LF → %0A.
func EscapeData(s string) string {
	return dataEscaper.Replace(s)
}

// Built once (a strings.Replacer compiles its table on first use).
var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// EscapeProperty escapes a workflow command property value: control
// characters made visible (reporters.Safe), then as EscapeData, plus
// : → %3A and , → %2C.
func EscapeProperty(s string) string {
	return propertyEscaper.Replace(reporters.Safe(s))
}
