package mailbox

import (
	"path/filepath"
	"testing"
	"time"
	"unsafe"

	"github.com/brenner-ci/brenner-ci/diag"
)

// TestMergeBufsReleaseClears holds the reuse of mergeThread's arrays
// invisible: what one thread's merge left is zero when the next takes
// them, and arrays grown past maxPooledMerge are not kept.
func TestMergeBufsReleaseClears(t *testing.T) {
	w := &mergeBufs{byID: map[idKey]*rec{}}
	slab, msgs := w.take(3)
	for i := range slab {
		slab[i].m = &msgs[i]
		slab[i].tsIssue, slab[i].meta = "missing", 7
		msgs[i].ID, msgs[i].HasBody, msgs[i].Created = "m", true, time.Unix(1, 0)
		w.recs = append(w.recs, &slab[i])
		w.dups = append(w.dups, &diag.Finding{})
		w.byID[idKey{"", msgs[i].ID}] = &slab[i]
	}
	w.release()
	slab, msgs = w.take(2)
	recs, dups, byID := w.recs, w.dups, w.byID
	for i := range slab {
		if slab[i] != (rec{}) || msgs[i].ID != "" || msgs[i].HasBody || !msgs[i].Created.IsZero() {
			t.Fatalf("record %d left from the last thread: %+v %+v", i, slab[i], msgs[i])
		}
	}
	if len(recs) != 0 || len(dups) != 0 || len(byID) != 0 {
		t.Fatalf("lists not empty: %d %d %d", len(recs), len(dups), len(byID))
	}
	for _, p := range w.recs[:cap(w.recs)] {
		if p != nil {
			t.Fatal("a record pointer is left in the list's spare capacity")
		}
	}

	big := &mergeBufs{byID: map[idKey]*rec{}}
	big.take(maxPooledMerge + 1)
	big.slab[0].meta = 1
	big.release()
	if big.slab[0].meta != 1 {
		t.Fatal("an array past maxPooledMerge was cleared for the pool")
	}
}

// TestMergeFindingsOwnTheirIDs: merge reads a record's id as a view of its
// pack's bytes; every input finding it makes keeps a copy, so a finding
// holds no pack in memory after its thread is checked (a nightly audit
// holds the findings of every thread).
func TestMergeFindingsOwnTheirIDs(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.json"), `[
{"id": 41, "thread_id": "T", "subject": "s", "from": "A", "created_ts": "2026-01-02T03:04:05Z", "body_md": "one"},
{"id": 41, "thread_id": "T", "subject": "other", "from": "B", "created_ts": "2026-01-02T03:04:06Z", "body_md": "two"},
{"id": 42, "thread_id": "T", "subject": "s", "from": "A", "body_md": "no time"},
{"id": 43, "thread_id": "T", "subject": "s", "from": "A", "created_ts": "soon", "body_md": "bad time"},
{"id": 44, "thread_id": "T", "subject": "s", "from": "A", "created_ts": "2026-01-02T03:04:07Z"},
{"id": 45, "thread_id": "T", "subject": "s", "from": "A", "created_ts": 1767323047, "body_md": "epoch"}]`)
	b := scanT(t, dir)
	var packs []*packed
	for _, r := range b.Threads {
		if r.pack != nil {
			packs = append(packs, r.pack)
		}
		for _, e := range r.msgs {
			packs = append(packs, e.meta.p, e.src.p)
		}
	}
	if len(packs) == 0 {
		t.Fatal("no packs")
	}
	ids := 0
	for _, r := range b.Threads {
		for _, f := range r.findings {
			if f.MsgID == "" {
				continue
			}
			ids++
			at := uintptr(unsafe.Pointer(unsafe.StringData(f.MsgID)))
			for _, p := range packs {
				lo := uintptr(unsafe.Pointer(unsafe.SliceData(p.enc)))
				if at >= lo && at < lo+uintptr(len(p.enc)) {
					t.Errorf("%s finding's message id %q is a view of a pack", f.Rule, f.MsgID)
				}
			}
		}
	}
	if ids < 5 { // IN-003, IN-005 twice, IN-002, IN-004
		t.Errorf("%d findings with a message id, want 5 (the test checks less than it says)", ids)
	}
}
