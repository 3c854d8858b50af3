// Package text writes a report as plain text: one line per finding in the
// "path:line:col: severity: message [ID]" form that editors and the problem
// matcher .github/brenner-ci-matcher.json understand, then one summary line.
// With a baseline a new finding's line says so after its severity:
// "path:line:col: severity: new: message [ID]".
package text

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters"
)

// Write writes one line per finding (diag.Finding.String, with the path
// made repo-relative when it lies inside r.RepoRoot, line breaks in the
// message replaced by spaces and control characters dropped), then the
// summary line (see Summary). With a baseline (--baseline, --new-from-rev)
// the line of a new finding has NewMarker after its severity; the problem
// matcher still reads it, with the marker as the start of the message.
func Write(w io.Writer, r *diag.Report) error {
	bw := bufio.NewWriter(w)
	paths := reporters.PathsFor(r)
	for i := range r.Findings {
		f := &r.Findings[i]
		if r.HasBaseline && r.IsNew(i) {
			c := *f
			c.Message = NewMarker + c.Message
			f = &c
		}
		bw.WriteString(Line(f, paths))
		bw.WriteByte('\n')
	}
	if r.RunError == "" {
		bw.WriteString("brenner-ci: " + reporters.ConfigLine(r) + "\n")
	}
	bw.WriteString(Summary(r))
	bw.WriteByte('\n')
	return bw.Flush()
}

// NewMarker starts the message of a new finding's line when the run has a
// baseline: "threads/a.json:4:5: error: new: message [MG-001]".
const NewMarker = "new: "

// Line renders one finding on one line.
func Line(f *diag.Finding, paths *reporters.Paths) string {
	c := *f
	if c.Pos.File != "" {
		c.Pos.File = reporters.Safe(paths.Display(c.Pos.File))
	}
	c.Message = reporters.SafeOneLine(c.Message)
	c.Rule = reporters.Safe(c.Rule)
	return reporters.Safe(c.String())
}

// Summary is the last line of the text output, for example
//
//	brenner-ci: 3 errors, 2 warnings, 1 note in 12 threads and 2 artifacts (fail-on error: failed)
//
// (threads and persisted artifacts counted apart: reporters.Checked).
// With a baseline it also says how many findings are new; after an internal
// error it says so.
func Summary(r *diag.Report) string {
	e, w, n := r.Counts()
	name := r.Tool.Name
	if name == "" {
		name = "brenner-ci"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s, %s, %s in %s", name,
		reporters.Plural(e, "error"), reporters.Plural(w, "warning"), reporters.Plural(n, "note"),
		reporters.Checked(r))
	if r.HasBaseline {
		fmt.Fprintf(&b, ", %d new", reporters.NewCount(r))
	}
	if r.RunError != "" {
		return name + ": could not run: " + reporters.SafeOneLine(r.RunError)
	}
	verdict := "passed"
	if reporters.Failed(r) {
		verdict = "failed"
	}
	fmt.Fprintf(&b, " (fail-on %s: %s", reporters.FailOnName(r.FailOn), verdict)
	if r.Internal {
		b.WriteString("; internal error")
	}
	b.WriteString(")")
	return b.String()
}
