package reporters

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// noTemps fails when a temporary file is left in dir or tracked.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	if tmps, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(tmps) > 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
	temps.mu.Lock()
	defer temps.mu.Unlock()
	for name := range temps.files {
		if filepath.Dir(name) == dir {
			t.Errorf("temporary file still tracked: %s", name)
		}
	}
}

// TestAtomicLinkAtTargetNotFollowed: a symbolic link where a report goes is
// replaced by the report; the file it points to is not written.
func TestAtomicLinkAtTargetNotFollowed(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	victim := filepath.Join(elsewhere, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	path := filepath.Join(dir, "report.xml")
	if err := os.Symlink(victim, path); err != nil {
		t.Skip(err)
	}
	if err := WriteFileAtomic(path, writeString("report")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, victim); got != "keep" {
		t.Errorf("the link's target was written: %q", got)
	}
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the report is not a regular file: %v %v", fi, err)
	}
	if got := readFile(t, path); got != "report" {
		t.Errorf("report %q", got)
	}
	noTemps(t, dir)
}

// TestAtomicMode: a report is created with mode 0644 less the umask, as
// os.WriteFile(…, 0644) would, whatever the mode of the file it replaces;
// and its folder is made when missing.
func TestAtomicMode(t *testing.T) {
	dir := t.TempDir()
	ref := filepath.Join(dir, "ref")
	if err := os.WriteFile(ref, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	want, _ := os.Stat(ref)
	path := filepath.Join(dir, "sub", "deeper", "report.json")
	if err := WriteFileAtomic(path, writeString("{}")); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o600)
	if err := WriteFileAtomic(path, writeString("{}")); err != nil {
		t.Fatal(err)
	}
	if got, err := os.Stat(path); err != nil || got.Mode() != want.Mode() {
		t.Errorf("mode %v (%v), want %v", got.Mode(), err, want.Mode())
	}
}

// TestAtomicFailedWriteKeepsOld: a single file whose write fails keeps its
// previous version and leaves no temporary file; the error names the file.
func TestAtomicFailedWriteKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.md")
	os.WriteFile(path, []byte("old"), 0o644)
	boom := errors.New("boom")
	err := WriteFileAtomic(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), path) {
		t.Errorf("error %v", err)
	}
	if got := readFile(t, path); got != "old" {
		t.Errorf("report %q, want the old one", got)
	}
	noTemps(t, dir)
}

// TestAtomicSet: files added from several goroutines are put in place
// together by Commit; a file whose write failed loses its previous
// version (no earlier run's report beside this run's); nothing temporary
// is left.
func TestAtomicSet(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "b", "failed"} {
		os.WriteFile(filepath.Join(dir, n), []byte("previous run"), 0o644)
	}
	var s Set
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("r%02d", i)
			if i == 0 {
				name = "a"
			} else if i == 1 {
				name = "b"
			}
			if err := s.Add(filepath.Join(dir, name), writeString("new "+name)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if err := s.Add(filepath.Join(dir, "failed"), func(io.Writer) error { return errors.New("boom") }); err == nil {
		t.Error("a failing write gave no error")
	}
	// Staged, not in place yet.
	if got := readFile(t, filepath.Join(dir, "a")); got != "previous run" {
		t.Errorf("a before Commit: %q", got)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b", "r15"} {
		if got := readFile(t, filepath.Join(dir, n)); got != "new "+n {
			t.Errorf("%s: %q", n, got)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "failed")); !os.IsNotExist(err) {
		t.Errorf("the previous version of a report that failed is still there: %v", err)
	}
	noTemps(t, dir)
}

// TestAtomicUnwritableFolder: a report whose folder cannot be made (a file
// is in the way; root ignores permissions, so this is the portable case)
// fails on Add with one line naming it, and the rest of the set is written.
func TestAtomicUnwritableFolder(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "file"), nil, 0o644)
	var s Set
	bad := filepath.Join(dir, "file", "report.xml")
	err := s.Add(bad, writeString("x"))
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), filepath.Join(dir, "file")) {
		t.Errorf("error %q: want one line naming the folder", err)
	}
	if err := s.Add(filepath.Join(dir, "ok.xml"), writeString("x")); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(); err != nil {
		t.Errorf("commit: %v", err)
	}
	if got := readFile(t, filepath.Join(dir, "ok.xml")); got != "x" {
		t.Errorf("ok.xml %q", got)
	}
	noTemps(t, dir)
}

