package junit_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters/internal/fixture"
	"github.com/brenner-ci/brenner-ci/reporters/junit"
)

func TestMain(m *testing.M) { os.Exit(fixture.Main(m)) }

func write(t testing.TB, r *diag.Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := junit.Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	r := fixture.Report(t)
	got := write(t, r)
	fixture.Golden(t, "report.junit.xml", got)
	if !bytes.Equal(got, write(t, r)) {
		t.Error("two writes of the same report differ")
	}
}

type suites struct {
	Suites []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Failure   []struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
		} `xml:"testcase"`
		Out string `xml:"system-out"`
		Err string `xml:"system-err"`
	} `xml:"testsuite"`
}

func TestStructure(t *testing.T) {
	r := fixture.Report(t)
	var s suites
	if err := xml.Unmarshal(write(t, r), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Suites) != 2 {
		t.Fatalf("want 2 suites (threads, inputs), got %d", len(s.Suites))
	}
	threads, inputs := s.Suites[0], s.Suites[1]
	// alpha fails MG-001 and TH-002 (one testcase each, MB-001 passes and is
	// not listed); beta fails XX-999 only (MB-001 has notes, SP-001 nothing);
	// gamma passes: one testcase.
	type tc struct{ classname, name string }
	want := []tc{{"alpha", "MG-001 invalid-target"}, {"alpha", "TH-002 thread-id-mismatch"}, {"beta", "XX-999"}, {"gamma <&>", junit.PassName}}
	if threads.Name != junit.ThreadsSuite || threads.Tests != len(want) || threads.Failures != 3 || len(threads.Cases) != len(want) {
		t.Fatalf("threads: %+v", threads)
	}
	for i, w := range want {
		if c := threads.Cases[i]; c.Classname != w.classname || c.Name != w.name {
			t.Errorf("testcase %d: %s / %s, want %s / %s", i, c.Classname, c.Name, w.classname, w.name)
		}
	}
	if f := threads.Cases[0].Failure; len(f) != 1 || f[0].Type != "MG-001" || !strings.Contains(f[0].Text, "threads/alpha.json:4:5: error: Delta targets H9") {
		t.Errorf("alpha MG-001 failure: %+v", f)
	}
	if len(threads.Cases[3].Failure) != 0 {
		t.Errorf("gamma fails: %+v", threads.Cases[3])
	}
	if !strings.Contains(threads.Out, "artifacts/beta.md:3:1: note: Body uses a | pipe") || strings.Contains(threads.Out, "\x01") {
		t.Errorf("beta notes not in system-out: %q", threads.Out)
	}
	// inputs: findings without a (known) thread, one testcase per file; the
	// note-only file passes.
	if inputs.Name != "inputs" || inputs.Tests != 4 || inputs.Failures != 3 {
		t.Fatalf("inputs: %+v", inputs)
	}
	for i, name := range []string{"<input>", "../outside/x.json", "threads/empty.json", "threads/gone.json"} {
		if c := inputs.Cases[i]; c.Name != name || c.Classname != junit.InputsSuite || (len(c.Failure) == 0) != (name == "threads/empty.json") {
			t.Errorf("inputs testcase %d: %+v, want %s", i, c, name)
		}
	}
	if !strings.Contains(inputs.Out, "note: Input file is empty") || !strings.Contains(inputs.Out, `config: unknown key "colour"`) {
		t.Errorf("inputs system-out: %q", inputs.Out)
	}

	r.Internal = true
	r.Notifications = append(r.Notifications, diag.Notification{Level: diag.Error, Message: "rule TH-002 panicked"})
	var s2 suites
	if err := xml.Unmarshal(write(t, r), &s2); err != nil {
		t.Fatal(err)
	}
	if in := s2.Suites[1]; in.Errors != 1 || !strings.Contains(in.Err, "rule TH-002 panicked") {
		t.Errorf("internal error not reported: %+v", in)
	}
}

