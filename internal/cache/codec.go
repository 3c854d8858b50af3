package cache

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"sync"

	"github.com/brenner-ci/brenner-ci/compile/binenc"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules"
)

// The binary form of a thread cache entry ("B"). A cached run decodes an
// entry per thread, and JSON decoding was most of its time; this form
// keeps every byte of every string (no U+FFFD as in JSON) and decodes
// without reflection. Artifact results (threads with persisted artifacts,
// whose front matter holds YAML values) are embedded as JSON.

func appendPos(b []byte, p diag.Pos) []byte {
	b = binenc.AppendString(b, p.File)
	b = binary.AppendVarint(b, int64(p.Line))
	b = binary.AppendVarint(b, int64(p.Col))
	b = binary.AppendVarint(b, int64(p.EndLine))
	return binary.AppendVarint(b, int64(p.EndCol))
}

// decoder reads an entry; strings that many entries repeat (rule ids,
// codes, hints, file names, thread keys) are interned, so that a cached
// run holds them once, as a run that checks its threads does.
type decoder struct {
	binenc.Reader
	in *interner
	// key and file: the entry's thread's, once read (ownThread).
	key, file string
}

// shared reads a string that other entries are likely to hold too.
func (r *decoder) shared() string { return r.intern(r.Bytes()) }

func (r *decoder) intern(b []byte) string {
	if r.in == nil {
		return string(b)
	}
	return r.in.get(b)
}

// ownThread reads the entry's thread key and file, which the entry
// repeats: every finding names its thread, and nearly every position is in
// its file. owned returns them again instead of making them once more, also
// past the interner's limit (a nightly audit's read-back made the file's
// name again for every position of the 135,000 threads past the first
// 65,536: 20 MB).
func (r *decoder) ownThread() (key, file string) {
	r.key = r.Str() // a key is one thread's: not interned
	r.file = r.shared()
	return r.key, r.file
}

// owned reads a string that is likely the entry's thread key or file, and
// interns it when it is neither.
func (r *decoder) owned() string {
	switch b := r.Bytes(); string(b) {
	case r.key:
		return r.key
	case r.file:
		return r.file
	default:
		return r.intern(b)
	}
}

// ownKey reads a thread key or id, likely the entry's thread key.
func (r *decoder) ownKey() string {
	if b := r.Bytes(); string(b) != r.key {
		return string(b)
	}
	return r.key
}

// interner keeps one copy of each string it is given, and of each list of
// rule ids (every thread of a run has the same one: 165 strings, 2.6 KB a
// cached thread when each kept its own); safe for concurrent use. It stops
// growing at maxInterned strings and maxLists lists.
type interner struct {
	mu    sync.Mutex
	m     map[string]string
	lists [][]string
}

const maxLists = 8

// list returns a list equal to l that it has seen before, or l.
func (in *interner) list(l []string) []string {
	if in == nil || len(l) == 0 {
		return l
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, seen := range in.lists {
		if slices.Equal(seen, l) {
			return seen
		}
	}
	if len(in.lists) < maxLists {
		in.lists = append(in.lists, l)
	}
	return l
}

const maxInterned = 1 << 16

func (in *interner) get(b []byte) string {
	in.mu.Lock()
	defer in.mu.Unlock()
	if s, ok := in.m[string(b)]; ok {
		return s
	}
	s := string(b)
	if in.m == nil {
		in.m = map[string]string{}
	}
	if len(in.m) < maxInterned {
		in.m[s] = s
	}
	return s
}

func readPos(r *decoder) diag.Pos {
	return diag.Pos{File: r.owned(), Line: r.Int(), Col: r.Int(), EndLine: r.Int(), EndCol: r.Int()}
}

func appendStrings(b []byte, l []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(l)))
	for _, s := range l {
		b = binenc.AppendString(b, s)
	}
	return b
}

func readStrings(r *decoder) []string {
	n := r.Count()
	if n == 0 {
		return nil
	}
	l := make([]string, n)
	for i := range l {
		l[i] = r.Str()
	}
	return l
}

