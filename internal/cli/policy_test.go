package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// policyRepo is a repository whose root configuration fails on warnings and
// whose mailbox/ holds the demo thread (which has warnings) and, added by a
// pull request, a configuration that would turn the gate off.
func policyRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(demo(t), "mailbox", "RS-20260301-quorum-timing.json"))
	if err != nil {
		t.Fatal(err)
	}
	testutil.WriteTree(t, dir, map[string]string{
		".git/HEAD":                              "ref: refs/heads/main\n",
		".brenner-ci.yaml":                       "fail-on: warning\n",
		"mailbox/RS-20260301-quorum-timing.json": string(data),
		"mailbox/.brenner-ci.yaml":               "fail-on: none\nrules:\n  MG-006: off\n",
	})
	return dir
}

// TestConfigBelowRootCannotTurnTheGateOff: the attack — a pull
// request adds mailbox/.brenner-ci.yaml with fail-on: none. The run still
// fails on errors, reports the relaxations (SP-005) at the file, and every
// report names the configuration that applied.
func TestConfigBelowRootCannotTurnTheGateOff(t *testing.T) {
	dir := policyRepo(t)
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "check", "--repo-root", dir, "--out", out, filepath.Join(dir, "mailbox"))
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the root's fail-on warning still gates)\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "mailbox/.brenner-ci.yaml:1:10: error:") || !strings.Contains(stdout, "[SP-005]") {
		t.Errorf("no SP-005 at the nested configuration's fail-on:\n%s", stdout)
	}
	if !strings.Contains(stdout, "rule MG-006 is off here") {
		t.Errorf("the disabled rule is not reported:\n%s", stdout)
	}
	if !strings.Contains(stdout, "brenner-ci: configuration: mailbox/.brenner-ci.yaml (found below the repository root") {
		t.Errorf("the text output does not name the configuration:\n%s", stdout)
	}
	md, _ := os.ReadFile(filepath.Join(out, "brenner-ci.md"))
	if !strings.Contains(string(md), "Configuration: mailbox/.brenner-ci.yaml") {
		t.Errorf("the markdown report does not name the configuration")
	}
	var rep struct {
		Config struct{ File, How, Base string } `json:"config"`
	}
	raw, _ := os.ReadFile(filepath.Join(out, "brenner-ci.json"))
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Config.File != "mailbox/.brenner-ci.yaml" || rep.Config.How != "below-root" || rep.Config.Base != ".brenner-ci.yaml" {
		t.Errorf("JSON config = %+v", rep.Config)
	}
	junit, _ := os.ReadFile(filepath.Join(out, "brenner-ci.junit.xml"))
	if !strings.Contains(string(junit), `<property name="configuration" value="configuration: mailbox/.brenner-ci.yaml (found below the repository root`) {
		t.Errorf("the JUnit report does not name the configuration")
	}
	sarif, _ := os.ReadFile(filepath.Join(out, "brenner-ci.sarif"))
	if !strings.Contains(string(sarif), `"brenner-ci/configuration-file":"mailbox/.brenner-ci.yaml"`) {
		t.Errorf("the SARIF invocation does not name the configuration")
	}
}