// TestScale: the report grows with threads plus failing rules, not with
// threads × rules evaluated; one file's findings of several rules make one
// testcase; a repeated thread key gets a distinct classname.
func TestScale(t *testing.T) {
	root := fixture.Repo(t)
	r := fixture.Many(t, root, 0)
	var rules []string
	for i := 0; i < 120; i++ {
		rules = append(rules, fmt.Sprintf("RR-%03d", i))
	}
	r.Threads = nil
	const n = 1000
	for i := 0; i < n; i++ {
		r.Threads = append(r.Threads, diag.Thread{Key: fmt.Sprintf("T-%04d", i), File: "threads/alpha.json", Rules: rules})
	}
	r.Threads = append(r.Threads, r.Threads[0])
	// Thread 7 fails two rules (three findings), thread 9 has a note only.
	r.Findings = []diag.Finding{
		{Rule: "RR-005", Severity: diag.Error, Message: "e1", Thread: "T-0007", Pos: diag.Pos{File: "threads/alpha.json", Line: 1}},
		{Rule: "RR-001", Severity: diag.Warning, Message: "w1", Thread: "T-0007", Pos: diag.Pos{File: "threads/alpha.json", Line: 2}},
		{Rule: "RR-005", Severity: diag.Error, Message: "e2", Thread: "T-0007", Pos: diag.Pos{File: "threads/alpha.json", Line: 3}},
		{Rule: "RR-002", Severity: diag.Note, Message: "n1", Thread: "T-0009", Pos: diag.Pos{File: "threads/alpha.json", Line: 4}},
		{Rule: "IN-001", Severity: diag.Error, Message: "bad", Pos: diag.Pos{File: "threads/gone.json"}},
		{Rule: "IN-009", Severity: diag.Warning, Message: "big", Pos: diag.Pos{File: "threads/gone.json"}},
	}
	r.Fingerprints = diag.Fingerprints(r.Findings)
	out := write(t, r)
	var s suites
	if err := xml.Unmarshal(out, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Suites) != 2 {
		t.Fatalf("want 2 suites, got %d", len(s.Suites))
	}
	th := s.Suites[0]
	if th.Tests != n+2 || th.Failures != 2 || len(th.Cases) != n+2 {
		t.Fatalf("threads suite: %d tests, %d failures, %d cases; want %d, 2", th.Tests, th.Failures, len(th.Cases), n+2)
	}
	// T-0007: RR-001 before RR-005 (registry order), RR-005 lists both findings.
	if c := th.Cases[7]; c.Classname != "T-0007" || c.Name != "RR-001" {
		t.Errorf("case 7: %+v", c)
	}
	if c := th.Cases[8]; c.Name != "RR-005" || len(c.Failure) != 1 || c.Failure[0].Message != "e1 (and 1 more)" {
		t.Errorf("case 8: %+v", c)
	}
	if last := th.Cases[len(th.Cases)-1]; last.Classname != "T-0000 (2)" || last.Name != junit.PassName {
		t.Errorf("repeated key: %+v", last)
	}
	if in := s.Suites[1]; in.Tests != 1 || in.Failures != 1 || in.Cases[0].Name != "threads/gone.json" {
		t.Errorf("inputs: %+v", in)
	}
	if len(out) > 150*n {
		t.Errorf("report of %d threads is %d bytes", n, len(out))
	}
	file := filepath.Join(t.TempDir(), "report.xml")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	fixture.Check(t, file, "junit")
}

func TestXSD(t *testing.T) {
	r := fixture.Report(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "report.xml")
	if err := os.WriteFile(file, write(t, r), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Log(fixture.Check(t, file, "junit"))

	// Nasty keys and messages, an internal error, and no threads at all.
	r.Threads[0].Key = " \x02 "
	r.Findings[0].Message = "bad \x00\x1b chars \xff and ]]> and \r\n"
	r.Internal = true
	if err := os.WriteFile(file, write(t, r), 0o644); err != nil {
		t.Fatal(err)
	}
	fixture.Check(t, file, "junit")
	if err := os.WriteFile(file, write(t, &diag.Report{}), 0o644); err != nil {
		t.Fatal(err)
	}
	fixture.Check(t, file, "junit")
}

// TestCountsArtifactsApart: the threads suite counts threads and persisted
// artifacts apart in its properties.
func TestCountsArtifactsApart(t *testing.T) {
	got := string(write(t, fixture.Mixed(t, fixture.Repo(t))))
	for _, want := range []string{`<property name="threads" value="2"/>`, `<property name="artifacts" value="1"/>`} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in\n%s", want, got)
		}
	}
}