func appendFindings(b []byte, fs []diag.Finding) []byte {
	b = binary.AppendUvarint(b, uint64(len(fs)))
	for i := range fs {
		f := &fs[i]
		b = binenc.AppendString(b, f.Rule)
		b = binenc.AppendString(b, f.Code)
		b = binary.AppendVarint(b, int64(f.Severity))
		b = binenc.AppendString(b, f.Message)
		b = appendPos(b, f.Pos)
		b = binenc.AppendString(b, f.Thread)
		b = binenc.AppendString(b, f.MsgID)
		b = binenc.AppendString(b, f.Hint)
		b = binenc.AppendBool(b, f.Fix != nil)
		if f.Fix != nil {
			b = binenc.AppendString(b, f.Fix.Description)
			b = appendPos(b, f.Fix.Pos)
			b = binenc.AppendString(b, f.Fix.Text)
		}
		b = binenc.AppendString(b, f.Anchor)
	}
	return b
}

func readFindings(r *decoder) []diag.Finding {
	n := r.Count()
	if n == 0 {
		return nil
	}
	fs := make([]diag.Finding, n)
	for i := range fs {
		f := &fs[i]
		f.Rule, f.Code, f.Severity = r.shared(), r.shared(), diag.Severity(r.Varint())
		f.Message, f.Pos, f.Thread, f.MsgID, f.Hint = r.Str(), readPos(r), r.owned(), r.Str(), r.shared()
		if r.Bool() {
			f.Fix = &diag.Fix{Description: r.shared(), Pos: readPos(r), Text: r.Str()}
		}
		f.Anchor = r.Str()
	}
	return fs
}

func appendComments(b []byte, cs []diag.Comment) []byte {
	b = binary.AppendUvarint(b, uint64(len(cs)))
	for i := range cs {
		c := &cs[i]
		b = binenc.AppendString(b, c.Text)
		b = appendPos(b, c.Pos)
		b = appendPos(b, c.From)
		b = appendPos(b, c.To)
		b = binenc.AppendString(b, c.File)
		b = binenc.AppendString(b, c.Thread)
		b = binenc.AppendString(b, c.MsgID)
	}
	return b
}

func readComments(r *decoder) []diag.Comment {
	n := r.Count()
	if n == 0 {
		return nil
	}
	cs := make([]diag.Comment, n)
	for i := range cs {
		cs[i] = diag.Comment{Text: r.Str(), Pos: readPos(r), From: readPos(r), To: readPos(r), File: r.owned(), Thread: r.owned(), MsgID: r.Str()}
	}
	return cs
}

func appendFacts(b []byte, f *rules.Facts) []byte {
	b = binenc.AppendString(b, f.Key)
	b = binenc.AppendString(b, f.ThreadID)
	b = binary.AppendVarint(b, int64(f.Latest))
	enc, n, hyps := f.Items.Packed()
	b = binary.AppendUvarint(b, uint64(n))
	b = binenc.AppendString(b, enc)
	b = binary.AppendUvarint(b, uint64(len(hyps)))
	for _, h := range hyps {
		b = binenc.AppendString(b, h.Name)
		b = binary.LittleEndian.AppendUint64(b, h.ClaimKey)
		b = binenc.AppendBool(b, h.Claim != nil)
		if h.Claim != nil {
			b = appendPos(b, h.Claim.Pos)
			b = binenc.AppendString(b, h.Claim.MsgID)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(f.Refs)))
	for _, rf := range f.Refs {
		b = binenc.AppendString(b, rf.From)
		b = binenc.AppendString(b, rf.Session)
		b = binenc.AppendString(b, rf.Item)
		b = binenc.AppendString(b, rf.Relation)
		b = appendPos(b, rf.Pos)
		b = binenc.AppendString(b, rf.MsgID)
	}
	return b
}

func readFacts(r *decoder) (rules.Facts, error) {
	f := rules.Facts{Key: r.ownKey(), ThreadID: r.ownKey(), Latest: r.Int()}
	n, enc := r.Count(), r.Str()
	var hyps []rules.HypFact
	if nh := r.Count(); nh > 0 {
		hyps = make([]rules.HypFact, nh)
		for i := range hyps {
			hyps[i] = rules.HypFact{Name: r.Str(), ClaimKey: r.U64()}
			if r.Bool() {
				hyps[i].Claim = &rules.ClaimAt{Pos: readPos(r), MsgID: r.Str()}
			}
		}
	}
	l, err := rules.UnpackItemList(enc, n, hyps)
	if err != nil {
		return f, err
	}
	f.Items = l
	if n := r.Count(); n > 0 {
		f.Refs = make([]rules.RefFact, n)
		for i := range f.Refs {
			f.Refs[i] = rules.RefFact{From: r.Str(), Session: r.Str(), Item: r.Str(), Relation: r.Str(), Pos: readPos(r), MsgID: r.Str()}
		}
	}
	return f, nil
}

