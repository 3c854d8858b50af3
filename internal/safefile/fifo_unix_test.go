//go:build unix

package safefile

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadFIFO: a FIFO is refused before it is opened (opening one without
// a writer blocks).
func TestReadFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "evidence.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	if _, err := Read(fifo, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO: %v", err)
	}
}
