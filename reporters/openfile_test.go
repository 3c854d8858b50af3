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
	r, err := openRead(file, int64(len(want)))
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
	if r, err := openRead(link, int64(len(want))); err == nil {
		r.Close()
		t.Fatal("openRead followed a link")
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("skipping the pipe: %v", err)
	}
	r, err = openRead(fifo, 0) // would block without O_NONBLOCK
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
}

// TestOpenReadSized: a read that reaches the size the stat gave returns
// io.EOF with its bytes (the empty read after it is not made), and a file
// that grew or shrank since its stat is read to its end all the same.
func TestOpenReadSized(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "t.json")
	data := []byte("line one\nline two\n")
	os.WriteFile(file, data, 0o644)
	r, err := openRead(file, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	buf := make([]byte, 100)
	if n, err := r.Read(buf); n != len(data) || err != io.EOF {
		t.Fatalf("one read of the whole file gave %d bytes and %v, want %d and io.EOF", n, err, len(data))
	}
	for _, size := range []int64{0, 5, int64(len(data)) - 1, int64(len(data)) + 7} {
		r, err := openRead(file, size)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		r.Close()
		if err != nil || string(got) != string(data) {
			t.Fatalf("stat size %d: read %q (%v), want the whole file", size, got, err)
		}
	}
}
