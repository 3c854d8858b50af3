//go:build unix

package reporters

import (
	"io"
	"os"
	"syscall"
)

// createExcl creates name for writing, failing when it exists. os.OpenFile
// would also offer the file to the network poller, which refuses regular
// files: four fcntl calls and an epoll_ctl per file, for each of the
// thousands of artifacts compile --out writes. os.NewFile wraps the
// descriptor as the blocking file it is either way.
func createExcl(name string) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDWR|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, 0o644)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
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
		return &fdReader{fd: fd, name: name, left: size}, nil
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
	fd   int
	name string
	left int64
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

func (r *fdReader) Close() error {
	if r.fd < 0 {
		return &os.PathError{Op: "close", Path: r.name, Err: os.ErrClosed}
	}
	err := syscall.Close(r.fd)
	r.fd = -1
	if err != nil {
		return &os.PathError{Op: "close", Path: r.name, Err: err}
	}
	return nil
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
