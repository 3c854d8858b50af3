package artifact

import (
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/delta"
)

// TestKillWithoutPayload: artifact_delta_spec_v0.1.md, Field Definitions:
// "payload | ADD/EDIT: Yes, KILL: Optional". The KILL applies and the
// rendered item says "no reason given".
func TestKillWithoutPayload(t *testing.T) {
	s := newSeq(t)
	s.add(delta.HypothesisSlate, hyp("Lineage"))
	ok, ev := s.a.Apply(Applied{Delta: &delta.Delta{Op: delta.OpKill, Section: delta.HypothesisSlate, Target: "H1"}, Agent: "B", At: t0, Msg: 9})
	if !ok {
		t.Fatalf("KILL without payload not applied: %+v", ev)
	}
	h := s.a.Find(delta.HypothesisSlate, "H1")
	if !h.Killed || h.KilledBy != "B" || h.KillReason != "" {
		t.Fatalf("H1 kill state %+v", h)
	}
	out := string(s.a.Render())
	if !strings.Contains(out, "### ~~H1: Lineage~~ [KILLED]") || !strings.Contains(out, "**Reason**: no reason given") {
		t.Errorf("rendering:\n%s", out)
	}
}
