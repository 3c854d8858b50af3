// Package delta finds the delta blocks of a DELTA message body and validates
// each one against delta_output_format_v0.1.md, strictly: a block that is not
// valid JSON or breaks a structural rule is rejected alone, with a problem
// that names the rule and quotes the spec's remediation.
package delta

import (
	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/diag"
)

// Operations.
const (
	OpAdd  = "ADD"
	OpEdit = "EDIT"
	OpKill = "KILL"
)

// Section ids (delta_output_format_v0.1.md, Valid Section Values), from the
// one section schema.
const (
	ResearchThread      = schema.ResearchThread
	HypothesisSlate     = schema.HypothesisSlate
	PredictionsTable    = schema.PredictionsTable
	DiscriminativeTests = schema.DiscriminativeTests
	AssumptionLedger    = schema.AssumptionLedger
	AnomalyRegister     = schema.AnomalyRegister
	AdversarialCritique = schema.AdversarialCritique
)

// Sections lists the seven section ids in artifact order.
var Sections = schema.IDs()

// Prefix maps a section id to its item id prefix.
var Prefix = func() map[string]string {
	m := map[string]string{}
	for _, s := range schema.Sections {
		m[s.ID] = s.Prefix
	}
	return m
}()

// Delta is a validated delta operation.
type Delta struct {
	Op        string       // ADD, EDIT or KILL
	Section   string       // one of Sections
	Target    string       // target_id; "" for ADD ("RT" for research_thread EDITs given null)
	Payload   *jsonv.Value // an object (KILL: may be an empty object when only reason is used)
	Rationale string
	Value     *jsonv.Value // the whole block object, for positions of fields
	// References are the payload's well-formed cross-session references
	// (entries with a session and an item), for RF-001/RF-002.
	References []Reference
	// Defaulted lists payload fields that validation filled in because a
	// lenient required field was missing (assumption_ledger and
	// anomaly_register "status"; see docs/divergences.md §3). Their values
	// have no position in the block: Off and End point at the payload's
	// closing brace and Payload.KeyOffset has no entry for them.
	Defaulted []string
}

// Reference is one entry of a payload's "references" array.
type Reference struct {
	Session, Item string
	Relation      string // as written; "" when absent or not a string (RF-003 reports it)
	Off           int    // byte offset of the entry in the body
}

// Block is one delta block found in a body.
type Block struct {
	Index    int        // 0-based index among the body's delta blocks
	Fence    body.Fence // where it is in the body
	Raw      string     // the block's content
	Delta    *Delta     // nil when the block was rejected
	Problems []diag.Local
}

// Valid reports whether the block passed validation.
func (b *Block) Valid() bool { return b.Delta != nil }

// BodyOffset maps a byte offset in Raw (such as a jsonv.Value's Off, End or
// KeyOffset) to a byte offset in the body. Use it rather than
// Fence.ContentStart+off: the content of a fence inside a block quote or list
// item is not contiguous in the body.
func (b *Block) BodyOffset(off int) int { return b.Fence.BodyOffset(off) }
