// Package safefile reads the files a run reads besides its thread exports —
// configuration, evidence packs, persisted artifacts, baselines — as files
// the author of a pull request may have written. A read never follows a
// symbolic link (a link committed as evidence.json could point at
// /dev/zero or at a runner's credentials), never opens a device, FIFO or
// socket (which could block or never end), and never reads more than the
// caller's limit.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// The reasons a read is refused; the returned errors wrap one of them.
var (
	ErrLink       = errors.New("it is a symbolic link, and brenner-ci does not follow links in the files it reads")
	ErrNotRegular = errors.New("it is not a regular file (a folder, device, FIFO or socket)")
	ErrTooLarge   = errors.New("it is over the size limit")
)

// Stat is os.Lstat: what is at path itself, a link included.
func Stat(path string) (fs.FileInfo, error) { return os.Lstat(path) }

// Read returns the content of the regular file at path, which must not be
// a symbolic link and may hold at most max bytes (max <= 0: no limit).
// The error says which rule refused it (errors.Is ErrLink, ErrNotRegular,
// ErrTooLarge), as an *fs.PathError.
func Read(path string, max int64) ([]byte, error) {
	f, st, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if max > 0 && st.Size() > max {
		return nil, tooLarge(path, st.Size(), max)
	}
	r := io.Reader(f)
	if max > 0 {
		r = io.LimitReader(f, max+1) // the file may grow after the stat
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if max > 0 && int64(len(data)) > max {
		return nil, tooLarge(path, int64(len(data)), max)
	}
	return data, nil
}

// Open opens the regular file at path for reading under Read's rules and
// returns it with its information; the caller bounds what it reads.
func Open(path string) (*os.File, fs.FileInfo, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := check(path, st); err != nil {
		return nil, nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	// What was opened is what was checked: a link or a FIFO put in its
	// place between the two calls is refused.
	now, err := f.Stat()
	if err == nil && !os.SameFile(st, now) {
		err = &fs.PathError{Op: "open", Path: path, Err: errors.New("it changed while it was opened")}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, now, nil
}

func check(path string, st fs.FileInfo) error {
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return &fs.PathError{Op: "open", Path: path, Err: ErrLink}
	case !st.Mode().IsRegular():
		return &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return nil
}

func tooLarge(path string, size, max int64) error {
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: it is %d bytes, over the limit of %d", ErrTooLarge, size, max)}
}

// MakeDir creates the folder dir (and its parents) for writing, and
// refuses it when it is not a folder of its own: a symbolic link to one (a
// cache folder restored from elsewhere could hold one) would make writes
// and removals land outside.
func MakeDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return &fs.PathError{Op: "mkdir", Path: dir, Err: ErrLink}
	}
	return nil
}
