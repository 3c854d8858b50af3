package reporters

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// A Folder is a new folder written whole: its files are created under their
// own names in a hidden folder beside the target (".<name>.tmp-*"), and
// Commit renames that folder into place in one step. A reader sees all of
// it or none of it, as with a Set, but a folder of many small files (compile
// --out writes one per thread) costs one rename instead of a temporary
// file and a rename per file: on the benchmark machine the per-file way
// cost compile 0.25 CPU-s of 2.7 on 10,000 threads (docs/performance.md,
// twenty-seventh round). Interrupt removes the hidden folder. Its methods
// may be called from several goroutines.
type Folder struct {
	target, dir string
	// mu is held for reading while a file is written, and for writing
	// (after temps.mu) by Commit, Discard and Interrupt, which end the
	// folder.
	mu    sync.RWMutex
	ended bool
}

// NewFolder starts building the folder target, which should not exist (the
// caller checks): target's parent is made when it is missing.
func NewFolder(target string) (*Folder, error) {
	temps.mu.Lock()
	defer temps.mu.Unlock()
	if temps.interrupted {
		return nil, ErrInterrupted
	}
	dir, err := besideUnique(target, func(name string) error { return os.Mkdir(name, 0o755) })
	if err != nil {
		return nil, err
	}
	f := &Folder{target: target, dir: dir}
	temps.folders[f] = true
	return f, nil
}

// Target is the folder's path once committed.
func (f *Folder) Target() string { return f.target }

// Create writes the file name (a plain file name, no folder) in the folder.
// It fails with an error satisfying errors.Is(err, fs.ErrExist) when the
// file is already there.
func (f *Folder) Create(name string, write func(io.Writer) error) error {
	return f.use(name, func(path string) error { return f.create(path, name, write, nil) })
}

// CreateBytes is Create of a file holding b, written as it is (no buffer
// between): compile --out writes an artifact a thread so.
func (f *Folder) CreateBytes(name string, b []byte) error {
	return f.use(name, func(path string) error { return f.create(path, name, nil, b) })
}

// create is Create at path, of what write writes or else of b; f.mu is
// held.
func (f *Folder) create(path, name string, write func(io.Writer) error, b []byte) error {
	w, err := createExcl(path)
	if err != nil {
		return err
	}
	if write == nil {
		_, err = w.Write(b)
	} else {
		bw := writers.Get().(*bufio.Writer)
		bw.Reset(w)
		err = write(bw)
		if err == nil {
			err = bw.Flush()
		}
		bw.Reset(nil)
		writers.Put(bw)
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("writing %s: %w", filepath.Join(f.target, name), err)
	}
	return nil
}

// Replace writes the file name in the folder, in place of the one there.
func (f *Folder) Replace(name string, write func(io.Writer) error) error {
	if err := f.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return f.Create(name, write)
}

// Remove removes the file name from the folder.
func (f *Folder) Remove(name string) error {
	return f.use(name, os.Remove)
}

// ReadFile returns the content of the file name written in the folder.
func (f *Folder) ReadFile(name string) (b []byte, err error) {
	err = f.use(name, func(path string) (err error) {
		b, err = os.ReadFile(path)
		return err
	})
	return b, err
}

// use calls do with the hidden folder's path of the file name, holding
// f.mu for reading, unless the folder has ended (ErrInterrupted). name
// must be a plain file name: the folder's files are the caller's names,
// and none may lead out of it.
func (f *Folder) use(name string, do func(path string) error) error {
	f.mu.RLock()
	defer f.mu.RUnlock()
	if f.ended {
		return ErrInterrupted
	}
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") || strings.ContainsRune(name, filepath.Separator) {
		return fmt.Errorf("refusing to write %q in %s: not a plain file name", name, f.target)
	}
	return do(filepath.Join(f.dir, name))
}

// Commit renames the folder into place. When that fails (something took
// the target's name meanwhile), the folder stays as it is for the caller to
// read its files and Discard it. After Interrupt it returns ErrInterrupted.
func (f *Folder) Commit() error {
	temps.mu.Lock()
	defer temps.mu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ended {
		return ErrInterrupted
	}
	if err := rename(f.dir, f.target); err != nil {
		return err
	}
	f.ended = true
	delete(temps.folders, f)
	return nil
}

// Discard removes the folder and what was written in it.
func (f *Folder) Discard() {
	temps.mu.Lock()
	defer temps.mu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.end()
	delete(temps.folders, f)
}

// end removes the hidden folder; f.mu is held.
func (f *Folder) end() {
	if !f.ended {
		os.RemoveAll(f.dir)
		f.ended = true
	}
}
