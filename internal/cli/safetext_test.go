package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ourCommand matches the workflow commands brenner-ci means to emit: an
// annotation with escaped properties, or its overflow notice.
var ourCommand = regexp.MustCompile(`^::(error|warning|notice) (file=[^,:\n]*,line=\d+,endLine=\d+,(col=\d+,endColumn=\d+,)?)?title=[^:\n]*::`)

// TestHostileTextNeverEmitsWorkflowCommands: thread ids, subjects, senders
// and file names written by an attacker reach standard output and standard
// error of check (text and github formats), compile and every notice only
// as escaped text: no line is a workflow command brenner-ci did not mean to
// emit, and no escape sequence reaches the terminal.
func TestHostileTextNeverEmitsWorkflowCommands(t *testing.T) {
	hostile := []string{
		"RS-20260301-x\n::warning file=a.json::pwned",
		"::stop-commands::tok",
		"::add-mask::\x1b[31msecret",
		"RS-20260301-\x1b]8;;http://evil\x07link",
	}
	dir := t.TempDir()
	for i, h := range hostile {
		msgs := []map[string]any{{
			"id": i + 1, "thread_id": h, "subject": "KICKOFF: " + h, "from": h,
			"created_ts": "2026-03-01T10:00:00Z", "body_md": "# " + h + "\n\n" + h + "\n",
		}}
		data, _ := json.Marshal(map[string]any{"thread_id": h, "messages": msgs})
		os.WriteFile(filepath.Join(dir, "t"+string(rune('a'+i))+".json"), data, 0o644)
	}
	// A hostile file name too (where the file system allows it).
	os.WriteFile(filepath.Join(dir, "::warning file=x::y.json"), []byte(`{"thread_id": "::notice::x", "messages": [}`), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	runs := [][]string{
		{"check", "--format", "github", "--out", out, dir},
		{"check", "--format", "text", dir},
		{"compile", "--out", filepath.Join(t.TempDir(), "c"), dir},
	}
	for _, args := range runs {
		_, stdout, stderr := run(t, args...)
		for name, stream := range map[string]string{"stdout": stdout, "stderr": stderr} {
			if strings.ContainsAny(stream, "\x1b\x07\x00") {
				t.Errorf("%v: %s carries a control character: %q", args, name, stream)
			}
			for _, line := range strings.Split(stream, "\n") {
				if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") && !ourCommand.MatchString(line) {
					t.Errorf("%v: %s line is a workflow command brenner-ci did not mean: %q", args, name, line)
				}
			}
		}
		if len(stdout)+len(stderr) == 0 {
			t.Errorf("%v printed nothing", args)
		}
	}
}
