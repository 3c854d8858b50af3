package body

import "github.com/brenner-ci/brenner-ci/compile/chunk"

// An Arena holds the Docs of the bodies parsed into it (ParseGuardedIn) —
// the Doc, its headings, fences and code ranges — until Reset, and is then
// used again: a thread's Docs were an eighth of what a check allocated, all
// of it garbage once the thread was checked. A Doc parsed into an arena must
// not be used after its Reset (compile.EachWith resets a thread's arena when
// work returns). Bodies the one-pass reader cannot read are parsed by
// goldmark, into the heap. A nil *Arena allocates from the heap. Not safe
// for concurrent use.
type Arena struct {
	docs   chunk.Chunk[Doc]
	heads  chunk.Chunk[Heading]
	fences chunk.Chunk[Fence]
	spans  chunk.Chunk[span]
	ints   chunk.Chunk[int]
	heap   bool // heapArena: every slice from the heap, nothing kept
}

// heapArena stands for a nil *Arena: it keeps nothing, so parses share it.
var heapArena = &Arena{heap: true}

// PoisonOnReset is for tests: Reset fills what it takes back with values
// that show wherever they are read, so that a Doc used after its arena was
// reset changes a report, where a zero value could pass unnoticed.
var PoisonOnReset bool

const poisonText = "☠ arena reset ☠"

var (
	poisonHeading = Heading{Level: 99, Text: poisonText, Start: -7, End: -7, SectionEnd: -7}
	poisonFence   = Fence{Char: '!', Info: poisonText, Lang: poisonText, Content: poisonText, Start: -7, End: -7, ContentStart: -7}
	poisonDoc     = Doc{Src: poisonText, Headings: []Heading{poisonHeading}, Fences: []Fence{poisonFence}}
)

// Reset makes the arena's memory available again; every Doc parsed into it
// is invalid from then on.
func (a *Arena) Reset() {
	p := PoisonOnReset
	a.docs.Reset(p, poisonDoc)
	a.heads.Reset(p, poisonHeading)
	a.fences.Reset(p, poisonFence)
	a.spans.Reset(p, span{-7, -7})
	a.ints.Reset(p, -7)
}
