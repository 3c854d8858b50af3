package localfs

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestLocal(t *testing.T) {
	for magic, want := range map[uint32]bool{
		0xEF53: true, 0x01021994: true, 0x794C7630: true, 0x58465342: true, 0x9123683E: true,
		0x6969: false, 0x65735546: false, 0xFF534D42: false, 0x01021997: false, 0: false,
	} {
		if got := Local(magic); got != want {
			t.Errorf("Local(%#x) = %t, want %t", magic, got, want)
		}
	}
}

// TestDir: the test's temporary folder is local here and on CI runners
// (when its file system is one Local knows); a folder that does not exist
// is not.
func TestDir(t *testing.T) {
	dir := t.TempDir()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil || !Local(uint32(st.Type)) {
		t.Skipf("skipping: %s is not on a file system Local knows (type %#x, %v)", dir, uint32(st.Type), err)
	}
	if !Dir(dir) || !Dir(dir+"/") {
		t.Errorf("Dir(%s) is false", dir)
	}
	if Dir(filepath.Join(dir, "absent")) {
		t.Error("a folder that does not exist is local")
	}
}

// TestDirectCallsMatchOrdinary holds the direct calls to the syscall
// package's: the same descriptors' contents, counts and errors.
func TestDirectCallsMatchOrdinary(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("0123456789abcdef"), 4096)
	type calls struct {
		open  func(string, int, uint32) (int, error)
		write func(int, []byte) (int, error)
		read  func(int, []byte) (int, error)
		pread func(int, []byte, int64) (int, error)
		close func(int) error
	}
	for name, c := range map[string]calls{
		"direct":   {Open, Write, Read, Pread, Close},
		"ordinary": {syscall.Open, syscall.Write, syscall.Read, syscall.Pread, syscall.Close},
	} {
		p := filepath.Join(dir, name)
		fd, err := c.open(p, syscall.O_RDWR|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, 0o640)
		if err != nil {
			t.Fatalf("%s: open: %v", name, err)
		}
		if n, err := c.write(fd, data); n != len(data) || err != nil {
			t.Errorf("%s: write: %d, %v", name, n, err)
		}
		buf := make([]byte, 100)
		if n, err := c.pread(fd, buf, 16); n != 100 || err != nil || !bytes.Equal(buf, data[16:116]) {
			t.Errorf("%s: pread: %d, %v, %q", name, n, err, buf[:n])
		}
		if n, err := c.read(fd, buf); n != 0 || err != nil {
			t.Errorf("%s: read at the end: %d, %v", name, n, err)
		}
		if err := c.close(fd); err != nil {
			t.Errorf("%s: close: %v", name, err)
		}
		if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: the file holds %d bytes (%v), want %d", name, len(got), err, len(data))
		}
		if st, err := os.Stat(p); err != nil || st.Mode().Perm()&^0o640 != 0 {
			t.Errorf("%s: mode %v (%v)", name, st.Mode(), err)
		}
		if _, err := c.open(p, syscall.O_RDWR|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, 0o640); !errors.Is(err, syscall.EEXIST) {
			t.Errorf("%s: creating an existing file: %v, want EEXIST", name, err)
		}
		if _, err := c.open(filepath.Join(dir, "absent", "x"), syscall.O_RDONLY, 0); !errors.Is(err, syscall.ENOENT) {
			t.Errorf("%s: opening in a missing folder: %v, want ENOENT", name, err)
		}
		if _, err := c.open("a\x00b", syscall.O_RDONLY, 0); !errors.Is(err, syscall.EINVAL) {
			t.Errorf("%s: a path with a NUL byte: %v, want EINVAL", name, err)
		}
		// -1, not the closed descriptor: its number may be open again.
		if _, err := c.write(-1, data[:1]); !errors.Is(err, syscall.EBADF) {
			t.Errorf("%s: writing no descriptor: %v, want EBADF", name, err)
		}
		if _, err := c.read(-1, buf); !errors.Is(err, syscall.EBADF) {
			t.Errorf("%s: reading no descriptor: %v, want EBADF", name, err)
		}
		if err := c.close(-1); !errors.Is(err, syscall.EBADF) {
			t.Errorf("%s: closing no descriptor: %v, want EBADF", name, err)
		}
	}
}
