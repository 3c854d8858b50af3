package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
)

func known(id string) bool { return strings.HasPrefix(id, "MB-") || strings.HasPrefix(id, "TH-") }

func TestParse(t *testing.T) {
	src := `fail-on: warning
agents: [A, B]
ignore: ["vendor/**", "*.tmp.json"]
rules:
  MB-001: off
  MB-002: {severity: warning}
  TH-005: {enabled: false}
overrides:
  - paths: ["legacy/**"]
    rules: {MB-002: note}
suppress:
  - {rule: MB-003, thread: RS-20260101-x, message: "12", reason: why}
`
	c, err := Parse("c.yaml", []byte(src), known)
	if err != nil {
		t.Fatal(err)
	}
	if c.FailOn != "warning" || len(c.Agents) != 2 || len(c.Suppress) != 1 || c.SuppressLine[0] != 12 {
		t.Fatalf("decoded %+v", c)
	}
	for _, tc := range []struct {
		id, path  string
		def, want diag.Severity
	}{
		{"MB-001", "a.json", diag.Error, diag.Off},
		{"MB-002", "a.json", diag.Error, diag.Warning},
		{"MB-002", "legacy/x/a.json", diag.Error, diag.Note},
		{"TH-005", "a.json", diag.Error, diag.Off},
		{"MB-003", "a.json", diag.Error, diag.Error},
	} {
		if got := c.Severity(tc.id, tc.path, tc.def); got != tc.want {
			t.Errorf("Severity(%s, %s) = %v, want %v", tc.id, tc.path, got, tc.want)
		}
	}
	for path, want := range map[string]bool{"vendor/a/b.json": true, "x/vendor/a.json": false, "a/b.tmp.json": true, "a.json": false} {
		if got := c.Ignored(path); got != want {
			t.Errorf("Ignored(%s) = %v", path, got)
		}
	}
}

func TestErrorsHavePositions(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"fail-on: error\nbogus: 1\n", "c.yaml:2:"},
		{"rules:\n  MB-001: {severity: loud}\n", "c.yaml:2:"},
		{"rules:\n  XX-001: off\n", "c.yaml:2:"},
		{"fail-on: sometimes\n", "c.yaml:1:"},
		{"rules: [\n", "c.yaml:"},
		{"suppress:\n  - {rule: MB-003}\n", "c.yaml:2:"},
	} {
		_, err := Parse("c.yaml", []byte(tc.src), known)
		var ce *Error
		if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want prefix %s", tc.src, err, tc.want)
		}
	}
}

func TestFindStopsAtRepoRoot(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "repo", ".git"), 0o755)
	os.MkdirAll(filepath.Join(root, "repo", "a", "b"), 0o755)
	os.WriteFile(filepath.Join(root, FileName), []byte(""), 0o644) // above the repo: never used
	if got, _ := Find(filepath.Join(root, "repo", "a", "b")); got != "" {
		t.Errorf("Find crossed the repository root: %s", got)
	}
	os.WriteFile(filepath.Join(root, "repo", "a", FileName), []byte(""), 0o644)
	if got, _ := Find(filepath.Join(root, "repo", "a", "b")); got != filepath.Join(root, "repo", "a", FileName) {
		t.Errorf("Find = %q", got)
	}
}

func TestGlob(t *testing.T) {
	for _, c := range []struct {
		g, p string
		ok   bool
	}{
		{"**/*.json", "a/b/c.json", true}, {"**/*.json", "c.json", true}, {"a/*.json", "a/b/c.json", false},
		{"a/**", "a/b/c.json", true}, {"*.md", "x/y.md", true}, {"artifacts", "artifacts/x.md", true},
	} {
		p, err := Glob(c.g)
		if err != nil {
			t.Fatal(err)
		}
		if p.Match(c.p) != c.ok {
			t.Errorf("Glob(%q) on %q = %v", c.g, c.p, !c.ok)
		}
	}
}

