//go:build unix

package reporters

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOpenRead: openRead reads a file whole, refuses a link to it, and
// opens a named pipe without waiting for a writer (a check must not hang
// on a file swapped for a pipe after its Lstat).
func TestOpenRead(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "t.json")
	want := make([]byte, 200<<10)
	for i := range want {
		want[i] = byte('a' + i%26)
	}
	os.WriteFile(file, want, 0o644)
	r, err := openRead(file)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil || string(got) != string(want) {
		t.Fatalf("read %d bytes (%v), want %d", len(got), err, len(want))
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	os.Symlink(file, link)
	if r, err := openRead(link); err == nil {
		r.Close()
		t.Fatal("openRead followed a link")
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("skipping the pipe: %v", err)
	}
	r, err = openRead(fifo) // would block without O_NONBLOCK
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
}
