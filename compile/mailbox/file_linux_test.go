package mailbox

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
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

// TestLoadTakesKeptFile: the scan keeps a thread file open and the first
// Load reads it through that descriptor (so a file removed after the scan
// still loads, as scanned); a second Load opens it by its path; past the
// budget (keptMax) nothing is kept; and a kept descriptor nobody takes is
// closed once its pack is unreachable.
func TestLoadTakesKeptFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) string {
		data := `{"thread_id": "T-` + name + `", "messages": [{"id": 1, "subject": "KICKOFF: t", "from": "A", "to": ["B"], "created_ts": "2026-01-14T10:00:00Z", "body_md": "# T\n\nWhy \"now\"?\n"}]}`
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	scan1 := func(p string) (*Batch, *keptFile) {
		t.Helper()
		b, err := Scan([]string{p}, ScanOptions{Jobs: 1})
		if err != nil || len(b.Threads) != 1 {
			t.Fatalf("scan: %v", err)
		}
		return b, b.Threads[0].entry(0).src.p.file
	}
	a := write("a.json")
	b, k := scan1(a)
	if k == nil || k.fd.Load() < 0 {
		t.Fatal("the scan kept no descriptor of the thread file")
	}
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	th, err := b.Threads[0].Load()
	if err != nil {
		t.Fatalf("Load after the file was removed: %v (the kept descriptor was not used)", err)
	}
	if th.Messages[0].Body != "# T\n\nWhy \"now\"?\n" {
		t.Errorf("body %q", th.Messages[0].Body)
	}
	th.Release()
	if k.fd.Load() >= 0 {
		t.Error("Load did not take the kept descriptor")
	}
	if _, err := b.Threads[0].Load(); err == nil {
		t.Error("a second Load read a removed file: it should open it by its path")
	}

	// Past the budget: nothing kept, Load opens by path.
	defer func(f func() int64) { keptMax = f }(keptMax)
	keptMax = func() int64 { return 0 }
	bp := write("b.json")
	b2, k2 := scan1(bp)
	if k2 != nil {
		t.Error("a descriptor was kept past the budget")
	}
	if _, err := b2.Threads[0].Load(); err != nil {
		t.Errorf("Load by path: %v", err)
	}
	keptMax = func() int64 { return 1 << 20 }

	// Kept and never loaded: closed once the batch is unreachable.
	box := func() *atomic.Int32 { // the batch is unreachable once this returns
		_, k3 := scan1(bp)
		if k3 == nil {
			t.Fatal("no descriptor kept")
		}
		return k3.fd
	}()
	for i := 0; i < 200 && box.Load() >= 0; i++ {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	if box.Load() >= 0 {
		t.Error("a kept descriptor was never closed after its batch was dropped")
	}
}
