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

// Write writes at most PerLevel annotations per level, most severe first
// (errors, then warnings, then notes as notices; input order within a
// level). When findings are left out, one final ::notice:: says how many and
// where to see them; it takes one of the notice slots, so at most
// PerLevel-1 notes are annotated then.
func Write(w io.Writer, r *diag.Report) error {
	bw := bufio.NewWriter(w)
	if r.RunError != "" {
		bw.WriteString("::error title=brenner-ci::" + EscapeData("brenner-ci could not run: "+reporters.SafeText(r.RunError)) + "\n")
		return bw.Flush()
	}
	paths := reporters.PathsFor(r)
	// Per level, new findings (not in the baseline or --new-from-rev) come
	// first, so the annotation slots go to what the pull request changed.
	var byLevel [3][]int
	for pass := 0; pass < 2; pass++ {
		for i := range r.Findings {
			if r.IsNew(i) != (pass == 0) {
				continue
			}
			switch r.Findings[i].Severity {
			case diag.Error:
				byLevel[0] = append(byLevel[0], i)
			case diag.Warning:
				byLevel[1] = append(byLevel[1], i)
			default:
				byLevel[2] = append(byLevel[2], i)
			}
		}
	}
	over := len(byLevel[0]) > PerLevel || len(byLevel[1]) > PerLevel || len(byLevel[2]) > PerLevel
	limits := [3]int{PerLevel, PerLevel, PerLevel}
	if over {
		limits[2] = PerLevel - 1
	}
	var left [3]int
	leftNew := 0
	for lv, idx := range byLevel {
		for k, i := range idx {
			if k >= limits[lv] {
				left[lv] = len(idx) - k
				for _, j := range idx[k:] {
					if r.HasBaseline && r.IsNew(j) {
						leftNew++
					}
				}
				break
			}
			bw.WriteString(Annotation(r, i, paths))
			bw.WriteByte('\n')
		}
	}
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
		msg := fmt.Sprintf("brenner-ci: %s not annotated (%s): GitHub shows at most %d annotations per level in a step. "+
			"New findings are annotated first. See the job summary and the SARIF, JSON and markdown reports for every finding.",
			reporters.Plural(n, "more finding"), strings.Join(parts, ", "), PerLevel)
		bw.WriteString("::notice title=brenner-ci::" + EscapeData(msg) + "\n")
	}
	return bw.Flush()
}

// Annotation renders finding i as one workflow command:
//
//	::error file=PATH,line=L,endLine=EL,col=C,endColumn=EC,title=ID name::message
//
// Columns are given only when the finding starts and ends on one line, as
// GitHub requires. The path is repo-relative when it lies in r.RepoRoot.
func Annotation(r *diag.Report, i int, paths *reporters.Paths) string {
	f := &r.Findings[i]
	cmd := "notice"
	switch f.Severity {
	case diag.Error:
		cmd = "error"
	case diag.Warning:
		cmd = "warning"
	}
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
