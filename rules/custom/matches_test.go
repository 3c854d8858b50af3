package custom

import (
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
)

// TestMatchesFastIsUsed: a condition's matches, in both forms, is
// evaluated by a matcher, not by CEL's own optimisation.
func TestMatchesFastIsUsed(t *testing.T) {
	env, err := envFor("item")
	if err != nil {
		t.Fatal(err)
	}
	before := matchersMade.Load()
	at := func(string, int, int) diag.Pos { return diag.Pos{File: "f", Line: 1, Col: 1} }
	c, errs := program(env, `item.fields.claim.matches("(?i)todo") || matches(item.id, "H[0-9]")`, "when", at, Limits{Eval: 10_000, Bytes: 1 << 20})
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	if n := matchersMade.Load() - before; n != 2 {
		t.Fatalf("%d calls got a matcher, want 2", n)
	}
	it := *sampleModel()["item"]["item"].(*Item)
	v, _, err := c.run(&vars{item: &it})
	if err != nil || v.Value() != true {
		t.Fatalf("got %v (%v), want true: H1 matches H[0-9]", v, err)
	}
}
