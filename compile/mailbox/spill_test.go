package mailbox

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// describeBatch writes down everything a scan and a Load of every thread
// give: threads, their input findings, messages with bodies and positions.
func describeBatch(t *testing.T, b *Batch) string {
	t.Helper()
	var w strings.Builder
	fmt.Fprintf(&w, "files %d agents %q markdown %q json %q\n", b.Files, b.Agents, b.Markdown, b.ArtifactJSON)
	for _, f := range b.Findings {
		fmt.Fprintf(&w, "finding %+v\n", f)
	}
	for _, r := range b.Threads {
		fmt.Fprintf(&w, "thread %q %q %d findings %+v\n", r.Key, r.ThreadID(), r.n(), r.Findings())
		th, err := r.Load()
		if err != nil {
			fmt.Fprintf(&w, "  load: %v\n", err)
			continue
		}
		for _, m := range th.Messages {
			fmt.Fprintf(&w, "  %q %q %q %q %q %v %v %q %d %s:%d:%d %q %v %v\n", m.ID, m.Project, m.ThreadID, m.Subject, m.From, m.To, m.Created,
				m.CreatedRaw, m.Seq, m.Src.File, m.Src.Line, m.Src.Col, m.Body, m.Fields(), m.BodyPos(0, len(m.Body)))
		}
		th.Release()
		r.Release()
	}
	return w.String()
}

// TestSpilledScanMatches: a scan that spills every pack (spill.go) gives
// the batch and the loaded threads a scan in memory gives, on every fixture
// folder and on the shared corpus when it is there.
func TestSpilledScanMatches(t *testing.T) {
	inRoot(t)
	roots := []string{"testdata"}
	if _, err := os.Stat("../shared/corpus"); err == nil {
		roots = append(roots, "../shared/corpus")
	} else {
		t.Log("../shared/corpus is absent: spilled scans compared on testdata only")
	}
	defer func(v int64) { spillAfter = v }(spillAfter)
	for _, root := range roots {
		var got [2]string
		for i, after := range []int64{1 << 62, -1} {
			spillAfter = after
			b, err := Scan([]string{root}, ScanOptions{Jobs: 2})
			if err != nil {
				t.Fatal(err)
			}
			spilled := 0
			for _, r := range b.Threads {
				if r.pack != nil && r.pack.sp != nil {
					spilled++
				}
			}
			if (spilled > 0) != (after < 0) {
				t.Fatalf("%s, spill after %d: %d threads with spilled packs", root, after, spilled)
			}
			got[i] = describeBatch(t, b)
		}
		if got[0] != got[1] {
			t.Errorf("%s: the spilled scan differs from the scan in memory at %s", root, testutil.FirstDiff([]byte(got[0]), []byte(got[1])))
		}
	}
}

// loadAndRelease loads thread r, checks that its first message has a
// body, and releases the loaded thread and r.
func loadAndRelease(t *testing.T, r *ThreadRef) {
	t.Helper()
	th, err := r.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(th.Messages) == 0 || th.Messages[0].Body == "" {
		t.Fatalf("%s: loaded without bodies", r.Key)
	}
	th.Release()
	r.Release()
}

// TestSpilledPackEvictedWithItsLastThread: the records of a spilled pack,
// read back to load a thread, stay in memory while another thread holds
// records of the pack, and go when the last one is released (the pack
// itself lives on in its packer's array). A thread loaded after another
// of its pack was released reads the records back again.
func TestSpilledPackEvictedWithItsLastThread(t *testing.T) {
	inRoot(t)
	defer func(v int64) { spillAfter = v }(spillAfter)
	spillAfter = -1
	b := scanT(t, "testdata/ingest/jsonl/mailbox.jsonl")
	t1, t2 := ref(t, b, "T-1"), ref(t, b, "T-2")
	p := t1.pack
	if p == nil || p.sp == nil || t2.pack != p {
		t.Fatalf("want both threads in one spilled pack: %p %p", t1.pack, t2.pack)
	}
	if p.enc != nil {
		t.Fatal("the pack's records are in memory after the merge")
	}
	for i, r := range []*ThreadRef{t1, t2} {
		loadAndRelease(t, r)
		if last := i == 1; (p.enc == nil) != last {
			t.Errorf("after releasing %s: records in memory %v, want %v", r.Key, p.enc != nil, !last)
		}
	}
}
