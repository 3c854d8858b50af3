//go:build unix

package reporters

import (
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/brenner-ci/brenner-ci/compile/localfs"
)

// createExcl creates name for writing, failing when it exists. os.OpenFile
// would also offer the file to the network poller, which refuses regular
// files: four fcntl calls and an epoll_ctl per file, for each of the
// thousands of artifacts compile --out writes. The descriptor is written
// with write(2) itself (fdWriter): os.NewFile would still ask with an fcntl
// whether it is non-blocking.
//
// In a folder of a local file system the calls are made directly
// (localfs): compile --out creates, writes and closes a file per thread,
// and made the ordinary way each call could hand the processor to another
// thread and back.
func createExcl(name string) (tempFile, error) {
	direct := localfs.Dir(filepath.Dir(name))
	open := syscall.Open
	if direct {
		open = localfs.Open
	}
	for {
		fd, err := open(name, syscall.O_RDWR|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, 0o644)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		return &fdWriter{fdFile{fd: fd, name: name, direct: direct}}, nil
	}
}

// openRead opens name for reading, as createExcl creates: the reports
// open every file with a finding to count its lines, thousands in a large
// audit. It refuses a link (O_NOFOLLOW) and never waits for a writer
// (O_NONBLOCK, which changes nothing for a regular file). size is the
// file's size by the caller's Lstat (see fdReader).
func openRead(name string, size int64) (io.ReadCloser, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		return &fdReader{fdFile: fdFile{fd: fd, name: name}, left: size}, nil
	}
}

// fdReader reads a descriptor with read(2) itself. os.NewFile would offer
// the non-blocking descriptor to the network poller, which refuses a
// regular file after an fcntl and an epoll_ctl: two system calls of the
// seven a counted file took. left is the stat's size less what was read:
// a short read that reaches it has met the end of the file and returns
// io.EOF with its bytes, so the read that would only say so is not made
// (as the scan's sizedReader does). A file that grew or shrank since the
// stat is read to its end.
type fdReader struct {
	fdFile
	left int64
}

// fdFile is an open descriptor and the name it was opened by; direct: its
// file is on a local file system (localfs.Dir), and its writes of at most
// directWriteMax bytes and its close are made directly.
type fdFile struct {
	fd     int
	name   string
	direct bool
}

func (f *fdFile) Name() string { return f.name }

func (f *fdFile) Close() error {
	if f.fd < 0 {
		return &os.PathError{Op: "close", Path: f.name, Err: os.ErrClosed}
	}
	var err error
	if f.direct {
		err = localfs.Close(f.fd)
	} else {
		err = syscall.Close(f.fd)
	}
	f.fd = -1
	if err != nil {
		return &os.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}

// directWriteMax is the largest write made directly (localfs): an
// artifact's (most are 4-16 KiB, written at once). A report streams
// through a 64 KiB buffer; its writes go the ordinary way, as they did, so
// that while one copies its bytes the scheduler may run another goroutine
// on the processor.
const directWriteMax = 32 << 10

// fdWriter writes a descriptor with write(2) itself (see createExcl).
type fdWriter struct{ fdFile }

func (w *fdWriter) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		var n int
		var err error
		if chunk := p[done:min(len(p), done+1<<30)]; w.direct && len(chunk) <= directWriteMax {
			n, err = localfs.Write(w.fd, chunk)
		} else {
			n, err = syscall.Write(w.fd, chunk)
		}
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return done, &os.PathError{Op: "write", Path: w.name, Err: err}
		case n == 0:
			return done, &os.PathError{Op: "write", Path: w.name, Err: io.ErrShortWrite}
		}
		done += n
	}
	return done, nil
}

func (r *fdReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(r.fd, p[:min(len(p), 1<<30)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: r.name, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		r.left -= int64(n)
		if n < len(p) && r.left == 0 {
			return n, io.EOF
		}
		return n, nil
	}
}

// rename moves a staged file into place. os.Rename first stats the target
// to refuse a folder there; rename(2) refuses one itself (EISDIR).
func rename(from, to string) error {
	for {
		err := syscall.Rename(from, to)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
		}
		return nil
	}
}
