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
// audit, and os.Open spends three system calls more on each. It refuses a
// link (O_NOFOLLOW) and never waits for a writer (O_NONBLOCK, which
// changes nothing for a regular file).
func openRead(name string) (io.ReadCloser, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
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
