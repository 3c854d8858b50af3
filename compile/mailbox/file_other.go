//go:build !linux

package mailbox

import "os"

// osFile is an inputFile on an *os.File.
type osFile struct{ *os.File }

func openInput(path string) (inputFile, error) {
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
