package mailbox

import (
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/diag"
)

// TestMergeBufsReleaseClears holds the reuse of mergeThread's arrays
// invisible: what one thread's merge left is zero when the next takes
// them, and arrays grown past maxPooledMerge are not kept.
func TestMergeBufsReleaseClears(t *testing.T) {
	w := &mergeBufs{byID: map[string]*rec{}}
	slab, msgs, recs, dups, byID := w.take(3)
	for i := range slab {
		slab[i].m = &msgs[i]
		slab[i].tsIssue, slab[i].meta = "missing", 7
		msgs[i].ID, msgs[i].HasBody, msgs[i].Created = "m", true, time.Unix(1, 0)
		recs = append(recs, &slab[i])
		dups = append(dups, &diag.Finding{})
		byID[msgs[i].ID] = &slab[i]
	}
	w.recs, w.dups = recs, dups
	w.release()
	slab, msgs, recs, dups, byID = w.take(2)
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

	big := &mergeBufs{byID: map[string]*rec{}}
	big.take(maxPooledMerge + 1)
	big.slab[0].meta = 1
	big.release()
	if big.slab[0].meta != 1 {
		t.Fatal("an array past maxPooledMerge was cleared for the pool")
	}
}
