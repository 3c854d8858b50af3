package mailbox

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
)

// in007 returns the IN-007 findings of a batch, file-level and per thread.
func in007(t *testing.T, b *Batch) []diag.Finding {
	var out []diag.Finding
	for _, f := range append(slices.Clone(b.Findings), collectThreadFindings(t, b)...) {
		if f.Rule == "IN-007" {
			out = append(out, f)
		}
	}
	return out
}

// TestRepeatedMessagesArray: one duplicate-key policy for a whole export. A
// thread export with two "messages" arrays compiles the first one (as a
// repeated message field keeps its first value) and reports IN-007 at the
// second key; before, shape detection took the last array silently.
func TestRepeatedMessagesArray(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "export.json")
	write(t, p, `{"project": "/p", "thread_id": "T-1",
  "messages": [{"id": 1, "subject": "KICKOFF: first", "from": "A", "created_ts": "2026-01-01T00:00:00Z", "body_md": "one"}],
  "messages": [{"id": 2, "subject": "KICKOFF: second", "from": "A", "created_ts": "2026-01-01T00:00:00Z", "body_md": "two"}]}
`)
	b := scanT(t, p)
	th := loadT(t, b, "T-1")
	if got := ids(th.Messages); !slices.Equal(got, []string{"1"}) || th.Messages[0].Body != "one" {
		t.Errorf("messages %v, want the first array's [1]", got)
	}
	fs := in007(t, b)
	if len(fs) != 1 {
		t.Fatalf("IN-007 findings %v, want one", where(fs))
	}
	f := fs[0]
	if want := pos(p, 3, 3, 3, 13); f.Pos != want {
		t.Errorf("IN-007 at %+v, want the second \"messages\" key %+v", f.Pos, want)
	}
	if f.Code != "DUPLICATE_KEY" || f.Severity != diag.Error || !strings.Contains(f.Message, `"messages"`) || f.Hint == "" || f.Anchor == "" {
		t.Errorf("IN-007 = %+v", f)
	}
}

// TestRepeatedContainerKeys: every key the shape detection reads keeps its
// first value and a repeat is IN-007, at every level of an export.
func TestRepeatedContainerKeys(t *testing.T) {
	dir := t.TempDir()
	msg := `{"id": %s, "subject": "KICKOFF: x", "from": "A", "created_ts": "2026-01-01T00:00:00Z", "body_md": "b"}`
	m1, m2 := strings.Replace(msg, "%s", "1", 1), strings.Replace(msg, "%s", "2", 1)
	for _, tc := range []struct {
		name, src, thread string
		ids               []string
		keys              []string // the repeated keys
	}{
		{"thread_id", `{"thread_id": "A-1", "thread_id": "B-1", "messages": [` + m1 + `]}`, "A-1", []string{"1"}, []string{"thread_id"}},
		{"project", `{"project": "/a", "project": "/b", "thread_id": "P-1", "messages": [` + m1 + `]}`, "P-1", []string{"1"}, []string{"project"}},
		{"result", `{"jsonrpc": "2.0", "id": 1, "result": {"thread_id": "R-1", "messages": [` + m1 + `]}, "result": {"thread_id": "R-2", "messages": [` + m2 + `]}}`,
			"R-1", []string{"1"}, []string{"result"}},
		{"nested", `{"result": {"thread_id": "N-1", "messages": [` + m1 + `], "messages": [` + m2 + `]}}`, "N-1", []string{"1"}, []string{"messages"}},
		{"contents", `{"contents": [{"text": "{\"thread_id\": \"C-1\", \"messages\": []}", "text": "x"}], "contents": []}`, "", nil, []string{"text", "contents"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name+".json")
			write(t, p, tc.src)
			b := scanT(t, p)
			if tc.thread != "" {
				if got := ids(loadT(t, b, tc.thread).Messages); !slices.Equal(got, tc.ids) {
					t.Errorf("messages %v, want %v", got, tc.ids)
				}
			}
			var keys []string
			for _, f := range in007(t, b) {
				keys = append(keys, f.Anchor)
			}
			slices.Sort(keys)
			want := slices.Clone(tc.keys)
			for i, k := range want {
				want[i] = "duplicate " + k
			}
			slices.Sort(want)
			if !slices.Equal(keys, want) {
				t.Errorf("IN-007 anchors %q, want %q", keys, want)
			}
		})
	}
}
