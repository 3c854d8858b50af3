package mailbox

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/brenner-ci/brenner-ci/compile/localfs"
)

// rawFile is an inputFile on a file descriptor. Its errors are
// *fs.PathError, as os.File's are.
type rawFile struct {
	fd   int
	path string
	// direct: the file is on a local file system, and reads of at most
	// localfs.DirectMax bytes are made without telling the scheduler. Each
	// file a check reads costs the scan one read(2) and Load one pread(2);
	// made directly, they spare the scheduler a hand-over each (see
	// package localfs).
	direct bool
}

// openInput opens path for reading. It never blocks: a named pipe opens
// without a writer (O_NONBLOCK, which changes nothing for a regular file),
// and callers check Stat before they read.
func openInput(path string) (inputFile, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		// A file an input names is never a symbolic link (links are named,
		// not read): it is on its folder's file system.
		return &rawFile{fd: fd, path: path, direct: localfs.Dir(filepath.Dir(path))}, nil
	}
}

// maxRW is the most one read asks for (Linux transfers at most about
// 2 GiB per call; os.File reads in such pieces too).
const maxRW = 1 << 30

func (f *rawFile) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	for {
		n, err := f.sysRead(b[:min(len(b), maxRW)], -1)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: f.path, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// ReadAt reads len(b) bytes at off, or fewer with io.EOF at the end of the
// file (io.ReaderAt).
func (f *rawFile) ReadAt(b []byte, off int64) (int, error) {
	read := 0
	for read < len(b) {
		n, err := f.sysRead(b[read:min(len(b), read+maxRW)], off+int64(read))
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return read, &fs.PathError{Op: "read", Path: f.path, Err: err}
		case n == 0:
			return read, io.EOF
		}
		read += n
	}
	return read, nil
}

// sysRead is one read(2) into b, or pread(2) at off when off >= 0: a
// direct system call when the file and the size allow (localfs.DirectMax).
func (f *rawFile) sysRead(b []byte, off int64) (int, error) {
	if !f.direct || len(b) > localfs.DirectMax {
		if off < 0 {
			return syscall.Read(f.fd, b)
		}
		return syscall.Pread(f.fd, b, off)
	}
	if off < 0 {
		return localfs.Read(f.fd, b)
	}
	return localfs.Pread(f.fd, b, off)
}

func (f *rawFile) Stat() (fileInfo, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(f.fd, &st)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return fileInfo{}, &fs.PathError{Op: "stat", Path: f.path, Err: err}
		}
		return fileInfo{size: st.Size, mtime: st.Mtim.Nano(), regular: st.Mode&syscall.S_IFMT == syscall.S_IFREG}, nil
	}
}

func (f *rawFile) Close() error {
	if f.fd < 0 {
		return &fs.PathError{Op: "close", Path: f.path, Err: fs.ErrClosed}
	}
	err := syscall.Close(f.fd)
	f.fd = -1
	if err != nil {
		return &fs.PathError{Op: "close", Path: f.path, Err: err}
	}
	return nil
}

// A scanned file is kept open for the Load of its messages (keep), so that
// Load reads it without opening it again: a system call costs 1–10 µs on a
// CI runner's virtual machine, and Load opened every thread file a second
// time. At most keptMax files are kept at once; past that Load opens the
// file by its path, as it does for a kept file whose descriptor another
// Load took first.
type keptFile struct {
	fd     *atomic.Int32 // the descriptor; -1 once taken or closed
	path   string
	direct bool // rawFile.direct
}

// keptOpen counts the kept descriptors not yet taken or closed.
var keptOpen atomic.Int64

// keptMax is half the process's limit of open files (Go raises the soft
// limit to the hard one), at most 32,768: the other half stays for
// reports, caches, temporary files and git.
var keptMax = sync.OnceValue(func() int64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 0
	}
	return int64(min(rl.Cur/2, 1<<15))
})

// keep moves f's descriptor into a keptFile, or returns nil (f is not a
// rawFile, or keptMax are kept already) and leaves f as it was. A kept
// file nobody takes is closed once it is unreachable (a thread that was
// never loaded: another shard's, a cache hit's).
func keep(f inputFile) *keptFile {
	rf, ok := f.(*rawFile)
	if !ok || rf.fd < 0 {
		return nil
	}
	if keptOpen.Add(1) > keptMax() {
		keptOpen.Add(-1)
		return nil
	}
	box := new(atomic.Int32)
	box.Store(int32(rf.fd))
	k := &keptFile{fd: box, path: rf.path, direct: rf.direct}
	rf.fd = -1 // k owns the descriptor now
	runtime.AddCleanup(k, closeKept, box)
	return k
}

// reserveKept makes room in the process's descriptor table for n kept
// descriptors at once, and returns when it has. Linux grows the table by
// doubling it as descriptors are opened, and in a process of more than one
// thread each growth waits for an RCU grace period (synchronize_rcu in
// expand_fdtable), during which every thread that opens a file waits too:
// a scan that kept 10,000 files grew it eight times, 64 to 16,384, and its
// two workers spent about 70 ms of a 10,000-thread check asleep in openat.
// One duplicate of a descriptor at a number past the room needed grows the
// table once, to its final size (the table never shrinks). F_DUPFD takes
// the lowest free number at or above the one asked for, so no descriptor
// is ever replaced. It is advice: when it cannot be given, the table grows
// as before.
func reserveKept(n int) {
	if !reserveTable {
		return
	}
	k := min(int64(n), keptMax())
	if k < 64 {
		return // the table's first size holds them
	}
	fd, err := syscall.Open(os.DevNull, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer syscall.Close(fd)
	// k is at most half the limit of open files (keptMax); past the
	// limit, F_DUPFD fails (EINVAL) and the table grows as before.
	at := k + reserveSlack
	if dup, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_DUPFD_CLOEXEC, uintptr(at)); e == 0 {
		syscall.Close(int(dup))
	}
}

// reserveTable enables reserveKept (BenchmarkReserveKept compares scans
// without it).
var reserveTable = true

// reserveSlack is the room reserveKept leaves beside the kept descriptors
// for the others a run has open (standard streams, reports, caches, git).
const reserveSlack = 256

// closeKept closes a kept descriptor nobody took.
func closeKept(box *atomic.Int32) {
	if fd := box.Swap(-1); fd >= 0 {
		syscall.Close(int(fd))
		keptOpen.Add(-1)
	}
}

// take returns the kept file, open at its scan's descriptor, to the first
// caller; nil to the others, and for a nil k. The caller closes it.
func (k *keptFile) take() inputFile {
	if k == nil {
		return nil
	}
	fd := k.fd.Swap(-1)
	if fd < 0 {
		return nil
	}
	keptOpen.Add(-1)
	return &rawFile{fd: int(fd), path: k.path, direct: k.direct}
}
