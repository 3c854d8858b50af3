// Package bundle stores the entries of a cache as one file per run instead
// of one file per entry: creating tens of thousands of small files costs
// more than most of what a cache saves (2 s of a 10,000-thread run on a CI
// file system).
//
// A bundle is written by one run: entries are appended as they come (from
// any goroutine), then an index and a trailer, and the file is renamed into
// place, replacing the bundles the run read. Every entry carries a checksum
// of its key and bytes, so a damaged entry is a miss, never another entry's
// data; a bundle without a valid trailer (a run that died) is ignored.
// Concurrent runs may share a folder: a bundle removed under a reader was
// opened already (or is a miss).
package bundle

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/brenner-ci/brenner-ci/internal/safefile"
)

const (
	magic   = "brenner-ci bundle 1\n"
	trailer = "BNDLEND1"
	sumLen  = 16
)

// Bounds of what a bundle may ask a reader to allocate: a bundle is a hint
// from an earlier run, and a forged one (a sparse 64 GiB file whose index
// claims all of it) must cost a miss, not the run's memory. Real indexes
// are about 100 bytes an entry; entries are one thread's results.
const (
	maxIndexBytes = 256 << 20
	maxEntryBytes = 256 << 20
)

type span struct{ off, n int64 }

// Reader gives the entries of the bundles of a folder.
type Reader struct {
	// mu keeps Close from closing the files under a Get: a thread past
	// its time budget is left running (compile.withBudget) and may still
	// ask for an entry once the run has closed its cache.
	mu    sync.RWMutex
	files []*os.File
	index map[string]entryAt
	paths []string
	// Ignored says, for each bundle or folder entry not used, why.
	Ignored []string
}

type entryAt struct {
	f    *os.File
	data span // the entry's bytes
	sum  [sumLen]byte
}

// Open reads the indexes of every bundle of dir named *suffix (later
// bundles win for a key present twice). Bundles that cannot be read are
// skipped (Ignored says why): they only cost misses. dir must be a folder,
// not a link to one, and only regular files are opened, so a cache folder
// whose entries are links to devices, FIFOs or other folders neither
// blocks a run nor makes it read or delete anything outside it.
func Open(dir, suffix string) *Reader {
	r := &Reader{index: map[string]entryAt{}}
	if st, err := os.Lstat(dir); err != nil || !st.IsDir() {
		if err == nil {
			r.Ignored = append(r.Ignored, dir+" is not a folder (a symbolic link?)")
		}
		return r
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"+suffix))
	sort.Strings(names)
	for _, name := range names {
		if st, err := os.Lstat(name); err != nil || !st.Mode().IsRegular() {
			if err == nil {
				r.Ignored = append(r.Ignored, name+" is not a regular file")
			}
			continue // never opened, never removed
		}
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		if !r.readIndex(f) {
			f.Close()
			r.Ignored = append(r.Ignored, name+" is not a complete bundle")
			r.paths = append(r.paths, name) // unreadable: replaced by the next bundle
			continue
		}
		r.files = append(r.files, f)
		r.paths = append(r.paths, name)
	}
	return r
}

func (r *Reader) readIndex(f *os.File) bool {
	st, err := f.Stat()
	if err != nil || st.Size() < int64(len(magic)+8+len(trailer)) {
		return false
	}
	tail := make([]byte, 8+len(trailer))
	if _, err := f.ReadAt(tail, st.Size()-int64(len(tail))); err != nil || string(tail[8:]) != trailer {
		return false
	}
	at := int64(binary.LittleEndian.Uint64(tail))
	end := st.Size() - int64(len(tail))
	if at < int64(len(magic)) || at > end || end-at > maxIndexBytes {
		return false
	}
	idx := make([]byte, end-at)
	if _, err := f.ReadAt(idx, at); err != nil {
		return false
	}
	for len(idx) > 0 {
		kn, k := binary.Uvarint(idx)
		if k <= 0 || kn > uint64(len(idx)-k) {
			return false
		}
		key := string(idx[k : k+int(kn)])
		idx = idx[k+int(kn):]
		off, k1 := binary.Uvarint(idx)
		if k1 <= 0 {
			return false
		}
		n, k2 := binary.Uvarint(idx[k1:])
		if k2 <= 0 || len(idx) < k1+k2+sumLen || off+n > uint64(at) || n > maxEntryBytes {
			return false
		}
		e := entryAt{f: f, data: span{int64(off), int64(n)}}
		copy(e.sum[:], idx[k1+k2:])
		idx = idx[k1+k2+sumLen:]
		r.index[key] = e
	}
	return true
}

// Len is the number of entries found (0 once closed).
func (r *Reader) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.index)
}

// Get returns the bytes of key's entry, when present and intact (never
// once the Reader is closed).
func (r *Reader) Get(key string) ([]byte, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.index[key]
	if !ok {
		return nil, false
	}
	data := make([]byte, e.data.n)
	if _, err := e.f.ReadAt(data, e.data.off); err != nil {
		return nil, false
	}
	if sum(key, data) != e.sum {
		return nil, false
	}
	return data, true
}

