//go:build !linux

package mailbox

import (
	"errors"
	"io/fs"
	"os"
)

// osFile is an inputFile on an *os.File.
type osFile struct{ *os.File }

func openInput(path string) (inputFile, error) {
	// Opening a named pipe would wait for a writer: refused here.
	if st, err := os.Stat(path); err == nil && st.Mode()&(os.ModeNamedPipe|os.ModeDevice|os.ModeSocket) != 0 {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.New("not a regular file")}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return osFile{f}, nil
}

func (f osFile) Stat() (fileInfo, error) {
	st, err := f.File.Stat()
	if err != nil {
		return fileInfo{}, err
	}
	return fileInfo{size: st.Size(), mtime: st.ModTime().UnixNano(), regular: st.Mode().IsRegular()}, nil
}

// keptFile: descriptors are kept on Linux only (file_linux.go); elsewhere
// Load opens the file again.
type keptFile struct{}

func keep(inputFile) *keptFile { return nil }

func reserveKept(int) {}

func (k *keptFile) take() inputFile { return nil }
