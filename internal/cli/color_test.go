package cli

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestUseColor: --color always and never decide; auto colours a terminal
// only, unless NO_COLOR has a value or TERM is dumb.
func TestUseColor(t *testing.T) {
	terminal := func(io.Writer) bool { return true }
	notTerminal := func(io.Writer) bool { return false }
	for _, c := range []struct {
		when string
		env  map[string]string
		term func(io.Writer) bool
		want bool
	}{
		{"auto", nil, terminal, true},
		{"auto", nil, notTerminal, false},
		{"auto", map[string]string{"NO_COLOR": "1"}, terminal, false},
		{"auto", map[string]string{"NO_COLOR": ""}, terminal, true},
		{"auto", map[string]string{"TERM": "dumb"}, terminal, false},
		{"always", map[string]string{"NO_COLOR": "1"}, notTerminal, true},
		{"never", nil, terminal, false},
	} {
		getenv := func(k string) string { return c.env[k] }
		if got := useColor(c.when, io.Discard, getenv, c.term); got != c.want {
			t.Errorf("--color=%s, env %v, terminal %t: colour %t, want %t", c.when, c.env, c.term(nil), got, c.want)
		}
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) || isTerminal(io.Discard) {
		t.Error("a file or a discarding writer taken for a terminal")
	}
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestColorFlag: --color=always colours the text output's severities and
// rule ids (and nothing else: without the colours it is the plain output);
// never, NO_COLOR and auto on what is not a terminal give the plain output
// byte for byte. Other formats are never coloured. A run recorded in the
// run cache with colours is not replayed without them, nor the reverse.
func TestColorFlag(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	dir := demo(t)
	checkOut := func(args ...string) string {
		t.Helper()
		code, out, stderr := runCLI(t, append([]string{"check", dir, "--quiet"}, args...)...)
		if code != ExitFindings {
			t.Fatalf("check %v: exit %d\n%s", args, code, stderr)
		}
		return out
	}
	plain := checkOut()
	if strings.Contains(plain, "\x1b") || !strings.Contains(plain, ": error: ") {
		t.Fatalf("plain output:\n%s", plain)
	}
	for _, args := range [][]string{{"--color=never"}, {"--color", "auto"}} {
		if got := checkOut(args...); got != plain {
			t.Errorf("%v: output differs from the plain output", args)
		}
	}
	colored := checkOut("--color=always")
	if !strings.Contains(colored, "\x1b[1;31merror\x1b[0m") || !strings.Contains(colored, "[\x1b[2m") {
		t.Errorf("--color=always: no colours:\n%s", colored)
	}
	if got := ansi.ReplaceAllString(colored, ""); got != plain {
		t.Errorf("--color=always without its colours differs from the plain output")
	}
	// Given before the command too (a flag of the whole program).
	if code, out, _ := runCLI(t, "--color=always", "check", dir, "--quiet"); code != ExitFindings || out != colored {
		t.Errorf("--color=always before the command: exit %d, output differs", code)
	}
	if got := checkOut("--format", "json", "--color=always"); strings.Contains(got, "\x1b") {
		t.Error("--format json was coloured")
	}
	t.Setenv("NO_COLOR", "1")
	if got := checkOut(); got != plain {
		t.Error("NO_COLOR=1: output differs from the plain output")
	}
	if got := checkOut("--color=always"); got != colored {
		t.Error("NO_COLOR=1 --color=always: not coloured")
	}
	if code, _, _ := runCLI(t, "check", dir, "--color=sometimes"); code != ExitUsage {
		t.Errorf("--color=sometimes: exit %d, want %d", code, ExitUsage)
	}

	// The run cache keeps coloured and plain standard output apart.
	cache := filepath.Join(t.TempDir(), "cache")
	for i, c := range []struct {
		when string
		want string
	}{{"always", colored}, {"never", plain}, {"always", colored}, {"never", plain}} {
		code, out, stderr := runCLI(t, "check", dir, "--cache", cache, "--color="+c.when)
		if code != ExitFindings || out != c.want {
			t.Errorf("cached run %d (--color=%s): exit %d, output not as without the cache:\n%s", i, c.when, code, out)
		}
		if reused := strings.Contains(stderr, "the whole run reused"); reused != (i >= 2) {
			t.Errorf("cached run %d (--color=%s): reused %t", i, c.when, reused)
		}
	}
}
