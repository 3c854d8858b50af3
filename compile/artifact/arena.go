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
	lists  chunk.Chunk[*Item]        // the sections' lists of items (appendItem)
	ids    chunk.Chunk[string]       // the contributors' lists of item ids (appendID)
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
	r.lists.Reset(PoisonOnReset, &poisonItem)
	r.ids.Reset(PoisonOnReset, poisonItem.ID)
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

// grow returns l with room for one more element: from c when l is full
// and the artifact has an arena (a list twice as long, l copied into it;
// the full one stays in the chunk until Reset), else l itself (append
// then grows it on the heap).
func grow[T any](a *Artifact, c *chunk.Chunk[T], l []T) []T {
	if a.own == nil || len(l) < cap(l) {
		return l
	}
	n := chunk.Take(c, max(2*cap(l), 4), false)
	return n[:copy(n, l)]
}

// appendItem adds it to the end of its section's list.
func (a *Artifact) appendItem(sec string, it *Item) {
	var c *chunk.Chunk[*Item]
	if a.own != nil {
		c = &a.own.lists
	}
	a.Items[sec] = append(grow(a, c, a.Items[sec]), it)
}

// appendID adds id to the end of a contributor's list of items.
func (a *Artifact) appendID(k *Contributor, id string) {
	var c *chunk.Chunk[string]
	if a.own != nil {
		c = &a.own.ids
	}
	k.Items = append(grow(a, c, k.Items), id)
}
