//go:build unix

package cli

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCheckMessageSpecialFiles: a body file that is a named pipe, a socket,
// a device or a folder is refused at once (exit 2, naming what it is); it is
// never opened for a blocking read.
func TestCheckMessageSpecialFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	dir, err := os.MkdirTemp("", "bci")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	fifo := filepath.Join(dir, "body.md")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, tc := range []struct{ file, kind string }{
		{fifo, "named pipe"},
		{sock, "socket"},
		{os.DevNull, "device"},
		{dir, "folder"},
	} {
		// Before the fix a named pipe blocked in open: a writer opening it
		// releases the run.
		release := func() {
			if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				f.Close()
			}
		}
		code, out, errs := runMsg(t, strings.NewReader(""), release, "check-message", "--subject", "INFO: note", tc.file)
		if code != 2 || !strings.Contains(errs, tc.kind) || !strings.Contains(errs, tc.file) {
			t.Errorf("%s: exit %d, want 2 and an error naming a %s\n%s%s", tc.file, code, tc.kind, out, errs)
		}
	}
}

// TestCheckMessageStdinDevice: standard input that is a terminal (or any
// other device) is a usage error at once, not a wait for typing.
func TestCheckMessageStdinDevice(t *testing.T) {
	t.Chdir(t.TempDir())
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	code, out, errs := runMsg(t, f, nil, "check-message", "--subject", "INFO: note")
	if code != 2 || !strings.Contains(errs, "standard input is a terminal") {
		t.Errorf("a device on standard input: exit %d, want 2\n%s%s", code, out, errs)
	}
}
