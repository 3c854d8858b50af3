package jsonv

import "github.com/brenner-ci/brenner-ci/compile/chunk"

// An Arena holds the Values of the documents parsed into it (ParseStringIn)
// until Reset, and is then used again: a thread's delta blocks were a
// quarter of everything a check allocated, all of it garbage once the
// thread was checked. Reset clears what was handed out, so that nothing
// parsed before it stays reachable through the arena, and a Value of an
// earlier document must not be used after it (compile.EachWith resets a
// thread's arena when work returns). A nil *Arena allocates from the
// heap. Not safe for concurrent use.
type Arena struct {
	vals  chunk.Chunk[Value]
	conts chunk.Chunk[container]
	ptrs  chunk.Chunk[*Value]
	keys  chunk.Chunk[string]
	offs  chunk.Chunk[int]
	// heap: every take is its own allocation (the arena of a parse
	// without one, heapArena, which holds nothing).
	heap bool
}

// heapArena stands for a nil *Arena: it allocates each slice from the
// heap and keeps none, so parses may share it.
var heapArena = Arena{heap: true}

// PoisonOnReset is for tests: Reset fills what it takes back with values
// that show wherever they are read (strings "☠ arena reset ☠", values of a
// kind that is none of the six), so that a Value used after its arena was
// reset changes a report, where a zero value could pass unnoticed.
var PoisonOnReset bool

const poisonText = "☠ arena reset ☠"

// Reset makes the arena's memory available again; every Value parsed into
// it is invalid from then on.
func (a *Arena) Reset() {
	p := PoisonOnReset
	a.vals.Reset(p, poisonValue)
	a.conts.Reset(p, poisonCont)
	a.ptrs.Reset(p, &poisonValue)
	a.keys.Reset(p, poisonText)
	a.offs.Reset(p, -7)
}

// The poison of PoisonOnReset: a kind that is none of the six (its name
// panics), text that shows, members that lead back to it.
var (
	poisonValue = Value{Kind: poisonKind, Str: poisonText, c: &poisonCont}
	poisonCont  = container{keys: []string{poisonText}, keyOffs: []int{-7}, dups: []Dup{{Key: poisonText}}}
)

func init() {
	poisonCont.vals = []*Value{&poisonValue}
}
