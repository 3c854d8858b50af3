package artifact

import (
	"fmt"
	"testing"
)

// TestArenaReset: after Reset an artifact made in the arena gets zero
// items and empty maps of items and writes, though the last one's were
// filled; a map that held more than maxKeptWrites writes is not kept;
// with poison, the items taken back read as poisonItem.
func TestArenaReset(t *testing.T) {
	var r Arena
	a := NewIn("s", nil, &r)
	it := a.newItem()
	it.ID, it.AddedBy = "H1", "X"
	a.writes[fieldKey{"s", "H1", "f", ""}] = fieldWrite{Agent: "X"}
	a.Items["hypothesis_slate"] = []*Item{it}
	r.Reset()
	if *it != (Item{}) {
		t.Errorf("an item taken back reads %+v, want zero", *it)
	}
	b := NewIn("s", nil, &r)
	if len(b.writes) != 0 || len(b.Items) != 0 {
		t.Errorf("the next artifact's maps hold %d writes and %d sections, want none", len(b.writes), len(b.Items))
	}
	if got := b.newItem(); *got != (Item{}) || got != it {
		t.Errorf("the next item is %+v at %p, want the zero item at %p (the arena's memory again)", *got, got, it)
	}
	for i := range maxKeptWrites + 1 {
		b.writes[fieldKey{"s", fmt.Sprint(i), "f", ""}] = fieldWrite{}
	}
	r.Reset()
	if len(r.writes.free) != 0 {
		t.Errorf("a map of %d writes was kept", maxKeptWrites+1)
	}
	c := NewIn("s", nil, &r)
	if len(c.writes) != 0 {
		t.Errorf("a new map holds %d writes", len(c.writes))
	}
	it = c.newItem()
	c.writes[fieldKey{"s", "H9", "f", ""}] = fieldWrite{Agent: "Y"}
	PoisonOnReset = true
	defer func() { PoisonOnReset = false }()
	r.Reset()
	if it.ID != poisonItem.ID || !it.Killed {
		t.Errorf("with poison an item taken back reads %+v", *it)
	}
	if len(c.writes) != 1 || len(r.writes.free) != 0 || len(r.byID.free) != 0 {
		t.Errorf("with poison the maps were cleared or kept: %d writes left, %d and %d maps kept", len(c.writes), len(r.writes.free), len(r.byID.free))
	}
	if got := c.newItem(); *got != (Item{}) {
		t.Errorf("a poisoned arena handed out %+v, want a zero item", *got)
	}
	// Without an arena: the heap.
	d := NewIn("s", nil, nil)
	if x, y := d.newItem(), d.newItem(); x == y {
		t.Error("two heap items at one address")
	}
}

// TestArenaLists: a section's list of items and a contributor's list of
// ids grow in the arena's chunks with every element kept in order, with
// or without an arena; with poison, a list taken back reads poisonItem.
func TestArenaLists(t *testing.T) {
	for _, own := range []*Arena{nil, new(Arena)} {
		a := NewIn("s", nil, own)
		k := &Contributor{Agent: "X"}
		var want []*Item
		for i := range 100 {
			it := a.newItem()
			it.ID = fmt.Sprint("H", i)
			want = append(want, it)
			a.appendItem("hypothesis_slate", it)
			a.appendID(k, it.ID)
		}
		got := a.Items["hypothesis_slate"]
		if len(got) != 100 || len(k.Items) != 100 {
			t.Fatalf("arena %v: %d items, %d ids, want 100 each", own != nil, len(got), len(k.Items))
		}
		for i := range got {
			if got[i] != want[i] || k.Items[i] != want[i].ID {
				t.Fatalf("arena %v: element %d is %p %q, want %p %q", own != nil, i, got[i], k.Items[i], want[i], want[i].ID)
			}
		}
		if own == nil {
			continue
		}
		PoisonOnReset = true
		own.Reset()
		PoisonOnReset = false
		if got[0] != &poisonItem || k.Items[99] != poisonItem.ID {
			t.Errorf("with poison a list taken back reads %p %q", got[0], k.Items[99])
		}
		own.Reset()
	}
}
