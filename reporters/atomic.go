package reporters

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
)

// Reports and artifacts are written through temporary files in their
// target's folder (".<name>.tmp-*") and renamed into place, so a reader never
// sees a partial file. Every temporary file is tracked here: Interrupt (on
// SIGINT or SIGTERM) removes them all, and a report Set is renamed into
// place as a whole or not at all, so an interrupted run leaves neither
// temporary files nor a mix of two runs' reports.
//
// Why this is not github.com/google/renameio/v2 (issue 26 weighed it, at
// v2.0.2): renameio has no Windows implementation — its PendingFile,
// TempFile and WriteFile are built for !windows only, and on Windows its
// maybe.WriteFile is a plain os.WriteFile, where a reader can see half a
// report — while brenner-ci ships Windows binaries (.goreleaser.yaml) for
// the action's Windows runners, and os.Rename replaces the target there too,
// so this code is atomic on every platform it ships for. Keeping this code
// for Windows beside renameio elsewhere would be two implementations for one.
// Besides: renameio fsyncs every file before its rename, with no way to
// turn it off, while these are reports and artifacts a rerun rewrites: what
// the rename buys is that a reader (an upload step, an interrupted run)
// never sees a partial file, not durability across a machine crash, and
// `compile --out` writes one artifact per thread (an fsync made each
// write about six times slower on the benchmark machine's ext4); a Set and
// the temporary files Interrupt removes would stay hand-written in any case
// (renameio puts one file in place at a time and tracks nothing); and
// v2.0.2 needs Go 1.25 (go.mod: 1.24). What renameio would have replaced,
// createTemp, does what it does: created O_EXCL in the target's folder
// (never os.TempDir, whose rename could cross file systems), mode 0644 less
// the umask, and a link at the target is replaced by the rename, never
// followed. TestAtomic* hold these.

// ErrInterrupted is returned by writes attempted after Interrupt.
var ErrInterrupted = errors.New("interrupted")

var temps = struct {
	mu          sync.Mutex
	files       map[string]bool
	folders     map[*Folder]bool // folders being built (folder.go)
	interrupted bool
}{files: map[string]bool{}, folders: map[*Folder]bool{}}

// tempFile is a staged file being written (createExcl).
type tempFile interface {
	io.WriteCloser
	Name() string
}

// createTemp creates and tracks a temporary file next to path.
func createTemp(path string) (tempFile, error) {
	// The file is created and tracked under the lock: Interrupt, which
	// the signal handler calls before the process exits, either removes it
	// or makes this fail before it exists. (Created outside the lock and
	// tracked after, a file made while Interrupt ran was left behind when
	// the process exited first.)
	temps.mu.Lock()
	defer temps.mu.Unlock()
	if temps.interrupted {
		return nil, ErrInterrupted
	}
	// Like os.CreateTemp, but created with mode 0644 (less the umask), as
	// the file will stay: no chmod afterwards.
	var f tempFile
	name, err := besideUnique(path, func(name string) (err error) {
		f, err = createExcl(name)
		return err
	})
	if err != nil {
		return nil, err
	}
	temps.files[name] = true
	return f, nil
}

// besideUnique makes an entry next to path named ".<base>.tmp-<random>"
// with create, which fails with fs.ErrExist when the name is taken (another
// name is tried) and fs.ErrNotExist when the folder is missing (the folder
// is made, only then: one stat less per artifact). It returns the name.
func besideUnique(path string, create func(name string) error) (string, error) {
	dir := filepath.Dir(path)
	base := "." + filepath.Base(path) + ".tmp-"
	made := false
	for try := 0; ; try++ {
		name := filepath.Join(dir, base+strconv.FormatUint(uint64(rand.Uint32()), 36))
		err := create(name)
		switch {
		case os.IsExist(err) && try < 100:
			continue
		case errors.Is(err, fs.ErrNotExist) && !made:
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return "", err
			}
			made = true
			continue
		case err != nil:
			return "", err
		}
		return name, nil
	}
}

// removeTemp removes a tracked temporary file.
func removeTemp(name string) {
	temps.mu.Lock()
	defer temps.mu.Unlock()
	os.Remove(name)
	delete(temps.files, name)
}

