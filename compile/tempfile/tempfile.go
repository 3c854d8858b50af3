// Package tempfile makes the temporary files a run keeps its own data in
// (packed message records, thread results): created in the system's
// temporary folder with mode 0600, and removed at once where the system
// allows an open file to be (its data stays reachable through the open
// file). Where it does not (Windows), the file is removed by done, or by
// RemoveLeft when the process ends first.
package tempfile

import (
	"os"
	"sync"
)

// left are the files made whose names could not be removed at once, until
// done removes them.
var left struct {
	sync.Mutex
	files map[*os.File]bool
}

// removeNow removes a file just made (a variable for tests: the removal
// of an open file fails only on some systems).
var removeNow = os.Remove

// Unlinked creates a temporary file named after pattern (os.CreateTemp)
// and removes its name where the system allows. done closes the file and
// removes it if its name is still there; call it once, when the data is
// no longer needed.
func Unlinked(pattern string) (f *os.File, done func(), err error) {
	f, err = os.CreateTemp("", pattern)
	if err != nil {
		return nil, nil, err
	}
	if removeNow(f.Name()) == nil {
		return f, func() { f.Close() }, nil
	}
	left.Lock()
	if left.files == nil {
		left.files = map[*os.File]bool{}
	}
	left.files[f] = true
	left.Unlock()
	return f, func() {
		left.Lock()
		delete(left.files, f)
		left.Unlock()
		f.Close()
		os.Remove(f.Name())
	}, nil
}

// RemoveLeft closes and removes every file whose done was not called (the
// process is about to end), and returns how many there were.
func RemoveLeft() int {
	left.Lock()
	defer left.Unlock()
	n := len(left.files)
	for f := range left.files {
		f.Close()
		os.Remove(f.Name())
	}
	clear(left.files)
	return n
}
