package cli

import (
	"os"
	"runtime/debug"
)

// DefaultMemoryLimit is the Go heap's soft limit when GOMEMLIMIT is not
// set. A nightly audit keeps little alive (thread summaries, facts and
// findings; each thread is compiled and dropped), but its garbage would let
// the heap grow to twice the live size between collections; the limit
// makes the collector run sooner instead. It is soft: a run whose live data
// is larger still completes, collecting more often.
const DefaultMemoryLimit = 448 << 20

// setMemoryLimit applies DefaultMemoryLimit unless GOMEMLIMIT is set.
func setMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(DefaultMemoryLimit)
	}
}
