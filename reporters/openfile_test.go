//go:build unix

package reporters

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/localfs"
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

// TestCreateExcl: the staged file is created only when absent, takes every
// byte written to it (a large write and empty ones), and is closed once.
func TestCreateExcl(t *testing.T) {
	name := filepath.Join(t.TempDir(), "staged")
	f, err := createExcl(name)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name() != name {
		t.Errorf("name %q", f.Name())
	}
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<17) // 2 MiB
	for _, p := range [][]byte{nil, want[:5], {}, want[5:]} {
		if n, err := f.Write(p); n != len(p) || err != nil {
			t.Fatalf("write of %d bytes: %d, %v", len(p), n, err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err == nil {
		t.Error("a second Close did not fail")
	}
	if got, _ := os.ReadFile(name); !bytes.Equal(got, want) {
		t.Errorf("read back %d bytes, want %d", len(got), len(want))
	}
	if _, err := createExcl(name); !errors.Is(err, fs.ErrExist) {
		t.Errorf("creating it again: %v, want it to exist", err)
	}
}

// TestCreateExclDirect: a file created in a folder of a local file system
// is written and closed directly (localfs), and holds what was written
// whether a write is at most directWriteMax bytes (direct) or more
// (ordinary); the direct and ordinary paths give the same errors.
func TestCreateExclDirect(t *testing.T) {
	dir := t.TempDir()
	for _, direct := range []bool{true, false} {
		for _, size := range []int{0, 1, 6 << 10, directWriteMax, directWriteMax + 1, 64 << 10, 3*directWriteMax + 7} {
			p := filepath.Join(dir, fmt.Sprintf("f-%t-%d", direct, size))
			w, err := createExcl(p)
			if err != nil {
				t.Fatal(err)
			}
			fw := w.(*fdWriter)
			if fw.direct != localfs.Dir(dir) {
				t.Fatalf("direct %t in a folder localfs.Dir says is %t", fw.direct, localfs.Dir(dir))
			}
			fw.direct = direct
			data := bytes.Repeat([]byte{'x', 'y', 'z'}, size/3+1)[:size]
			if n, err := w.Write(data); n != size || err != nil {
				t.Errorf("direct %t, %d bytes: wrote %d, %v", direct, size, n, err)
			}
			if err := w.Close(); err != nil {
				t.Errorf("direct %t, %d bytes: close: %v", direct, size, err)
			}
			if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, data) {
				t.Errorf("direct %t, %d bytes: the file holds %d bytes (%v)", direct, size, len(got), err)
			}
			if _, err := w.Write([]byte("x")); !errors.Is(err, syscall.EBADF) && !errors.Is(err, os.ErrClosed) {
				t.Errorf("direct %t: a write after close: %v", direct, err)
			}
			if err := w.Close(); !errors.Is(err, os.ErrClosed) {
				t.Errorf("direct %t: a second close: %v, want os.ErrClosed", direct, err)
			}
		}
	}
	if _, err := createExcl(filepath.Join(dir, "f-true-1")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("creating an existing file: %v, want fs.ErrExist", err)
	}
	if _, err := createExcl(filepath.Join(dir, "absent", "f")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("creating in a missing folder: %v, want fs.ErrNotExist", err)
	}
}
