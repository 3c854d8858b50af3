package mailbox

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/localfs"
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

// TestDirectReadsMatchOrdinary holds the direct system calls
// (rawFile.direct) to the ordinary ones: the same bytes from Read and ReadAt
// at every size around localfs.DirectMax, the same end of file, and the
// same error on a closed file.
func TestDirectReadsMatchOrdinary(t *testing.T) {
	data := make([]byte, localfs.DirectMax+5000)
	for i := range data {
		data[i] = byte(i*7 + i>>9)
	}
	p := filepath.Join(t.TempDir(), "f.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func(direct bool) *rawFile {
		t.Helper()
		f, err := openInput(p)
		if err != nil {
			t.Fatal(err)
		}
		rf := f.(*rawFile)
		rf.direct = direct
		return rf
	}
	type got struct {
		b   []byte
		err string
	}
	read := func(direct bool, off int64, n int) got {
		f := open(direct)
		defer f.Close()
		b := make([]byte, n)
		var k int
		var err error
		if off < 0 {
			k, err = f.Read(b)
		} else {
			k, err = f.ReadAt(b, off)
		}
		g := got{b: b[:k]}
		if err != nil {
			g.err = err.Error()
		}
		return g
	}
	for _, c := range []struct {
		off int64
		n   int
	}{
		{-1, 10}, {-1, localfs.DirectMax}, {-1, localfs.DirectMax + 1}, {-1, len(data) + 10},
		{0, 10}, {123, localfs.DirectMax}, {5, localfs.DirectMax + 1}, {int64(len(data)) - 3, 10}, {int64(len(data)), 4}, {1, 0},
	} {
		d, o := read(true, c.off, c.n), read(false, c.off, c.n)
		if string(d.b) != string(o.b) || d.err != o.err {
			t.Errorf("off %d, %d bytes: direct read %d bytes (%q), ordinary %d bytes (%q)", c.off, c.n, len(d.b), d.err, len(o.b), o.err)
		}
		if want := len(data); c.off < 0 && len(d.b) != min(c.n, want) {
			t.Errorf("Read of %d bytes returned %d", c.n, len(d.b))
		}
	}
	// A descriptor that is not open: the same error (EBADF) both ways.
	for _, direct := range []bool{true, false} {
		f := open(direct)
		f.Close()
		f.fd = 1 << 30 // past any open-file limit
		_, err1 := f.Read(make([]byte, 8))
		_, err2 := f.ReadAt(make([]byte, 8), 0)
		for _, err := range []error{err1, err2} {
			if err == nil || !strings.Contains(err.Error(), "bad file descriptor") || !strings.Contains(err.Error(), p) {
				t.Errorf("direct %t: read of a descriptor that is not open: %v, want the path and EBADF", direct, err)
			}
		}
	}
}

