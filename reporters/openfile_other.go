//go:build !unix

package reporters

import (
	"io"
	"os"
)

// createExcl creates name for writing, failing when it exists.
func createExcl(name string) (tempFile, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err // not a nil *os.File in an interface
	}
	return f, nil
}

// rename moves a staged file into place.
func rename(from, to string) error { return os.Rename(from, to) }

// openRead opens name for reading (size is used where the system allows,
// see openfile_unix.go).
func openRead(name string, size int64) (io.ReadCloser, error) { return os.Open(name) }
