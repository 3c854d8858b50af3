package artifact

import (
	"github.com/brenner-ci/brenner-ci/compile/chunk"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
)

// Arena is where the artifacts merged during one thread's work take the
// items their ADDs create, their lists, and their maps of items and of
// EDITs' writes (NewIn): a worker keeps one from thread to thread. Reset
// takes them back, and every artifact made in the arena is invalid from
// then on. Not safe for concurrent use.
type Arena struct {
	items  chunk.Chunk[Item]
	lists  chunk.Chunk[*Item]  // the sections' lists of items (appendItem)
	ids    chunk.Chunk[string] // the contributors' lists of item ids (appendID)
	writes maps[fieldKey, fieldWrite]
	byID   maps[string, []*Item] // Artifact.Items
}

// maps lends empty maps and takes them back cleared.
type maps[K comparable, V any] struct {
	lent []map[K]V // since the last reset
	free []map[K]V // empty
}

// take returns an empty map.
func (ms *maps[K, V]) take() map[K]V {
	var m map[K]V
	if n := len(ms.free); n > 0 {
		m = ms.free[n-1]
		ms.free[n-1] = nil
		ms.free = ms.free[:n-1]
	} else {
		m = map[K]V{}
	}
	ms.lent = append(ms.lent, m)
	return m
}

// reset takes back every map lent, cleared, but those that held more
// than maxKeptWrites entries. With poison it keeps none and leaves them
// as they are: an artifact read after the reset then sees its own maps,
// where without poison it would see another thread's, and the two runs'
// reports differ.
func (ms *maps[K, V]) reset(poison bool) {
	for i, m := range ms.lent {
		ms.lent[i] = nil
		if !poison && len(m) <= maxKeptWrites {
			clear(m)
			ms.free = append(ms.free, m)
		}
	}
	ms.lent = ms.lent[:0]
}

// maxKeptWrites is the most entries a map may have held to be kept by an
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
	r.writes.reset(PoisonOnReset)
	r.byID.reset(PoisonOnReset)
}

// newItem returns a zero item, from the artifact's arena when it has one.
func (a *Artifact) newItem() *Item {
	if a.own == nil {
		return new(Item)
	}
	return &chunk.Take(&a.own.items, 1, false)[0]
}

// NewIn is New, with the merge's values in arena (the fields of the items
// ADDs create, where the thread's delta values are) and the artifact's
// items, lists and maps in own; either may be nil (the heap). Such an
// artifact is invalid once either is reset: not for one that outlives its
// thread's work.
func NewIn(sessionID string, arena *jsonv.Arena, own *Arena) *Artifact {
	if own == nil {
		a := New(sessionID)
		a.arena = arena
		return a
	}
	return &Artifact{SessionID: sessionID, Items: own.byID.take(), writes: own.writes.take(), arena: arena, own: own}
}

// grow returns l with room for one more element: from c (the artifact's
// arena's) when l is full (a list twice as long, l copied into it; the
// full one stays in the chunk until Reset), else l itself (without an
// arena, c is nil and append grows l on the heap).
func grow[T any](c *chunk.Chunk[T], l []T) []T {
	if c == nil || len(l) < cap(l) {
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
	a.Items[sec] = append(grow(c, a.Items[sec]), it)
}

// appendID adds id to the end of a contributor's list of items.
func (a *Artifact) appendID(k *Contributor, id string) {
	var c *chunk.Chunk[string]
	if a.own != nil {
		c = &a.own.ids
	}
	k.Items = append(grow(c, k.Items), id)
}
