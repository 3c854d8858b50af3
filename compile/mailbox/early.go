package mailbox

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/brenner-ci/brenner-ci/diag"
)

// Early checks a thread while the scan still holds its file's bytes: a file
// that holds one whole thread, read whole, of one project, is turned into
// a loaded Thread from what the scan read (no packed records, no second
// read) and handed to Check. Its result stands in the batch for the
// thread (ThreadRef.Early), whose metadata is not kept.
//
// A thread is checked early only when its result cannot depend on another
// file of the batch:
//   - no other file holds a thread of its key: such threads are found
//     when the scan ends, and their files scanned again for the merge;
//   - Owned says no persisted artifact names it (asked for its key and
//     every thread_id of its messages);
//   - the batch lists no agents (Batch.Agents): the compile options
//     depend on them, so all the early threads are then scanned again.
//
// Early threads' messages number their input order (Message.Seq) within
// their file; merged threads number it across the batch. Only the order
// of two messages of one thread is read from it.
type Early struct {
	// Check checks t (which is valid during the call only, as a loaded
	// thread is) and returns what stands for it, or false when it could
	// not be checked (a panic, a timeout): the file is then scanned again
	// and its thread loaded and checked with the others. A Check that
	// returned false may still be running (a thread past its time
	// budget): the scan gives it the file's bytes for good.
	Check func(t *Thread) (any, bool)
	// Owned reports whether a persisted artifact among the inputs may
	// belong to the thread of id (nil: none does).
	Owned func(id string) bool
	// Drop, when set, is given every result the scan does not keep after
	// all (another file holds the thread's key, the batch lists agents).
	Drop func(result any)
	// Elsewhere, when set, is asked first, with the thread's key and
	// thread id, whether the thread is checked elsewhere (by another
	// shard): when it returns a result (not nil), the thread is neither
	// loaded nor handed to Check, and that result stands for it.
	Elsewhere func(key, threadID string) any
}

// CheckEarly has Scan check the threads it can as it reads them (see
// Early). Not with a scan cache or KeepScans, which keep every file's
// records.
func (in *Inputs) CheckEarly(e *Early) {
	if in.opt.Cache == nil && !in.keep {
		in.early = e
	}
}

// Early is what the Early check returned for the thread, or nil when it was
// merged and is loaded as usual.
func (r *ThreadRef) Early() any { return r.early }

// scanEarly scans f, and checks its thread at once when it can (Early).
func scanEarly(f *inFile, e *Early) *fileResult {
	res := scan(f, false, e)
	if res.rescan {
		// The check gave up: its thread is checked with the others.
		res = scan(f, true, nil)
	}
	packRecs(res)
	return res
}

// maxEarlyBytes is the largest file whose thread is checked early. What
// the early check saves is per file (its records packed and unpacked, a
// second read); what it costs is the scan's buffers and the records held
// unpacked for the whole check: a thread of 40,000 messages (30 MB) checked
// early took 2.28 times one of 20,000 instead of 1.8-1.9 (its records and
// the scan's nodes pushed the heap to the memory limit).
const maxEarlyBytes = 4 << 20

// early checks the file's thread when the file holds one whole thread of
// one project (Early), and reports whether it did. When it did not try,
// the records are as the scan read them; when it tried and the check gave
// up, res.rescan is set (the records are the check's).
func (s *scanner) early(e *Early) bool {
	res := s.res
	if s.whole == nil || len(s.whole) > maxEarlyBytes || len(res.recs) == 0 || len(res.agents) > 0 {
		return false
	}
	first := res.recs[0].m
	owned := e.Owned != nil && e.Owned(first.ThreadKey)
	lastID := ""
	for _, r := range res.recs {
		m := r.m
		if m.ThreadKey != first.ThreadKey || m.Project != first.Project || m.Src.kind != srcJSON ||
			m.Src.File != s.f.disp || m.Src.off < 0 || m.Src.end > int64(len(s.whole)) {
			return false
		}
		if m.ThreadID != lastID && m.ThreadID != "" {
			lastID = m.ThreadID
			owned = owned || e.Owned != nil && e.Owned(lastID)
		}
	}
	if owned {
		return false
	}
	// From here on the records are the thread's: when it is not checked
	// after all, the file is scanned again (res.rescan).
	res.rescan = true
	t := s.merged()
	m := t.Messages[0]
	ref := &ThreadRef{Key: t.Key, threadID: t.ThreadID, project: t.Project, findings: slices.Clone(t.Findings),
		maxDepth: s.f.maxDepth, from: s.f, where: diag.Pos{File: m.Src.File, Line: m.Src.Line, Col: m.Src.Col}.Normalize()}
	r := any(nil)
	if e.Elsewhere != nil {
		r = e.Elsewhere(t.Key, t.ThreadID)
	}
	if r == nil {
		if err := s.load(t); err != nil {
			return true
		}
		var ok bool
		if r, ok = e.Check(t); !ok {
			s.fbuf = nil // the check may go on reading it
			return true
		}
	}
	ref.early = r
	res.early, res.earlyKey, res.rescan = ref, first.ThreadKey, false
	res.recs = nil
	return true
}