// Close closes the bundles.
func (r *Reader) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, f := range r.files {
		f.Close()
	}
	r.files, r.index = nil, nil
}

func sum(key string, data []byte) (s [sumLen]byte) {
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	h.Write(n[:binary.PutUvarint(n[:], uint64(len(key)))])
	h.Write([]byte(key))
	h.Write(data)
	copy(s[:], h.Sum(nil))
	return s
}

// Writer writes a new bundle. Its methods may be called from several
// goroutines. No file is created until an entry is added or a commit has
// to rewrite the folder's bundles, so a run that only reuses entries
// writes nothing.
type Writer struct {
	dir, suffix string
	mu          sync.Mutex
	f           *os.File
	w           *bufio.Writer
	off         int64
	index       bytes.Buffer
	seen        map[string]bool
	kept        []string
	err         error
	// committed: Commit has run; what comes after it (from a thread left
	// running past its time budget) is not stored, and starts no file.
	committed bool
}

// Create prepares a bundle in dir (created when needed).
func Create(dir, suffix string) *Writer {
	return &Writer{dir: dir, suffix: suffix, seen: map[string]bool{}}
}

// start creates the file (with w.mu held), in w.dir only when that is a
// folder and not a link to one.
//
// The temporary file and its rename (Commit) are not
// github.com/google/renameio/v2 (issue 26): renameio has no Windows
// implementation (see reporters/atomic.go), it needs the final name before
// the file is created while a bundle's name is its temporary file's random
// part, and it fsyncs before the rename — a cost (a bundle can be hundreds
// of megabytes) that buys nothing here, since a bundle cut short by a crash
// has no valid trailer and is ignored, and a damaged entry fails its
// checksum: a miss either way.
func (w *Writer) start() {
	if w.f != nil || w.err != nil {
		return
	}
	if w.err = safefile.MakeDir(w.dir); w.err != nil {
		return
	}
	if w.f, w.err = os.CreateTemp(w.dir, ".tmp-bundle-*"); w.err != nil {
		return
	}
	w.w = bufio.NewWriterSize(w.f, 1<<16)
	_, w.err = w.w.WriteString(magic)
	w.off = int64(len(magic))
}

// Add appends key's entry (once per key: a second Add or Keep of a key is
// ignored).
func (w *Writer) Add(key string, data []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.committed || w.seen[key] {
		return
	}
	w.seen[key] = true
	w.start()
	w.add(key, data)
}

func (w *Writer) add(key string, data []byte) {
	if w.err != nil {
		return
	}
	if _, w.err = w.w.Write(data); w.err != nil {
		return
	}
	var n [binary.MaxVarintLen64]byte
	w.index.Write(n[:binary.PutUvarint(n[:], uint64(len(key)))])
	w.index.WriteString(key)
	w.index.Write(n[:binary.PutUvarint(n[:], uint64(w.off))])
	w.index.Write(n[:binary.PutUvarint(n[:], uint64(len(data)))])
	s := sum(key, data)
	w.index.Write(s[:])
	w.off += int64(len(data))
}

// Keep carries key's entry of the Reader given to Commit over into the new
// bundle.
func (w *Writer) Keep(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.committed && !w.seen[key] {
		w.seen[key] = true
		w.kept = append(w.kept, key)
	}
}

// Commit puts the new bundle in place of r's bundles: the entries added,
// and the ones kept copied from r. When nothing was added and every entry
// of r's single bundle was kept, that bundle stays as it is. After an
// error nothing is left but the old bundles (a later run's misses).
func (w *Writer) Commit(r *Reader) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.committed {
		return w.err // once is enough
	}
	w.committed = true
	if w.f == nil && len(r.paths) == 1 && len(r.files) == 1 && len(w.kept) == len(r.index) {
		return nil // unchanged
	}
	w.start()
	if w.f == nil {
		return w.err
	}
	sort.Strings(w.kept) // the bundle's bytes do not depend on scheduling
	for _, key := range w.kept {
		if data, ok := r.Get(key); ok {
			w.add(key, data)
		}
	}
	tmp := w.f.Name()
	if w.err == nil {
		_, w.err = w.index.WriteTo(w.w)
	}
	if w.err == nil {
		var t [8]byte
		binary.LittleEndian.PutUint64(t[:], uint64(w.off))
		_, w.err = w.w.Write(append(t[:], trailer...))
	}
	if w.err == nil {
		w.err = w.w.Flush()
	}
	if err := w.f.Close(); w.err == nil {
		w.err = err
	}
	w.f = nil
	if w.err != nil {
		os.Remove(tmp)
		return w.err
	}
	name := filepath.Join(w.dir, strings.TrimPrefix(filepath.Base(tmp), ".tmp-bundle-")+w.suffix)
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return err
	}
	for _, old := range r.paths {
		if old != name {
			os.Remove(old)
		}
	}
	return nil
}

// Paths are the bundles a Reader opened (or found unreadable): a run's
// Commit replaces them.
func (r *Reader) Paths() []string { return r.paths }
