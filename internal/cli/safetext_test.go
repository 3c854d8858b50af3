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
var ourCommand = regexp.MustCompile(`^::(error|warning|notice) (file=[^,:\n]*,(line=\d+,endLine=\d+,(col=\d+,endColumn=\d+,)?)?)?title=[^:\n]*::`)

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
	// A file name with a terminal escape, a bell and a bidirectional
	// override, holding a thread with findings: its annotations carry the
	// name escaped, and IN-013 names the file.
	os.WriteFile(filepath.Join(dir, "t\x1b[31mred\a\u202enosj.json"), []byte(`{"thread_id": "RS-20260301-named", "messages": [{"id": 1, "subject": "Re: hi", "from": "A", "created_ts": "2026-03-01T10:00:00Z", "body_md": "x"}]}`), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	runs := [][]string{
		{"check", "--format", "github", "--repo-root", dir, "--out", out, dir},
		{"check", "--format", "text", dir},
		{"compile", "--out", filepath.Join(t.TempDir(), "c"), dir},
	}
	for _, args := range runs {
		_, stdout, stderr := runCLI(t, args...)
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
		if args[0] == "check" && !strings.Contains(stdout, "IN-013") {
			t.Errorf("%v: the file name with control characters is not reported (IN-013):\n%s", args, stdout)
		}
		if args[0] == "check" && strings.ContainsRune(stdout, '\u202e') {
			t.Errorf("%v: a bidirectional override reached standard output", args)
		}
	}
}

// TestCredentialsNeverEchoed: credentials in a subject, a thread id, a
// sender, a body and a delta field never reach standard output, standard
// error, annotations or any report; SC-001 says where they are.
func TestCredentialsNeverEchoed(t *testing.T) {
	ghp := "ghp_" + strings.Repeat("Zq9x", 9)
	aws := "AKIAZZZZQ7TESTKEY000"
	sk := "sk-" + strings.Repeat("k", 40)
	id := "RS-20260301-" + ghp
	body := "# Delta\n\n" + aws + "\n\n```delta\n{\"operation\": \"ADD\", \"section\": \"hypothesis_slate\", \"target_id\": null, \"payload\": {\"name\": \"" + sk + "\"}}\n```\n"
	msgs := []map[string]any{{"id": 1, "thread_id": id, "subject": "DELTA[gpt]: use " + ghp, "from": "Bot " + sk,
		"created_ts": "2026-03-01T10:00:00Z", "body_md": body}}
	data, _ := json.Marshal(map[string]any{"thread_id": id, "messages": msgs})
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "t.json"), data, 0o644)
	out := filepath.Join(t.TempDir(), "out")
	var all strings.Builder
	for _, format := range []string{"github", "text", "json", "sarif", "junit", "markdown"} {
		_, stdout, stderr := runCLI(t, "check", "--format", format, "--out", out, dir)
		all.WriteString(stdout + stderr)
	}
	_, cout, cerr := runCLI(t, "compile", dir)
	all.WriteString(cout + cerr)
	for _, name := range []string{"brenner-ci.sarif", "brenner-ci.json", "brenner-ci.md", "brenner-ci.junit.xml"} {
		b, _ := os.ReadFile(filepath.Join(out, name))
		all.Write(b)
	}
	text := all.String()
	for _, secret := range []string{ghp, aws, sk} {
		if strings.Contains(text, secret) {
			t.Errorf("credential %.8s… reached the output", secret)
		}
	}
	if !strings.Contains(text, "[SC-001]") || !strings.Contains(text, "[redacted GitHub token #") {
		t.Errorf("no SC-001 finding or no redaction marker")
	}
}
