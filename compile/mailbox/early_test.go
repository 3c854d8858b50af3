package mailbox

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/chunk"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// msgSnap is what a check can read of a loaded message: its metadata,
// body, field regions, body positions and encoding (input order aside:
// see Early).
type msgSnap struct {
	M       Message
	Fields  map[string]diag.Pos
	BodyPos []diag.Pos
	Enc     BodyEncoding
}

type threadSnap struct {
	Key, ThreadID, Project string
	Findings               []diag.Finding
	Msgs                   []msgSnap
}

// snap copies what a check can read of t, while t is valid.
func snap(t *Thread) threadSnap {
	s := threadSnap{Key: t.Key, ThreadID: t.ThreadID, Project: t.Project, Findings: append([]diag.Finding(nil), t.Findings...)}
	for _, m := range t.Messages {
		c := *m
		c.Seq, c.fields, c.Src.held, c.Src.bm = 0, nil, nil, nil
		// Copies: the body's slab and the recipient lists' chunk are
		// reused once the thread is checked.
		c.Body = strings.Clone(m.Body)
		c.To, c.CC, c.BCC = slices.Clone(m.To), slices.Clone(m.CC), slices.Clone(m.BCC)
		ms := msgSnap{M: c, Fields: m.Fields(), Enc: m.Encoding()}
		for _, r := range [][2]int{{0, 0}, {0, 1}, {len(m.Body) / 2, len(m.Body)/2 + 3}, {len(m.Body), len(m.Body)}} {
			if r[1] <= len(m.Body) {
				ms.BodyPos = append(ms.BodyPos, m.BodyPos(r[0], r[1]))
			}
		}
		s.Msgs = append(s.Msgs, ms)
	}
	return s
}

// scanEarlyT scans paths with an Early check that snaps every thread it is
// given (and gives up on the keys in fail).
func scanEarlyT(t *testing.T, owned func(string) bool, fail map[string]bool, paths ...string) (*Batch, map[string]threadSnap) {
	t.Helper()
	in, err := List(paths, ScanOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]threadSnap{}
	in.CheckEarly(&Early{Owned: owned, Check: func(th *Thread) (any, bool) {
		mu.Lock()
		defer mu.Unlock()
		if fail[th.Key] {
			return nil, false
		}
		seen[th.Key] = snap(th)
		return th.Key, true
	}})
	return in.Scan(), seen
}

// corpusPaths are the module's ingest fixtures and the shared corpus when
// it is there.
func corpusPaths(t *testing.T) []string {
	// Each folder of testdata/ingest on its own too: the archive's agents
	// would keep every thread of the whole folder from an early check.
	paths := []string{"testdata/ingest", "testdata/demo"}
	sub, _ := filepath.Glob("testdata/ingest/*")
	paths = append(paths, sub...)
	if _, err := os.Stat("../shared/corpus"); err == nil {
		paths = append(paths, "../shared/corpus")
	} else {
		t.Log("../shared/corpus is absent: the module's fixtures only")
	}
	return paths
}

