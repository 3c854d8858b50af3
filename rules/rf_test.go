package rules

import (
	"fmt"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
)

// TestReferenceCyclesIterative: a reference chain as long as the input
// makes it does not exhaust the stack, and its closing cycle is found once.
func TestReferenceCyclesIterative(t *testing.T) {
	const n = 200000
	f := Facts{Key: "S"}
	for i := 0; i < n; i++ {
		to := fmt.Sprintf("H%d", (i+1)%n)
		f.Refs = append(f.Refs, RefFact{From: fmt.Sprintf("H%d", i), Session: "S", Item: to})
	}
	b := &Batch{Threads: []ThreadFacts{{Facts: f}}}
	var got [][]refNode
	b.refGraph().cycles(func(c []refNode) { got = append(got, c) })
	if len(got) != 1 || len(got[0]) != n {
		t.Fatalf("got %d cycles (first of %d nodes), want one of %d", len(got), len(got[0]), n)
	}
	if got[0][0] != (refNode{"S", "H0"}) {
		t.Errorf("cycle starts at %v, want its smallest node", got[0][0])
	}
}

// TestUnknownReferenceIsSoftFail: delta_output_format_v0.1.md, Reference
// Validation: "Log warnings for references to non-existent sessions/items
// (soft fail)".
func TestUnknownReferenceIsSoftFail(t *testing.T) {
	for _, id := range []string{"RF-001", "RF-004"} {
		if r := Lookup(id); r == nil || r.Severity == diag.Error {
			t.Errorf("%s must not be an error (soft fail)", id)
		}
	}
}