// TestGlobsRelativeToConfigFile: ignore and override globs are matched
// against paths relative to the configuration file's folder, so a run from
// another working directory gives the same result.
func TestGlobsRelativeToConfigFile(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "repo")
	if err := os.MkdirAll(filepath.Join(sub, "legacy"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(sub, FileName)
	os.WriteFile(cfgPath, []byte("ignore: [\"legacy/**\"]\noverrides:\n  - paths: [\"threads/*.json\"]\n    rules: {MB-001: off}\n"), 0o644)
	for _, wd := range []string{dir, sub, filepath.Join(sub, "legacy")} {
		t.Run(filepath.Base(wd), func(t *testing.T) {
			t.Chdir(wd)
			rel := func(p string) string {
				r, err := filepath.Rel(wd, filepath.Join(sub, p))
				if err != nil {
					t.Fatal(err)
				}
				return filepath.ToSlash(r)
			}
			cfgRel, _ := filepath.Rel(wd, cfgPath)
			c, err := Load(cfgRel, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !c.Ignored(rel("legacy/a.json")) || c.Ignored(rel("threads/a.json")) {
				t.Errorf("ignore from %s: legacy %v, threads %v", wd, c.Ignored(rel("legacy/a.json")), c.Ignored(rel("threads/a.json")))
			}
			if c.Severity("MB-001", rel("threads/a.json"), diag.Error) != diag.Off || c.Severity("MB-001", rel("other/a.json"), diag.Error) != diag.Error {
				t.Errorf("override from %s not applied relative to the config file", wd)
			}
		})
	}
}

func TestLimits(t *testing.T) {
	c, err := Parse("c.yaml", []byte("limits:\n  file-bytes: 10\n  body-bytes: 20\n  json-depth: 30\n"), nil)
	if err != nil || c.Limits != (Limits{FileBytes: 10, BodyBytes: 20, JSONDepth: 30}) {
		t.Fatalf("limits %+v, %v", c.Limits, err)
	}
	for _, bad := range []string{"limits:\n  json-depth: -1\n", "limits:\n  files: 3\n"} {
		if _, err := Parse("c.yaml", []byte(bad), nil); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestTightenTurnsOnWhatTheRootTurnedOff: a rule the root turns off and a
// nested file turns on runs (the engine must not skip it) at the nested
// file's severity; a rule the nested file turns off stays on.
func TestTightenTurnsOnWhatTheRootTurnedOff(t *testing.T) {
	base, err := Parse("/r/.brenner-ci.yaml", []byte("rules:\n  MB-014: off\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	nested, err := Parse("/r/mailbox/.brenner-ci.yaml", []byte("rules:\n  MB-014: warning\n  MB-004: off\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	eff := Tighten(base, "/r", nested)
	if eff.OffEverywhere("MB-014") || eff.Severity("MB-014", "mailbox/t.json", diag.Error) != diag.Warning {
		t.Errorf("MB-014: off everywhere %t, severity %s; want on, warning", eff.OffEverywhere("MB-014"), eff.Severity("MB-014", "mailbox/t.json", diag.Error))
	}
	if eff.OffEverywhere("MB-004") || eff.Severity("MB-004", "mailbox/t.json", diag.Error) != diag.Error {
		t.Errorf("MB-004 was turned off by the nested file")
	}
	if !base.OffEverywhere("MB-014") || base.tighter != nil {
		t.Errorf("Tighten modified the root's configuration")
	}
}

// TestWalkKnowsTheFileName: the walk passes over the configuration file by
// name (it is read as the configuration); both packages name the same file.
func TestWalkKnowsTheFileName(t *testing.T) {
	if mailbox.ConfigFiles != FileNames || FileNames[0] != FileName {
		t.Errorf("mailbox.ConfigFiles %q, config.FileNames %q, config.FileName %q", mailbox.ConfigFiles, FileNames, FileName)
	}
}

// TestBothFileNames: .brenner-ci.yml is found like .brenner-ci.yaml, at the
// root and below it; both in one folder is an error naming both.
func TestBothFileNames(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.MkdirAll(filepath.Join(dir, "mailbox", "deep"), 0o755)
	yml := filepath.Join(dir, ".brenner-ci.yml")
	os.WriteFile(yml, []byte("rules:\n  MB-001: off\n"), 0o644)
	res, err := Resolve("", filepath.Join(dir, "mailbox", "deep"), "", known)
	if err != nil || res.Config == nil || res.Config.Path != yml || res.Below {
		t.Fatalf("root .brenner-ci.yml: %+v, %v", res, err)
	}
	// Below the root, under the other name: it only tightens the root's.
	nested := filepath.Join(dir, "mailbox", FileName)
	os.WriteFile(nested, []byte("rules:\n  MB-002: off\n"), 0o644)
	res, err = Resolve("", filepath.Join(dir, "mailbox", "deep"), "", known)
	if err != nil || !res.Below || res.Base == nil || res.Base.Path != yml || res.Config.Path != nested {
		t.Fatalf("nested .brenner-ci.yaml under a root .brenner-ci.yml: %+v, %v", res, err)
	}
	if res.Effective.Severity("MB-002", "mailbox/t.json", diag.Error) != diag.Error {
		t.Errorf("the nested file relaxed the root's")
	}
	// Both names in one folder.
	os.WriteFile(filepath.Join(dir, FileName), []byte(""), 0o644)
	os.Remove(nested)
	_, err = Resolve("", filepath.Join(dir, "mailbox"), "", known)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, FileName)) || !strings.Contains(err.Error(), yml) {
		t.Errorf("both names at the root: %v", err)
	}
	// Both below the root: an error too, not the one or the other.
	os.Remove(filepath.Join(dir, FileName))
	os.WriteFile(filepath.Join(dir, "mailbox", ".brenner-ci.yml"), []byte(""), 0o644)
	os.WriteFile(filepath.Join(dir, "mailbox", FileName), []byte(""), 0o644)
	if _, err = Resolve("", filepath.Join(dir, "mailbox", "deep"), "", known); err == nil || !strings.Contains(err.Error(), "mailbox") {
		t.Errorf("both names below the root: %v", err)
	}
	// A pinned file is the only one read.
	if res, err = Resolve(yml, filepath.Join(dir, "mailbox"), "", known); err != nil || res.Config.Path != yml {
		t.Errorf("pinned: %+v, %v", res, err)
	}
}

// TestGlobClassesAndAlternatives: ignore and override globs are
// doublestar globs: [...] classes and {a,b} alternatives work (they used to
// match themselves, literally); a pattern without '/' still matches the
// base name or any part of the path; one with '/' the path from the
// configuration's folder, or a folder the path is in.
func TestGlobClassesAndAlternatives(t *testing.T) {
	for _, c := range []struct {
		g, p string
		ok   bool
	}{
		{"*.{json,jsonl}", "a/b.jsonl", true}, {"*.{json,jsonl}", "a/b.md", false},
		{"threads/RS-2026010[1-3]-*.json", "threads/RS-20260102-x.json", true},
		{"threads/RS-2026010[1-3]-*.json", "threads/RS-20260104-x.json", false},
		{"{legacy,old}/**", "old/a.json", true}, {"{legacy,old}/**", "new/a.json", false},
		{"{legacy,old}", "x/old/a.json", true}, {"[lo]*", "x/old/a.json", true}, {"[!a]*.md", "x/old/a.md", false},
		{`a\[1\].json`, "x/a[1].json", true},
		// Today's semantics, kept.
		{"*.md", "x/y.md", true}, {"artifacts", "x/artifacts/y.md", true}, {"a/*.json", "a/b/c.json", false},
		{"a/b", "a/b/c.json", true}, {"./a/b", "a/b/c.json", true}, {"a/b", "x/a/b/c.json", false},
	} {
		p, err := Glob(c.g)
		if err != nil {
			t.Fatalf("Glob(%q): %v", c.g, err)
		}
		if p.Match(c.p) != c.ok {
			t.Errorf("Glob(%q) on %q = %v", c.g, c.p, !c.ok)
		}
	}
	cfg, err := Parse("c.yaml", []byte("ignore: [\"*.{tmp,bak}.json\"]\noverrides:\n  - paths: [\"legacy/RS-2026010[1-3]-*\"]\n    rules: {MB-001: off}\n"), known)
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Ignored("x/a.bak.json") || cfg.Ignored("x/a.json") {
		t.Errorf("ignore {tmp,bak}: %v %v", cfg.Ignored("x/a.bak.json"), cfg.Ignored("x/a.json"))
	}
	if cfg.Severity("MB-001", "legacy/RS-20260102-x.json", diag.Error) != diag.Off || cfg.Severity("MB-001", "legacy/RS-20260109-x.json", diag.Error) != diag.Error {
		t.Errorf("override with a class not applied as a class")
	}
	// A pattern that is not a glob is an error at its item.
	for src, want := range map[string]string{
		"ignore: [a, \"b[\"]\n":                              `c.yaml:1:13: ignore: "b[" is not a valid glob`,
		"overrides:\n  - paths: [\"{a,b\"]\n    rules: {}\n": `c.yaml:2:13: overrides[0].paths: "{a,b" is not a valid glob`,
	} {
		if _, err := Parse("c.yaml", []byte(src), known); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: error %v, want %s", src, err, want)
		}
	}
}
