package run

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/brenner-ci/brenner-ci/reporters"
)

// A newFolder is a folder of compile's output (artifacts/, compiled/) that
// did not exist when the run started: it is built hidden
// (reporters.Folder) and put in place once, at the end. Its files are
// written under their own names; a thread compiled early writes its file
// while the scan runs (place), before the threads' order, and so the file
// names' claims, are known. The first thread to place a name (compared in
// lower case, as nameClaims does) writes it; in thread order, the thread
// that claims the name keeps its file or writes its own over it (commit),
// and a file placed by a thread whose result is not taken is removed
// (unplace).
type newFolder struct {
	rel, target string // "artifacts", "build/artifacts"
	mu          sync.Mutex
	// f is the folder being built, made at the first file (f or err set).
	f   *reporters.Folder
	err error
	// placed holds, by lower-case name, the file written under that name
	// and the thread that wrote it.
	placed map[string]placement
}

type placement struct {
	name, key string
	committed bool // by the thread that claims the name
}

// newFolders returns the new folders for compile's output subfolders rels
// under out: those that do not exist yet. Nothing is made before a file is
// written.
func newFolders(out string, rels ...string) map[string]*newFolder {
	m := map[string]*newFolder{}
	for _, rel := range rels {
		target := filepath.Join(out, rel)
		if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
			continue // there, or unreadable: written file by file (writeUnder), which checks it
		}
		m[rel] = &newFolder{rel: rel, target: target, placed: map[string]placement{}}
	}
	return m
}

// made returns the folder being built, made at the first call; nf.mu is
// held.
func (nf *newFolder) made() (*reporters.Folder, error) {
	if nf.f == nil && nf.err == nil {
		nf.f, nf.err = reporters.NewFolder(nf.target)
	}
	return nf.f, nf.err
}

// folderOf returns the new folder an output path ("artifacts/x.md") goes
// to and the file's name in it, or nil.
func folderOf(m map[string]*newFolder, path string) (*newFolder, string) {
	rel, name, ok := strings.Cut(path, "/")
	if !ok {
		return nil, ""
	}
	return m[rel], name
}

// place writes the file name of thread key unless another thread has
// placed that name; it reports whether it did.
func (nf *newFolder) place(key, name string, b []byte) (bool, error) {
	lower := strings.ToLower(name)
	nf.mu.Lock()
	if _, taken := nf.placed[lower]; taken {
		nf.mu.Unlock()
		return false, nil
	}
	f, err := nf.made()
	if err != nil {
		nf.mu.Unlock()
		return false, err
	}
	nf.placed[lower] = placement{name: name, key: key}
	nf.mu.Unlock()
	// Written outside the lock: the scan's workers place their threads'
	// files at once.
	if err = f.CreateBytes(name, b); err != nil {
		nf.mu.Lock()
		delete(nf.placed, lower)
		nf.mu.Unlock()
		return false, err
	}
	return true, nil
}

// commit makes the file name the one of thread key, which has claimed it
// (in thread order): the file the thread placed, or b written over the
// file another thread placed under the name.
func (nf *newFolder) commit(key, name string, b []byte) error {
	lower := strings.ToLower(name)
	nf.mu.Lock()
	defer nf.mu.Unlock()
	p, ok := nf.placed[lower]
	if ok && p.key == key && p.name == name {
		p.committed = true
		nf.placed[lower] = p
		return nil
	}
	if b == nil {
		return fmt.Errorf("%s/%s: no content to write", nf.rel, name) // a bug: key placed nothing under name
	}
	f, err := nf.made()
	if err != nil {
		return err
	}
	if ok && p.name != name {
		if err := f.Remove(p.name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	delete(nf.placed, lower)
	write := f.Replace
	if !ok {
		write = f.Create // nothing placed under the name
	}
	if err := write(name, bytesWriter(b)); err != nil {
		return err
	}
	nf.placed[lower] = placement{name: name, key: key, committed: true}
	return nil
}

// unplace removes the file name placed by thread key, unless the thread
// that claims the name has made it its own.
func (nf *newFolder) unplace(key, name string) {
	lower := strings.ToLower(name)
	nf.mu.Lock()
	defer nf.mu.Unlock()
	if p, ok := nf.placed[lower]; ok && p.key == key && !p.committed {
		nf.f.Remove(p.name) // placed: nf.f is made
		delete(nf.placed, lower)
	}
}

// finish puts the folder in place when it holds a committed file, and
// removes it when it holds none (nothing was written). A file placed and
// neither committed nor removed (a result lost to an internal error) is
// removed first. When the folder cannot be renamed into place (its name
// was taken meanwhile), its files are written one by one through
// writeUnder, which checks what took the name. It returns what could not
// be written.
func (nf *newFolder) finish(out string) []string {
	nf.mu.Lock()
	defer nf.mu.Unlock()
	if nf.f == nil {
		return nil // nothing written
	}
	var names []string
	for lower, p := range nf.placed {
		if !p.committed {
			nf.f.Remove(p.name)
			delete(nf.placed, lower)
			continue
		}
		names = append(names, p.name)
	}
	if len(names) == 0 {
		nf.f.Discard()
		return nil
	}
	err := nf.f.Commit()
	if err == nil {
		return nil
	}
	if errors.Is(err, reporters.ErrInterrupted) {
		return []string{fmt.Sprintf("%s: %v", nf.f.Target(), err)}
	}
	defer nf.f.Discard()
	sort.Strings(names)
	var errs []string
	for _, n := range names {
		b, err := nf.f.ReadFile(n)
		if err == nil {
			err = writeUnder(out, nf.rel+"/"+n, bytesWriter(b))
		}
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s/%s: %v", nf.rel, n, err))
		}
	}
	return errs
}
