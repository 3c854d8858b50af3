package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteUnder: artifacts are written inside the output folder only: a
// path that leaves it is refused, a symbolic link at the target or on the
// way is refused and not followed (the file it points to is untouched), a
// file in place of a folder is refused, each with one line; a good write
// replaces the previous version and leaves no temporary file.
func TestWriteUnder(t *testing.T) {
	out, elsewhere := t.TempDir(), t.TempDir()
	victim := filepath.Join(elsewhere, "victim.md")
	os.WriteFile(victim, []byte("keep"), 0o644)
	os.MkdirAll(filepath.Join(out, "artifacts"), 0o755)
	if err := os.Symlink(victim, filepath.Join(out, "artifacts", "link.md")); err != nil {
		t.Skip(err)
	}
	os.Symlink(elsewhere, filepath.Join(out, "via"))
	os.WriteFile(filepath.Join(out, "plain"), nil, 0o644)

	for rel, why := range map[string]string{
		"":                     "not a relative path",
		"/abs.md":              "not a relative path",
		"a\x00b.md":            "not a relative path",
		"..":                   "leaves the output folder",
		"../x.md":              "leaves the output folder",
		"artifacts/../../x.md": "leaves the output folder",
		"artifacts/link.md":    "symbolic link",
		"via/victim.md":        "symbolic link",
		"via/new.md":           "symbolic link",
		"plain/x.md":           "not a directory",
	} {
		err := writeUnder(out, rel, bytesWriter([]byte("written")))
		if err == nil || !strings.Contains(err.Error(), why) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want one line saying %q", rel, err, why)
		}
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep" {
		t.Errorf("written through a link: %q", data)
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 1 {
		t.Errorf("files written outside the output folder: %v", ents)
	}

	for _, content := range []string{"first", "second"} {
		if err := writeUnder(out, "artifacts/sub/T-1.md", bytesWriter([]byte(content))); err != nil {
			t.Fatal(err)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(out, "artifacts", "sub", "T-1.md")); string(data) != "second" {
		t.Errorf("artifact %q", data)
	}
	filepath.Walk(out, func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.Contains(fi.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

// TestWriteUnderMadeFolder: in a folder the run made itself, files are not
// stat'ed one by one; a link put there meanwhile is replaced by the
// artifact, never written through.
func TestWriteUnderMadeFolder(t *testing.T) {
	out, elsewhere := t.TempDir(), t.TempDir()
	victim := filepath.Join(elsewhere, "victim.md")
	os.WriteFile(victim, []byte("keep"), 0o644)
	if err := writeUnder(out, "made/first.md", bytesWriter([]byte("one"))); err != nil {
		t.Fatal(err)
	}
	if made, _ := safeDirs.Load(filepath.Join(out, "made")); made != true {
		t.Fatalf("the folder the run made is not known as made: %v", made)
	}
	if err := os.Symlink(victim, filepath.Join(out, "made", "second.md")); err != nil {
		t.Skip(err)
	}
	if err := writeUnder(out, "made/second.md", bytesWriter([]byte("two"))); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep" {
		t.Errorf("written through a link: %q", data)
	}
	fi, err := os.Lstat(filepath.Join(out, "made", "second.md"))
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the link was not replaced by the artifact: %v %v", fi, err)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "made", "second.md")); string(data) != "two" {
		t.Errorf("artifact %q", data)
	}
}
