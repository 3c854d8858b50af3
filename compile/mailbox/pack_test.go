package mailbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestPackRoundTrip packs and unpacks every record of every fixture (and of
// the shared corpus when it is there): an unpacked record must equal the
// scanned one field by field, or Load, ordering and the IN- findings would
// see another message than Scan did.
func TestPackRoundTrip(t *testing.T) {
	inRoot(t)
	roots := []string{"testdata"}
	if _, err := os.Stat("../shared/corpus"); err == nil {
		roots = append(roots, "../shared/corpus")
	} else {
		t.Log("../shared/corpus is absent: round trip on testdata only")
	}
	n := 0
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			f := newInFile(p, filepath.ToSlash(p), filepath.ToSlash(p), true)
			f.maxBytes = DefaultMaxFileBytes
			res := scanRecs(&f)
			// Copies: packing recycles the records' arrays and names.
			want := make([]*rec, len(res.recs))
			for i, r := range res.recs {
				m := *r.m
				m.To, m.CC, m.BCC = slices.Clone(m.To), slices.Clone(m.CC), slices.Clone(m.BCC)
				c := *r
				c.m = &m
				want[i] = &c
			}
			packRecs(res)
			if len(res.refs) != len(want) || len(res.keys) != len(want) {
				t.Fatalf("%s: %d refs and %d keys for %d records", p, len(res.refs), len(res.keys), len(want))
			}
			for i, ref := range res.refs {
				got := ref.rec()
				// The thread key merge groups by: recorded when packed, and
				// read from the record (a scan cache entry's way).
				ki, ok := ref.keyIndex()
				for _, k := range []string{ref.p.str(ref.p.tab, int(res.keys[i])), ref.p.str(ref.p.tab, int(ki))} {
					if k != want[i].m.ThreadKey || !ok {
						t.Errorf("%s #%d: thread key %q (%t), want %q", p, i, k, ok, want[i].m.ThreadKey)
					}
				}
				got.ref, got.src = msgRef{}, msgRef{}
				if !reflect.DeepEqual(got.m, want[i].m) {
					t.Errorf("%s #%d: message\n got %+v\nwant %+v", p, i, *got.m, *want[i].m)
				}
				got.m = want[i].m
				if !reflect.DeepEqual(got, want[i]) {
					t.Errorf("%s #%d: record\n got %+v\nwant %+v", p, i, *got, *want[i])
				}
				// A lite decode reads the same record without its own
				// strings; source reads its Src alone.
				lite, full := rec{m: &Message{}}, *want[i].m
				ok = ref.decode(decodeLite, &lite)
				full.ID, full.Subject, full.CreatedRaw, full.To, full.CC, full.BCC = "", "", "", nil, nil, nil
				if !ok || !reflect.DeepEqual(*lite.m, full) {
					t.Errorf("%s #%d: lite decode (%t)\n got %+v\nwant %+v", p, i, ok, *lite.m, full)
				}
				mg, part := rec{m: &Message{}}, *want[i].m
				ok = ref.decode(decodeMerge, &mg)
				part.Subject, part.To, part.CC, part.BCC = "", nil, nil, nil
				if !ok || !reflect.DeepEqual(*mg.m, part) {
					t.Errorf("%s #%d: merge decode (%t)\n got %+v\nwant %+v", p, i, ok, *mg.m, part)
				}
				if src, hasBody, ok := ref.source(); !ok || !reflect.DeepEqual(src, full.Src) || hasBody != full.HasBody {
					t.Errorf("%s #%d: source (%t)\n got %+v %t\nwant %+v %t", p, i, ok, src, hasBody, full.Src, full.HasBody)
				}
				n++
			}
			return nil
		})
	}
	if n < 50 {
		t.Fatalf("only %d records round-tripped; the fixtures should hold more", n)
	}
	t.Logf("%d records", n)
}

