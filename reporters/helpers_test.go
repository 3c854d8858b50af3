package reporters_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters"
)

func TestPaths(t *testing.T) {
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "repo", "threads"), 0o755))
	must(os.MkdirAll(filepath.Join(root, "elsewhere"), 0o755))
	must(os.WriteFile(filepath.Join(root, "repo", "threads", "a b.json"), []byte("one\ntwo\r\nthree é\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "elsewhere", "x.json"), []byte("x\n"), 0o644))
	must(os.Symlink(filepath.Join(root, "elsewhere"), filepath.Join(root, "repo", "out")))
	must(os.Symlink("threads", filepath.Join(root, "repo", "alias")))
	// Files that are links: Paths resolves folders, never the link itself
	// (brenner-ci reads no file through a link: a finding there is about
	// the link).
	must(os.Symlink("a b.json", filepath.Join(root, "repo", "threads", "ln.json")))
	must(os.Symlink(filepath.Join(root, "elsewhere", "x.json"), filepath.Join(root, "repo", "threads", "away.json")))
	// The root itself is reached through a symbolic link.
	must(os.Symlink(filepath.Join(root, "repo"), filepath.Join(root, "link")))
	t.Chdir(filepath.Join(root, "repo"))
	p := reporters.NewPaths(filepath.Join(root, "link"))

	for _, c := range []struct {
		file, rel  string
		ok, exists bool
	}{
		{"threads/a b.json", "threads/a b.json", true, true},
		{"./threads/../threads/a b.json", "threads/a b.json", true, true},
		{filepath.Join(root, "link", "threads", "a b.json"), "threads/a b.json", true, true},
		{"alias/a b.json", "threads/a b.json", true, true},  // resolved, as GitHub needs
		{"threads/ln.json", "threads/ln.json", true, false}, // the link, which is no regular file
		{"alias/ln.json", "threads/ln.json", true, false},
		{"threads/away.json", "threads/away.json", true, false},
		{"out/x.json", "", false, false}, // a link leaving the repository
		{"threads/missing.json", "threads/missing.json", true, false},
		{"../elsewhere/x.json", "", false, false},
		{"", "", false, false},
		{".", "", false, false},
		{"threads", "threads", true, false}, // a directory is not a file
	} {
		rel, ok := p.Rel(c.file)
		fi := p.File(c.file)
		if rel != c.rel || ok != c.ok || fi.OK != c.exists {
			t.Errorf("%q: Rel = %q, %v; File.OK = %v (%s); want %q, %v, %v", c.file, rel, ok, fi.OK, fi.Reason, c.rel, c.ok, c.exists)
		}
	}
	fi := p.File("threads/a b.json")
	if fi.Lines.N != 3 || fi.Lines.LastEnd != 8 {
		t.Errorf("lines %d, last line end %d; want 3, 8", fi.Lines.N, fi.Lines.LastEnd)
	}
	if got := p.Display("../elsewhere/x.json"); got != "../elsewhere/x.json" {
		t.Errorf("Display outside: %q", got)
	}
	if got, want := p.RootURI(), "file://"+filepath.ToSlash(p.Root())+"/"; got != want {
		t.Errorf("RootURI %q, want %q", got, want)
	}
}

func TestEscapePath(t *testing.T) {
	for in, want := range map[string]string{
		"threads/a.json":     "threads/a.json",
		"docs/with space.md": "docs/with%20space.md",
		"a:b/c#d?e%f.md":     "a%3Ab/c%23d%3Fe%25f.md",
		"é/[x].md":           "%C3%A9/%5Bx%5D.md",
	} {
		if got := reporters.EscapePath(in); got != want {
			t.Errorf("EscapePath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClampRegion(t *testing.T) {
	fi := reporters.FileInfo{OK: true, Lines: diag.Lines{N: 3, LastEnd: 8}}
	for _, c := range []struct {
		in   [4]int
		want reporters.Region
	}{
		{[4]int{0, 0, 0, 0}, reporters.Region{1, 1, 1, 1}},
		{[4]int{2, 0, 0, 0}, reporters.Region{2, 1, 2, 1}},
		{[4]int{2, 5, 2, 3}, reporters.Region{2, 5, 2, 5}},
		{[4]int{2, 5, 4, 1}, reporters.Region{2, 5, 3, 8}}, // ends after the last newline
		{[4]int{9, 2, 12, 4}, reporters.Region{3, 1, 3, 8}},
	} {
		if got := reporters.ClampRegion(c.in[0], c.in[1], c.in[2], c.in[3], fi); got != c.want {
			t.Errorf("ClampRegion%v = %+v, want %+v", c.in, got, c.want)
		}
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                   "plain",
		"a\r\nb\nc\rd\te":         "a b c d e",
		"bell\x07 esc\x1b[31m x":  "bell esc[31m x",
		"bad \xff utf8 \uFFFD ok": "bad  utf8 \uFFFD ok",
		"c1 \u0085 del \x7f":      "c1  del ",
	} {
		if got := reporters.OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGates(t *testing.T) {
	r := &diag.Report{
		Findings:     []diag.Finding{{Severity: diag.Error}, {Severity: diag.Warning}, {Severity: diag.Note}},
		Fingerprints: []string{"a:1", "b:1", "c:1"},
		FailOn:       diag.Warning,
	}
	if n := reporters.Gating(r); n != 2 || !reporters.Failed(r) {
		t.Errorf("fail-on warning: %d", n)
	}
	r.CompareWith(map[string]bool{"a:1": true})
	if n := reporters.Gating(r); n != 1 {
		t.Errorf("with baseline: %d", n)
	}
	if n := reporters.NewCount(r); n != 2 {
		t.Errorf("new: %d", n)
	}
	r.FailOn = diag.Off
	if reporters.Failed(r) || reporters.FailOnName(r.FailOn) != "none" {
		t.Error("fail-on none failed")
	}
	r.FailOn = diag.Note
	r.CompareWith(nil)
	if n := reporters.Gating(r); n != 3 {
		t.Errorf("fail-on note: %d", n)
	}
}

// TestPathsRedactCredentials: a file or folder name that holds a
// credential is never given out as it is: Display shows it redacted
// (inside the root, outside it, and for a file that does not exist), Rel
// and File say it cannot be located, so no link or code scanning result
// points at it; other paths keep their form.
func TestPathsRedactCredentials(t *testing.T) {
	tok := "ghp_" + strings.Repeat("Zq9x", 9)
	root := t.TempDir()
	dir := filepath.Join(root, "dir_"+tok)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, tok+"_old.json")
	if err := os.WriteFile(file, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := reporters.NewPaths(root)
	for _, f := range []string{file, filepath.Join(dir, "missing.json"), "/elsewhere/" + tok + "/x.json", "dir_" + tok + "/x.json"} {
		shown := p.Display(f)
		if strings.Contains(shown, tok[4:20]) || !strings.Contains(shown, "[redacted GitHub token #") {
			t.Errorf("Display(%q) = %q", f, shown)
		}
		if rel, ok := p.Rel(f); ok || strings.Contains(rel, tok[4:20]) {
			t.Errorf("Rel(%q) = %q, %v", f, rel, ok)
		}
		if fi := p.File(f); fi.OK || strings.Contains(fi.Rel, tok[4:20]) {
			t.Errorf("File(%q) = %+v", f, fi)
		}
		if p.Display(f) != shown {
			t.Errorf("Display(%q) is not stable", f)
		}
	}
	if fi := p.File(file); fi.Reason != "its path holds a credential" || !strings.HasPrefix(fi.Rel, "dir_[redacted GitHub token #") {
		t.Errorf("File(%q) = %+v", file, fi)
	}
	plain := filepath.Join(root, "plain.json")
	os.WriteFile(plain, []byte("{}\n"), 0o644)
	if rel, ok := p.Rel(plain); !ok || rel != "plain.json" || p.Display(plain) != "plain.json" || !p.File(plain).OK {
		t.Errorf("plain path: %q %v %q %+v", rel, ok, p.Display(plain), p.File(plain))
	}
	// The text form of a finding names its file the same way.
	f := diag.Finding{Rule: "SC-001", Message: "m", Pos: diag.Pos{File: "mb/" + tok + ".json", Line: 1}}
	if s := f.String(); strings.Contains(s, tok[4:20]) {
		t.Errorf("Finding.String() = %q", s)
	}
}

func TestEveryFinding(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	r := &diag.Report{RepoRoot: root}
	for _, c := range []struct {
		outputs []diag.Output
		want    string
	}{
		{nil, "The JSON report (--json FILE, or --out DIR) lists every finding."},
		{[]diag.Output{{Format: "sarif", Path: "r.sarif"}, {Format: "markdown", Path: "r.md"}, {Format: "github"}},
			"The JSON report (--json FILE, or --out DIR) lists every finding; this run did not write it."},
		{[]diag.Output{{Format: "text"}}, "Every finding is in this run's text output."},
		{[]diag.Output{{Format: "junit", Path: filepath.Join(root, "out", "r.xml")}, {Format: "json", Path: "out/r.json"}, {Format: "text"}},
			"Every finding is in this run's JSON report, JUnit report and text output."},
		{[]diag.Output{{Format: "json"}}, "Every finding is in this run's JSON output."},
	} {
		r.Outputs = c.outputs
		if got := reporters.EveryFinding(r); got != c.want {
			t.Errorf("%v:\n got  %q\n want %q", c.outputs, got, c.want)
		}
	}
}