// Interrupt removes every temporary file and every Folder being built, and
// makes every later write fail with ErrInterrupted. It waits for a Set
// being renamed into place, so that the set is complete, and for the files
// being written in a Folder; it returns how many files and folders it
// removed.
func Interrupt() int {
	temps.mu.Lock()
	defer temps.mu.Unlock()
	temps.interrupted = true
	n := 0
	for name := range temps.files {
		if os.Remove(name) == nil {
			n++
		}
		delete(temps.files, name)
	}
	for f := range temps.folders {
		f.mu.Lock()
		f.end()
		f.mu.Unlock()
		delete(temps.folders, f)
		n++
	}
	return n
}

// A Set is report files written together: each is staged in a temporary
// file, and Commit renames them all into place in one step that Interrupt
// does not cut in two. Add may be called from several goroutines.
type Set struct {
	mu     sync.Mutex
	staged []staged
	failed []string // paths whose new version could not be written
}

type staged struct{ tmp, path string }

// Add writes one file of the set to a temporary file. On error the path is
// remembered: Commit removes its old version, so that the folder does not
// hold an earlier run's report beside this run's. Of a path added twice,
// the version added last is committed.
func (s *Set) Add(path string, write func(io.Writer) error) (err error) {
	tmp, err := createTemp(path)
	if err != nil {
		s.mu.Lock()
		s.failed = append(s.failed, path)
		s.mu.Unlock()
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			removeTemp(tmp.Name())
			s.mu.Lock()
			s.failed = append(s.failed, path)
			s.mu.Unlock()
		}
	}()
	bw := writers.Get().(*bufio.Writer)
	bw.Reset(tmp)
	defer func() { bw.Reset(nil); writers.Put(bw) }()
	if err = write(bw); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	s.mu.Lock()
	s.staged = append(s.staged, staged{tmp.Name(), path})
	s.mu.Unlock()
	return nil
}

// writers are Add's buffered writers, reused: compile --out writes a file
// of a few kilobytes per thread, and allocating and clearing a fresh 64 KiB
// buffer for each cost more CPU than writing it (3% of a compile).
var writers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 1<<16) }}

// Commit renames every staged file into place and removes the old version
// of every file that could not be written. After Interrupt it removes the
// staged files instead and returns ErrInterrupted.
func (s *Set) Commit() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	temps.mu.Lock()
	defer temps.mu.Unlock()
	if temps.interrupted {
		for _, st := range s.staged {
			os.Remove(st.tmp)
			delete(temps.files, st.tmp)
		}
		return ErrInterrupted
	}
	var errs []error
	for _, st := range s.staged {
		if err := rename(st.tmp, st.path); err != nil {
			os.Remove(st.tmp)
			errs = append(errs, err)
		}
		delete(temps.files, st.tmp)
	}
	for _, p := range s.failed {
		// ENOTDIR: a file where its folder should be, so no previous
		// version either (Add has said why it could not be written).
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			errs = append(errs, fmt.Errorf("removing the previous %s: %w", p, err))
		}
	}
	s.staged, s.failed = nil, nil
	return errors.Join(errs...)
}

// WriteFileAtomic writes one file through a temporary file in the target's
// folder and renames it into place (a Set of one).
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	s, err := StageFile(path, write)
	if err != nil {
		return err
	}
	return s.Commit()
}

// StageFile writes one file to a temporary file in the target's folder:
// the Set's Commit renames it into place, its Discard removes it. On error
// nothing is staged, and the old file stays.
func StageFile(path string, write func(io.Writer) error) (*Set, error) {
	s := new(Set)
	if err := s.Add(path, write); err != nil {
		s.failed = nil // keep the old file: nothing else of this run was written beside it
		return nil, err
	}
	return s, nil
}

// Discard removes the set's staged files: nothing of it is put in place.
func (s *Set) Discard() {
	s.mu.Lock()
	defer s.mu.Unlock()
	temps.mu.Lock()
	defer temps.mu.Unlock()
	for _, st := range s.staged {
		os.Remove(st.tmp)
		delete(temps.files, st.tmp)
	}
	s.staged, s.failed = nil, nil
}
