//go:build linux

package memlimit

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
)

// anonHuge is the process's memory backed by transparent huge pages.
func anonHuge(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		t.Skipf("skipping: %v (needs Linux 4.14 or later)", err)
	}
	for line := range bytes.Lines(b) {
		if rest, ok := bytes.CutPrefix(line, []byte("AnonHugePages:")); ok {
			kb, err := strconv.Atoi(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))))
			if err != nil {
				t.Fatalf("smaps_rollup: %q: %v", line, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("smaps_rollup has no AnonHugePages line:\n%s", b)
	return 0
}

// TestAdviseHugePages checks that heap memory first touched after
// adviseHugePages is backed by huge pages. It needs the machine's setting
// to be "madvise", the common default: with "always" every process gets
// them unasked, and with "never" none does.
func TestAdviseHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	switch {
	case err != nil:
		t.Skipf("skipping: no transparent huge pages on this machine (%v)", err)
	case !bytes.Contains(mode, []byte("[madvise]")):
		t.Skipf("skipping: transparent huge pages are set to %q here, not [madvise]: the advice makes no difference to test", bytes.TrimSpace(mode))
	}
	if !roomFor() {
		t.Skip("skipping: this process has a limit on address space or data, or strict overcommit, so no block is advised (TestNoAdviceUnderLimits)")
	}
	before := anonHuge(t)
	adviseHugePages(64 << 20)
	b := make([]byte, 32<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	got := anonHuge(t) - before
	runtime.KeepAlive(b)
	if got < 8<<20 {
		t.Errorf("after touching 32 MiB of advised heap, %d KiB more are in huge pages; want at least 8 MiB", got>>10)
	}
}

// TestAdviseSmallBlocks: a block too small to hold a whole huge page (a
// low GOMEMLIMIT makes the hint that small) is not advised, and asking
// does not panic, wherever the block lands (the slice's bounds were once
// computed as offsets that wrapped around).
func TestAdviseSmallBlocks(t *testing.T) {
	for _, n := range []int{0, 1, 4096, 1 << 20, 2<<20 - 1, 2 << 20, 3 << 20, 4<<20 + 8192} {
		for range 8 {
			adviseHugePages(n)
		}
	}
}

// TestNoAdviceUnderLimits: under a finite address-space or data limit the
// block is not asked for (the runtime cannot recover from failing to get
// it); without one it is.
func TestNoAdviceUnderLimits(t *testing.T) {
	var as, data syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &as) != nil || syscall.Getrlimit(syscall.RLIMIT_DATA, &data) != nil {
		t.Skip("skipping: getrlimit failed")
	}
	if as.Cur != unlimited || data.Cur != unlimited {
		if roomFor() {
			t.Fatalf("roomFor() with limits %d (address space) and %d (data)", as.Cur, data.Cur)
		}
		t.Skip("skipping the unlimited case: this process has a limit already")
	}
	mode, _ := os.ReadFile("/proc/sys/vm/overcommit_memory")
	if want := string(bytes.TrimSpace(mode)) != "2" && len(mode) > 0; roomFor() != want {
		t.Errorf("roomFor() = %v without limits (overcommit %q), want %v", !want, bytes.TrimSpace(mode), want)
	}
	for _, res := range []int{syscall.RLIMIT_AS, syscall.RLIMIT_DATA} {
		// A finite soft limit far above what the test uses; the hard
		// limit stays, so the soft one can be raised back.
		var l syscall.Rlimit
		syscall.Getrlimit(res, &l)
		low := l
		low.Cur = 1 << 40
		if err := syscall.Setrlimit(res, &low); err != nil {
			t.Fatalf("setrlimit: %v", err)
		}
		got := roomFor()
		if err := syscall.Setrlimit(res, &l); err != nil {
			t.Fatalf("restoring the limit: %v", err)
		}
		if got {
			t.Errorf("roomFor() = true under a finite limit %d", res)
		}
	}
}
