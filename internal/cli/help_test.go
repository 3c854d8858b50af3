package cli

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// model is the command line model, as Main builds it.
func model(t *testing.T) *kong.Kong {
	t.Helper()
	k, err := newParser(&cliArgs{}, kong.Writers(io.Discard, io.Discard), kong.Exit(func(int) {}))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// exampleWords splits a command line of an example as a shell would (plain
// words and double-quoted ones), up to a pipe.
func exampleWords(t *testing.T, line string) []string {
	t.Helper()
	line, _, _ = strings.Cut(line, " | ")
	var words []string
	var w strings.Builder
	quoted, in := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quotes in %q", line)
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// TestCommandHelp: every command's --help ends with its examples and what
// its exit codes mean (after its flags), and every example is a command
// line the parser accepts, so none can name a flag or command that is
// gone.
func TestCommandHelp(t *testing.T) {
	k := model(t)
	cmds := commandNodes(k.Model.Node)
	if len(cmds) != len(docs) {
		t.Errorf("%d commands, %d commands' help: every command has help, and no help is left for a command that is gone", len(cmds), len(docs))
	}
	for _, c := range cmds {
		path := commandPath(c)
		d, ok := docs[path]
		if !ok {
			t.Errorf("%s: no examples and exit codes", path)
			continue
		}
		code, out, stderr := runCLI(t, append(strings.Fields(path), "--help")...)
		if code != ExitOK {
			t.Errorf("%s --help: exit %d\n%s", path, code, stderr)
			continue
		}
		ex, exits, flags := strings.Index(out, "\nExamples:\n"), strings.Index(out, "\nExit codes:\n"), strings.Index(out, "\nFlags:\n")
		if ex < 0 || exits < ex || flags > ex {
			t.Errorf("%s --help: want the flags, then Examples:, then Exit codes:\n%s", path, out)
			continue
		}
		for _, e := range d.examples {
			if !strings.Contains(out[ex:exits], "\n    "+e.cmd+"\n") {
				t.Errorf("%s --help lacks the example %q", path, e.cmd)
			}
			words := exampleWords(t, e.cmd)
			if len(words) < 2 || words[0] != "brenner-ci" || words[1] != strings.Fields(path)[0] {
				t.Errorf("%s: the example %q is not a brenner-ci %s command line", path, e.cmd, path)
				continue
			}
			if _, err := model(t).Parse(words[1:]); err != nil {
				t.Errorf("%s: the example %q does not parse: %v", path, e.cmd, err)
			}
		}
		seen := map[int]bool{}
		for _, x := range d.exits {
			if !strings.Contains(out[exits:], fmt.Sprintf("\n    %d  %s\n", x.code, x.what)) {
				t.Errorf("%s --help lacks exit code %d", path, x.code)
			}
			if seen[x.code] || x.code < ExitOK || x.code > ExitInternal {
				t.Errorf("%s: exit code %d listed twice or unknown", path, x.code)
			}
			seen[x.code] = true
		}
		if !seen[ExitOK] {
			t.Errorf("%s: exit code 0 is not explained", path)
		}
	}
	// The same through "help COMMAND".
	if code, out, _ := runCLI(t, "help", "check"); code != ExitOK || !strings.Contains(out, "Exit codes:") {
		t.Errorf("help check: exit %d, no exit codes", code)
	}
}