// TestPackSplits: a file whose packed records pass maxPacked continues in a
// new packed slice, and every record still unpacks to what was scanned.
func TestPackSplits(t *testing.T) {
	var lines []string
	for i := 1; i <= 40; i++ {
		lines = append(lines, fmt.Sprintf(`{"id": %d, "thread_id": "T-%d", "subject": "INFO %d", "from": "A", "to": ["B"], "created_ts": "2026-01-14T15:09:%02dZ", "body_md": "b"}`, i, i%3, i, i))
	}
	path := filepath.Join(t.TempDir(), "dump.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
	defer func(old int) { maxPacked = old }(maxPacked)
	maxPacked = 300 // a few records per slice
	b := scanT(t, path)
	maxPacked = 1 << 30
	want := scanT(t, path)
	slices := map[*packed]bool{}
	n := 0
	for i, r := range b.Threads {
		got, exp := r.Messages(), want.Threads[i].Messages()
		if !reflect.DeepEqual(got, exp) {
			t.Errorf("%s: messages differ when packed in small slices", r.Key)
		}
		for k := 0; k < r.n(); k++ {
			slices[r.entry(k).meta.p] = true
			n++
		}
	}
	if len(slices) < 2 || n < 4 {
		t.Fatalf("%d messages in %d packed slices: the split was not exercised", n, len(slices))
	}
}

// TestLoadShortcut: a body taken from where Scan saw its literal is the
// body Load finds by tokenising the message again, with the same position
// mapping and field regions, for every thread of testdata and of the
// shared corpus.
func TestLoadShortcut(t *testing.T) {
	inRoot(t)
	roots := []string{"testdata"}
	if _, err := os.Stat("../shared/corpus"); err == nil {
		roots = append(roots, "../shared/corpus")
	} else {
		t.Log("../shared/corpus is absent: testdata only")
	}
	b, err := Scan(roots, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	load := func(r *ThreadRef, short bool) *Thread {
		loadShortcut = short
		defer func() { loadShortcut = true }()
		th, err := r.Load()
		if err != nil {
			t.Fatalf("%s (shortcut %v): %v", r.Key, short, err)
		}
		return th
	}
	n := 0
	for _, r := range b.Threads {
		fast, full := load(r, true), load(r, false)
		for i, m := range fast.Messages {
			w := full.Messages[i]
			if m.Body != w.Body || m.HasBody != w.HasBody {
				t.Fatalf("%s message %s: body differs", r.Key, m.ID)
			}
			if !reflect.DeepEqual(m.Fields(), w.Fields()) {
				t.Errorf("%s message %s: fields\n got %v\nwant %v", r.Key, m.ID, m.Fields(), w.Fields())
			}
			for _, off := range []int{0, len(m.Body) / 3, len(m.Body) / 2, len(m.Body)} {
				if g, e := m.BodyPos(off, off), w.BodyPos(off, off); g != e {
					t.Errorf("%s message %s: BodyPos(%d) = %v, want %v", r.Key, m.ID, off, g, e)
				}
			}
			if m.Src.kind == srcJSON && m.Src.mem == nil {
				n++
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d JSON messages compared", n)
	}
	t.Logf("%d JSON messages compared", n)
}

// TestPackedStrings: the shared strings kept end to end, with their ends
// after them in the same string, come back as they went in: empty ones,
// none at all, and one longer than 64 KiB (an end past 16 bits).
func TestPackedStrings(t *testing.T) {
	long := strings.Repeat("x", 70_000)
	for _, in := range [][]string{
		{"", "brenner_bot", "", "BlueLake", "é€", "RS-20260122-x"},
		{},
		{""},
		{"a", long, "b\x00\xff"},
	} {
		var p packed
		p.setStrs(in)
		if p.nstrs() != len(in) {
			t.Fatalf("%d strings, want %d", p.nstrs(), len(in))
		}
		for i, s := range in {
			if got := p.str(p.tab, i); got != s {
				t.Errorf("str(%d) = %.20q, want %.20q", i, got, s)
			}
		}
	}
}

// TestScanFilePacksWhatScanRecsReads: scanFile packs a file's records as
// it reads them, every 1,024 records; each must unpack to the record
// scanRecs, which keeps them all, reads. A JSON Lines file of 2,600
// messages is packed in three flushes; the scanners are pooled, so one is
// reused across the files.
func TestScanFilePacksWhatScanRecsReads(t *testing.T) {
	inRoot(t)
	dir := t.TempDir()
	var lines []string
	for i := 1; i <= 2600; i++ {
		lines = append(lines, fmt.Sprintf(`{"id": %d, "thread_id": "T-%d", "subject": "INFO %d", "from": "A%d", "to": ["B%d"], "cc": ["C"], "created_ts": "2026-01-14T15:%02d:%02dZ", "body_md": "line %d\nnext"}`,
			i, i%7, i, i%5, i, (i/60)%60, i%60, i))
	}
	big := filepath.Join(dir, "dump.jsonl")
	os.WriteFile(big, []byte(strings.Join(lines, "\n")), 0o644)
	paths := []string{big}
	roots := []string{"testdata"}
	if _, err := os.Stat("../shared/corpus"); err == nil {
		roots = append(roots, "../shared/corpus")
	} else {
		t.Log("../shared/corpus is absent: the big file and testdata only")
	}
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".json") {
				paths = append(paths, p)
			}
			return nil
		})
	}
	n := 0
	for _, p := range paths {
		f := newInFile(p, filepath.ToSlash(p), filepath.ToSlash(p), true)
		f.maxBytes = DefaultMaxFileBytes
		want := scanRecs(&f)
		g := newInFile(p, filepath.ToSlash(p), filepath.ToSlash(p), true)
		g.maxBytes = DefaultMaxFileBytes
		got := scanFile(&g)
		if len(got.refs) != len(want.recs) {
			t.Fatalf("%s: %d packed records, scanRecs read %d", p, len(got.refs), len(want.recs))
		}
		for i, ref := range got.refs {
			r := ref.rec()
			r.ref, r.src = msgRef{}, msgRef{}
			if !reflect.DeepEqual(r.m, want.recs[i].m) {
				t.Fatalf("%s #%d: message\n got %+v\nwant %+v", p, i, *r.m, *want.recs[i].m)
			}
			r.m = want.recs[i].m
			if !reflect.DeepEqual(r, want.recs[i]) {
				t.Fatalf("%s #%d: record\n got %+v\nwant %+v", p, i, *r, *want.recs[i])
			}
			n++
		}
	}
	if n < 2650 {
		t.Fatalf("only %d records compared: testdata should add more than 50", n)
	}
	t.Logf("%d records in %d files", n, len(paths))
}

