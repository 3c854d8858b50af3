package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// leaked reports a run of 12 characters of secret's value (its prefix
// left out) that text holds: a credential cut short is still echoed.
func leaked(text, secret string) string {
	v := secret
	if i := strings.IndexAny(v, "_-"); i >= 0 && i < 8 {
		v = v[i+1:]
	}
	for i := 0; i+12 <= len(v); i++ {
		if strings.Contains(text, v[i:i+12]) {
			return v[i : i+12]
		}
	}
	return ""
}

// everything runs check in every format (and --out), returning standard
// output, standard error and every report file, concatenated.
func everything(t *testing.T, args ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	var all strings.Builder
	for _, format := range []string{"github", "text", "json", "sarif", "junit", "markdown"} {
		_, stdout, stderr := runCLI(t, append([]string{"check", "--format", format, "--out", out}, args...)...)
		all.WriteString(stdout + stderr)
		for _, name := range []string{"brenner-ci.sarif", "brenner-ci.json", "brenner-ci.md", "brenner-ci.junit.xml"} {
			b, _ := os.ReadFile(filepath.Join(out, name))
			all.Write(b)
		}
	}
	return all.String()
}

// TestNamesAndRunErrorsNeverEchoCredentials: a credential in a folder name,
// a file name, a path given on the command line or the text of a
// configuration error reaches no output and no report; SC-001 still
// reports the one in the subject.
func TestNamesAndRunErrorsNeverEchoCredentials(t *testing.T) {
	tok := func(c string) string { return "ghp_" + strings.Repeat(c+"q9x", 9) }
	folder, file, cfgTok, subj := tok("F"), tok("N"), tok("C"), tok("S")
	root := t.TempDir()
	dir := filepath.Join(root, "mb", "dir_"+folder)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	msgs := []map[string]any{{"id": 1, "thread_id": "RS-20260301-names", "subject": "KICKOFF: use " + subj, "from": "A",
		"created_ts": "2026-03-01T10:00:00Z", "body_md": "# Q\n"}}
	data, _ := json.Marshal(map[string]any{"thread_id": "RS-20260301-names", "messages": msgs})
	if err := os.WriteFile(filepath.Join(dir, file+"_old.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	text := everything(t, filepath.Join("mb", "dir_"+folder))
	for _, s := range []string{folder, file, subj} {
		if l := leaked(text, s); l != "" {
			t.Errorf("credential %.8s… reached the output (%q)", s, l)
		}
	}
	if !strings.Contains(text, "[SC-001]") || !strings.Contains(text, "[redacted GitHub token #") {
		t.Errorf("no SC-001 finding or no redaction marker")
	}

	// A configuration error quotes the configuration: every report says
	// the run could not run, without the credential.
	cfg := filepath.Join(root, "bad.yaml")
	os.WriteFile(cfg, []byte("fail-on: error\nrules:\n  "+cfgTok+": {severity: error}\n"), 0o644)
	text = everything(t, "--config", cfg, filepath.Join("mb", "dir_"+folder))
	for _, s := range []string{cfgTok, folder} {
		if l := leaked(text, s); l != "" {
			t.Errorf("the report of a run that could not run echoed credential %.8s… (%q)", s, l)
		}
	}
	if !strings.Contains(text, "could not run") || !strings.Contains(text, "unknown rule id") {
		t.Errorf("the configuration error is not reported:\n%.2000s", text)
	}
}

// TestArtifactNamesNeverHoldCredentials: compile --out and check --out
// name a thread's files after its id; an id that holds a credential gets
// no file (the name would publish it in the uploaded folder), and what is
// said about it is redacted.
func TestArtifactNamesNeverHoldCredentials(t *testing.T) {
	tok := "ghp_" + strings.Repeat("Aq9x", 9)
	id := "RS-20260301-" + tok
	msgs := []map[string]any{{"id": 1, "thread_id": id, "subject": "KICKOFF: Quorum timing", "from": "A",
		"created_ts": "2026-03-01T10:00:00Z", "body_md": "# Q\n"}}
	data, _ := json.Marshal(map[string]any{"thread_id": id, "messages": msgs})
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "t.json"), data, 0o644)
	for _, args := range [][]string{{"compile", "--compiled-body"}, {"check", "--format", "text", "--repo-root", dir}} {
		out := filepath.Join(t.TempDir(), "out")
		_, stdout, stderr := runCLI(t, append(args, "--out", out, dir)...)
		if l := leaked(stdout+stderr, tok); l != "" {
			t.Errorf("%v: the output holds %q", args, l)
		}
		filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
			if l := leaked(p, tok); l != "" {
				t.Errorf("%v wrote %s", args, p)
			}
			return nil
		})
		if !strings.Contains(stdout+stderr, "holds a credential (GitHub token)") {
			t.Errorf("%v: no word of the artifact not written:\n%s\n%s", args, stdout, stderr)
		}
	}
}

// TestClippedTextRedactedFirst: input text that a finding quotes cut short
// (a subject without a protocol prefix, an invalid created_ts, a JSON-RPC
// error message) is redacted before it is cut: a credential across the cut
// is not echoed in part (before, 35 of a token's 36 characters were).
func TestClippedTextRedactedFirst(t *testing.T) {
	tok := func(c string) string { return "ghp_" + strings.Repeat(c+"q9x", 9) }
	subj, ts, rpc := tok("S"), tok("T"), tok("R")
	msgs := []map[string]any{{"id": 1, "thread_id": "RS-20260301-clipped", "from": "A", "body_md": "# Q\n",
		// MB-001 quotes the subject cut to 60 runes: the token starts at 21.
		"subject":    "Re: hello world, see " + subj + " for the data",
		"created_ts": "2026-03-01T10:00:00Z"}, {"id": 2, "thread_id": "RS-20260301-clipped", "from": "A", "body_md": "# Q\n",
		"subject": "INFO: timing",
		// The invalid timestamp is quoted cut to 60 runes.
		"created_ts": strings.Repeat("x", 40) + ts}}
	data, _ := json.Marshal(map[string]any{"thread_id": "RS-20260301-clipped", "messages": msgs})
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "t.json"), data, 0o644)
	// The error message of a JSON-RPC response is quoted cut to 160 runes.
	rpcMsg := strings.Repeat("y", 130) + " " + rpc
	data, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "error": map[string]any{"code": -32000, "message": rpcMsg}})
	os.WriteFile(filepath.Join(dir, "rpc.json"), data, 0o644)
	text := everything(t, "--repo-root", dir, dir)
	for _, s := range []string{subj, ts, rpc} {
		if l := leaked(text, s); l != "" {
			t.Errorf("credential %.8s… reached the output in part (%q)", s, l)
		}
	}
	for _, rule := range []string{"[MB-001]", "[IN-003]", "JSON-RPC response is an error"} {
		if !strings.Contains(text, rule) {
			t.Errorf("no %s finding:\n%.3000s", rule, text)
		}
	}
}