// TestPinnedConfigIgnoresOthers: --config pins the configuration; a file
// next to the inputs is not read (not even parsed) and not reported.
func TestPinnedConfigIgnoresOthers(t *testing.T) {
	dir := policyRepo(t)
	if err := os.WriteFile(filepath.Join(dir, "mailbox", ".brenner-ci.yaml"), []byte("fail-on: [broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "check", "--repo-root", dir, "--config", filepath.Join(dir, ".brenner-ci.yaml"), filepath.Join(dir, "mailbox"))
	if code != 0 {
		t.Fatalf("exit %d, want 0: the broken file next to the inputs was read\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "SP-005") {
		t.Errorf("a pinned run compared configurations:\n%s", stdout)
	}
	if !strings.Contains(stdout, "brenner-ci: configuration: .brenner-ci.yaml (pinned with --config") {
		t.Errorf("the text output does not say the configuration was pinned:\n%s", stdout)
	}
	// Without --config the same broken file governs discovery: a usage
	// error (exit 2), not a silent pass.
	if code, _, _ := runCLI(t, "check", "--repo-root", dir, filepath.Join(dir, "mailbox")); code != 2 {
		t.Errorf("discovered broken configuration: exit %d, want 2", code)
	}
}

// TestGraphCommand: graph writes the genealogy of the references among the
// inputs in each format; the markdown report embeds it.
func TestGraphCommand(t *testing.T) {
	dir := filepath.Join(testutil.ModuleRoot(t), "testdata", "rules", "RF-005", "fail")
	for format, want := range map[string]string{
		"mermaid": "-->|refines|",
		"dot":     `[label="refines"]`,
		"json":    `"relation": "refines"`,
	} {
		code, out, stderr := runCLI(t, "graph", "--format", format, dir)
		if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "Lineage") {
			t.Errorf("graph --format %s: exit %d, output lacks %q:\n%s%s", format, code, want, out, stderr)
		}
	}
	if code, _, _ := runCLI(t, "graph", t.TempDir()); code != 2 {
		t.Errorf("graph of an empty folder: exit %d, want 2", code)
	}
	_, md, _ := runCLI(t, "check", "--format", "markdown", dir)
	if !strings.Contains(md, "### Session genealogy") || !strings.Contains(md, "```mermaid\nflowchart LR") {
		t.Errorf("the markdown report does not draw the genealogy:\n%s", md)
	}
}

// nestedRepo is a repository with no root configuration whose
// mailbox/thread.json has two errors (MB-003, MB-004), and whose
// mailbox/.brenner-ci.yaml, added by a pull request, holds nested.
func nestedRepo(t *testing.T, nested string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(t), "testdata", "ingest", "thread", "thread.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	testutil.WriteTree(t, dir, map[string]string{
		".git/HEAD":                "ref: refs/heads/main\n",
		"mailbox/thread.json":      string(data),
		"mailbox/.brenner-ci.yaml": nested,
	})
	return dir
}

// TestNestedConfigCannotOpenTheGate: each way a configuration added below
// the repository root could turn the default gate off is not applied: the
// thread's errors are still reported, the run fails, and SP-005 (an error)
// names the relaxation at its line. (Before, each exited 0 "passed", with
// at most a warning.)
func TestNestedConfigCannotOpenTheGate(t *testing.T) {
	for name, nested := range map[string]string{
		"ignore everything": "ignore: [\"**\"]\n",
		"rules off":         "rules:\n  MB-003: off\n  MB-004: off\n",
		"rules to note":     "rules:\n  MB-003: note\n  MB-004: note\n",
		"overrides on **":   "overrides:\n  - paths: [\"**\"]\n    rules: {MB-003: off, MB-004: off}\n",
		"suppress entries":  "suppress:\n  - {rule: MB-003, thread: quorum-sensing}\n  - {rule: MB-004, thread: quorum-sensing}\n",
		"merge key":         "<<: {ignore: [\"**\"], fail-on: none}\n",
		"fail-on none":      "fail-on: none\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := nestedRepo(t, nested)
			code, stdout, stderr := runCLI(t, "check", "--repo-root", dir, filepath.Join(dir, "mailbox"))
			if code != 1 {
				t.Fatalf("exit %d, want 1: the nested configuration opened the gate\n%s%s", code, stdout, stderr)
			}
			for _, want := range []string{"error: DELTA message body is empty", "[MB-004]", "[MB-003]"} {
				if !strings.Contains(stdout, want) {
					t.Errorf("%q missing: the relaxation was applied\n%s", want, stdout)
				}
			}
			if !strings.Contains(stdout, "mailbox/.brenner-ci.yaml:") || !strings.Contains(stdout, "error: This configuration below the repository root relaxes") {
				t.Errorf("no SP-005 error at the nested configuration:\n%s", stdout)
			}
		})
	}
}

