package artifact

import (
	"github.com/brenner-ci/brenner-ci/compile/chunk"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
)

// Arena is where the artifacts merged during one thread's work take the
// items their ADDs create and the maps of their EDITs' writes (UseArena):
// a worker keeps one from thread to thread. Reset takes them back, and
// every artifact that used the arena is invalid from then on. Not safe
// for concurrent use.
type Arena struct {
	items  chunk.Chunk[Item]
	lent   []map[fieldKey]fieldWrite // to artifacts since the last Reset
	writes []map[fieldKey]fieldWrite // empty, for the next artifacts
}

// maxKeptWrites is the most writes a map may have held to be kept by an
// arena's Reset: a thread with far more does not leave its map that large
// in the worker.
const maxKeptWrites = 4096

// PoisonOnReset is for tests: Reset sets the items it takes back to
// poisonItem, so that an item read after its arena was reset shows in a
// report, where a zero value could pass unnoticed.
var PoisonOnReset bool

var poisonItem = func() Item {
	const p = "☠ arena reset ☠"
	return Item{ID: p, Section: p, Fields: jsonv.NewObject(), Killed: true, KilledBy: p, KillReason: p, AddedBy: p}
}()

// Reset takes back every item and map handed out since the last Reset.
func (r *Arena) Reset() {
	r.items.Reset(PoisonOnReset, poisonItem)
	for i, m := range r.lent {
		r.lent[i] = nil
		if len(m) <= maxKeptWrites {
			clear(m)
			r.writes = append(r.writes, m)
		}
	}
	r.lent = r.lent[:0]
}

// newItem returns a zero item, from the artifact's arena when it has one.
func (a *Artifact) newItem() *Item {
	if a.own == nil {
		return new(Item)
	}
	return &chunk.Take(&a.own.items, 1, false)[0]
}

// writesMap returns an empty map for an artifact's writes.
func (r *Arena) writesMap() map[fieldKey]fieldWrite {
	var m map[fieldKey]fieldWrite
	if n := len(r.writes); n > 0 {
		m = r.writes[n-1]
		r.writes[n-1] = nil
		r.writes = r.writes[:n-1]
	} else {
		m = map[fieldKey]fieldWrite{}
	}
	r.lent = append(r.lent, m)
	return m
}
