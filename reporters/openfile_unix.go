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

// openRead opens name for reading without the network poller's system
// calls (the reports open every file with a finding to count its lines,
// thousands in a large audit; os.Open spends five calls more on each). It
// refuses a link (O_NOFOLLOW) and never waits for a writer (O_NONBLOCK,
// which changes nothing for a regular file).
func openRead(name string) (io.ReadCloser, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		return &fdReader{fd: fd, name: name}, nil
	}
}

// fdReader reads a file descriptor with read(2).
type fdReader struct {
	fd   int
	name string
}

func (r *fdReader) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(r.fd, b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: r.name, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (r *fdReader) Close() error { return syscall.Close(r.fd) }

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
