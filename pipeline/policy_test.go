package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
	"github.com/brenner-ci/brenner-ci/rules"
)

// repo writes files into a fresh repository folder and resolves the
// configuration of a check on its mailbox/ folder.
func repo(t *testing.T, files map[string]string) *config.Resolved {
	t.Helper()
	dir := t.TempDir()
	files[".git/HEAD"] = "ref: refs/heads/main\n"
	files["mailbox/t.json"] = "{}"
	testutil.WriteTree(t, dir, files)
	res, err := config.Resolve("", filepath.Join(dir, "mailbox"), "", rules.Known)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func policyFindings(t *testing.T, res *config.Resolved) []diag.Finding {
	t.Helper()
	out := Run(&Input{Config: res.Effective, Policy: res})
	var got []diag.Finding
	for _, f := range out.Findings {
		if f.Rule == "SP-005" {
			got = append(got, f)
		}
	}
	return got
}

// TestNestedConfigCannotSilenceItself: a configuration below the root
// that turns SP-005 off, ignores its own path and suppresses everything is
// still reported, with the severity the root's configuration gives SP-005.
func TestNestedConfigCannotSilenceItself(t *testing.T) {
	res := repo(t, map[string]string{
		".brenner-ci.yaml":         "rules:\n  SP-005: error\n",
		"mailbox/.brenner-ci.yaml": "fail-on: none\nrules:\n  SP-005: off\nignore:\n  - \"**\"\n",
	})
	if !res.Below || res.Base == nil {
		t.Fatalf("resolved %+v: want a configuration below the root with the root's as base", res)
	}
	got := policyFindings(t, res)
	if len(got) < 3 { // fail-on, SP-005 off, the ignore glob
		t.Fatalf("got %d SP-005 findings, want at least 3: %+v", len(got), got)
	}
	for _, f := range got {
		if f.Severity != diag.Error {
			t.Errorf("SP-005 at %v has severity %s; the root's configuration makes it error", f.Pos, f.Severity)
		}
		if !strings.HasSuffix(filepath.ToSlash(f.Pos.File), "mailbox/.brenner-ci.yaml") {
			t.Errorf("SP-005 reported at %s, want the nested configuration", f.Pos.File)
		}
	}
}

// TestRootConfigDecidesPolicy: the repository's own configuration can turn
// SP-005 off; a root configuration is never compared with anything; with no
// root configuration a nested one is compared with the defaults.
func TestRootConfigDecidesPolicy(t *testing.T) {
	off := repo(t, map[string]string{
		".brenner-ci.yaml":         "rules:\n  SP-005: off\n",
		"mailbox/.brenner-ci.yaml": "fail-on: none\n",
	})
	if got := policyFindings(t, off); len(got) != 0 {
		t.Errorf("the root turned SP-005 off, got %v", got)
	}
	root := repo(t, map[string]string{".brenner-ci.yaml": "fail-on: none\n"})
	if root.Below {
		t.Error("the root's configuration is reported as below the root")
	}
	if got := policyFindings(t, root); len(got) != 0 {
		t.Errorf("the root's own configuration was reported: %v", got)
	}
	defaults := repo(t, map[string]string{"mailbox/.brenner-ci.yaml": "rules:\n  MB-001: off\n"})
	got := policyFindings(t, defaults)
	if len(got) != 1 || !strings.Contains(got[0].Message, "the defaults") || got[0].Severity != diag.Error {
		t.Errorf("nested vs defaults: %+v", got)
	}
}

// TestPinnedConfigReadsNoOther: --config FILE is the only file read, even
// when a relaxing one lies next to the inputs.
func TestPinnedConfigReadsNoOther(t *testing.T) {
	dir := t.TempDir()
	pinned := filepath.Join(dir, "pinned.yaml")
	os.WriteFile(pinned, []byte("fail-on: note\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "mailbox"), 0o755)
	os.WriteFile(filepath.Join(dir, "mailbox", ".brenner-ci.yaml"), []byte("fail-on: [broken\n"), 0o644)
	res, err := config.Resolve(pinned, filepath.Join(dir, "mailbox"), dir, rules.Known)
	if err != nil {
		t.Fatalf("a broken file next to the inputs was read: %v", err)
	}
	if !res.Pinned || res.Below || res.Config.FailOn != "note" {
		t.Errorf("resolved %+v", res)
	}
}

// TestNestedFailOnNeverLowersTheGate: below the root, fail-on can be made
// stricter, never more lenient than the root's (or the default).
func TestNestedFailOnNeverLowersTheGate(t *testing.T) {
	for _, c := range []struct{ root, nested, want string }{
		{"fail-on: warning\n", "fail-on: none\n", "warning"},
		{"", "fail-on: none\n", ""}, // the default, error
		{"fail-on: warning\n", "fail-on: note\n", "note"},
	} {
		files := map[string]string{"mailbox/.brenner-ci.yaml": c.nested}
		if c.root != "" {
			files[".brenner-ci.yaml"] = c.root
		}
		if got := repo(t, files).FailOn(); got != c.want {
			t.Errorf("root %q, nested %q: fail-on %q, want %q", c.root, c.nested, got, c.want)
		}
	}
}