// merged is the file's thread: its records merged as merge would merge
// them alone (one copy of a message exported twice, IN-003 … IN-005,
// protocol order), its bodies not loaded yet (load).
func (s *scanner) merged() *Thread {
	res := s.res
	w := mergeBufsPool.Get().(*mergeBufs)
	defer w.release()
	w.take(0)
	for i, r := range res.recs {
		r.m.Seq = i
		w.add(r)
	}
	key := res.recs[0].m.ThreadKey
	g := splitByProject(key, w.recs, w.dups)[0] // one project
	t := &Thread{Key: g.key, Messages: make([]*Message, len(g.recs))}
	t.Findings, t.ThreadID, t.Project = settle(g.key, g.recs, g.findings)
	for i, r := range g.recs {
		t.Messages[i] = r.m
	}
	return t
}

// load loads the bodies of the file's thread t (merged) from the file's
// bytes.
func (s *scanner) load(t *Thread) error {
	ld := loaderPool.Get().(*loader)
	defer ld.release()
	ld.p.MaxDepth = s.f.maxDepth
	ld.scanned = true // s.whole is what the records were read from
	t.bodies = getSlab()
	ld.bodies = t.bodies
	// The file's bytes are the thread's read buffer until it is released,
	// and stay the scanner's: never pooled as a read buffer.
	h := &held{buf: s.whole, scan: true}
	t.held = append(t.held, h)
	slots := s.res.takeSlots(len(t.Messages))
	for i, m := range t.Messages {
		m.Src.held = h
		if err := ld.fillJSON(m, s.whole[m.Src.off:m.Src.end:m.Src.end], &slots[i]); err != nil {
			t.Release() // not expected: these are the bytes just scanned
			return err
		}
	}
	return nil
}

// packing has the file's records packed as they are read from now on: a
// file that is not read whole is never checked early, and a large one
// must not hold its records unpacked.
func (s *scanner) packing() {
	if s.hold && s.res.pk == nil {
		s.res.pk = packerPool.Get().(*packer)
		s.res.pk.reset()
	}
}

// newRec returns a new zero record with its message, for a record kept
// unpacked (scanner.keep): from arrays of the file's (reserve), so that a
// file's records, which an early check reads and then drops, take two
// arrays, not two allocations each, and the arrays go to the next file
// once the records are packed or checked (recycle).
func (res *fileResult) newRec() *rec {
	u := res.unp()
	if len(u.recArr) == cap(u.recArr) {
		res.reserve(8)
	}
	n := len(u.recArr)
	u.recArr, u.msgArr = u.recArr[:n+1], u.msgArr[:n+1]
	r := &u.recArr[n]
	r.m = &u.msgArr[n]
	return r
}

// reserve makes room for n more records (newRec) when the arrays have
// less: a list of messages is counted before it is read. The arrays come
// from the pool when its pair is large enough.
func (res *fileResult) reserve(n int) {
	u := res.unp()
	if cap(u.recArr)-len(u.recArr) < n {
		n = min(n, maxPooledMerge)
		u.used()
		a := recArraysPool.Get().(*recArrays)
		if cap(a.recs) < n {
			a.recs, a.msgs = make([]rec, 0, n), make([]Message, 0, n)
		}
		u.arrays = append(u.arrays, a)
		u.recArr, u.msgArr = a.recs[:0], a.msgs[:0]
	}
}

// recArrays is a pair of arrays newRec takes a file's records and
// messages from, and n how many of each it took.
type recArrays struct {
	recs []rec
	msgs []Message
	n    int
}

// recArraysPool holds pairs of zero arrays. The scan's records were a
// sixth of everything a 10,000-thread check allocated, all of it garbage
// once the file's records were packed or its thread checked early.
var recArraysPool = sync.Pool{New: func() any { return new(recArrays) }}

// used notes how many records newRec took from the arrays in use.
func (u *unpacked) used() {
	if k := len(u.arrays); k > 0 {
		u.arrays[k-1].n = len(u.recArr)
	}
}

// takeSlots returns n zero load slots for the messages of the file's
// thread checked early (scanner.load), recycled with the records: only
// those messages refer to them.
func (res *fileResult) takeSlots(n int) []loadSlot {
	p := slotsPool.Get().(*[]loadSlot)
	if cap(*p) < n {
		*p = make([]loadSlot, n)
	}
	res.unp().slots = p
	return (*p)[:n]
}

