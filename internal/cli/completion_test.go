package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompletion: the bash script is made from the command-line model:
// sourced in bash it completes commands and each command's flags; the fish
// script names every command.
func TestCompletion(t *testing.T) {
	code, script, _ := runCLI(t, "completion", "bash")
	if code != ExitOK {
		t.Fatalf("completion bash: exit %d", code)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("skipping the bash half: bash is not installed")
	}
	file := filepath.Join(t.TempDir(), "c.sh")
	os.WriteFile(file, []byte(script), 0o644)
	complete := func(words ...string) string {
		t.Helper()
		cmd := exec.Command("bash", "-c", `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($#-1)); _brenner_ci; echo "${COMPREPLY[@]}"`, "bash", file)
		cmd.Args = append(cmd.Args, words...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("bash: %v", err)
		}
		return strings.TrimSpace(string(out))
	}
	if got := complete("brenner-ci", "ch"); got != "check check-message" {
		t.Errorf("brenner-ci ch<TAB>: %q", got)
	}
	if got := complete("brenner-ci", "check", "--new"); got != "--new-from-rev" {
		t.Errorf("brenner-ci check --new<TAB>: %q", got)
	}
	if got := complete("brenner-ci", "explain", "--"); got != "--config" {
		t.Errorf("brenner-ci explain --<TAB>: %q (its one flag: --config)", got)
	}
	_, fish, _ := runCLI(t, "completion", "fish")
	for _, c := range []string{"compile", "check", "check-message", "merge", "graph", "explain", "rules"} {
		if !strings.Contains(fish, "-a "+c+" ") {
			t.Errorf("the fish script lacks the command %s", c)
		}
	}
}
