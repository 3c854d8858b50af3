package run

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters"
)

// TestWarmPaths: warmPaths leaves in the report's reporters.Paths what the
// reports ask of it (checked after the files are removed, so that only a
// cached answer can still see them): every file's Display, and File (with
// its line count) for the files with findings when the SARIF report is
// written, for no other file.
func TestWarmPaths(t *testing.T) {
	for _, lines := range []bool{true, false} {
		dir := t.TempDir()
		for name, data := range map[string]string{"a.json": "{}\n", "b.json": "{\n}\n", "c.json": "{\n\n}"} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		file := func(name string) string { return filepath.ToSlash(filepath.Join(dir, name)) }
		r := &diag.Report{RepoRoot: dir,
			Threads:  []diag.Thread{{File: file("a.json")}, {File: file("b.json")}},
			Findings: []diag.Finding{{Pos: diag.Pos{File: file("b.json"), Line: 1}}, {Pos: diag.Pos{File: file("c.json"), Line: 2}}}}
		warmPaths(r, 2, lines)
		for _, name := range []string{"a.json", "b.json", "c.json"} {
			os.Remove(filepath.Join(dir, name))
		}
		p := reporters.PathsFor(r)
		for name, want := range map[string]int{"b.json": 2, "c.json": 3} {
			fi := p.File(file(name))
			switch {
			case lines && (!fi.OK || fi.Lines.N != want):
				t.Errorf("File(%s) after warmPaths = %+v, want OK with %d lines", name, fi, want)
			case !lines && fi.OK:
				t.Errorf("File(%s) was resolved with no SARIF report to write", name)
			}
		}
		if fi := p.File(file("a.json")); fi.OK {
			t.Errorf("File(a.json), a file with no finding, was resolved: %+v", fi)
		}
		for _, name := range []string{"a.json", "b.json", "c.json"} {
			if got := p.Display(file(name)); got != name {
				t.Errorf("Display(%s) = %q", name, got)
			}
		}
	}
}