// TestNestedConfigMayTighten: what makes the root's configuration
// stricter applies from a nested file: a rule raised, a stricter fail-on,
// a lower limit; none of it is an SP-005 finding.
func TestNestedConfigMayTighten(t *testing.T) {
	dir := nestedRepo(t, "fail-on: note\nrules:\n  MB-014: error\n")
	code, stdout, stderr := runCLI(t, "check", "--repo-root", dir, filepath.Join(dir, "mailbox"))
	if code != 1 || strings.Contains(stdout, "[SP-005]") {
		t.Fatalf("exit %d (want 1), SP-005 reported for a tightening:\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "error: KICKOFF body has no \"## Excerpt\" section. [MB-014]") {
		t.Errorf("the raised MB-014 did not apply:\n%s", stdout)
	}
	if !strings.Contains(stdout, "(fail-on note: failed)") {
		t.Errorf("the stricter fail-on did not apply:\n%s", stdout)
	}
	dir = nestedRepo(t, "limits:\n  json-depth: 3\n")
	_, stdout, _ = runCLI(t, "check", "--repo-root", dir, filepath.Join(dir, "mailbox"))
	if !strings.Contains(stdout, "may nest at most 3 levels") || strings.Contains(stdout, "[SP-005]") {
		t.Errorf("the lower json-depth did not apply, or was reported:\n%s", stdout)
	}
}

// TestNestedConfigCannotRaiseLimits: limits: raised below the root are not
// applied (a raised json-depth or body-bytes brought back stack overflows
// and multi-GB reads); each is an SP-005 error at its line.
func TestNestedConfigCannotRaiseLimits(t *testing.T) {
	dir := nestedRepo(t, "limits:\n  json-depth: 100000\n  body-bytes: 1000000000\n")
	deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
	if err := os.WriteFile(filepath.Join(dir, "mailbox", "deep.json"), []byte(`{"messages": `+deep+`}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "check", "--repo-root", dir, filepath.Join(dir, "mailbox"))
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "may nest at most 1000 levels") {
		t.Errorf("the raised json-depth applied:\n%s", stdout)
	}
	for _, want := range []string{"mailbox/.brenner-ci.yaml:2:15: error:", "json-depth 100000 is above 1000", "mailbox/.brenner-ci.yaml:3:15: error:", "body-bytes 1000000000 is above 1048576"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("%q missing:\n%s", want, stdout)
		}
	}
}

// TestLinksInTheRepositoryAreNotFollowed: a pull request commits
// evidence.json or .brenner-ci.yaml as a symbolic link to /dev/zero (which
// ran the run out of memory, no report) or to a runner file (whose first
// bytes were quoted into every report). Neither is read: the evidence pack
// is reported unreadable at its path, the configuration is a configuration
// error (exit 2, "could not run" reports written), and no byte of the
// target reaches a report.
func TestLinksInTheRepositoryAreNotFollowed(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links to /dev/zero: not on Windows")
	}
	secret := filepath.Join(t.TempDir(), "runner-credentials")
	if err := os.WriteFile(secret, []byte("RUNNER-SECRET-CONTENT {"), 0o600); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(testutil.ModuleRoot(t), "testdata", "rules", "EV-004", "pass")
	for _, target := range []string{"/dev/zero", secret} {
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, ".git"), nil, 0o644) // the repository root
		ev := filepath.Join(dir, "artifacts", "RS-20260310-ev-unverified", "evidence.json")
		os.Remove(ev)
		if err := os.Symlink(target, ev); err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		code, stdout, stderr := runCLI(t, "check", "--repo-root", dir, "--out", out, "--fail-on", "none", dir)
		if code != 0 || !strings.Contains(stdout, "evidence.json") || !strings.Contains(stdout, "symbolic link") {
			t.Errorf("evidence.json -> %s: exit %d; want 0 and the link reported at its path\n%s%s", target, code, stdout, stderr)
		}
		if strings.Contains(stdout+stderr, "RUNNER-SECRET") {
			t.Errorf("the link's target was read into the output")
		}

		os.Remove(ev)
		if err := os.Symlink(target, filepath.Join(dir, ".brenner-ci.yaml")); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr = runCLI(t, "check", "--repo-root", dir, "--out", out, dir)
		if code != 2 || !strings.Contains(stdout+stderr, "symbolic link") {
			t.Errorf(".brenner-ci.yaml -> %s: exit %d; want 2, a configuration error naming the link\n%s%s", target, code, stdout, stderr)
		}
		md, err := os.ReadFile(filepath.Join(out, "brenner-ci.md"))
		if err != nil || !strings.Contains(string(md), "could not run") {
			t.Errorf("the markdown report does not say the run could not run: %v", err)
		}
		if strings.Contains(stdout+stderr+string(md), "RUNNER-SECRET") {
			t.Errorf("the link's target was read into a report")
		}
	}
}
