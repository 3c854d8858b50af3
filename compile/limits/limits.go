// Package limits holds the parser limits of one run as a value. The
// configuration's limits: section sets them once (internal/run); the input
// scanner, the compiler, the artifact parser and the rules receive them with
// their options. No package keeps a limit in a variable, so two runs in one
// process never see each other's limits.
package limits

// Defaults of every input limit (.brenner-ci.yaml limits:, docs/security.md):
// far above real threads and artifacts, low enough that one hostile input
// cannot stall or exhaust a run.
const (
	// DefaultFileBytes is the largest input file read (IN-009).
	DefaultFileBytes = 512 << 20
	// DefaultMessages is the most messages of one thread compiled (IN-011).
	DefaultMessages = 100_000
	// DefaultBlocks is the most delta blocks of one body applied (IN-011).
	DefaultBlocks = 1_000
	// DefaultBodyBytes is the largest markdown body or artifact parsed.
	DefaultBodyBytes = 1 << 20
	// DefaultJSONDepth is the deepest nesting of arrays and objects any
	// JSON input may have (encoding/json allows 10000).
	DefaultJSONDepth = 1000
	// DefaultCustomCost is the CEL cost one evaluation of a custom rule may
	// reach (rules/custom): a condition over a real thread costs tens to a
	// few thousand units.
	DefaultCustomCost = 1_000_000
	// DefaultCustomBudget is what one custom rule may spend in a run: about
	// a thousand times a costly evaluation on each of 10,000 threads.
	DefaultCustomBudget = 10_000_000_000
)

// Parse are the limits in front of the parsers. The zero value is the
// defaults.
type Parse struct {
	// BodyBytes is the largest markdown body or artifact parsed (0:
	// DefaultBodyBytes); a larger one is reported (IN-008), not parsed.
	BodyBytes int
	// JSONDepth is the deepest JSON nesting accepted in exports, delta
	// blocks, evidence packs and JSON artifacts (0: DefaultJSONDepth);
	// deeper input is a syntax error "too deep".
	JSONDepth int
}

// Body returns the body-size limit in bytes.
func (p Parse) Body() int {
	if p.BodyBytes > 0 {
		return p.BodyBytes
	}
	return DefaultBodyBytes
}

// Depth returns the JSON nesting limit.
func (p Parse) Depth() int {
	if p.JSONDepth > 0 {
		return p.JSONDepth
	}
	return DefaultJSONDepth
}