// TestAtomicInterrupt: Interrupt removes every staged temporary file; the
// Commit that follows puts nothing in place (the previous run's set stays
// whole) and every later write fails with ErrInterrupted.
func TestAtomicInterrupt(t *testing.T) {
	t.Cleanup(func() {
		temps.mu.Lock()
		temps.interrupted = false
		temps.mu.Unlock()
	})
	dir := t.TempDir()
	for _, n := range []string{"a", "b"} {
		os.WriteFile(filepath.Join(dir, n), []byte("previous run"), 0o644)
	}
	var s Set
	for _, n := range []string{"a", "b"} {
		if err := s.Add(filepath.Join(dir, n), writeString("new")); err != nil {
			t.Fatal(err)
		}
	}
	if n := Interrupt(); n != 2 {
		t.Errorf("Interrupt removed %d files, want 2", n)
	}
	if err := s.Commit(); !errors.Is(err, ErrInterrupted) {
		t.Errorf("Commit after Interrupt: %v", err)
	}
	for _, n := range []string{"a", "b"} {
		if got := readFile(t, filepath.Join(dir, n)); got != "previous run" {
			t.Errorf("%s: %q", n, got)
		}
	}
	if err := WriteFileAtomic(filepath.Join(dir, "c"), writeString("x")); !errors.Is(err, ErrInterrupted) {
		t.Errorf("write after Interrupt: %v", err)
	}
	noTemps(t, dir)
}

// TestAtomicSetAddAgain: of a path added twice, the version added last is
// the one committed (the check writes its reports again when the SARIF
// file adds a notification), and no temporary file is left; a second write
// that fails leaves no version of the path, as a first failed write does.
func TestAtomicSetAddAgain(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	os.WriteFile(b, []byte("old"), 0o644)
	var s Set
	for _, c := range []struct {
		path  string
		write func(io.Writer) error
	}{
		{a, writeString("one")}, {b, writeString("kept")}, {a, writeString("two")},
		{b, writeString("first")}, {b, func(io.Writer) error { return errors.New("disk full") }},
	} {
		s.Add(c.path, c.write)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, a); got != "two" {
		t.Errorf("a.json = %q, want the second version", got)
	}
	if _, err := os.Stat(b); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("b.json, whose last write failed, still exists: %v", err)
	}
	noTemps(t, dir)
}

// TestAtomicWritersReused: Add's buffered writers are reused, and what one
// file's write left in a writer (a write that failed half way) never
// reaches another file, however many files are written at once and
// whatever their sizes (some larger than a writer's buffer).
func TestAtomicWritersReused(t *testing.T) {
	dir := t.TempDir()
	var s Set
	var wg sync.WaitGroup
	want := map[string]string{}
	for i := range 48 {
		name := filepath.Join(dir, fmt.Sprintf("f%02d", i))
		body := strings.Repeat(fmt.Sprintf("%02d", i), 1+i*i*40) // 2 B to 180 KB
		want[name] = body
		wg.Add(2)
		go func() {
			defer wg.Done()
			if err := s.Add(name, writeString(body)); err != nil {
				t.Error(err)
			}
		}()
		go func() { // a write that fails after leaving bytes in its writer
			defer wg.Done()
			s.Add(filepath.Join(dir, fmt.Sprintf("bad%02d", i)), func(w io.Writer) error {
				io.WriteString(w, "LEFTOVER")
				return errors.New("boom")
			})
		}()
	}
	wg.Wait()
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	for name, body := range want {
		if got := readFile(t, name); got != body {
			t.Errorf("%s: %d bytes, want %d (holds LEFTOVER: %v)", filepath.Base(name), len(got), len(body), strings.Contains(got, "LEFTOVER"))
		}
	}
	noTemps(t, dir)
}

// TestAtomicFolderAtTarget: a folder where a report goes is left alone, and
// Commit says the report could not be put there (rename(2) refuses, as
// os.Rename's check did); the staged file is removed.
func TestAtomicFolderAtTarget(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "r.sarif")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(target, "keep"), []byte("x"), 0o644)
	for _, empty := range []bool{false, true} {
		if empty {
			os.Remove(filepath.Join(target, "keep"))
		}
		var s Set
		if err := s.Add(target, writeString("report")); err != nil {
			t.Fatal(err)
		}
		err := s.Commit()
		if err == nil || !strings.Contains(err.Error(), "r.sarif") {
			t.Errorf("empty=%v: Commit over a folder: %v", empty, err)
		}
		if fi, err := os.Lstat(target); err != nil || !fi.IsDir() {
			t.Errorf("empty=%v: the folder was replaced: %v", empty, err)
		}
		noTemps(t, dir)
	}
}
