//go:build unix

package mailbox

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSpecialFileNamedIsNotRead: a FIFO named on the command line is an
// error finding and is never opened (opening it would block forever); found
// by a walk it is a note.
func TestSpecialFileNamedIsNotRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("skipping: cannot make a FIFO here:", err)
	}
	b := scanT(t, fifo)
	if len(b.Findings) != 1 || b.Findings[0].Rule != "IN-001" || !strings.Contains(b.Findings[0].Message, "named pipe") {
		t.Errorf("named FIFO: %v", where(b.Findings))
	}
	b = scanT(t, dir)
	if len(b.Findings) != 1 || b.Findings[0].Rule != "IN-006" {
		t.Errorf("walked FIFO: %v", where(b.Findings))
	}
}
