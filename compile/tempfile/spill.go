package tempfile

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"
)

// Spill is a temporary file (Unlinked) that records are written to, from
// any number of goroutines at once, and read back by their place: what a
// run keeps out of its heap from one phase to the next (a scan's packed
// records, the results of threads checked during the scan). The file is
// made at the first Write. The zero Spill is ready to use.
type Spill struct {
	Pattern string // the file's name pattern (os.CreateTemp)

	once sync.Once
	f    *os.File
	done func()
	err  error
	end  atomic.Int64 // bytes reserved by writes
}

// At is where a record is in a Spill: 12 bytes, so that a record's place
// costs less memory than most records.
type At struct {
	Off int64
	N   uint32
}

// MaxRecord is the longest record a Spill takes (At.N).
const MaxRecord = 1<<32 - 1

// open makes the file once; a failure stands for every later Write.
func (s *Spill) open() error {
	s.once.Do(func() {
		pattern := s.Pattern
		if pattern == "" {
			pattern = "brenner-ci-spill-*"
		}
		s.f, s.done, s.err = Unlinked(pattern)
	})
	return s.err
}

// Write writes b to the file and returns its place, or false when it
// could not (no file could be made, a full disk, a record longer than
// MaxRecord): the caller then keeps b in memory.
func (s *Spill) Write(b []byte) (At, bool) {
	if len(b) > MaxRecord || s.open() != nil {
		return At{}, false
	}
	off := s.end.Add(int64(len(b))) - int64(len(b))
	if _, err := s.f.WriteAt(b, off); err != nil {
		return At{}, false // the reserved bytes stay unused
	}
	return At{Off: off, N: uint32(len(b))}, true
}

// Read reads back the record written at at. The file is the run's own: an
// error means the disk lost what it held (or a bug).
func (s *Spill) Read(at At) ([]byte, error) {
	if s.f == nil {
		return nil, errors.New("tempfile: reading a spill file that was never written")
	}
	buf := make([]byte, at.N)
	if _, err := s.f.ReadAt(buf, at.Off); err != nil {
		return nil, err
	}
	return buf, nil
}

// Close closes the file (and removes it where its name is still there);
// no Read may follow. Closing a Spill never written does nothing.
func (s *Spill) Close() {
	s.once.Do(func() { s.err = os.ErrClosed }) // no file is made after Close
	if s.done != nil {
		s.done()
		s.done = nil
	}
}
