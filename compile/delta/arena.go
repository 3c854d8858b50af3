package delta

import "github.com/brenner-ci/brenner-ci/compile/chunk"

// An Arena holds the Blocks and Deltas AnalyzeIn makes until Reset, and is
// then used again: a thread's blocks and deltas were an eighth of what a
// check allocated, all of it garbage once the thread was checked. A Block
// or Delta made in an arena must not be used after its Reset
// (compile.EachWith resets a thread's arenas when work returns). A nil
// *Arena allocates from the heap. Not safe for concurrent use.
type Arena struct {
	blocks chunk.Chunk[Block]
	deltas chunk.Chunk[Delta]
	heap   bool
}

// heapArena stands for a nil *Arena: it keeps nothing, so analyses share it.
var heapArena = &Arena{heap: true}

// PoisonOnReset is for tests: Reset fills what it takes back with values
// that show wherever they are read, so that a block used after its arena
// was reset changes a report, where a zero value could pass unnoticed.
var PoisonOnReset bool

const poisonText = "☠ arena reset ☠"

var (
	poisonDelta = Delta{Op: OpAdd, Section: poisonText, Target: poisonText, Rationale: poisonText}
	poisonBlock = Block{Index: -7, Raw: poisonText, Delta: &poisonDelta}
)

// Reset makes the arena's memory available again; every Block and Delta
// made in it is invalid from then on.
func (a *Arena) Reset() {
	a.blocks.Reset(PoisonOnReset, poisonBlock)
	a.deltas.Reset(PoisonOnReset, poisonDelta)
}

func (a *Arena) orHeap() *Arena {
	if a == nil {
		return heapArena
	}
	return a
}

// newDelta returns a zero Delta of the arena.
func (a *Arena) newDelta() *Delta { return &chunk.Take(&a.deltas, 1, a.heap)[0] }
