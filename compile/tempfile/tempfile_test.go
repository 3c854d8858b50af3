package tempfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
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

// TestSpill: records written by many goroutines at once are each read back
// from their place as written; with no folder to make the file in, Write
// says so (the caller keeps the record); a Spill closed before it was
// written makes no file.
func TestSpill(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var s Spill
	const n = 200
	ats := make([]At, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			at, ok := s.Write([]byte(strings.Repeat(strconv.Itoa(i), i%7+1)))
			if !ok {
				t.Errorf("record %d not written", i)
			}
			ats[i] = at
		}()
	}
	wg.Wait()
	for i, at := range ats {
		b, err := s.Read(at)
		if want := strings.Repeat(strconv.Itoa(i), i%7+1); err != nil || string(b) != want {
			t.Errorf("record %d read back as %q, %v; want %q", i, b, err, want)
		}
	}
	s.Close()
	if _, err := s.Read(ats[0]); err == nil {
		t.Error("a record read back after Close")
	}

	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	var bad Spill
	if _, ok := bad.Write([]byte("x")); ok {
		t.Error("a record written with no folder for the file")
	}
	if _, err := bad.Read(At{N: 1}); err == nil {
		t.Error("a record read back from a file never made")
	}
	bad.Close()

	var closed Spill
	closed.Close()
	if _, ok := closed.Write([]byte("x")); ok {
		t.Error("a record written after Close")
	}
}