// TestEarlyThreadIsTheLoadedThread holds the early check to the plain
// path: every thread checked during the scan is, message for message, the
// thread its reference loads when the scan checks none (bodies, metadata,
// field regions, body positions, input findings), and the batches list
// the same threads in the same order.
func TestEarlyThreadIsTheLoadedThread(t *testing.T) {
	inRoot(t)
	dir := t.TempDir()
	// A file per thread: escapes, a duplicate id, a copy without a body,
	// an invalid timestamp, mixed formats; two files of one key (merged,
	// never early); an array of two threads (never early).
	write(t, filepath.Join(dir, "a.json"), `{"thread_id": "A", "messages": [
 {"id": 1, "thread_id": "A", "subject": "KICKOFF: a", "from": "X", "to": ["Y"], "created_ts": "2026-01-02T03:04:05Z", "body_md": "line \"one\"\n\u00e9 tab\there"},
 {"id": 2, "thread_id": "A", "subject": "DELTA: b", "from": "Y", "created_ts": "2026-01-02T03:04:04Z", "body_md": "earlier"},
 {"id": 2, "thread_id": "A", "subject": "DELTA: b", "from": "Y", "created_ts": "2026-01-02T03:04:04Z"},
 {"id": 3, "thread_id": "A", "subject": "x", "from": "Z", "created_ts": "not a time", "body_md": "bad time"},
 {"id": 3, "thread_id": "A", "subject": "other", "from": "Z", "created_ts": "1767323047", "body_md": "same id"}
]}`)
	write(t, filepath.Join(dir, "b1.json"), `[{"id": 10, "thread_id": "B", "subject": "s", "from": "X", "created_ts": "2026-01-02T03:04:05Z", "body_md": "b one"}]`)
	write(t, filepath.Join(dir, "b2.json"), `[{"id": 11, "thread_id": "B", "subject": "s", "from": "X", "created_ts": "2026-01-02T03:04:06Z", "body_md": "b two"}]`)
	write(t, filepath.Join(dir, "cd.json"), `[{"id": 20, "thread_id": "C", "subject": "s", "from": "X", "created_ts": "2026-01-02T03:04:05Z", "body_md": "c"},
 {"id": 21, "thread_id": "D", "subject": "s", "from": "X", "created_ts": "2026-01-02T03:04:05Z", "body_md": "d"}]`)
	n, total := 0, 0
	var early *Batch
	// One scan a folder: a batch that lists agents checks nothing early.
	for _, p := range append(corpusPaths(t), dir) {
		plain := scanT(t, p)
		b, seen := scanEarlyT(t, nil, nil, p)
		if p == dir {
			early = b
		}
		total += len(plain.Threads)
		k := compareEarly(t, plain, b, seen)
		t.Logf("%s: %d of %d threads checked early (agents: %d)", p, k, len(plain.Threads), len(b.Agents))
		n += k
	}
	for _, key := range []string{"B", "C", "D"} {
		if r := ref(t, early, key); r.Early() != nil {
			t.Errorf("%s: checked early; its file holds another thread, or another file holds its key", key)
		}
	}
	if r := ref(t, early, "A"); r.Early() == nil {
		t.Error("A: not checked early")
	}
	if n < 5 {
		t.Fatalf("only %d threads checked early: the test compares less than it says", n)
	}
	t.Logf("%d of %d threads checked early", n, total)
}

// compareEarly compares a batch scanned with early checks (and what the
// check was given) with the plain scan, and returns how many threads were
// checked early.
func compareEarly(t *testing.T, plain, early *Batch, seen map[string]threadSnap) int {
	t.Helper()
	if len(plain.Threads) != len(early.Threads) {
		t.Fatalf("%d threads with early checks, %d without", len(early.Threads), len(plain.Threads))
	}
	if len(early.Agents) > 0 && len(seen) > 0 {
		for _, r := range early.Threads {
			if r.Early() != nil {
				t.Errorf("%s: checked early in a batch with agents", r.Key)
			}
		}
	}
	n := 0
	for i, ref := range plain.Threads {
		e := early.Threads[i]
		if e.Key != ref.Key || e.ID() != ref.ID() || !reflect.DeepEqual(e.Findings(), ref.Findings()) {
			t.Fatalf("thread %d: %s (%s) early, %s (%s) plain", i, e.Key, e.ID(), ref.Key, ref.ID())
		}
		if e.Early() == nil {
			continue
		}
		mt, err := ref.Load()
		if err != nil {
			t.Fatal(err)
		}
		want := snap(mt)
		mt.Release()
		n++
		if e.Early() != ref.Key || e.Len() != 0 || e.Where() != ref.Where() {
			t.Errorf("%s: early result %v, %d messages kept, first at %v (want %v)", ref.Key, e.Early(), e.Len(), e.Where(), ref.Where())
		}
		if got := seen[ref.Key]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the early thread differs from the loaded one:\n got %+v\nwant %+v", ref.Key, got, want)
		}
		// A check that cannot use the early result loads the file again.
		again, err := e.Load()
		if err != nil {
			t.Fatalf("%s: loading an early thread again: %v", ref.Key, err)
		}
		if got := snap(again); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the early thread loaded again differs:\n got %+v\nwant %+v", ref.Key, got, want)
		}
		again.Release()
		if err := e.Digest(&strings.Builder{}); err == nil {
			t.Errorf("%s: an early thread has a digest", ref.Key)
		}
	}
	return n
}