// encodeBinary is e's "B" form (without the leading 'B'); ok is false when
// e cannot be encoded (its artifacts' JSON).
func encodeBinary(e *threadEntry) ([]byte, bool) {
	b := binary.AppendUvarint(nil, uint64(e.Format))
	b = binenc.AppendString(b, e.Key)
	s := &e.Summary
	b = binenc.AppendString(b, s.Key)
	b = binenc.AppendString(b, s.File)
	for _, n := range []int{s.Messages, s.Blocks, s.Valid, s.Invalid, s.Applied, s.Version} {
		b = binary.AppendVarint(b, int64(n))
	}
	b = appendStrings(b, s.Rules)
	b = appendFindings(b, e.Findings)
	b = appendComments(b, e.Comments)
	b = appendStrings(b, e.Internal)
	b = appendFacts(b, &e.Facts)
	var arts []byte
	if len(e.Arts) > 0 {
		var err error
		if arts, err = json.Marshal(e.Arts); err != nil {
			return nil, false
		}
	}
	b = binenc.AppendString(b, string(arts))
	last, err := e.Last.MarshalBinary()
	if err != nil {
		return nil, false
	}
	b = binenc.AppendString(b, string(last))
	b = binenc.AppendString(b, string(e.Render))
	b = binenc.AppendBool(b, e.HasRend)
	b = appendCost(b, e.Cost)
	return b, true
}

// decodeBinary reads what encodeBinary wrote; any malformed field is an
// error (the entry is then a miss).
func decodeBinary(data []byte, e *threadEntry, in *interner) error {
	r := &decoder{Reader: binenc.Reader{B: data}, in: in}
	e.Format = int(r.Uvarint())
	e.Key = r.Str()
	s := &e.Summary
	s.Key, s.File = r.ownThread()
	s.Messages, s.Blocks, s.Valid, s.Invalid, s.Applied, s.Version = r.Int(), r.Int(), r.Int(), r.Int(), r.Int(), r.Int()
	s.Rules = r.in.list(readStrings(r))
	e.Findings = readFindings(r)
	e.Comments = readComments(r)
	e.Internal = readStrings(r)
	facts, err := readFacts(r)
	if err != nil {
		return err
	}
	e.Facts = facts
	if arts := r.Bytes(); len(arts) > 0 {
		if err := json.Unmarshal(arts, &e.Arts); err != nil {
			return err
		}
	}
	if err := e.Last.UnmarshalBinary(r.Bytes()); err != nil {
		return err
	}
	if rend := r.Bytes(); len(rend) > 0 {
		e.Render = append([]byte(nil), rend...)
	}
	e.HasRend = r.Bool()
	e.Cost = readCost(r)
	if r.Bad || len(r.B) != 0 {
		return errors.New("cache entry: malformed")
	}
	return nil
}

// appendCost writes a thread's rule costs (Checked.Thread.Cost), ids sorted.
func appendCost(b []byte, cost map[string]uint64) []byte {
	ids := slices.Sorted(maps.Keys(cost))
	b = binary.AppendUvarint(b, uint64(len(ids)))
	for _, id := range ids {
		b = binenc.AppendString(b, id)
		b = binary.AppendUvarint(b, cost[id])
	}
	return b
}

func readCost(r *decoder) map[string]uint64 {
	n := r.Count()
	if n == 0 {
		return nil
	}
	cost := make(map[string]uint64, n)
	for range n {
		id := r.Str()
		cost[id] = r.Uvarint()
	}
	return cost
}

// AppendNotes appends a thread's findings and comments in the form a cache
// entry holds them (compile's early results, held in a temporary file by
// internal/run, use it too).
func AppendNotes(b []byte, fs []diag.Finding, cs []diag.Comment) []byte {
	return appendComments(appendFindings(b, fs), cs)
}

// ReadNotes reads what AppendNotes wrote at the start of b, and returns
// what follows it; ok is false when b does not start with them.
func ReadNotes(b []byte) (fs []diag.Finding, cs []diag.Comment, rest []byte, ok bool) {
	r := &decoder{Reader: binenc.Reader{B: b}}
	fs = readFindings(r)
	cs = readComments(r)
	if r.Bad {
		return nil, nil, nil, false
	}
	return fs, cs, r.B, true
}
