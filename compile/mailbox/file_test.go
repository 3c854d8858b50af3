package mailbox

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestInputFile holds openInput to os.File's behaviour where Scan and
// Load rely on it: whole reads to io.EOF, positioned reads (short at the
// end with io.EOF), fstat, and *fs.PathError errors that read as os.Open's.
func TestInputFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "t.json")
	data := bytes.Repeat([]byte(`{"a": "b"}`+"\n"), 1000)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := openInput(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ReadAll: %d bytes, %v", len(got), err)
	}
	if n, err := f.Read(make([]byte, 8)); n != 0 || err != io.EOF {
		t.Fatalf("Read at the end: %d, %v", n, err)
	}
	b := make([]byte, 20)
	if n, err := f.ReadAt(b, 11); n != 20 || err != nil || !bytes.Equal(b, data[11:31]) {
		t.Fatalf("ReadAt: %d, %v, %q", n, err, b)
	}
	if n, err := f.ReadAt(b, int64(len(data))-5); n != 5 || err != io.EOF || !bytes.Equal(b[:5], data[len(data)-5:]) {
		t.Fatalf("ReadAt over the end: %d, %v", n, err)
	}
	st, err := f.Stat()
	os1, _ := os.Stat(p)
	if err != nil || !st.regular || st.size != int64(len(data)) || st.mtime != os1.ModTime().UnixNano() {
		t.Fatalf("Stat: %+v, %v (os: %d %d)", st, err, os1.Size(), os1.ModTime().UnixNano())
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err == nil {
		t.Error("a second Close succeeded")
	}
	if d, err := openInput(dir); err != nil {
		t.Errorf("opening a directory: %v", err)
	} else if st, err := d.Stat(); err != nil || st.regular {
		t.Errorf("a directory's Stat: %+v, %v", st, err)
	} else {
		d.Close()
	}
	missing := filepath.Join(dir, "missing.json")
	_, err = openInput(missing)
	_, osErr := os.Open(missing)
	var pe *fs.PathError
	if !errors.As(err, &pe) || !errors.Is(err, fs.ErrNotExist) || err.Error() != osErr.Error() || plainErr(err).Error() != plainErr(osErr).Error() {
		t.Errorf("opening a missing file: %v; os.Open says %v", err, osErr)
	}
}
