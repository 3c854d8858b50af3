package artifact

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// deltaFence is a minimal stand-in for delta.Extract (another package): the
// corpus threads use plain ```delta fences holding strict JSON.
var deltaFence = regexp.MustCompile("(?s)```delta\\s*\\n(.*?)\\n```")

// TestUpstreamCorpus merges the DELTA messages of the shared corpus threads
// and compares item ids, kill states, fields and contributors with the
// reference implementation's merged artifact (upstream-outputs/*/artifact.json).
func TestUpstreamCorpus(t *testing.T) {
	root := testutil.Shared(t, "corpus")
	// Applied deltas per thread (the corpus README: 14, 7+5+2, none).
	applied := map[string]int{"RS-20260102-round2-nanochat": 14, "E2E-ARTIFACT-1768495211384": 14, "RS-20251230-role-prompting": 0}
	for _, name := range []string{"RS-20260102-round2-nanochat", "E2E-ARTIFACT-1768495211384", "RS-20251230-role-prompting"} {
		t.Run(name, func(t *testing.T) {
			thread := readJSON(t, filepath.Join(root, "threads", name+".json"))
			want := readJSON(t, filepath.Join(root, "upstream-outputs", name, "artifact.json"))
			a := New(name)
			for mi, m := range thread.Get("messages").Arr() {
				subj, _ := m.Get("subject").AsString()
				if !strings.HasPrefix(subj, "DELTA[") {
					continue
				}
				from, _ := m.Get("from").AsString()
				ts, _ := m.Get("created_ts").AsString()
				at, err := time.Parse(time.RFC3339Nano, ts)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := m.Get("body_md").AsString()
				for bi, sm := range deltaFence.FindAllStringSubmatch(body, -1) {
					d := toDelta(t, obj(t, sm[1]))
					if _, evs := a.Apply(Applied{Delta: d, Agent: from, At: at, Msg: mi, Block: bi}); len(evs) != 0 {
						t.Errorf("message %d block %d: %+v", mi, bi, evs)
					}
				}
			}
			if n := totalDeltas(a); n != applied[name] {
				t.Errorf("%d deltas applied, want %d", n, applied[name])
			}
			// Contributors.
			var got, exp []string
			for _, c := range a.Contributors {
				got = append(got, c.Agent+"@"+FormatTime(c.LastAt))
			}
			for _, c := range want.Get("metadata").Get("contributors").Arr() {
				ag, _ := c.Get("agent").AsString()
				ts, _ := c.Get("contributed_at").AsString()
				tm, _ := time.Parse(time.RFC3339Nano, ts)
				exp = append(exp, ag+"@"+FormatTime(tm))
			}
			if strings.Join(got, ",") != strings.Join(exp, ",") {
				t.Errorf("contributors %v, upstream %v", got, exp)
			}
			// Items.
			secs := want.Get("sections")
			for _, s := range delta.Sections {
				var wantItems []*jsonv.Value
				if v := secs.Get(s); v != nil && v.Kind == jsonv.Array {
					wantItems = v.Arr()
				} else if v != nil && v.Kind == jsonv.Object {
					wantItems = []*jsonv.Value{v}
				}
				ours := a.Section(s)
				if len(ours) != len(wantItems) {
					t.Errorf("%s: %d items, upstream %d", s, len(ours), len(wantItems))
					continue
				}
				// Upstream keeps tests in score order; compare by id.
				byID := map[string]*jsonv.Value{}
				for _, w := range wantItems {
					id, _ := w.Get("id").AsString()
					byID[id] = w
				}
				for _, it := range ours {
					w := byID[it.ID]
					if w == nil {
						t.Errorf("%s: %s is not upstream", s, it.ID)
						continue
					}
					wf := w.Clone()
					wf.Delete("id")
					killed := wf.Get("killed")
					for _, k := range []string{"killed", "killed_by", "killed_at", "kill_reason"} {
						wf.Delete(k)
					}
					if it.Killed != (killed != nil && killed.Bool) {
						t.Errorf("%s: killed %t", it.ID, it.Killed)
					}
					if s == delta.ResearchThread {
						// Upstream seeds statement/context/why_it_matters with "".
						for _, k := range []string{"statement", "context", "why_it_matters"} {
							if v, _ := wf.Get(k).AsString(); v == "" && !it.Fields.Has(k) {
								wf.Delete(k)
							}
						}
					}
					if !jsonv.Equal(it.Fields, wf) {
						t.Errorf("%s fields differ:\n ours     %s\n upstream %s", it.ID, it.Fields.Text(), wf.Text())
					}
				}
			}
			// The ranked order equals upstream's score-sorted array.
			var rk, up []string
			for _, it := range a.RankedTests() {
				rk = append(rk, it.ID)
			}
			for _, w := range secs.Get(delta.DiscriminativeTests).Arr() {
				id, _ := w.Get("id").AsString()
				up = append(up, id)
			}
			if strings.Join(rk, ",") != strings.Join(up, ",") {
				t.Errorf("test rank %v, upstream %v", rk, up)
			}
		})
	}
}

func readJSON(t *testing.T, path string) *jsonv.Value {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}
