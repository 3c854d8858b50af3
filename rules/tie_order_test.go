package rules

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// swappedCopy writes the fixture with its last two messages swapped.
func swappedCopy(t *testing.T, src string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var export map[string]json.RawMessage
	if err := json.Unmarshal(data, &export); err != nil {
		t.Fatal(err)
	}
	var msgs []json.RawMessage
	if err := json.Unmarshal(export["messages"], &msgs); err != nil {
		t.Fatal(err)
	}
	n := len(msgs)
	msgs[n-2], msgs[n-1] = msgs[n-1], msgs[n-2]
	if export["messages"], err = json.Marshal(msgs); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(export)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestTiedMessagesCommute: artifact_delta_spec_v0.1.md: "a deterministic
// merge function that produces identical results regardless of which
// agent's delta is processed first", "Commutative for ADDs: ADD + ADD order
// doesn't matter", "2. Agent priority: If timestamps are identical, use
// agent priority order (if defined)" and "4. Explicit conflict marker".
// Swapping two DELTA messages with the same timestamp in the export gives
// byte-identical artifacts (ids, conflict marker, contributors), with and
// without an agent priority.
func TestTiedMessagesCommute(t *testing.T) {
	src := filepath.Join("..", "testdata", "rules", "MG-010", "fail", "RS-20260301-quorum-timing.json")
	swapped := swappedCopy(t, src)
	for _, agents := range [][]string{nil, {"SlateHeron", "CopperWren", "MossOwl", "LindenFox"}} {
		a := compileFixture(t, src, agents...)
		b := compileFixture(t, swapped, agents...)
		ra, rb := a.Current.Render(), b.Current.Render()
		if !bytes.Equal(ra, rb) {
			t.Fatalf("agents %v: swapping two tied messages changes the artifact:\n%s\n---\n%s", agents, ra, rb)
		}
		h1 := a.Current.Find("hypothesis_slate", "H1").Str("claim")
		h4 := a.Current.Find("hypothesis_slate", "H4").Str("name")
		if agents == nil {
			// No priority: CONFLICT; ADD ids by sender name (CopperWren first).
			if !strings.HasPrefix(h1, "CONFLICT: ") || !strings.Contains(h1, "(CopperWren) vs ") || h4 != "Signal degradation control" {
				t.Errorf("no priority: H1 claim %q, H4 %q", h1, h4)
			}
			continue
		}
		// SlateHeron is listed first: applied last, its EDIT wins.
		if h1 != "Synthase expression noise between batches sets the switch point." || h4 != "Signal degradation control" {
			t.Errorf("priority: H1 claim %q, H4 %q", h1, h4)
		}
	}
}
