package bench

import (
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// watchPeakRSS follows the peak resident set size of a running process
// (VmHWM in /proc/PID/status, which exec starts afresh) until stop is
// called, and stop returns it in bytes: 0 when it could not be read.
//
// A finished child's rusage is no use here: Go starts a child with
// CLONE_VM, and exec carries the high-water mark of the memory it leaves
// into the child's, so a child's "peak RSS" is at least the parent's RSS
// when it was started (a /bin/true started by a process holding 300 MB
// reports 310 MB). The samples miss at most the last 10 ms of the child.
func watchPeakRSS(pid int) (stop func() int64) {
	path := "/proc/" + strconv.Itoa(pid) + "/status"
	var (
		mu   sync.Mutex
		peak int64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	sample := func() {
		if kb := vmHWM(path); kb > 0 {
			mu.Lock()
			peak = max(peak, kb<<10)
			mu.Unlock()
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			sample()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 {
		close(done)
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

// vmHWM reads the VmHWM line of a /proc status file, in kilobytes; 0 when
// there is none (the process has exited).
func vmHWM(path string) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	_, rest, ok := bytes.Cut(data, []byte("VmHWM:"))
	if !ok {
		return 0
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	kb, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(line), []byte("kB")))), 10, 64)
	if err != nil {
		return 0
	}
	return kb
}

// TestWatchPeakRSS: a small child started by a process holding 64 MB
// reports its own peak, not its parent's.
func TestWatchPeakRSS(t *testing.T) {
	held := make([]byte, 64<<20)
	for i := range held {
		held[i] = 1 // touched: resident
	}
	cmd := exec.Command("sh", "-c", "sleep 0.2")
	if err := cmd.Start(); err != nil {
		t.Skipf("skipping: cannot start sh: %v", err)
	}
	stop := watchPeakRSS(cmd.Process.Pid)
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	got := stop()
	t.Logf("sh: %d KB followed, %d KB by rusage; this process holds %d MB", got>>10, peakRSS(cmd.ProcessState)>>10, len(held)>>20)
	if got <= 0 || got >= 32<<20 {
		t.Errorf("peak RSS of sh followed as %d bytes, want a few MB (the parent holds 64 MB)", got)
	}
	runtime.KeepAlive(held)
}