// TestEarlyGivesWay: a thread is not checked early, or its early result
// is dropped and its file scanned again, when the check gives up, when an
// artifact may belong to it, and for every thread when the batch lists
// agents; the batch is then the plain scan's.
func TestEarlyGivesWay(t *testing.T) {
	inRoot(t)
	dir := t.TempDir()
	for i, id := range []string{"P", "Q", "R"} {
		write(t, filepath.Join(dir, id+".json"), fmt.Sprintf("{\"messages\": [\n"+`{"id": %d, "thread_id": %q, "subject": "s", "from": "X", "created_ts": "2026-01-02T03:04:05Z", "body_md": "b"}]}`, i+1, id))
	}
	owned := func(id string) bool { return id == "Q" }
	b, seen := scanEarlyT(t, owned, map[string]bool{"R": true}, dir)
	// A check that gives up may still be running (a thread past its
	// budget): what it reads must stay as it was while the scan goes on
	// (go test -race sees a scan that reads the next file into it).
	lateDir := t.TempDir()
	for i := range 30 {
		write(t, filepath.Join(lateDir, fmt.Sprintf("t%02d.json", i)), fmt.Sprintf("{\"messages\": [\n"+`{"id": 1, "thread_id": "L%d", "subject": "s", "from": "X", "created_ts": "2026-01-02T03:04:05Z", "body_md": "b"}]}`, i))
	}
	in, err := List([]string{lateDir}, ScanOptions{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	var late sync.WaitGroup
	in.CheckEarly(&Early{Check: func(th *Thread) (any, bool) {
		late.Add(1)
		go func() {
			defer late.Done()
			sum := 0
			for range 200 {
				for _, m := range th.Messages {
					for _, c := range m.Src.reread() {
						sum += int(c)
					}
				}
			}
			if sum == 0 {
				t.Error("a message's bytes read back as nothing")
			}
			th.Release()
		}()
		return nil, false
	}})
	for _, r := range in.Scan().Threads {
		if r.Early() != nil || r.Len() != 1 {
			t.Errorf("%s: checked early %t with %d messages kept, after its check gave up", r.Key, r.Early() != nil, r.Len())
		}
	}
	late.Wait()
	for _, r := range b.Threads {
		if early := r.Early() != nil; early != (r.Key == "P") {
			t.Errorf("%s: checked early %t", r.Key, early)
		}
		if r.Key != "P" && r.Len() != 1 {
			t.Errorf("%s: %d messages kept, want 1", r.Key, r.Len())
		}
	}
	if _, ok := seen["Q"]; ok {
		t.Error("Q was handed to the check though an artifact may belong to it")
	}

	// Agents in any file: the compile options depend on them.
	write(t, filepath.Join(dir, "agents.json"), `{"agents": [{"name": "BlueLake"}]}`)
	b, seen = scanEarlyT(t, nil, nil, dir)
	if len(b.Agents) != 1 {
		t.Fatalf("agents %v", b.Agents)
	}
	for _, r := range b.Threads {
		if r.Early() != nil || r.Len() != 1 {
			t.Errorf("%s: checked early %t with %d messages kept, in a batch with agents", r.Key, r.Early() != nil, r.Len())
		}
	}
	if len(seen) == 0 {
		t.Log("no thread was checked before the agents were read")
	}
}

// TestEarlyElsewhere: a thread Early.Elsewhere gives a result for is not
// handed to Check and keeps nothing but what stands for it, with its key
// and thread id as the plain scan has them; loaded after all (a shard
// that Partition gives it to), it is the thread the plain scan loads. The
// other threads are checked as before.
func TestEarlyElsewhere(t *testing.T) {
	inRoot(t)
	dir := t.TempDir()
	for i, id := range []string{"msg:S1", "S2", "S3"} {
		write(t, filepath.Join(dir, fmt.Sprintf("s%d.json", i)), fmt.Sprintf("{\"messages\": [\n"+`{"id": %d, "thread_id": %q, "subject": "s", "from": "X", "created_ts": "2026-01-02T03:04:05Z", "body_md": "b"}]}`, i+1, id))
	}
	in, err := List([]string{dir}, ScanOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	type other struct{ key, id string }
	var mu sync.Mutex
	checked := map[string]bool{}
	in.CheckEarly(&Early{
		Check: func(th *Thread) (any, bool) {
			mu.Lock()
			defer mu.Unlock()
			checked[th.Key] = true
			return "checked " + th.Key, true
		},
		Elsewhere: func(key, id string) any {
			if key == "S2" {
				return nil
			}
			return other{key, id}
		},
	})
	b := in.Scan()
	plain := scanT(t, dir)
	if len(b.Threads) != 3 || len(plain.Threads) != 3 {
		t.Fatalf("%d threads, and %d in the plain scan; want 3", len(b.Threads), len(plain.Threads))
	}
	for i, r := range b.Threads {
		p := plain.Threads[i]
		if r.Key != p.Key || r.ThreadID() != p.ThreadID() {
			t.Fatalf("thread %d: %s (id %q), the plain scan's %s (id %q)", i, r.Key, r.ThreadID(), p.Key, p.ThreadID())
		}
		want := any(other{r.Key, r.ThreadID()})
		if r.Key == "S2" {
			want = "checked S2"
		}
		if r.Early() != want {
			t.Errorf("%s: stands as %v, want %v", r.Key, r.Early(), want)
		}
		if checked[r.Key] != (r.Key == "S2") {
			t.Errorf("%s: handed to Check %t", r.Key, checked[r.Key])
		}
		got, err := r.Load()
		if err != nil {
			t.Fatalf("%s: %v", r.Key, err)
		}
		g := snap(got)
		got.Release()
		wt, err := p.Load()
		if err != nil {
			t.Fatal(err)
		}
		w := snap(wt)
		wt.Release()
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s loaded:\n%+v\nthe plain scan's:\n%+v", r.Key, g, w)
		}
	}
	if b.Threads[0].ThreadID() != "msg:S1" || b.Threads[0].Key != "S1" {
		t.Errorf("the first thread: key %s, id %s; want S1 and msg:S1", b.Threads[0].Key, b.Threads[0].ThreadID())
	}
}

// TestEarlyLargeJSONLinesPacked: a file read a line at a time is never
// checked early, and its records are packed as they are read.
func TestEarlyLargeJSONLinesPacked(t *testing.T) {
	dir := t.TempDir()
	var lines []string
	for i := 1; i <= 500; i++ {
		lines = append(lines, fmt.Sprintf(`{"id": %d, "thread_id": "T", "subject": "s", "from": "X", "created_ts": "2026-01-02T03:04:05Z", "body_md": "b %d"}`, i, i))
	}
	p := filepath.Join(dir, "t.jsonl")
	write(t, p, strings.Join(lines, "\n"))
	f := newInFile(p, filepath.ToSlash(p), filepath.ToSlash(p), true)
	f.maxBytes = DefaultMaxFileBytes
	res := scan(&f, false, &Early{Check: func(*Thread) (any, bool) {
		t.Error("a JSON Lines file was checked early")
		return nil, false
	}})
	if res.pk == nil || len(res.recs) != 0 || len(res.refs) != 500 {
		t.Fatalf("packer %v, %d records unpacked, %d packed; want all 500 packed as read", res.pk != nil, len(res.recs), len(res.refs))
	}
	packRecs(res)
}

// FuzzEarlyThread holds the early check to the plain path on any file: the
// thread a scan checks while it holds the file's bytes is, message for
// message, the thread its reference loads when the scan checks none, and
// the two batches list the same threads with the same findings
// (compareEarly). The seeds are the ingest fixtures of one file each, as
// written and minified (one line, read as JSON Lines).
func FuzzEarlyThread(f *testing.F) {
	root := testutil.ModuleRoot(f)
	for _, p := range []string{"thread/thread.json", "array/messages.json", "mixed/thread.json", "jsonl/mailbox.jsonl",
		"mcp/tools-call.json", "mcp/resources-read.json", "inbox/inbox.json", "format/json-data.json", "dup/a.json"} {
		data, err := os.ReadFile(filepath.Join(root, "testdata", "ingest", p))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		var v any
		if json.Unmarshal(data, &v) == nil {
			if one, err := json.Marshal(v); err == nil {
				f.Add(one)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "in.json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		plain := scanT(t, p)
		early, seen := scanEarlyT(t, nil, nil, p)
		compareEarly(t, plain, early, seen)
	})
}

// TestRecycledArraysAreZero: once a file's records are packed, the arrays
// they were taken from are cleared as far as records were taken, across
// every pair the file used (a nested list of messages takes a new pair),
// so the next file's newRec hands out zero records; the file no longer
// refers to them.
func TestRecycledArraysAreZero(t *testing.T) {
	dir := t.TempDir()
	var msgs []string
	for i := 1; i <= 30; i++ {
		msgs = append(msgs, fmt.Sprintf(`{"id": %d, "thread_id": "T", "subject": "s %d", "from": "X", "to": ["Y"], "created_ts": "2026-01-02T03:04:05Z", "body_md": "b %d"}`, i, i, i))
	}
	// Two lists: the outer one's records, then a nested thread's in a
	// pair of their own.
	p := filepath.Join(dir, "t.json")
	write(t, p, `{"messages": [`+strings.Join(msgs[:10], ",")+`, {"messages": [`+strings.Join(msgs[10:], ",")+`]}]}`)
	f := newInFile(p, filepath.ToSlash(p), filepath.ToSlash(p), true)
	f.maxBytes = DefaultMaxFileBytes
	res := scanRecs(&f)
	if len(res.recs) != 30 {
		t.Fatalf("%d records, want 30", len(res.recs))
	}
	u := res.unpacked
	if u == nil || len(u.arrays) < 2 {
		t.Fatalf("the records came from fewer than two pairs of arrays; the test wants the nested list to take a second")
	}
	arrays := slices.Clone(u.arrays)
	taken := 0
	u.used()
	for _, a := range arrays {
		taken += a.n
	}
	if taken != 30 {
		t.Fatalf("the pairs say %d records were taken, want 30", taken)
	}
	packRecs(res)
	if len(res.refs) != 30 || res.recs != nil || res.unpacked != nil {
		t.Fatalf("after packing: %d packed, records %v, unpacked parts %v; want 30 packed and nothing else held", len(res.refs), res.recs != nil, res.unpacked != nil)
	}
	if u.recArr != nil || u.msgArr != nil || len(u.arrays) != 0 || u.slots != nil {
		t.Fatal("the pooled unpacked parts still refer to the file's arrays")
	}
	if names := u.names; chunk.Take(&names, 1, false)[0] != "" {
		t.Fatal("the pooled chunk of names still holds the file's recipients")
	}
	for i, a := range arrays {
		if a.n != 0 {
			t.Errorf("pair %d: %d taken after recycling, want 0", i, a.n)
		}
		for j, r := range a.recs[:cap(a.recs)] {
			if r != (rec{}) {
				t.Fatalf("pair %d, record %d not cleared: %+v", i, j, r)
			}
		}
		for j, m := range a.msgs[:cap(a.msgs)] {
			if !reflect.DeepEqual(m, Message{}) {
				t.Fatalf("pair %d, message %d not cleared: %+v", i, j, m)
			}
		}
	}
}

// TestRecycledSlotsAreZero: the load slots of a thread checked early
// (its messages' field regions and body maps) are cleared when the file's
// records are recycled, and the file no longer refers to them.
func TestRecycledSlotsAreZero(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "t.json")
	write(t, p, `{"messages": [
 {"id": 1, "thread_id": "T", "subject": "KICKOFF: s", "from": "X", "created_ts": "2026-01-02T03:04:05Z", "body_md": "a \"b\""},
 {"id": 2, "thread_id": "T", "subject": "DELTA: s", "from": "Y", "created_ts": "2026-01-02T03:04:06Z", "body_md": "c"}]}`)
	f := newInFile(p, filepath.ToSlash(p), filepath.ToSlash(p), true)
	f.maxBytes = DefaultMaxFileBytes
	var asked diag.Pos
	res := scan(&f, false, &Early{Check: func(th *Thread) (any, bool) {
		asked = th.Messages[0].Pos("subject") // fills the first slot's fields
		return "checked", true
	}})
	if res.early == nil || res.unpacked == nil || res.unpacked.slots == nil || len(*res.unpacked.slots) < 2 {
		t.Fatalf("the thread was not checked early with its slots (early %v)", res.early != nil)
	}
	if asked.Line != 2 {
		t.Fatalf("the subject's position during the check is %v, want line 2", asked)
	}
	slots := *res.unpacked.slots
	if slots[0].fields.fp == nil || slots[1].bm.line == 0 {
		t.Fatal("the slots were not filled: the test shows less than it says")
	}
	packRecs(res)
	if res.unpacked != nil {
		t.Error("the file still refers to its slots after recycling")
	}
	for i := range slots {
		if sl := &slots[i]; sl.fields.fp != nil || sl.fields.from != nil || sl.fields.compute != nil || sl.bm.line != 0 || sl.bm.from != nil {
			t.Errorf("slot %d not cleared", i)
		}
	}
}

// TestOwnListsAreApart: the recipient lists of a file's kept records
// share a chunk of names, each capped at its length, so appending to
// one list never writes into the next; an empty list is nil.
func TestOwnListsAreApart(t *testing.T) {
	var res fileResult
	if l := res.ownList(nil); l != nil {
		t.Errorf("an empty list is %v, want nil", l)
	}
	scratch := []string{"x", "y"}
	a := res.ownList(scratch)
	b := res.ownList([]string{"z"})
	scratch[0] = "changed" // the scanner's array, reused for the next message
	a = append(a, "w")
	if a[0] != "x" || a[1] != "y" || a[2] != "w" || len(b) != 1 || b[0] != "z" {
		t.Errorf("lists %q and %q, want [x y w] and [z]", a, b)
	}
	var last []string
	for i := range 600 { // past the chunk's first array: a new one, the old lists intact
		last = res.ownList([]string{fmt.Sprint(i)})
	}
	if b[0] != "z" || a[2] != "w" || len(last) != 1 || last[0] != "599" {
		t.Errorf("after growing: %q, %q, %q", a, b, last)
	}
}
