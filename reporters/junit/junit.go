// Package junit writes a report as JUnit XML valid against the Apache Ant
// schema (Windy Road JUnit.xsd): one <testsuite> per thread, one passing or
// failing <testcase> per rule evaluated on it, plus a suite for findings that
// belong to no thread.
package junit

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters"
)

const (
	// Hostname is written instead of the machine's name so that reports are
	// reproducible.
	Hostname = "brenner-ci"
	// InputsSuite names the suite of findings that belong to no known thread,
	// and of the run's notifications.
	InputsSuite = "inputs"
	timeFormat  = "2006-01-02T15:04:05" // the schema forbids a zone
)

type suite struct {
	name, pkg string
	props     [][2]string
	cases     []*testcase
	out, err  []string
}

type testcase struct {
	name, classname string
	failures        []int // finding indexes (errors and warnings)
	errorMsg        string
	errorText       []string
}

// Write writes r as <testsuites>. Errors and warnings fail their rule's
// testcase; the schema allows one <failure> per testcase, so it carries the
// first finding's message and lists every finding of the rule in its text.
// Notes do not fail a testcase; they are listed in the suite's <system-out>.
// An internal error (r.Internal) is an <error> testcase in the inputs suite.
//
// It is long on purpose: the XML document written top to bottom, one suite per input, sharing one rule index.
func Write(w io.Writer, r *diag.Report) error {
	bw := bufio.NewWriter(w)
	paths := reporters.PathsFor(r)
	names := map[string]string{}
	for _, rl := range r.Rules {
		if _, ok := names[rl.ID]; !ok {
			names[rl.ID] = rl.Name
		}
	}
	ts := r.Time.UTC().Format(timeFormat)

	// Group findings by thread.
	byThread := map[string][]int{}
	known := map[string]bool{}
	for _, t := range r.Threads {
		known[t.Key] = true
	}
	var orphans []int
	for i := range r.Findings {
		if th := r.Findings[i].Thread; th != "" && known[th] {
			byThread[th] = append(byThread[th], i)
		} else {
			orphans = append(orphans, i)
		}
	}

	var suites []*suite
	seenKey := map[string]bool{}
	for ti, t := range r.Threads {
		s := &suite{name: nonBlank(t.Key, fmt.Sprintf("thread-%d", ti)), pkg: "threads"}
		if t.File != "" {
			s.pkg = paths.Display(t.File)
		}
		s.props = [][2]string{
			{"brenner-ci.version", r.Tool.Version},
			{"thread.key", t.Key},
			{"thread.file", paths.Display(t.File)},
			{"thread.messages", strconv.Itoa(t.Messages)},
			{"thread.blocks", strconv.Itoa(t.Blocks)},
			{"thread.valid", strconv.Itoa(t.Valid)},
			{"thread.invalid", strconv.Itoa(t.Invalid)},
			{"thread.applied", strconv.Itoa(t.Applied)},
			{"thread.version", strconv.Itoa(t.Version)},
			{"fail-on", reporters.FailOnName(r.FailOn)},
		}
		// A thread key repeated in r.Threads gets its findings once, in its
		// first suite.
		var idx []int
		if !seenKey[t.Key] {
			idx = byThread[t.Key]
			seenKey[t.Key] = true
		}
		fillCases(s, r, t.Rules, idx, t.Key, names, paths)
		suites = append(suites, s)
	}
	if len(orphans) > 0 || len(r.Notifications) > 0 || r.Internal || r.RunError != "" {
		s := &suite{name: InputsSuite, pkg: InputsSuite, props: [][2]string{
			{"brenner-ci.version", r.Tool.Version},
			{"inputs", strings.Join(r.Inputs, " ")},
			{"fail-on", reporters.FailOnName(r.FailOn)},
		}}
		fillCases(s, r, nil, orphans, InputsSuite, names, paths)
		for _, n := range r.Notifications {
			line := n.Level.String() + ": " + n.Message
			if n.Rule != "" {
				line += " [" + n.Rule + "]"
			}
			if n.Level == diag.Error {
				s.err = append(s.err, line)
			} else {
				s.out = append(s.out, line)
			}
		}
		if r.RunError != "" {
			s.cases = append(s.cases, &testcase{name: "brenner-ci could-not-run", classname: InputsSuite,
				errorMsg: "brenner-ci could not run: " + r.RunError, errorText: []string{r.RunError}})
		}
		if r.Internal {
			tc := &testcase{name: "brenner-ci internal-error", classname: InputsSuite, errorMsg: "brenner-ci had an internal error; the report may be incomplete"}
			for _, n := range r.Notifications {
				if n.Level == diag.Error {
					tc.errorText = append(tc.errorText, n.Message)
				}
			}
			s.cases = append(s.cases, tc)
		}
		suites = append(suites, s)
	}

	bw.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n")
	for id, s := range suites {
		writeSuite(bw, r, id, s, ts, paths)
	}
	bw.WriteString("</testsuites>\n")
	return bw.Flush()
}

