package text_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters/internal/fixture"
	"github.com/brenner-ci/brenner-ci/reporters/text"
)

// sgr matches the colour sequences the text reporter writes, and only
// those.
var sgr = regexp.MustCompile("\x1b\\[(?:1;31|1;33|1;36|2|0)m")

func writeColored(t *testing.T, r *diag.Report) string {
	t.Helper()
	var buf bytes.Buffer
	if err := text.Write(text.Terminal{Writer: &buf}, r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestColor: on a colour terminal every finding's severity word and rule
// id are coloured, and the text without the colours is the plain output
// byte for byte; a plain writer gets no colour.
func TestColor(t *testing.T) {
	r := fixture.Report(t)
	plain := string(write(t, r))
	got := writeColored(t, r)
	if strings.Contains(plain, "\x1b") {
		t.Fatal("plain output holds an escape")
	}
	if stripped := sgr.ReplaceAllString(got, ""); stripped != plain {
		t.Errorf("coloured output without its colours differs from the plain output:\n%s\nwant\n%s", stripped, plain)
	}
	lines := strings.Split(got, "\n")
	for i, f := range r.Findings {
		line := lines[i]
		if want := "m" + f.Severity.String() + "\x1b[0m: "; !strings.Contains(line, want) {
			t.Errorf("finding %d: severity not coloured: %q", i, line)
		}
		if want := "[\x1b[2m" + f.Rule + "\x1b[0m]"; !strings.HasSuffix(line, want) {
			t.Errorf("finding %d: rule id not coloured: %q", i, line)
		}
	}
	for _, l := range lines[len(r.Findings):] {
		if strings.Contains(l, "\x1b") {
			t.Errorf("a line that is not a finding is coloured: %q", l)
		}
	}
	if text.Colored(&bytes.Buffer{}) || !text.Colored(text.Terminal{Writer: &bytes.Buffer{}}) {
		t.Error("Colored: a buffer is not a terminal, a Terminal is one")
	}
}

// TestColorUntrustedText: a path or message that carries escape sequences,
// severity words or a bracketed rule id is written as without colour (its
// escapes made visible); the only escapes are the reporter's own colours,
// around the finding's real severity and rule id.
func TestColorUntrustedText(t *testing.T) {
	r := &diag.Report{FailOn: diag.Error, Threads: make([]diag.Thread, 1), Findings: []diag.Finding{
		{Pos: diag.Pos{File: "a: error: \x1b[31mred.json", Line: 3, Col: 4}, Severity: diag.Warning, Rule: "MB-001",
			Message: "note: \x1b]8;;http://x\x07click\x1b]8;;\x07 and \x1b[2J [MG-001]"},
		{Pos: diag.Pos{File: "::warning file=x::b.json"}, Severity: diag.Note, Rule: "TH-002", Message: "line\nbreak [X]"},
		{Severity: diag.Error, Rule: "IN-001", Message: "no position"},
	}}
	plain := string(write(t, r))
	got := writeColored(t, r)
	if stripped := sgr.ReplaceAllString(got, ""); stripped != plain {
		t.Errorf("coloured output without its colours differs:\n%q\nwant\n%q", stripped, plain)
	}
	// Escapes other than the colours: none.
	if rest := sgr.ReplaceAllString(got, ""); strings.ContainsRune(rest, 0x1b) || strings.ContainsRune(rest, 0x07) {
		t.Errorf("an escape from the input reached the output: %q", rest)
	}
	lines := strings.Split(got, "\n")
	for i, want := range []string{"\x1b[1;33mwarning\x1b[0m: note: ", "\x1b[1;36mnote\x1b[0m: line", "<input>: \x1b[1;31merror\x1b[0m: no position"} {
		if !strings.Contains(lines[i], want) || strings.Count(lines[i], "\x1b[0m") != 2 {
			t.Errorf("line %d: %q, want the severity coloured once, as in %q", i, lines[i], want)
		}
	}
	if !strings.HasSuffix(lines[0], "[MG-001] [\x1b[2mMB-001\x1b[0m]") {
		t.Errorf("the rule id coloured is not the finding's: %q", lines[0])
	}
}