// TestSetMsgsForms: a thread's message list is kept compactly (offsets in
// its one pack, from a refAlloc's shared array, or an array of its own
// when long) only when every record is in one pack and every input order
// fits in 32 bits; otherwise as it is. Either way entry gives back what
// went in, and the pack counts the thread as a user once.
func TestSetMsgsForms(t *testing.T) {
	p, q := &packed{}, &packed{}
	mk := func(n int, seq func(i int) int, pk func(i int) *packed) []msgEntry {
		es := make([]msgEntry, n)
		for i := range es {
			es[i] = msgEntry{msgRef{pk(i), uint32(10 * i)}, msgRef{pk(i), uint32(10*i + 1)}, seq(i)}
		}
		return es
	}
	one := func(int) *packed { return p }
	a := new(refAlloc)
	type tc struct {
		name    string
		es      []msgEntry
		compact bool
	}
	cases := []tc{
		{"short", mk(3, func(i int) int { return i + 7 }, one), true},
		{"long", mk(4096, func(i int) int { return i }, one), true},
		{"two packs", mk(3, func(i int) int { return i }, func(i int) *packed { return []*packed{p, q}[i%2] }), false},
	}
	if strconv.IntSize == 64 { // an order past 32 bits needs an int of 64
		past := int64(1) << 32
		cases = append(cases, tc{"order past 32 bits", mk(2, func(i int) int { return int(past) + i }, one), false})
	}
	for _, c := range cases {
		before := p.users.Load()
		r := a.ref()
		r.setMsgs(c.es, a)
		if (r.pack != nil) != c.compact || (r.msgs != nil) == c.compact {
			t.Errorf("%s: compact %v, want %v", c.name, r.pack != nil, c.compact)
		}
		if r.n() != len(c.es) {
			t.Fatalf("%s: %d messages, want %d", c.name, r.n(), len(c.es))
		}
		for i, e := range c.es {
			if got := r.entry(i); got != e {
				t.Fatalf("%s: entry %d = %+v, want %+v", c.name, i, got, e)
			}
		}
		if got := p.users.Load() - before; got != 1 {
			t.Errorf("%s: the pack counts %d more users, want 1", c.name, got)
		}
		r.Release()
		if got := p.users.Load(); got != before {
			t.Errorf("%s: %d users after the release, want %d", c.name, got, before)
		}
	}
}

