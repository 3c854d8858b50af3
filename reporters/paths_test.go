package reporters

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
)

// TestCountLinesFrom: the streamed line count equals diag.CountLines on the whole
// file, whatever the chunk size cuts (runes, CRLF pairs, invalid bytes).
func TestCountLinesFrom(t *testing.T) {
	cases := []string{"", "a", "a\n", "a\r\n", "a\r", "\n", "\n\n", "ab\ncd", "ab\r\ncd\r\n", "é\nüñï\r\n😀x", "x\n😀\r", "\xff\xfe\n\x80abc", "é", "\r\n\r\n", "a\rb\n"}
	for i := 0; i < 50; i++ {
		var b strings.Builder
		for j := 0; j < i*7; j++ {
			b.WriteString([]string{"a", "é", "😀", "\n", "\r\n", "\r", "\xff", "\xe2\x82"}[(i*31+j*17)%8])
		}
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		w := diag.CountLines([]byte(c))
		wl, we := w.N, w.LastEnd
		for _, chunk := range []int{1, 2, 3, 5, 64 << 10} {
			l, e, err := countLinesFrom(strings.NewReader(c), chunk)
			if err != nil || l != wl || e != we {
				t.Errorf("%q chunk %d: %d lines, end %d (%v); want %d, %d", c, chunk, l, e, err, wl, we)
			}
		}
	}
}

// TestRelShortcut: computeRel answers the same with and without the
// shortcut for paths whose folders hold no link, in a root that is its own
// real path: existing and missing files, a file that is a link, folders
// reached through links inside and out of the repository.
func TestRelShortcut(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(base, "repo")
	for _, d := range []string{"threads/deep", "other"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(base, "elsewhere"), 0o755)
	os.WriteFile(filepath.Join(repo, "threads", "a.json"), []byte("{}\n"), 0o644)
	os.WriteFile(filepath.Join(base, "elsewhere", "x.json"), []byte("{}\n"), 0o644)
	os.Symlink("a.json", filepath.Join(repo, "threads", "ln.json"))
	os.Symlink(filepath.Join(base, "elsewhere"), filepath.Join(repo, "out"))
	os.Symlink("threads", filepath.Join(repo, "alias"))
	t.Chdir(repo)
	files := []string{"threads/a.json", "threads/missing.json", "threads/ln.json", "threads/deep", "threads/deep/none.json",
		"alias/a.json", "alias/missing.json", "out/x.json", "out/missing.json", "../elsewhere/x.json", "../nowhere/y.json",
		"nofolder/z.json", filepath.Join(repo, "threads", "a.json"), "/", "threads/../other/../threads/a.json", "."}
	answer := func(shortcut bool) []string {
		relShortcut = shortcut
		defer func() { relShortcut = true }()
		p := NewPaths(repo)
		var out []string
		for _, f := range files {
			rel, ok := p.computeRel(f)
			fi := p.File(f)
			out = append(out, fmt.Sprintf("%s %q %v %v %s", f, rel, ok, fi.OK, fi.Reason))
		}
		return out
	}
	with, without := answer(true), answer(false)
	for i := range files {
		if with[i] != without[i] {
			t.Errorf("with the shortcut %s; without %s", with[i], without[i])
		}
	}
}

// TestPathsAbs: Paths.abs answers as filepath.Abs does in the working
// directory the Paths was made in, and keeps that directory: a report's
// paths are those of the run that named them, and the directory is not
// asked for again (os.Getwd stats two folders a call).
func TestPathsAbs(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo, other := filepath.Join(base, "repo"), filepath.Join(base, "other")
	for _, d := range []string{filepath.Join(repo, "threads"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(repo, "threads", "a.json"), []byte("{}\n"), 0o644)
	t.Chdir(repo)
	p := NewPaths(repo)
	for _, f := range []string{"threads/a.json", "./threads//a.json", "threads/../x.json", "../other/y.json", ".", "..", "a b/c", filepath.Join(repo, "threads", "a.json"), "/x/../y", "/"} {
		want, err := filepath.Abs(f)
		if got, ok := p.abs(f); err != nil || !ok || got != want {
			t.Errorf("abs(%q) = %q, %v; filepath.Abs: %q, %v", f, got, ok, want, err)
		}
	}
	t.Chdir(other)
	if rel, ok := p.computeRel("threads/a.json"); !ok || rel != "threads/a.json" {
		t.Errorf("after a change of directory: computeRel = %q, %v; want threads/a.json, true", rel, ok)
	}
	if fi := p.File("threads/a.json"); !fi.OK {
		t.Errorf("after a change of directory: File not OK: %s", fi.Reason)
	}
}

// TestAdopt: a resolver made by NewPaths(r.RepoRoot) before report r
// existed, and used, becomes PathsFor(r), reading r.Lines; one made for
// another root is not adopted.
func TestAdopt(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(base, "repo")
	os.MkdirAll(filepath.Join(repo, "threads"), 0o755)
	os.WriteFile(filepath.Join(repo, "threads", "a.json"), []byte("{}\n"), 0o644)
	t.Chdir(repo)
	lines := map[string]diag.Lines{"threads/a.json": {N: 7, LastEnd: 3}}
	r := &diag.Report{RepoRoot: repo, Lines: lines}
	early := NewPaths(repo)
	if got := early.Display("threads/a.json"); got != "threads/a.json" {
		t.Fatalf("Display before adoption: %q", got)
	}
	Adopt(r, early)
	if PathsFor(r) != early {
		t.Fatal("PathsFor(r) is not the adopted resolver")
	}
	if fi := PathsFor(r).File("threads/a.json"); !fi.OK || fi.Lines.N != 7 {
		t.Errorf("File after adoption: %+v; want the 7 lines of r.Lines", fi)
	}
	other := &diag.Report{RepoRoot: filepath.Join(repo, "threads")}
	Adopt(other, NewPaths(repo))
	if p := PathsFor(other); p == early || p.Root() != filepath.Join(repo, "threads") {
		t.Errorf("a resolver of another root was adopted: root %s", p.Root())
	}
	Adopt(&diag.Report{}, nil) // nothing to adopt: no effect, no panic
}
