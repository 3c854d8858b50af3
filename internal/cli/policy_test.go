package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	for p, c := range map[string]string{
		".git/HEAD":                              "ref: refs/heads/main\n",
		".brenner-ci.yaml":                       "fail-on: warning\n",
		"mailbox/RS-20260301-quorum-timing.json": string(data),
		"mailbox/.brenner-ci.yaml":               "fail-on: none\nrules:\n  MG-006: off\n",
	} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
	if !strings.Contains(stdout, "mailbox/.brenner-ci.yaml:1:10: warning:") || !strings.Contains(stdout, "[SP-005]") {
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