// rec unpacks the whole record at ref (the message and what only the scan
// reads), as merge does; it panics when the record does not unpack.
func (ref msgRef) rec() *rec {
	r := &rec{m: &Message{}}
	if !ref.decode(decodeFull, r) {
		panic("mailbox: corrupt packed message record")
	}
	return r
}

// TestMessagesUnpackAsRecords holds Messages (one array for the thread,
// each message unpacked in place) to its messages as their records unpack
// one by one, with the body's source taken from the copy that has it: on
// every export shape, and on a message whose body only a second copy has.
func TestMessagesUnpackAsRecords(t *testing.T) {
	inRoot(t)
	dir := t.TempDir()
	const msg = `{"id": 7, "thread_id": "T", "subject": "s", "from": "A", "to": ["B", "C"], "created_ts": "2026-01-02T03:04:05Z"%s}`
	write(t, filepath.Join(dir, "a.json"), "["+fmt.Sprintf(msg, "")+"]")
	write(t, filepath.Join(dir, "b.json"), "["+fmt.Sprintf(msg, `, "body_md": "x\ny"`)+"]")
	copies := 0
	for _, b := range []*Batch{scanT(t, "testdata/ingest"), scanT(t, dir)} {
		for _, r := range b.Threads {
			got := r.Messages()
			if len(got) != r.Len() {
				t.Fatalf("%s: %d messages, want %d", r.Key, len(got), r.Len())
			}
			for i, m := range got {
				e := r.entry(i)
				want := e.meta.rec().m
				if e.src != e.meta {
					copies++
					want.HasBody, want.Src = true, e.src.rec().m.Src
				}
				want.Seq = e.seq
				if !reflect.DeepEqual(m, want) {
					t.Errorf("%s message %d:\n got %+v\nwant %+v", r.Key, i, m, want)
				}
				if m.Src.File == "" || (r.Key == "T" && (!m.HasBody || filepath.Base(m.Src.File) != "b.json")) {
					t.Errorf("%s message %d: body source %q, has body %t", r.Key, i, m.Src.File, m.HasBody)
				}
			}
		}
	}
	if copies == 0 {
		t.Error("no message took its body from another copy: the test checks less than it says")
	}
}

// TestPackReleasedWithItsLastThread: a pack in memory keeps its records
// until the last thread holding some of them is released, then lets them
// go (its shared strings stay: the threads' keys are views of them);
// packs whose records a later scan reuses (KeepScans) keep them.
func TestPackReleasedWithItsLastThread(t *testing.T) {
	inRoot(t)
	const file = "testdata/ingest/jsonl/mailbox.jsonl"
	for _, kept := range []bool{false, true} {
		in, err := List([]string{file}, ScanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if kept {
			in.KeepScans()
		}
		b := in.Scan()
		t1, t2 := ref(t, b, "T-1"), ref(t, b, "T-2")
		p := t1.pack
		if p == nil || p.sp != nil || t2.pack != p || p.enc == nil {
			t.Fatalf("want both threads in one pack in memory: %p %p", t1.pack, t2.pack)
		}
		for i, r := range []*ThreadRef{t1, t2} {
			loadAndRelease(t, r)
			want := kept || i == 0
			if (p.enc != nil) != want {
				t.Errorf("kept %v, after releasing %s: records in memory %v, want %v", kept, r.Key, p.enc != nil, want)
			}
		}
		if t1.Key != "T-1" || t2.Key != "T-2" || t1.ThreadID() != "T-1" {
			t.Errorf("released threads' keys %q %q, id %q", t1.Key, t2.Key, t1.ThreadID())
		}
	}
}
