package cache

import (
	"sync"

	"github.com/brenner-ci/brenner-ci/internal/bundle"
)

// Store is a folder's entries of one kind for one run: it reads the bundles
// earlier runs left (internal/bundle) and writes this run's — the entries it
// made and those it reused — as one bundle, which replaces the ones read on
// Close. It is mailbox.Store (the scan cache) and what Threads keeps its
// entries in.
type Store struct {
	dir, suffix string
	once        sync.Once // reads the bundles on first use
	r           *bundle.Reader
	w           *bundle.Writer
	err         error // Close's
}

// Bundle suffixes of the kinds of entries.
const (
	threadBundles = ".threads"
	scanBundles   = ".scan"
)

// OpenStore opens the entries with suffix in dir.
func OpenStore(dir, suffix string) *Store {
	return &Store{dir: dir, suffix: suffix, w: bundle.Create(dir, suffix)}
}

// reader is the bundles of earlier runs, read on first use (a run replayed
// whole never reads them).
func (s *Store) reader() *bundle.Reader {
	s.once.Do(func() { s.r = bundle.Open(s.dir, s.suffix) })
	return s.r
}

// OpenScan opens the scan cache's entries in dir.
func OpenScan(dir string) *Store { return OpenStore(dir, scanBundles) }

// Get returns an entry of an earlier run.
func (s *Store) Get(key string) ([]byte, bool) { return s.reader().Get(key) }

// Keep carries an entry read over into this run's bundle.
func (s *Store) Keep(key string) { s.w.Keep(key) }

// Add adds an entry of this run.
func (s *Store) Add(key string, data []byte) { s.w.Add(key, data) }

// Close puts this run's bundle in place of the ones read. A failure only
// costs misses in the next run (Problems says it).
func (s *Store) Close() {
	r := s.reader()
	s.err = s.w.Commit(r)
	r.Close()
}

// Problems says what of the folder was not used and why (a damaged or
// forged bundle, a link), and why this run's bundle was not written; the
// run reports them as notifications. Call it after Close.
func (s *Store) Problems() []string {
	out := append([]string(nil), s.reader().Ignored...)
	if s.err != nil {
		out = append(out, "this run's entries were not stored: "+s.err.Error())
	}
	return out
}
