package mailbox

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNamedPipeNeverBlocks: a named pipe named on the command line is
// reported (IN-001), with and without a scan cache, and never opened in a
// way that waits for a writer (with a cache, hashing it once did).
func TestNamedPipeNeverBlocks(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipe here: %v", err)
	}
	for _, cached := range []bool{false, true} {
		done := make(chan *Batch, 1)
		go func() {
			opt := ScanOptions{Jobs: 1}
			if cached {
				opt.Cache = &ScanCache{Store: newMemStore(), Salt: "test"}
			}
			in, err := List([]string{fifo}, opt)
			if err != nil {
				t.Error(err)
				done <- nil
				return
			}
			done <- in.Scan()
		}()
		select {
		case b := <-done:
			if b == nil {
				continue
			}
			if len(b.Findings) != 1 || !strings.Contains(b.Findings[0].Message, "special file") {
				t.Errorf("cache %t: findings %v, want the special-file one", cached, b.Findings)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("cache %t: the scan of a named pipe blocked", cached)
		}
	}
}
