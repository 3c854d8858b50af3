package rules

import (
	"fmt"
	"sync/atomic"

	"github.com/brenner-ci/brenner-ci/diag"
)

// Budget is what a rule may spend in one run, in its own unit of work (a
// custom rule's CEL cost). A rule with a Budget charges every evaluation
// (Ctx.Spend); once the run has spent more than Limit, the rule is not
// evaluated again and all its findings of the run are withdrawn for one
// finding, at At, that says so. Withdrawing them all keeps reports
// independent of the order the threads were checked in: whether the limit
// is passed depends only on the sum, never on which thread came first.
type Budget struct {
	Limit uint64
	At    diag.Pos // where the rule is declared
	spent atomic.Uint64
	// early is what the checks during the scan spent (Ctx.deferred): not
	// the run's spending, which counts only the results the run takes,
	// but bounded by the limit too, so that a run does at most twice the
	// work its budget allows.
	early atomic.Uint64
}

// charge adds n to what the run spent and reports whether it is still
// within the limit.
func (b *Budget) charge(n uint64) bool { return b.spent.Add(n) <= b.Limit }

// Exceeded reports whether the run spent more than the limit.
func (b *Budget) Exceeded() bool { return b.spent.Load() > b.Limit }

// chargeCost charges what a cached result recorded to the budgets of rs,
// so that a run with a cache stops where one without would.
func chargeCost(rs []*Rule, cost map[string]uint64) {
	if len(cost) == 0 {
		return
	}
	for _, r := range rs {
		if r.Budget != nil {
			r.Budget.charge(cost[r.ID])
		}
	}
}

// addCost adds b's costs to a (allocated when needed) and returns it.
func addCost(a, b map[string]uint64) map[string]uint64 {
	if len(b) == 0 {
		return a
	}
	if a == nil {
		a = make(map[string]uint64, len(b))
	}
	for id, n := range b {
		a[id] += n
	}
	return a
}

// Spend charges cost to the rule being checked and reports whether it may
// go on: false once its run budget is spent (the check should return; the
// thread is then not kept in the cache, its evaluation being incomplete).
// A rule without a Budget may always go on.
func (c *Ctx) Spend(cost uint64) bool {
	b := c.rule.Budget
	if b == nil {
		return true
	}
	c.spent += cost
	c.spending = true
	if c.deferred {
		if b.early.Add(cost) > b.Limit {
			c.incomplete = true
			return false
		}
		return true
	}
	if !b.charge(cost) {
		c.incomplete = true
		return false
	}
	return true
}

// settle adds what the rule just checked spent to the costs by rule id
// (called when its check ends).
func (c *Ctx) settle() {
	if !c.spending {
		return
	}
	if c.cost == nil {
		c.cost = map[string]uint64{}
	}
	c.cost[c.rule.ID] += c.spent
	c.spent, c.spending = 0, false
}

// Exhausted reports whether the rule being checked has spent its run
// budget (checked before evaluating at all).
func (c *Ctx) Exhausted() bool {
	if b := c.rule.Budget; b != nil && (b.Exceeded() || c.deferred && b.early.Load() > b.Limit) {
		c.incomplete = true
		return true
	}
	return false
}

// Report adds a finding of the rule being checked at pos, with a message
// and a hint ("" for none). In message scope it is about the current
// message. It is how rules outside this package (rule packs, custom
// rules) report.
func (c *Ctx) Report(pos diag.Pos, msg, hint string) *diag.Finding {
	return c.report(c.M, pos, msg, hint, msg)
}

// withdraw replaces the findings of every rule of rs that spent more than
// its budget (cost: what the run spent, by rule id) by one finding saying
// so. It reads the sum, never the order of spending: the same inputs give
// the same findings, whatever the scheduling, cache or sharding.
func withdraw(rs []*Rule, fs []diag.Finding, cost map[string]uint64) []diag.Finding {
	var over map[string]*Rule
	for _, r := range rs {
		if r.Budget != nil && cost[r.ID] > r.Budget.Limit {
			if over == nil {
				over = map[string]*Rule{}
			}
			over[r.ID] = r
		}
	}
	if over == nil {
		return fs
	}
	kept := fs[:0]
	for _, f := range fs {
		if over[f.Rule] == nil {
			kept = append(kept, f)
		}
	}
	for _, r := range rs {
		if over[r.ID] == nil {
			continue
		}
		msg := fmt.Sprintf("Rule %s spent its run budget (cost %d) before it had checked every input: none of its findings are reported.", r.ID, r.Budget.Limit)
		kept = append(kept, diag.Finding{Rule: r.ID, Code: r.Code, Severity: r.Severity, Message: msg,
			Hint: "Make its condition cheaper, narrow it to fewer messages or items, or raise limits: custom-rule-budget.",
			Pos:  r.Budget.At.Normalize(), Anchor: "budget " + r.ID})
	}
	return kept
}
