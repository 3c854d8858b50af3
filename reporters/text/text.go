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
//
// When w is a colour terminal (Colored), the severity words and rule ids
// of the finding lines are coloured; nothing else is, and the text between
// the colours is the same as without them.
func Write(w io.Writer, r *diag.Report) error {
	bw := bufio.NewWriter(w)
	paths := reporters.PathsFor(r)
	color := Colored(w)
	for i := range r.Findings {
		f := &r.Findings[i]
		if r.HasBaseline && r.IsNew(i) {
			c := *f
			c.Message = NewMarker + c.Message
			f = &c
		}
		if color {
			bw.WriteString(colorLine(f, paths))
		} else {
			bw.WriteString(Line(f, paths))
		}
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

// Terminal is a writer that Write colours its output for: standard output
// when it is a terminal that shows colours (the command line decides, from
// --color, NO_COLOR and the terminal). Any other writer gets plain text.
type Terminal struct{ io.Writer }

// ColorText says that the writer shows colours.
func (Terminal) ColorText() bool { return true }

// Colored reports whether w shows colours: a Terminal, or a writer in front
// of one that says so with a ColorText() bool method (as a tee does).
func Colored(w io.Writer) bool {
	c, ok := w.(interface{ ColorText() bool })
	return ok && c.ColorText()
}

// The colours (SGR sequences): only these constant sequences are ever
// written, never anything taken from the input.
const (
	sgrError   = "\x1b[1;31m" // bold red
	sgrWarning = "\x1b[1;33m" // bold yellow
	sgrNote    = "\x1b[1;36m" // bold cyan
	sgrRule    = "\x1b[2m"    // faint
	sgrReset   = "\x1b[0m"
)

// colorLine is Line with the severity word and the rule id coloured. Both
// are found where Line put them, and checked: the severity right after the
// location (as Line renders it), the rule id at the end. A part that is not
// where it should be (a sanitised location that changed length) stays
// plain; the text is always Line's.
func colorLine(f *diag.Finding, paths *reporters.Paths) string {
	line := Line(f, paths)
	sev := f.Severity.String()
	var sgr string
	switch f.Severity {
	case diag.Error:
		sgr = sgrError
	case diag.Warning:
		sgr = sgrWarning
	case diag.Note:
		sgr = sgrNote
	}
	// The location alone, as Line renders it: the line of a finding with
	// this position and severity and no message or rule ends in
	// ": <severity>:  []".
	head := *f
	head.Message, head.Rule = "", ""
	sevAt := -1
	if loc, ok := strings.CutSuffix(Line(&head, paths), ": "+sev+":  []"); ok && sgr != "" && strings.HasPrefix(line, loc+": "+sev+": ") {
		sevAt = len(loc) + 2
	}
	ruleAt := -1
	if rule := reporters.Safe(f.Rule); rule != "" && strings.HasSuffix(line, " ["+rule+"]") {
		ruleAt = len(line) - len(rule) - 1
	}
	if ruleAt >= 0 && sevAt >= 0 && ruleAt < sevAt+len(sev) {
		ruleAt = -1
	}
	var b strings.Builder
	b.Grow(len(line) + 32)
	at := 0
	if sevAt >= 0 {
		b.WriteString(line[:sevAt])
		b.WriteString(sgr + sev + sgrReset)
		at = sevAt + len(sev)
	}
	if ruleAt >= 0 {
		b.WriteString(line[at:ruleAt])
		b.WriteString(sgrRule + line[ruleAt:len(line)-1] + sgrReset)
		at = len(line) - 1
	}
	b.WriteString(line[at:])
	return b.String()
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
