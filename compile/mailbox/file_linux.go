package mailbox

import (
	"io"
	"io/fs"
	"syscall"
)

// rawFile is an inputFile on a file descriptor. Its errors are
// *fs.PathError, as os.File's are.
type rawFile struct {
	fd   int
	path string
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
		return &rawFile{fd: fd, path: path}, nil
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
		n, err := syscall.Read(f.fd, b[:min(len(b), maxRW)])
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
		n, err := syscall.Pread(f.fd, b[read:min(len(b), read+maxRW)], off+int64(read))
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