// TestOpenInputDirectOnLocalFS: a file in the test's temporary folder (on
// a local file system here and on CI runners) is read directly, and so is
// the scan's kept descriptor of it once Load takes it.
func TestOpenInputDirectOnLocalFS(t *testing.T) {
	dir := t.TempDir()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil || !localfs.Local(uint32(st.Type)) {
		t.Skipf("skipping: %s is not on a file system localfs.Local knows (type %#x, %v)", dir, uint32(st.Type), err)
	}
	p := filepath.Join(dir, "t.json")
	if err := os.WriteFile(p, []byte(`{"thread_id": "T-1", "messages": [{"id": 1, "subject": "KICKOFF: t", "from": "A", "to": ["B"], "created_ts": "2026-01-14T10:00:00Z", "body_md": "x"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := openInput(p)
	if err != nil {
		t.Fatal(err)
	}
	if !f.(*rawFile).direct {
		t.Error("a file on a local file system is not read directly")
	}
	f.Close()
	b, err := Scan([]string{p}, ScanOptions{Jobs: 1})
	if err != nil || len(b.Threads) != 1 {
		t.Fatalf("scan: %v", err)
	}
	k := b.Threads[0].entry(0).src.p.file.take()
	if k == nil {
		t.Fatal("the scan kept no descriptor")
	}
	defer k.Close()
	if !k.(*rawFile).direct {
		t.Error("the kept descriptor lost direct")
	}
}

// fdTableSize is the size of this process's descriptor table (FDSize in
// /proc/self/status), and the descriptors open in it with what each is
// open on.
func fdTableSize(t testing.TB) (size int, open map[int]string) {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("skipping: %v (the descriptor table's size is read from /proc)", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "FDSize:"); ok {
			if size, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
				t.Fatalf("/proc/self/status: %q: %v", line, err)
			}
		}
	}
	if size == 0 {
		t.Skip("skipping: /proc/self/status has no FDSize line")
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	open = map[int]string{}
	for _, fd := range fds {
		n, err := strconv.Atoi(fd.Name())
		if err != nil {
			continue
		}
		// The descriptor ReadDir read the folder through is closed by
		// now: it reads as nothing.
		open[n], _ = os.Readlink("/proc/self/fd/" + fd.Name())
	}
	return size, open
}

// TestReserveKept: reserveKept grows the descriptor table at once to hold
// the descriptors a scan will keep, leaves every descriptor as it was (the
// ones open before it still read their files; none is left open by it),
// and does nothing with reserveTable off.
func TestReserveKept(t *testing.T) {
	defer func(f func() int64) { keptMax = f }(keptMax)
	keptMax = func() int64 { return 1 << 20 }
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		t.Skipf("skipping: %v", err)
	}
	size, _ := fdTableSize(t)
	want := 2*size + 100 // past the table's size, whatever earlier tests opened
	if rl.Cur <= uint64(want+reserveSlack) {
		t.Skipf("skipping: the limit of open files (%d) leaves no room to grow the table past %d", rl.Cur, want)
	}
	path := filepath.Join(t.TempDir(), "a.json")
	if err := os.WriteFile(path, []byte(`{"a": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, openBefore := fdTableSize(t)

	reserveKept(want)
	after, openAfter := fdTableSize(t)
	if after < want+reserveSlack {
		t.Errorf("after reserveKept(%d) the descriptor table holds %d; want at least %d", want, after, want+reserveSlack)
	}
	// No descriptor of reserveKept's is left: no more on /dev/null than
	// before, none at the number it asked for or past it. (Descriptors
	// are not compared one by one: a kept one of an earlier test may be
	// closed by its cleanup meanwhile, and its number taken again.)
	devNull := func(open map[int]string) (n int) {
		for _, target := range open {
			if target == os.DevNull {
				n++
			}
		}
		return n
	}
	if b, a := devNull(openBefore), devNull(openAfter); a > b {
		t.Errorf("reserveKept left %d descriptors on %s open, %d before", a, os.DevNull, b)
	}
	for fd, target := range openAfter {
		if fd >= want {
			t.Errorf("reserveKept left descriptor %d open (%s)", fd, target)
		}
	}
	if b, err := io.ReadAll(f); err != nil || string(b) != `{"a": 1}` {
		t.Errorf("a descriptor open before reserveKept reads %q, %v", b, err)
	}

	reserveTable = false
	reserveKept(4 * after)
	reserveTable = true
	if got, _ := fdTableSize(t); got != after {
		t.Errorf("with reserveTable off the table went from %d to %d", after, got)
	}
}

// BenchmarkReserveKept measures a scan of 5,000 thread files with two
// workers, which keeps each open for its Load, with and without
// reserveKept. Linux grows a descriptor table once per process, so each
// scan runs in a process of its own (this test binary again, running
// TestReserveKeptChild) and reports its own scan time.
func BenchmarkReserveKept(b *testing.B) {
	dir := b.TempDir()
	for i := range 5000 {
		data := fmt.Sprintf(`{"thread_id": "T-%d", "messages": [{"id": %d, "subject": "KICKOFF: t%d", "from": "A", "to": ["B"], "created_ts": "2026-01-14T10:00:00Z", "body_md": "# T\n\nthread %d\n"}]}`, i, i, i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("t%05d.json", i)), []byte(data), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	for _, reserve := range []bool{false, true} {
		b.Run(fmt.Sprintf("reserve=%t", reserve), func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestReserveKeptChild$")
				cmd.Env = append(os.Environ(), fmt.Sprintf("BRENNER_RESERVE_CHILD=%t:%s", reserve, dir))
				out, err := cmd.CombinedOutput()
				if err != nil {
					b.Fatalf("child: %v\n%s", err, out)
				}
				fields := strings.Fields(string(out))
				if len(fields) == 0 {
					b.Fatalf("child printed nothing")
				}
				_, ns, ok := strings.Cut(fields[0], "scan-ns=")
				d, err := strconv.ParseInt(ns, 10, 64)
				if !ok || err != nil {
					b.Fatalf("child printed %q", out)
				}
				total += time.Duration(d)
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "scan-ms/op")
		})
	}
}

// TestReserveKeptChild is BenchmarkReserveKept's child process: it scans
// the folder in $BRENNER_RESERVE_CHILD ("true:DIR" or "false:DIR") and
// prints the scan's time.
func TestReserveKeptChild(t *testing.T) {
	spec := os.Getenv("BRENNER_RESERVE_CHILD")
	if spec == "" {
		t.Skip("skipping: BenchmarkReserveKept runs it in a process of its own")
	}
	on, dir, _ := strings.Cut(spec, ":")
	reserveTable = on == "true"
	in, err := List([]string{dir}, ScanOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	b := in.Scan()
	fmt.Printf("scan-ns=%d threads=%d\n", time.Since(start).Nanoseconds(), len(b.Threads))
}
