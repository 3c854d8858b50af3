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
