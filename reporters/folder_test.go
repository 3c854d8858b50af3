package reporters

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// hidden lists the folders being built beside target.
func hidden(t *testing.T, target string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestFolderCommit: the files are nowhere to be seen until Commit, which
// puts the whole folder in place with the modes a plain write gives.
func TestFolderCommit(t *testing.T) {
	target := filepath.Join(t.TempDir(), "out", "artifacts") // its parent made too
	f, err := NewFolder(target)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Create("a.md", writeString("content of a.md")); err != nil {
		t.Fatal(err)
	}
	big := make([]byte, 3<<20) // larger than one direct write (directWriteMax)
	for i := range big {
		big[i] = byte('a' + i%26)
	}
	if err := f.CreateBytes("b.md", []byte("content of b.md")); err != nil {
		t.Fatal(err)
	}
	if err := f.CreateBytes("big.md", big); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the target exists before Commit: %v", err)
	}
	if h := hidden(t, target); len(h) != 1 {
		t.Fatalf("hidden folders: %v", h)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a.md", "b.md"} {
		if got := readFile(t, filepath.Join(target, n)); got != "content of "+n {
			t.Errorf("%s: %q", n, got)
		}
	}
	if got := readFile(t, filepath.Join(target, "big.md")); got != string(big) {
		t.Errorf("big.md: %d bytes, want the %d written", len(got), len(big))
	}
	if h := hidden(t, target); len(h) != 0 {
		t.Errorf("hidden folders left: %v", h)
	}
	// The modes os.Mkdir(…, 0755) and os.WriteFile(…, 0644) give.
	refDir, refFile := filepath.Join(filepath.Dir(target), "ref"), filepath.Join(filepath.Dir(target), "ref.md")
	os.Mkdir(refDir, 0o755)
	os.WriteFile(refFile, nil, 0o644)
	for p, ref := range map[string]string{target: refDir, filepath.Join(target, "a.md"): refFile} {
		want, _ := os.Stat(ref)
		if fi, err := os.Lstat(p); err != nil || want == nil || fi.Mode() != want.Mode() {
			t.Errorf("%s: mode %v (%v), want %v", p, fi.Mode(), err, want.Mode())
		}
	}
	if err := f.Create("c.md", writeString("late")); !errors.Is(err, ErrInterrupted) {
		t.Errorf("Create after Commit: %v", err)
	}
	temps.mu.Lock()
	defer temps.mu.Unlock()
	if temps.folders[f] {
		t.Error("the committed folder is still tracked")
	}
}

// TestFolderCreateExisting: Create never replaces a file (nor follows a
// link put in the folder); Replace does, and the link's target is not
// written.
func TestFolderCreateExisting(t *testing.T) {
	dir := t.TempDir()
	f, err := NewFolder(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Discard()
	if err := f.Create("a.md", writeString("first")); err != nil {
		t.Fatal(err)
	}
	if err := f.Create("a.md", writeString("second")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Create over a file: %v, want it to exist", err)
	}
	if err := f.CreateBytes("a.md", []byte("second")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("CreateBytes over a file: %v, want it to exist", err)
	}
	if b, _ := f.ReadFile("a.md"); string(b) != "first" {
		t.Errorf("a.md: %q", b)
	}
	if err := f.Replace("a.md", writeString("second")); err != nil {
		t.Fatal(err)
	}
	if b, _ := f.ReadFile("a.md"); string(b) != "second" {
		t.Errorf("a.md after Replace: %q", b)
	}
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	if err := os.Symlink(victim, filepath.Join(f.dir, "b.md")); err != nil {
		t.Skip(err)
	}
	if err := f.Create("b.md", writeString("x")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Create over a link: %v", err)
	}
	if err := f.CreateBytes("b.md", []byte("x")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("CreateBytes over a link: %v", err)
	}
	if err := f.Replace("b.md", writeString("x")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, victim); got != "keep" {
		t.Errorf("the link's target was written: %q", got)
	}
}

// TestFolderNames: only plain file names are written, inside the folder.
func TestFolderNames(t *testing.T) {
	dir := t.TempDir()
	f, err := NewFolder(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Discard()
	for _, n := range []string{"", ".", "..", "../escape.md", "sub/a.md", "a\x00.md"} {
		if err := f.Create(n, writeString("x")); err == nil {
			t.Errorf("Create(%q) wrote a file", n)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "escape.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a file was written outside the folder: %v", err)
	}
}

// TestFolderFailedWrite: a file whose write fails is not left behind.
func TestFolderFailedWrite(t *testing.T) {
	f, err := NewFolder(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Discard()
	boom := errors.New("boom")
	if err := f.Create("a.md", func(w io.Writer) error { w.Write([]byte("half")); return boom }); !errors.Is(err, boom) {
		t.Errorf("Create: %v", err)
	}
	if _, err := f.ReadFile("a.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the failed file is there: %v", err)
	}
}

// TestFolderCommitTaken: when the target appeared meanwhile, Commit fails
// and leaves the folder to be read; Discard removes it.
func TestFolderCommitTaken(t *testing.T) {
	target := filepath.Join(t.TempDir(), "out")
	f, err := NewFolder(target)
	if err != nil {
		t.Fatal(err)
	}
	f.Create("a.md", writeString("new"))
	os.MkdirAll(target, 0o755)
	os.WriteFile(filepath.Join(target, "old.md"), []byte("someone else's"), 0o644)
	if err := f.Commit(); err == nil {
		t.Fatal("Commit over a folder with a file succeeded")
	}
	if b, err := f.ReadFile("a.md"); err != nil || string(b) != "new" {
		t.Errorf("ReadFile after the failed Commit: %q, %v", b, err)
	}
	f.Discard()
	if h := hidden(t, target); len(h) != 0 {
		t.Errorf("hidden folders left: %v", h)
	}
	if got := readFile(t, filepath.Join(target, "old.md")); got != "someone else's" {
		t.Errorf("the other folder changed: %q", got)
	}
}

// TestFolderInterrupt: Interrupt, while files are being written from
// several goroutines, removes the folder; nothing is committed and nothing
// is left.
func TestFolderInterrupt(t *testing.T) {
	t.Cleanup(func() {
		temps.mu.Lock()
		temps.interrupted = false
		temps.mu.Unlock()
	})
	target := filepath.Join(t.TempDir(), "out")
	f, err := NewFolder(target)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for i := range 200 {
				if err := f.Create(fmt.Sprintf("%d-%d.md", g, i), writeString("x")); errors.Is(err, ErrInterrupted) {
					return
				} else if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	close(start)
	if n := Interrupt(); n < 1 {
		t.Errorf("Interrupt removed %d", n)
	}
	wg.Wait()
	if err := f.Commit(); !errors.Is(err, ErrInterrupted) {
		t.Errorf("Commit after Interrupt: %v", err)
	}
	if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the target exists: %v", err)
	}
	if h := hidden(t, target); len(h) != 0 {
		t.Errorf("hidden folders left: %v", h)
	}
	if _, err := NewFolder(target + "2"); !errors.Is(err, ErrInterrupted) {
		t.Errorf("NewFolder after Interrupt: %v", err)
	}
}
