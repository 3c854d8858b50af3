package tempfile

import (
	"errors"
	"os"
	"runtime"
	"testing"
)

// TestUnlinked: the file is writable and readable, its name is gone at once
// where the system allows (Linux, macOS) and after done everywhere, and
// done closes it.
func TestUnlinked(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	f, done, err := Unlinked("x-*")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("data"), 0); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 4)
	if _, err := f.ReadAt(b, 0); err != nil || string(b) != "data" {
		t.Fatalf("read back %q, %v", b, err)
	}
	if _, err := os.Stat(f.Name()); runtime.GOOS != "windows" && err == nil {
		t.Errorf("%s is still there while the file is open", f.Name())
	}
	done()
	if _, err := os.Stat(f.Name()); err == nil {
		t.Errorf("%s is still there after done", f.Name())
	}
	if _, err := f.Write([]byte("x")); err == nil {
		t.Error("the file is still open after done")
	}
}

// TestRemoveLeft: a file whose name could not be removed at once (as on
// Windows) is removed by done, or by RemoveLeft when done never comes.
func TestRemoveLeft(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	defer func() { removeNow = os.Remove }()
	removeNow = func(string) error { return errors.New("in use") }
	f1, done1, err := Unlinked("x-*")
	if err != nil {
		t.Fatal(err)
	}
	f2, _, err := Unlinked("y-*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*os.File{f1, f2} {
		if _, err := os.Stat(f.Name()); err != nil {
			t.Fatalf("%s: %v (the removal was to fail)", f.Name(), err)
		}
	}
	done1()
	if _, err := os.Stat(f1.Name()); err == nil {
		t.Errorf("%s is still there after done", f1.Name())
	}
	if n := RemoveLeft(); n != 1 {
		t.Errorf("RemoveLeft removed %d files, want 1", n)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("%s left in the temporary folder", ents[0].Name())
	}
	if RemoveLeft() != 0 {
		t.Error("a second RemoveLeft found files")
	}
}
