package mailbox

import "io"

// inputFile is an open input file. A check opens every input twice (Scan,
// then Load), so on Unix it is a plain file descriptor read with system
// calls (file_linux.go): an *os.File registers each file with the runtime's
// network poller, which a regular file refuses — five wasted system calls
// per open, a tenth of a 10,000-thread check's system time.
type inputFile interface {
	io.Reader
	io.ReaderAt
	io.Closer
	// Stat describes the file as it is now (fstat).
	Stat() (fileInfo, error)
}

// fileInfo is what Stat tells of a file.
type fileInfo struct {
	size, mtime int64 // bytes; modification time, Unix nanoseconds
	regular     bool
}
