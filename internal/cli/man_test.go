package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

func manOutput(t *testing.T) string {
	t.Helper()
	code, out, stderr := runCLI(t, "man")
	if code != ExitOK {
		t.Fatalf("man: exit %d\n%s", code, stderr)
	}
	return out
}

// TestManPage: the man page names every command, argument and flag of the
// command line model (hidden ones aside), every command's examples, the
// exit codes and the environment variables brenner-ci reads; every line
// that starts a request is one made by the generator; and groff (-ww: every
// warning) and mandoc (-Tlint: down to style) find nothing wrong with it.
func TestManPage(t *testing.T) {
	page := manOutput(t)
	has := func(what, s string) {
		t.Helper()
		if !strings.Contains(page, s) {
			t.Errorf("the man page lacks %s (%q)", what, s)
		}
	}
	for _, sec := range []string{"NAME", "SYNOPSIS", "DESCRIPTION", "GLOBAL OPTIONS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES"} {
		has("the section "+sec, `.SH "`+roffEscape(sec)+`"`)
	}
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		if n.Hidden {
			return
		}
		if n.Type == kong.CommandNode {
			has("the command "+commandPath(n), roffEscape("brenner-ci "+commandPath(n)))
		}
		for _, f := range n.Flags {
			if !f.Hidden {
				has("the flag --"+f.Name, `\fB`+roffEscape("--"+f.Name)+`\fR`)
			}
		}
		for _, p := range n.Positional {
			has("the argument "+p.Name, `\fI`+roffEscape(p.Name)+`\fR`)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	k := model(t)
	walk(k.Model.Node)
	for path, d := range docs {
		for _, e := range d.examples {
			has("an example of "+path, roffEscape(e.cmd))
		}
	}
	for _, x := range exitsGated {
		has("an exit code", roffEscape(x.what))
	}
	for _, v := range []string{"NO_COLOR", "SOURCE_DATE_EPOCH", "GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT", "GITHUB_SHA"} {
		has("the variable "+v, roffEscape(v))
	}
	requests := map[string]bool{`.\"`: true, ".TH": true, ".SH": true, ".SS": true, ".PP": true, ".TP": true, ".RS": true, ".RE": true, ".nf": true, ".fi": true, ".br": true, ".sp": true}
	for i, l := range strings.Split(page, "\n") {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			if name, _, _ := strings.Cut(l, " "); !requests[name] {
				t.Errorf("line %d starts a request the generator does not make: %q", i+1, l)
			}
		}
		if strings.ContainsRune(l, 0x1b) || strings.IndexFunc(l, func(r rune) bool { return r > 0x7e }) >= 0 {
			t.Errorf("line %d is not plain ASCII: %q", i+1, l)
		}
	}

	linted := false
	if _, err := exec.LookPath("groff"); err == nil {
		linted = true
		cmd := exec.Command("groff", "-man", "-Tutf8", "-ww", "-z")
		cmd.Stdin = strings.NewReader(page)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Errorf("groff -man -Tutf8 -ww: %v\n%s", err, stderr.String())
		}
	}
	if _, err := exec.LookPath("mandoc"); err == nil {
		linted = true
		// The page has no date (.TH's third argument), so that it is the
		// same for the same program and docs/brenner-ci.1 stays current:
		// that is mandoc's one warning, and the only one accepted.
		cmd := exec.Command("mandoc", "-Tlint")
		cmd.Stdin = strings.NewReader(page)
		out, _ := cmd.CombinedOutput()
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if l != "" && !strings.Contains(l, "WARNING: missing date") {
				t.Errorf("mandoc -Tlint: %s", l)
			}
		}
	}
	if !linted {
		t.Skip("the page's roff was not linted: neither groff nor mandoc is installed (apt-get install groff-base or mandoc)")
	}
}

// TestManPageUpToDate: docs/brenner-ci.1 is what brenner-ci man prints.
func TestManPageUpToDate(t *testing.T) {
	p := filepath.Join(testutil.ModuleRoot(t), "docs", "brenner-ci.1")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("docs/brenner-ci.1: %v (run `make man`)", err)
	}
	if string(data) != manOutput(t) {
		t.Fatal("docs/brenner-ci.1 is stale: run `make man`")
	}
}

// TestRoffEscape: no text can start a request, an escape or a font change
// of its own.
func TestRoffEscape(t *testing.T) {
	for in, want := range map[string]string{
		`a\fBb`:         `a\efBb`,
		"--fail-on":     `\-\-fail\-on`,
		`say "x"`:       `say \(dqx\(dq`,
		"1 ≤ I":         `1 \[u2264] I`,
		"tab\there":     "tab here",
		"bell\x07\x1b[": "bell[",
	} {
		if got := roffEscape(in); got != want {
			t.Errorf("roffEscape(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{".TH x": `\&.TH x`, "'br": `\&'br`, "  .x": `\&.x`, "a.b": "a.b"} {
		if got := lineStart(in); got != want {
			t.Errorf("lineStart(%q) = %q, want %q", in, got, want)
		}
	}
	var m roff
	m.text(".SH injected")
	m.doc("Para\n\n    .nf\n    'x\n")
	for _, l := range strings.Split(m.String(), "\n") {
		if strings.HasPrefix(l, ".SH") || strings.HasPrefix(l, "'x") || l == ".nf" && strings.Contains(m.String(), "\n.nf\n.nf") {
			t.Errorf("text became a request: %q in\n%s", l, m.String())
		}
	}
}
