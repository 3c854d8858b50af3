package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// TestConfigVerify: config verify reads the configuration check would read
// for the path (the same discovery, or --config alone), says what it found
// and exits 0, or lists every error at its line and column and exits 2.
func TestConfigVerify(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteTree(t, dir, map[string]string{
		".git/HEAD":                "ref: refs/heads/main\n",
		".brenner-ci.yml":          "fail-on: warning\nagents: [A, B]\nrules:\n  MB-001: off\n",
		"mailbox/t.json":           "{}\n",
		"nested/.brenner-ci.yaml":  "fail-on: none\nrules:\n  MB-002: note\n",
		"bad/.brenner-ci.yaml":     "rules:\n  MB-001: {enable: false}\nlimit:\n  file-bytes: 3\n",
		"badid/.brenner-ci.yaml":   "overrides:\n  - paths: [\"a/**\"]\n    rules: {MB-01: off}\n",
		"both/.brenner-ci.yaml":    "",
		"both/.brenner-ci.yml":     "",
		"pinned.yaml":              "fail-on: error\nignore: [\"x/**\"]\n",
		"elsewhere/nothing/a.json": "{}\n",
	})
	t.Chdir(dir)

	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout []string // lines it holds
		stderr []string
	}{
		{"root", []string{"mailbox"}, ExitOK, []string{
			"brenner-ci: configuration: .brenner-ci.yml (the repository's)",
			".brenner-ci.yml: valid: fail-on warning; 2 agents; 1 rule setting",
		}, nil},
		{"default path", nil, ExitOK, []string{"brenner-ci: configuration: .brenner-ci.yml (the repository's)"}, nil},
		{"below the root", []string{"nested"}, ExitOK, []string{
			"brenner-ci: configuration: nested/.brenner-ci.yaml (found below the repository root; it may only tighten .brenner-ci.yml",
			".brenner-ci.yml: valid: fail-on warning; 2 agents; 1 rule setting",
			"nested/.brenner-ci.yaml: valid: fail-on none; 1 rule setting",
			"nested/.brenner-ci.yaml:1:10: not applied (SP-005 in check): fail-on none is more lenient than the repository's warning",
			"nested/.brenner-ci.yaml:3:11: not applied (SP-005 in check): rule MB-002 is note here and error in the repository's configuration",
		}, nil},
		{"pinned", []string{"--config", "pinned.yaml", "nested"}, ExitOK, []string{
			"brenner-ci: configuration: pinned.yaml (pinned with --config; no other file read)",
			"pinned.yaml: valid: fail-on error; 1 ignore glob",
		}, nil},
		{"unknown keys", []string{"bad"}, ExitUsage, nil, []string{
			`brenner-ci: configuration error: ` + filepath.Join(dir, "bad", ".brenner-ci.yaml") + `:2:12: unknown key "enable" in rules.MB-001; did you mean "enabled"?`,
			`brenner-ci: configuration error: ` + filepath.Join(dir, "bad", ".brenner-ci.yaml") + `:3:1: unknown key "limit"; did you mean "limits"?`,
		}},
		{"unknown id", []string{"badid"}, ExitUsage, nil, []string{
			`brenner-ci: configuration error: ` + filepath.Join(dir, "badid", ".brenner-ci.yaml") + `:3:13: unknown rule id "MB-01" in overrides[0]; did you mean "MB-001"?`,
		}},
		{"both names", []string{"both"}, ExitUsage, nil, []string{
			`brenner-ci: configuration error: ` + filepath.Join(dir, "both", ".brenner-ci.yaml") + `: ` + filepath.Join(dir, "both", ".brenner-ci.yml") + ` is present too; keep one of the two`,
		}},
		{"missing pinned file", []string{"--config", "nope.yaml"}, ExitUsage, nil, []string{"brenner-ci: configuration error: nope.yaml: "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append([]string{"config", "verify"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			for _, want := range tc.stdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout does not hold %q:\n%s", want, stdout)
				}
			}
			for _, want := range tc.stderr {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr does not hold %q:\n%s", want, stderr)
				}
			}
		})
	}
	// Outside any repository and configuration: the defaults.
	t.Chdir(t.TempDir())
	if code, stdout, _ := runCLI(t, "config", "verify"); code != ExitOK || !strings.Contains(stdout, "brenner-ci: configuration: none (defaults)") {
		t.Errorf("no configuration: exit %d\n%s", code, stdout)
	}
}