// TestArtifactFindingsUnderTheArtifact: the findings of a persisted
// artifact carry its session as their thread, but they are the artifact's:
// they fail the artifact's own testcase (classname: its path), not the
// thread's, which fails only for its own findings.
func TestArtifactFindingsUnderTheArtifact(t *testing.T) {
	r := fixture.Mixed(t, fixture.Repo(t))
	var s suites
	if err := xml.Unmarshal(write(t, r), &s); err != nil {
		t.Fatal(err)
	}
	type tc struct{ classname, name string }
	var got []tc
	failed := map[tc]string{}
	threads := s.Suites[0]
	for _, c := range threads.Cases {
		got = append(got, tc{c.Classname, c.Name})
		for _, f := range c.Failure {
			failed[tc{c.Classname, c.Name}] += f.Text
		}
	}
	want := []tc{{"artifacts/beta.md", "MG-001 invalid-target"}, {"alpha", "MG-001 invalid-target"}, {"beta", "TH-002 thread-id-mismatch"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("testcases %v, want %v", got, want)
	}
	if txt := failed[want[0]]; !strings.Contains(txt, "beta's artifact") {
		t.Errorf("the artifact's testcase does not hold its finding: %q", txt)
	}
	if txt := failed[want[2]]; strings.Contains(txt, "artifact") {
		t.Errorf("the thread's testcase holds the artifact's finding: %q", txt)
	}
	if !strings.Contains(threads.Out, "artifacts/beta.md:1:1: note: A note on beta's artifact.") {
		t.Errorf("the artifact's note is not in system-out: %q", threads.Out)
	}
	if len(s.Suites) != 1 {
		t.Errorf("%d suites: an artifact finding went to the inputs suite", len(s.Suites))
	}
}

// TestNastyReport: a whole report whose thread key, messages, hint, rule
// and inputs hold what XML 1.0 cannot carry (NUL, ESC, a lone surrogate,
// invalid UTF-8), "]]>", quotes and markup, line breaks and bidirectional
// controls is read by encoding/xml's strict decoder, and what it reads is
// the text less what XML cannot carry, with the controls shown as \uXXXX.
func TestNastyReport(t *testing.T) {
	r := fixture.Report(t)
	const nasty = "q\"uo'te <&> ]]> nul\x00 esc\x1b surrogate\xed\xa0\x80 bad\xff rlo\u202e end"
	r.Threads[0].Key = "alpha " + nasty
	for i := range r.Findings {
		f := &r.Findings[i]
		if f.Thread != "alpha" {
			continue
		}
		f.Thread = r.Threads[0].Key
		if f.Rule == "MG-001" {
			f.Message = nasty + "\nsecond line"
			f.Hint = nasty
		}
	}
	r.Inputs = []string{"in\tputs\r\n" + nasty}
	out := write(t, r)
	if !utf8.Valid(out) {
		t.Fatal("the report is not UTF-8")
	}
	for _, raw := range []string{"\x00", "\x1b", "\xed\xa0\x80", "\xff", "\u202e", "]]>"} {
		if bytes.Contains(out, []byte(raw)) {
			t.Errorf("the report holds a raw %q", raw)
		}
	}
	var s suites
	if err := xml.Unmarshal(out, &s); err != nil {
		t.Fatalf("encoding/xml cannot read the report: %v\n%s", err, out)
	}
	const shown = `q"uo'te <&> ]]> nul esc surrogate bad rlo\u202e end`
	c := s.Suites[0].Cases[0]
	if c.Classname != "alpha "+shown {
		t.Errorf("classname %q", c.Classname)
	}
	if len(c.Failure) != 1 || c.Failure[0].Message != shown+" second line" {
		t.Fatalf("failure %+v", c.Failure)
	}
	if txt := c.Failure[0].Text; !strings.Contains(txt, ": error: "+shown+" second line [MG-001] Hint: "+shown) {
		t.Errorf("failure text %q", txt)
	}
	// A property value keeps its tab and line break (as character
	// references: a parser would make raw ones spaces).
	var props struct {
		Props []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"testsuite>properties>property"`
	}
	if err := xml.Unmarshal(out, &props); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range props.Props {
		if p.Name == "inputs" {
			found = true
			if p.Value != "in\tputs\r\n"+shown {
				t.Errorf("inputs property %q", p.Value)
			}
		}
	}
	if !found {
		t.Error("no inputs property")
	}
	if !bytes.Contains(out, []byte(`value="in&#x9;puts&#xD;&#xA;q&quot;uo'te &lt;&amp;&gt; ]]&gt; nul esc surrogate bad rlo\u202e end"`)) {
		t.Errorf("inputs property not written as expected:\n%s", out)
	}
}

// TestControlOnlyKeyHasAClassname: a thread key of characters XML cannot
// hold only (controls) is no empty classname, which JUnit readers refuse:
// it is named by its place, as a blank key is.
func TestControlOnlyKeyHasAClassname(t *testing.T) {
	r := fixture.Report(t)
	r.Threads[0].Key = "\x01\x02"
	for i := range r.Findings {
		if r.Findings[i].Thread == "alpha" {
			r.Findings[i].Thread = r.Threads[0].Key
		}
	}
	var s suites
	if err := xml.Unmarshal(write(t, r), &s); err != nil {
		t.Fatal(err)
	}
	for _, c := range s.Suites[0].Cases {
		if strings.TrimSpace(c.Classname) == "" {
			t.Fatalf("testcase %q has an empty classname", c.Name)
		}
	}
	if c := s.Suites[0].Cases[0]; c.Classname != "thread-0" {
		t.Errorf("classname %q, want thread-0", c.Classname)
	}
}
