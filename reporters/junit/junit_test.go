package junit_test

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	// alpha, beta, gamma, inputs
	if len(s.Suites) != 4 {
		t.Fatalf("want 4 suites, got %d", len(s.Suites))
	}
	alpha, beta, gamma, inputs := s.Suites[0], s.Suites[1], s.Suites[2], s.Suites[3]
	if alpha.Tests != 3 || alpha.Failures != 2 || alpha.Cases[2].Name != "MB-001 body-markup" || len(alpha.Cases[2].Failure) != 0 {
		t.Errorf("alpha: %+v", alpha)
	}
	if f := alpha.Cases[0].Failure; len(f) != 1 || f[0].Type != "MG-001" || !strings.Contains(f[0].Text, "threads/alpha.json:4:5: error: Delta targets H9") {
		t.Errorf("alpha MG-001 failure: %+v", f)
	}
	// beta: MB-001 (notes only: passes), SP-001 (passes), XX-999 (not evaluated by
	// the registry, but it has a warning, so it gets a failing testcase).
	if beta.Tests != 3 || beta.Failures != 1 || beta.Cases[2].Name != "XX-999" {
		t.Errorf("beta: %+v", beta)
	}
	if !strings.Contains(beta.Out, "artifacts/beta.md:3:1: note: Body uses a | pipe") || strings.Contains(beta.Out, "\x01") {
		t.Errorf("beta notes not in system-out: %q", beta.Out)
	}
	if gamma.Name != "gamma <&>" || gamma.Failures != 0 || gamma.Tests != 1 {
		t.Errorf("gamma: %+v", gamma)
	}
	// inputs: IN-001 findings without a (known) thread.
	if inputs.Name != "inputs" || inputs.Tests != 1 || inputs.Failures != 1 || len(inputs.Cases[0].Failure) != 1 {
		t.Fatalf("inputs: %+v", inputs)
	}
	if got := strings.Count(inputs.Cases[0].Failure[0].Text, "\n") + 1; got != 3 {
		t.Errorf("inputs failure lists %d findings, want 3 (error + 2 warnings): %q", got, inputs.Cases[0].Failure[0].Text)
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
	if in := s2.Suites[3]; in.Errors != 1 || !strings.Contains(in.Err, "rule TH-002 panicked") {
		t.Errorf("internal error not reported: %+v", in)
	}
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
