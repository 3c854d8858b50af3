package cache

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/brenner-ci/brenner-ci/compile/binenc"
	"github.com/brenner-ci/brenner-ci/compile/tempfile"
	"github.com/brenner-ci/brenner-ci/rules"
)

// Results is a rules.Results for a run of many threads: the first KeepFirst
// results stay as they are; every later one is encoded (the binary form of
// a cache entry's thread) and written to a temporary file, deleted as soon
// as it is made, and read back once, one at a time, for the batch rules.
// A nightly audit of 200,000 threads held 120 MB of results and item facts
// through its whole check, and the collector scanned their pointers at
// every cycle. A record that cannot be written stays in memory, encoded.
// Each gives what a slice would have held (TestSpilledResultsMatch).
type Results struct {
	KeepFirst int
	// Expect is how many results the run will add, if known: the list
	// of the first KeepFirst is made that large at once (growing it by
	// copies was 1% of a check of 10,000 threads).
	Expect int

	head    []rules.ThreadResult
	lists   [][]string // the distinct Summary.Rules lists, shared again when read back
	buf     []byte     // encoded records not written yet
	parts   []part     // where the encoded records are, in order
	f       *os.File   // the spill file (nil: not made yet, or made or written in vain)
	done    func()     // closes and removes f
	off     int64      // bytes written to it
	bad     bool       // the file could not be made or written: records stay in memory
	n       int        // records encoded
	longest int        // the longest record encoded

	findings, comments int // in every result added
}

// part is a run of encoded records: in the spill file, or in memory.
type part struct {
	off, n int64
	mem    []byte
}

// flushAt is how many encoded bytes are gathered before they are written
// (a variable for tests).
var flushAt = 1 << 20

// Add keeps the next result.
func (s *Results) Add(t rules.ThreadResult) {
	s.findings += len(t.Findings)
	s.comments += len(t.Comments)
	if len(s.head) < s.KeepFirst {
		if s.head == nil && s.Expect > 0 {
			s.head = make([]rules.ThreadResult, 0, min(s.KeepFirst, s.Expect))
		}
		s.head = append(s.head, t)
		return
	}
	rec := s.encode(nil, &t)
	s.longest = max(s.longest, len(rec))
	s.buf = binary.AppendUvarint(s.buf, uint64(len(rec)))
	s.buf = append(s.buf, rec...)
	s.n++
	if len(s.buf) >= flushAt {
		s.flush()
	}
}

// flush moves the gathered records to the spill file, or keeps them in
// memory when it cannot.
func (s *Results) flush() {
	if len(s.buf) == 0 {
		return
	}
	if !s.bad && s.f == nil {
		s.bad = s.open() != nil
	}
	if !s.bad {
		if _, err := s.f.WriteAt(s.buf, s.off); err == nil {
			s.parts = append(s.parts, part{off: s.off, n: int64(len(s.buf))})
			s.off += int64(len(s.buf))
			s.buf = s.buf[:0]
			return
		}
		s.bad = true // a full disk: this and later records stay in memory
	}
	s.parts = append(s.parts, part{mem: s.buf})
	s.buf = nil
}

func (s *Results) open() error {
	f, done, err := tempfile.Unlinked("brenner-ci-results-*")
	if err != nil {
		return err
	}
	s.f, s.done = f, done
	return nil
}

// Sizes reports how many results were added, and how many findings and
// comments they hold.
func (s *Results) Sizes() (threads, findings, comments int) {
	return len(s.head) + s.n, s.findings, s.comments
}

// Each calls fn with every result, in order, and closes (and removes) the
// file. The records are read back and decoded one at a time; one that
// does not decode (a bug, or a disk that lost what it held) ends the
// reading with an error, after fn has seen the results before it.
func (s *Results) Each(fn func(*rules.ThreadResult)) error {
	s.flush()
	if s.done != nil {
		defer s.done()
	}
	for i := range s.head {
		fn(&s.head[i])
		s.head[i] = rules.ThreadResult{} // what fn took is its own now
	}
	seen, total := len(s.head), len(s.head)+s.n
	s.head = nil
	in := &interner{}
	rec := make([]byte, 0, s.longest) // decoding copies what it keeps
	read := func(r *bufio.Reader) error {
		for {
			n, err := binary.ReadUvarint(r)
			if err == io.EOF {
				return nil
			}
			if err == nil && n > uint64(s.longest) {
				err = errors.New("a record longer than any written")
			}
			if err == nil {
				rec = rec[:n]
				_, err = io.ReadFull(r, rec)
			}
			var t rules.ThreadResult
			if err == nil {
				t, err = s.decode(rec, in)
			}
			if err != nil {
				return err
			}
			fn(&t)
			seen++
		}
	}
	for _, p := range s.parts {
		var err error
		if p.mem != nil {
			err = read(bufio.NewReader(bytes.NewReader(p.mem)))
		} else {
			err = read(bufio.NewReaderSize(io.NewSectionReader(s.f, p.off, p.n), 1<<16))
		}
		if err != nil {
			return fmt.Errorf("reading back the results of thread %d of %d: %v", seen+1, total, err)
		}
	}
	s.parts = nil
	return nil
}

// encode appends t's record to b. Summary.Rules is the index of its list
// among the distinct lists seen (every thread of a run has the same one).
func (s *Results) encode(b []byte, t *rules.ThreadResult) []byte {
	sum := &t.Summary
	b = binenc.AppendString(b, sum.Key)
	b = binenc.AppendString(b, sum.File)
	for _, n := range []int{sum.Messages, sum.Blocks, sum.Valid, sum.Invalid, sum.Applied, sum.Version} {
		b = binary.AppendVarint(b, int64(n))
	}
	list := slices.IndexFunc(s.lists, func(l []string) bool { return sameList(l, sum.Rules) || slices.Equal(l, sum.Rules) })
	if list < 0 {
		list = len(s.lists)
		s.lists = append(s.lists, sum.Rules)
	}
	b = binary.AppendUvarint(b, uint64(list))
	b = binenc.AppendBool(b, sum.Artifact)
	b = appendFindings(b, t.Findings)
	b = appendComments(b, t.Comments)
	b = appendStrings(b, t.Internal)
	b = appendFacts(b, &t.Facts)
	b = binenc.AppendString(b, t.Facts.Artifact)
	b = appendCost(b, t.Cost)
	return binenc.AppendBool(b, t.Incomplete)
}

// sameList reports whether a and b are the same slice.
func sameList(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func (s *Results) decode(rec []byte, in *interner) (rules.ThreadResult, error) {
	r := &decoder{Reader: binenc.Reader{B: rec}, in: in}
	var t rules.ThreadResult
	sum := &t.Summary
	sum.Key, sum.File = r.ownThread()
	sum.Messages, sum.Blocks, sum.Valid, sum.Invalid, sum.Applied, sum.Version = r.Int(), r.Int(), r.Int(), r.Int(), r.Int(), r.Int()
	if list := r.Uvarint(); list < uint64(len(s.lists)) {
		sum.Rules = s.lists[list]
	} else {
		r.Bad = true
	}
	sum.Artifact = r.Bool()
	t.Findings = readFindings(r)
	t.Comments = readComments(r)
	t.Internal = readStrings(r)
	facts, err := readFacts(r)
	if err != nil {
		return t, err
	}
	t.Facts = facts
	t.Facts.Artifact = r.Str()
	t.Cost = readCost(r)
	t.Incomplete = r.Bool()
	if r.Bad || len(r.B) != 0 {
		return t, errors.New("malformed record")
	}
	return t, nil
}
