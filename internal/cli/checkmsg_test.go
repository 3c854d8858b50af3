package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

func runIn(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := MainIO(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// TestCheckMessage: the pre-send check reads a body from standard input or
// a file, runs the message-level rules for the subject's message type, and
// reports positions inside the body; exit codes as check.
func TestCheckMessage(t *testing.T) {
	t.Chdir(t.TempDir()) // no configuration found
	kickoff := "# Cell fate\n\n## Research Question\nLineage or gradient?\n\n## Context\nEmbryos.\n"
	if code, out, errs := runIn(t, kickoff, "check-message", "--subject", "KICKOFF: Cell fate", "--ack-required"); code != 0 || !strings.Contains(out, "0 errors") {
		t.Errorf("a valid KICKOFF: exit %d\n%s%s", code, out, errs)
	}
	critique := "# Critique\n\n## Attack\nTiming is off.\n"
	code, out, _ := runIn(t, critique, "check-message", "--subject", "CRITIQUE: H2 timing", "-")
	if code != 1 || !strings.Contains(out, "body:1:1: error:") || !strings.Contains(out, "[MB-006]") {
		t.Errorf("a CRITIQUE with no Target: exit %d\n%s", code, out)
	}
	delta := "Here:\n\n```delta\n{\"operation\": \"ADD\", \"section\": \"hypothesis_slate\", \"target_id\": null, \"payload\": {\"name\": \"x\",}}\n```\n"
	file := filepath.Join(t.TempDir(), "body.md")
	os.WriteFile(file, []byte(delta), 0o644)
	code, out, _ = runIn(t, "", "check-message", "--subject", "DELTA[gpt]: H1", "--format", "json", file)
	var rep struct {
		Findings []struct {
			Rule, Field  string
			Line, Column int
		} `json:"findings"`
		Failed bool `json:"failed"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--format json: %v\n%s", err, out)
	}
	found := false
	for _, f := range rep.Findings {
		if f.Rule == "MB-005" && f.Field == "body" && f.Line == 4 && f.Column == 95 {
			found = true
		}
	}
	if code != 1 || !rep.Failed || !found {
		t.Errorf("invalid delta JSON: exit %d, %+v", code, rep)
	}
	code, out, _ = runIn(t, "x", "check-message", "--subject", "Re: KICKOFF: hi")
	if code != 1 || !strings.Contains(out, "subject: error:") || !strings.Contains(out, "[MB-001]") {
		t.Errorf("a bad subject: exit %d\n%s", code, out)
	}
	if code, _, _ := runIn(t, "x", "check-message", "--subject", "Re: KICKOFF: hi", "--fail-on", "none"); code != 0 {
		t.Errorf("--fail-on none: exit %d", code)
	}
	if code, _, _ := runIn(t, "x", "check-message", "--subject", "INFO: x", "/nonexistent/body.md"); code != 2 {
		t.Errorf("a missing file: exit %d, want 2", code)
	}
	if code, _, _ := runIn(t, "x", "check-message"); code != 2 {
		t.Errorf("no --subject: exit %d, want 2", code)
	}
	// The thread id is checked when it is given, and only then.
	if _, out, _ := runIn(t, kickoff, "check-message", "--subject", "KICKOFF: Cell fate", "--ack-required", "--thread", "RS-2026-x"); !strings.Contains(out, "[TH-001]") {
		t.Errorf("a bad --thread is not reported:\n%s", out)
	}
	// Input text reaches the terminal escaped.
	_, out, _ = runIn(t, "# x\x1b[31m\n", "check-message", "--subject", "CRITIQUE: \x1b]8;;evil\x07x\n::warning::pwned")
	if strings.ContainsAny(out, "\x1b\x07") || strings.Contains(out, "\n::warning") {
		t.Errorf("unescaped input in the output: %q", out)
	}
}

// TestCheckMessageREADMEExample runs the README's check-message example and
// compares its output with the one the README shows.
func TestCheckMessageREADMEExample(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var cmd, want string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "printf ") && strings.Contains(line, "| brenner-ci check-message") {
			cmd = line
		}
		if cmd != "" && want == "" && strings.HasPrefix(line, "# body:") {
			want = strings.TrimPrefix(line, "# ")
		}
	}
	if cmd == "" || want == "" {
		t.Fatal("README has no check-message example with its output")
	}
	printf, rest, _ := strings.Cut(cmd, " | brenner-ci ")
	body, err := exec.Command("bash", "-c", printf).Output()
	if err != nil {
		t.Fatalf("%s: %v", printf, err)
	}
	args, err := shellWords(rest)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	_, out, _ := runIn(t, string(body), args...)
	if !strings.Contains(out, want+"\n") {
		t.Errorf("the README says %q; the command prints:\n%s", want, out)
	}
}

// shellWords splits a command line with double-quoted words.
func shellWords(s string) ([]string, error) {
	var words []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' {
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				return nil, fmt.Errorf("unclosed quote in %q", s)
			}
			words = append(words, s[1:end+1])
			s = s[end+2:]
			continue
		}
		w, rest, _ := strings.Cut(s, " ")
		words, s = append(words, w), rest
	}
	return words, nil
}
