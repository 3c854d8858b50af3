package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestRead: a regular file within the limit is read; a link (to a file or
// to a device), a folder, a FIFO and a file over the limit are refused with
// the reason, without reading (a FIFO without a writer would block).
func TestRead(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "evidence.json")
	if err := os.WriteFile(file, []byte(`{"version":"0.1"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := Read(file, 100); err != nil || string(data) != `{"version":"0.1"}` {
		t.Fatalf("Read = %q, %v", data, err)
	}
	if _, err := Read(file, 5); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit: %v", err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(file, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if _, err := Read(link, 100); !errors.Is(err, ErrLink) {
		t.Errorf("link to a file: %v", err)
	}
	if runtime.GOOS != "windows" {
		zero := filepath.Join(dir, "zero.json")
		if err := os.Symlink("/dev/zero", zero); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(zero, 0); !errors.Is(err, ErrLink) {
			t.Errorf("link to /dev/zero: %v", err)
		}
		if _, err := Read("/dev/zero", 0); !errors.Is(err, ErrNotRegular) {
			t.Errorf("/dev/zero: %v", err)
		}
	}
	if _, err := Read(dir, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("folder: %v", err)
	}
}
