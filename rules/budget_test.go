package rules

import "testing"

// TestDeferredSpending: the checks during the scan (Ctx.deferred) charge
// nothing to the run's spending, which counts the results the run takes
// (chargeCost), but together they stop at the limit, so that a run never
// does much more work than its budget allows.
func TestDeferredSpending(t *testing.T) {
	b := &Budget{Limit: 10}
	rule := &Rule{ID: "LAB-001", Budget: b}
	early := func() *Ctx { return &Ctx{rule: rule, deferred: true} }
	c1 := early()
	if !c1.Spend(6) || c1.incomplete {
		t.Fatal("a first early check within the limit stopped")
	}
	if b.Exceeded() || b.spent.Load() != 0 {
		t.Fatalf("an early check charged the run: %d", b.spent.Load())
	}
	c2 := early()
	if c2.Spend(6) || !c2.incomplete {
		t.Error("the early checks went on past the limit together (6 + 6 > 10)")
	}
	if c3 := early(); !c3.Exhausted() {
		t.Error("an early check started after the early checks passed the limit")
	}
	// The run's own checks count what the run takes: c1's result.
	late := &Ctx{rule: rule}
	if late.Exhausted() {
		t.Error("the run's spending is exhausted by early checks it did not take")
	}
	chargeCost([]*Rule{rule}, map[string]uint64{"LAB-001": 6})
	if !late.Spend(4) {
		t.Error("6 taken + 4 = 10 stopped at a limit of 10")
	}
	if late.Spend(1) || !late.incomplete {
		t.Error("the run went past its limit")
	}
}