var slotsPool = sync.Pool{New: func() any { return new([]loadSlot) }}

// poisonedFields is what a recycled message's fields read with
// PoisonOnRelease.
var poisonedFields = map[string]diag.Pos{}

// recycle hands the file's arrays of records to the next file: the
// records have been packed (flush), or their thread was checked early and
// the check is over (a loaded thread is valid during the check only), so
// nothing refers to them; so are the load slots of those messages. A pair
// is cleared as far as it was used; one larger than a merge's pooled
// arrays goes to the collector, as do slots past that size. With
// PoisonOnRelease a pair and its slots are poisoned instead and never
// reused, so that a message, or a field or body position of one, read
// after this shows the poison in a report.
func (res *fileResult) recycle() {
	res.recs = nil
	u := res.unpacked
	if u == nil {
		return
	}
	res.unpacked = nil
	if p := u.slots; p != nil {
		slots := *p
		switch {
		case PoisonOnRelease:
			for i := range slots {
				sl := &slots[i]
				sl.fields.fp, sl.fields.compute, sl.fields.from = poisonedFields, nil, nil
				sl.fields.once.Do(func() {})
				sl.bm = bodyMap{line: -1e6, col: -1e6, approx: true}
			}
		case cap(slots) <= maxPooledMerge:
			clear(slots)
			slotsPool.Put(p)
		}
	}
	u.used()
	for _, a := range u.arrays {
		if PoisonOnRelease {
			msgs := a.msgs[:a.n]
			for j := range msgs {
				msgs[j] = poisoned
			}
			continue
		}
		clear(a.recs[:a.n])
		clear(a.msgs[:a.n])
		a.n = 0
		if cap(a.recs) <= maxPooledMerge {
			recArraysPool.Put(a)
		}
	}
	clear(u.arrays)
	u.names.Reset(PoisonOnRelease, poisoned.ID)
	*u = unpacked{arrays: u.arrays[:0], names: u.names}
	unpackedPool.Put(u)
}

var unpackedPool = sync.Pool{New: func() any { return new(unpacked) }}

// poisoned is what a recycled message reads with PoisonOnRelease.
var poisoned = func() Message {
	const p = "\uFFFDreleased\uFFFD"
	return Message{ID: p, Project: p, ThreadID: p, ThreadKey: p, Subject: p, From: p,
		To: []string{p}, CC: []string{p}, BCC: []string{p}, Importance: p, CreatedRaw: p,
		TimeStyle: p, Body: p, Seq: -1, Src: Src{File: p, Line: -1, Col: -1}}
}()

// earlyAgain lists the files whose early thread must be merged with the
// others after all: another file holds a thread of the same key, or the
// batch lists agents.
func earlyAgain(results []*fileResult) []int {
	files := make(map[string]int, len(results))
	agents := false
	for _, r := range results {
		agents = agents || len(r.agents) > 0
		if r.early != nil {
			files[r.earlyKey]++
			continue
		}
		for i := range r.refs {
			p, k := r.refs[i].p, r.keys[i]
			if i > 0 && p == r.refs[i-1].p && k == r.keys[i-1] {
				continue // the same run of one thread
			}
			files[p.str(p.tab, int(k))]++
		}
	}
	var again []int
	for i, r := range results {
		if r.early != nil && (agents || files[r.earlyKey] > 1) {
			again = append(again, i)
		}
	}
	return again
}

// loadAgain loads an early thread from its file read again, for a check
// that could not use its early result.
func (r *ThreadRef) loadAgain() (*Thread, error) {
	res := scanFile(r.from)
	b := merge([]*fileResult{res}, 1)
	var t *Thread
	err := fmt.Errorf("%s: thread %s changed on disk after the scan", r.from.disp, r.Key)
	for _, ref := range b.Threads {
		if ref.Key == r.Key && t == nil {
			ref.maxDepth = r.maxDepth
			t, err = ref.Load()
		}
		ref.Release()
	}
	return t, err
}

// errEarly is returned by Digest for a thread checked during the scan,
// whose messages' places were not kept.
var errEarly = errors.New("mailbox: the thread was checked during the scan; its messages' places were not kept")

// Markdown lists the inputs a scan may take for persisted artifacts (its
// Batch.Markdown is among them): every file named *.md or *.markdown.
func (in *Inputs) Markdown() []string {
	var out []string
	for i := range in.files {
		if f := &in.files[i]; f.skip == "" && hasExt(f.disp, ".md", ".markdown") {
			out = append(out, f.disp)
		}
	}
	return out
}
