package cache

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"runtime"
	"slices"

	"github.com/brenner-ci/brenner-ci/compile/binenc"
	"github.com/brenner-ci/brenner-ci/rules"
)

// Results is a rules.Results for a run of many threads: the first KeepFirst
// results stay as they are; every later one is encoded (the binary form of
// a cache entry's thread) and written to a temporary file, deleted as soon
// as it is made, and read back once for the batch rules. A nightly audit
// of 200,000 threads held 120 MB of results and item facts through its
// whole check, and the collector scanned their pointers at every cycle.
// A record that cannot be written stays in memory, encoded. All returns
// what a slice would have held (TestSpilledResultsMatch).
type Results struct {
	KeepFirst int

	head  []rules.ThreadResult
	lists [][]string // the distinct Summary.Rules lists, shared again when read back
	buf   []byte     // encoded records not written yet
	parts []part     // where the encoded records are, in order
	f     *os.File   // the spill file (nil: not made yet, or made or written in vain)
	off   int64      // bytes written to it
	bad   bool       // the file could not be made or written: records stay in memory
	n     int        // records encoded
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
	if len(s.head) < s.KeepFirst {
		s.head = append(s.head, t)
		return
	}
	rec := s.encode(nil, &t)
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
	f, err := os.CreateTemp("", "brenner-ci-results-*")
	if err != nil {
		return err
	}
	s.f = f
	removed := os.Remove(f.Name()) == nil
	runtime.AddCleanup(s, func(f *os.File) {
		name := f.Name()
		f.Close()
		if !removed {
			os.Remove(name)
		}
	}, f)
	return nil
}

// All returns every result, in order. The records are read back and
// decoded; one that does not decode is a bug (or the disk lost what it
// held) and panics, which the run reports as an internal error.
func (s *Results) All() []rules.ThreadResult {
	s.flush()
	out := slices.Grow(s.head, s.n)
	s.head = nil
	in := &interner{}
	read := func(r *bufio.Reader) {
		for {
			n, err := binary.ReadUvarint(r)
			if err == io.EOF {
				return
			}
			rec := make([]byte, n)
			if err == nil {
				_, err = io.ReadFull(r, rec)
			}
			var t rules.ThreadResult
			if err == nil {
				t, err = s.decode(rec, in)
			}
			if err != nil {
				panic("cache: reading back a thread's results: " + err.Error())
			}
			out = append(out, t)
		}
	}
	for _, p := range s.parts {
		if p.mem != nil {
			read(bufio.NewReader(bytes.NewReader(p.mem)))
		} else {
			read(bufio.NewReaderSize(io.NewSectionReader(s.f, p.off, p.n), 1<<16))
		}
	}
	s.parts = nil
	return out
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
	sum.Key, sum.File = r.Str(), r.shared()
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