// fillCases adds one testcase per rule in rules (in that order), then one
// per further rule that has findings in idx (in order of first finding).
func fillCases(s *suite, r *diag.Report, rules []string, idx []int, classname string, names map[string]string, paths *reporters.Paths) {
	byRule := map[string]*testcase{}
	add := func(id string) *testcase {
		if tc, ok := byRule[id]; ok {
			return tc
		}
		tc := &testcase{name: strings.TrimSpace(id + " " + names[id]), classname: classname}
		byRule[id] = tc
		s.cases = append(s.cases, tc)
		return tc
	}
	for _, id := range rules {
		add(id)
	}
	for _, i := range idx {
		f := &r.Findings[i]
		tc := add(f.Rule)
		if f.Severity == diag.Error || f.Severity == diag.Warning {
			tc.failures = append(tc.failures, i)
		} else {
			s.out = append(s.out, findingLine(f, paths))
		}
	}
}

// findingLine renders a finding as in the text format, on one line, with a
// repo-relative path.
func findingLine(f *diag.Finding, paths *reporters.Paths) string {
	c := *f
	if c.Pos.File != "" {
		c.Pos.File = paths.Display(c.Pos.File)
	}
	c.Message = oneLine(c.Message)
	s := c.String()
	if f.Hint != "" {
		s += " Hint: " + oneLine(f.Hint)
	}
	return s
}

func writeSuite(w *bufio.Writer, r *diag.Report, id int, s *suite, ts string, paths *reporters.Paths) {
	failures, errors := 0, 0
	for _, tc := range s.cases {
		if len(tc.failures) > 0 {
			failures++
		} else if tc.errorMsg != "" {
			errors++
		}
	}
	// name and package are xs:token; name must not be empty once escaped.
	fmt.Fprintf(w, "  <testsuite name=\"%s\" package=\"%s\" id=\"%d\" timestamp=\"%s\" hostname=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"0\" time=\"0\">\n",
		nonBlank(token(s.name), fmt.Sprintf("suite-%d", id)), token(s.pkg), id, ts, Hostname, len(s.cases), failures, errors)
	w.WriteString("    <properties>\n")
	for _, p := range s.props {
		fmt.Fprintf(w, "      <property name=\"%s\" value=\"%s\"/>\n", attr(p[0]), attr(p[1]))
	}
	w.WriteString("    </properties>\n")
	for _, tc := range s.cases {
		fmt.Fprintf(w, "    <testcase name=\"%s\" classname=\"%s\" time=\"0\"", token(tc.name), token(tc.classname))
		switch {
		case len(tc.failures) > 0:
			first := &r.Findings[tc.failures[0]]
			msg := oneLine(first.Message)
			if n := len(tc.failures); n > 1 {
				msg = fmt.Sprintf("%s (and %d more)", msg, n-1)
			}
			var lines []string
			for _, i := range tc.failures {
				lines = append(lines, findingLine(&r.Findings[i], paths))
			}
			fmt.Fprintf(w, ">\n      <failure message=\"%s\" type=\"%s\">%s</failure>\n    </testcase>\n",
				attr(msg), attr(first.Rule), text(strings.Join(lines, "\n")))
		case tc.errorMsg != "":
			fmt.Fprintf(w, ">\n      <error message=\"%s\" type=\"internal\">%s</error>\n    </testcase>\n",
				attr(tc.errorMsg), text(strings.Join(tc.errorText, "\n")))
		default:
			w.WriteString("/>\n")
		}
	}
	writeOutput(w, "system-out", s.out)
	writeOutput(w, "system-err", s.err)
	w.WriteString("  </testsuite>\n")
}

func writeOutput(w *bufio.Writer, tag string, lines []string) {
	if len(lines) == 0 {
		fmt.Fprintf(w, "    <%s/>\n", tag)
		return
	}
	fmt.Fprintf(w, "    <%s>%s</%s>\n", tag, text(strings.Join(lines, "\n")+"\n"), tag)
}

// validChar reports whether r may appear in an XML 1.0 document.
func validChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD ||
		(r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

// escape writes s with XML escapes, dropping characters XML 1.0 cannot
// hold (and invalid UTF-8). In attributes, white space other than a space is
// written as a character reference so that it survives normalisation.
func escape(s string, inAttr bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size == 1 {
			continue
		}
		if !validChar(r) {
			continue
		}
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			if inAttr {
				b.WriteString("&quot;")
			} else {
				b.WriteRune(r)
			}
		case '\r':
			b.WriteString("&#xD;")
		case '\n':
			if inAttr {
				b.WriteString("&#xA;")
			} else {
				b.WriteRune(r)
			}
		case '\t':
			if inAttr {
				b.WriteString("&#x9;")
			} else {
				b.WriteRune(r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func attr(s string) string { return escape(s, true) }

// token escapes an xs:token attribute, collapsing white space as the schema
// does.
func token(s string) string { return attr(strings.Join(strings.Fields(s), " ")) }
func text(s string) string  { return escape(s, false) }

func nonBlank(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

func oneLine(s string) string { return reporters.OneLine(s) }
