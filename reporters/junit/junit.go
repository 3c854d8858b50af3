// Package junit writes a report as JUnit XML valid against the Apache Ant
// schema (Windy Road JUnit.xsd): a "threads" suite with one testcase per
// thread and persisted artifact (one per failing rule on a failing one)
// and an "inputs" suite
// with one testcase per input file holding findings that belong to no
// thread. Its size is linear in threads plus findings, never threads × rules.
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
	// ThreadsSuite names the suite holding the testcases of every thread
	// (and persisted artifact).
	ThreadsSuite = "threads"
	// InputsSuite names the suite of findings that belong to no known thread,
	// and of the run's notifications.
	InputsSuite = "inputs"
	// PassName names the one testcase of a thread on which no rule fails.
	PassName   = "all rules"
	timeFormat = "2006-01-02T15:04:05" // the schema forbids a zone
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

// Write writes r as <testsuites> holding at most two suites, so that the
// report grows with the findings, not with threads × rules:
//
//   - "threads": one testcase per thread (classname: the thread key) and
//     per persisted artifact (classname: its repo-relative path; it holds the findings
//     located in the artifact's file). A thread on which no rule fails has
//     one passing testcase, "all rules"; a failing thread has one failing
//     testcase per failing rule instead.
//   - "inputs": findings that belong to no known thread, one testcase per
//     input file (classname "inputs", name: the file), plus the run's
//     notifications and an <error> testcase when the run could not complete.
//
// Errors and warnings fail a testcase; the schema allows one <failure> per
// testcase, so it carries the first finding's message and lists every
// finding of the testcase in its text. Notes fail nothing; they are listed in
// the suite's <system-out>. Per-thread counts (messages, blocks, versions)
// are in the JSON report, not here.
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

	// Group findings by summary: a finding in a persisted artifact's file
	// is the artifact's (its Thread names the artifact's session, whose
	// thread may be among the inputs too); any other is its thread's. A
	// key or artifact file repeated in r.Threads gets its findings once,
	// at its first entry.
	byThread := map[int][]int{}
	known := make(map[string]int, len(r.Threads))
	artifactOf := map[string]int{}
	for ti, t := range r.Threads {
		if _, dup := known[t.Key]; !dup {
			known[t.Key] = ti
		}
		if _, dup := artifactOf[t.File]; t.Artifact && t.File != "" && !dup {
			artifactOf[t.File] = ti
		}
	}
	var orphans []int
	for i := range r.Findings {
		f := &r.Findings[i]
		if ti, ok := artifactOf[f.Pos.File]; ok && f.Pos.File != "" {
			byThread[ti] = append(byThread[ti], i)
		} else if ti, ok := known[f.Thread]; ok && f.Thread != "" {
			byThread[ti] = append(byThread[ti], i)
		} else {
			orphans = append(orphans, i)
		}
	}

	var suites []*suite
	if len(r.Threads) > 0 {
		// Threads and persisted artifacts are counted apart (the
		// artifacts only when there are some).
		threads, artifacts := r.ThreadCounts()
		props := [][2]string{
			{"run-id", r.RunID}, {"configuration", reporters.ConfigLine(r)},
			{"brenner-ci.version", r.Tool.Version},
			{"threads", strconv.Itoa(threads)},
		}
		if artifacts > 0 {
			props = append(props, [2]string{"artifacts", strconv.Itoa(artifacts)})
		}
		props = append(props, [2]string{"fail-on", reporters.FailOnName(r.FailOn)})
		s := &suite{name: ThreadsSuite, pkg: ThreadsSuite, props: props}
		// A repeated thread key's classname carries its occurrence number
		// so that no two testcases share a classname and a name.
		seen := make(map[string]int, len(r.Threads))
		for ti, t := range r.Threads {
			seen[t.Key]++
			classname := t.Key
			if token(classname) == "" {
				// Blank as written in XML (spaces, or only characters XML
				// cannot hold): an empty classname is invalid JUnit.
				classname = fmt.Sprintf("thread-%d", ti)
			}
			if t.Artifact && t.File != "" {
				// Its path, repo-relative as in every report, not as given.
				classname = paths.Display(t.File)
			}
			if n := seen[t.Key]; n > 1 {
				classname = fmt.Sprintf("%s (%d)", classname, n)
			}
			threadCases(s, r, t.Rules, byThread[ti], classname, names, paths)
		}
		suites = append(suites, s)
	}
	if len(orphans) > 0 || len(r.Notifications) > 0 || r.Internal || r.RunError != "" {
		s := &suite{name: InputsSuite, pkg: InputsSuite, props: [][2]string{
			{"run-id", r.RunID}, {"configuration", reporters.ConfigLine(r)},
			{"brenner-ci.version", r.Tool.Version},
			{"inputs", strings.Join(r.Inputs, " ")},
			{"fail-on", reporters.FailOnName(r.FailOn)},
		}}
		inputCases(s, r, orphans, paths)
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

// threadCases adds a thread's testcases to s: one per rule with an error or
// a warning among idx (rules in the order of rules, then further rules in
// order of first finding), or one passing testcase when there is none. Notes
// go to the suite's <system-out>.
func threadCases(s *suite, r *diag.Report, rules []string, idx []int, classname string, names map[string]string, paths *reporters.Paths) {
	var failing map[string]*testcase
	var extra []string // failing rules not in rules, in order of first finding
	for _, i := range idx {
		f := &r.Findings[i]
		if f.Severity != diag.Error && f.Severity != diag.Warning {
			s.out = append(s.out, findingLine(f, paths))
			continue
		}
		if failing == nil {
			failing = map[string]*testcase{}
		}
		tc, ok := failing[f.Rule]
		if !ok {
			tc = &testcase{name: strings.TrimSpace(f.Rule + " " + names[f.Rule]), classname: classname}
			failing[f.Rule] = tc
			extra = append(extra, f.Rule)
		}
		tc.failures = append(tc.failures, i)
	}
	if len(failing) == 0 {
		s.cases = append(s.cases, &testcase{name: PassName, classname: classname})
		return
	}
	// Each failing rule's testcase once, taken out of failing as it is
	// listed. (A set of listed ids sized for every enabled rule, one per
	// failing thread, was a third of the report's memory: thirty-fourth
	// round.)
	for _, list := range [2][]string{rules, extra} {
		for _, id := range list {
			if tc, ok := failing[id]; ok {
				s.cases = append(s.cases, tc)
				delete(failing, id)
			}
		}
	}
}

// inputCases adds one testcase per input file among the findings idx (in
// order of first finding; "<input>" for findings without a file). A file
// with an error or a warning fails; notes go to the suite's <system-out>.
func inputCases(s *suite, r *diag.Report, idx []int, paths *reporters.Paths) {
	byFile := map[string]*testcase{}
	for _, i := range idx {
		f := &r.Findings[i]
		name := "<input>"
		if f.Pos.File != "" {
			name = paths.Display(f.Pos.File)
		}
		tc, ok := byFile[name]
		if !ok {
			tc = &testcase{name: name, classname: InputsSuite}
			byFile[name] = tc
			s.cases = append(s.cases, tc)
		}
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
		w.WriteString(`    <testcase name="`)
		w.WriteString(token(tc.name))
		w.WriteString(`" classname="`)
		w.WriteString(token(tc.classname))
		w.WriteString(`" time="0"`)
		switch {
		case len(tc.failures) > 0:
			first := &r.Findings[tc.failures[0]]
			msg := oneLine(first.Message)
			if n := len(tc.failures); n > 1 {
				msg = fmt.Sprintf("%s (and %d more)", msg, n-1)
			}
			fmt.Fprintf(w, ">\n      <failure message=\"%s\" type=\"%s\">", attr(msg), attr(first.Rule))
			writeText(w, len(tc.failures), func(k int) string { return findingLine(&r.Findings[tc.failures[k]], paths) })
			w.WriteString("</failure>\n    </testcase>\n")
		case tc.errorMsg != "":
			fmt.Fprintf(w, ">\n      <error message=\"%s\" type=\"internal\">", attr(tc.errorMsg))
			writeText(w, len(tc.errorText), func(k int) string { return tc.errorText[k] })
			w.WriteString("</error>\n    </testcase>\n")
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
	fmt.Fprintf(w, "    <%s>", tag)
	writeText(w, len(lines), func(k int) string { return lines[k] })
	fmt.Fprintf(w, "\n</%s>\n", tag)
}

// writeText writes n lines, line(0) to line(n-1), joined by line breaks
// as XML character data: what text(strings.Join(lines, "\n")) returns
// (escape is character by character, and a line break is written as it
// is), one line at a time. A testcase lists every finding of its thread
// and rule: one thread of 40,000 messages had 27,000, and joining them,
// escaping the whole and formatting it once more made four copies of
// several megabytes each; the report took three times as long as for a
// thread half as long.
func writeText(w *bufio.Writer, n int, line func(k int) string) {
	for k := range n {
		if k > 0 {
			w.WriteByte('\n')
		}
		w.WriteString(text(line(k)))
	}
}

// validChar reports whether r may appear in an XML 1.0 document.
func validChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD ||
		(r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

// escape writes s with XML escapes, dropping characters XML 1.0 cannot
// hold (and invalid UTF-8). In attributes, white space other than a space is
// written as a character reference so that it survives normalisation.
// Invisible and bidirectional controls (diag.Invisible) are shown as
// \uXXXX, as in every report.
//
// It is not xml.EscapeText (issue 26 weighed it): encoding/xml writes the
// same characters differently — `"` as &#34; in attributes and in text, `'`
// as &#39;, every line break of char data as &#xA; (a <system-out> of a
// thousand lines would be one line), a character XML cannot hold as U+FFFD
// instead of dropping it — so every JUnit report would change byte for byte
// with nothing fixed, and the part only this project does (dropping
// invalid UTF-8, \uXXXX for invisible controls, xs:token collapsing) would
// stay hand-written anyway. What the library does give is the check:
// TestEscapeRoundTrip and FuzzEscape hold escape to encoding/xml's decoder
// (every output parses, and reads back as the input less what XML 1.0 cannot
// carry).
func escape(s string, inAttr bool) string {
	if asIs(s) {
		return s // most texts: no copy
	}
	return escapeRuns(s, inAttr)
}

// asIs reports whether escape and xmlChars return s unchanged: it is
// printable ASCII without a character XML escapes.
func asIs(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '&' || c == '<' || c == '>' || c == '"' {
			return false
		}
	}
	return true
}

// asWritten[inAttr][c] is set for the ASCII bytes escape writes as they
// are (escapeRune would: XML holds them and they need no reference).
var asWritten = func() (t [2][256]bool) {
	for c := rune(0); c < utf8.RuneSelf; c++ {
		t[0][c] = validChar(c) && charRef(c, false) == ""
		t[1][c] = validChar(c) && charRef(c, true) == ""
	}
	return t
}()

// escapeRuns is escape for text that needs escaping somewhere: the runs
// of bytes written as they are are copied whole, and only the characters
// between them go through escapeRune. A JUnit report of 26,000 findings
// escapes its failure texts, lines of mostly plain ASCII, with the line
// breaks that keep them from asIs. FuzzEscape holds it to escapeAll.
func escapeRuns(s string, inAttr bool) string {
	plain := &asWritten[0]
	if inAttr {
		plain = &asWritten[1]
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && plain[s[j]] {
			j++
		}
		b.WriteString(s[i:j])
		if j == len(s) {
			break
		}
		r, size := utf8.DecodeRuneInString(s[j:])
		i = j + size
		if r == utf8.RuneError && size == 1 {
			continue
		}
		escapeRune(&b, r, inAttr)
	}
	return b.String()
}

// escapeAll is escape, character by character: the plain form the tests
// hold asIs and escapeRuns to.
func escapeAll(s string, inAttr bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size == 1 {
			continue
		}
		escapeRune(&b, r, inAttr)
	}
	return b.String()
}

// escapeRune writes r as escape writes it (r is not invalid UTF-8).
func escapeRune(b *strings.Builder, r rune, inAttr bool) {
	if !validChar(r) {
		return
	}
	if diag.Invisible(r) {
		fmt.Fprintf(b, `\u%04x`, r)
		return
	}
	if ref := charRef(r, inAttr); ref != "" {
		b.WriteString(ref)
	} else {
		b.WriteRune(r)
	}
}

// charRef is the reference escape writes for r, or "" when it writes r as
// it is. In attributes, the quote and white space other than a space are
// references too (they would not survive attribute normalisation).
func charRef(r rune, inAttr bool) string {
	switch r {
	case '&':
		return "&amp;"
	case '<':
		return "&lt;"
	case '>':
		return "&gt;"
	case '\r':
		return "&#xD;"
	}
	if inAttr {
		switch r {
		case '"':
			return "&quot;"
		case '\n':
			return "&#xA;"
		case '\t':
			return "&#x9;"
		}
	}
	return ""
}

func attr(s string) string { return escape(s, true) }
func text(s string) string { return escape(s, false) }

// token escapes an xs:token attribute, collapsing white space as the schema
// does. What XML cannot hold is dropped first, so that it leaves no double
// or trailing space behind ("a \x00 b" is "a b"). Most names (thread keys,
// rule names) are printable ASCII with single spaces, which it returns as
// they are: a report names every thread twice.
func token(s string) string {
	if asIs(s) && !collapses(s) {
		return s
	}
	return tokenAll(s)
}

// tokenAll is token without the shortcut: the plain form TestTokenShortcut
// holds token to.
func tokenAll(s string) string { return attr(diag.CollapseSpace(xmlChars(s))) }

// collapses reports whether collapsing the white space of s, printable
// ASCII (asIs), changes it: a space at either end or two in a row.
func collapses(s string) bool {
	return s != "" && (s[0] == ' ' || s[len(s)-1] == ' ') || strings.Contains(s, "  ")
}

// xmlChars is s less invalid UTF-8 and the characters XML 1.0 cannot hold.
func xmlChars(s string) string {
	if asIs(s) {
		return s
	}
	return xmlCharsAll(s)
}

// xmlCharsAll is xmlChars, character by character.
func xmlCharsAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r != utf8.RuneError || size > 1) && validChar(r) {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func nonBlank(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

func oneLine(s string) string { return reporters.OneLine(s) }
