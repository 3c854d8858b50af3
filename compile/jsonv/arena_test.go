package jsonv

import (
	"reflect"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/chunk"
)

// TestArenaMatchesHeap: documents parsed into an arena, one after another
// and again after a Reset, are the trees the heap gives.
func TestArenaMatchesHeap(t *testing.T) {
	defer func() { PoisonOnReset = false }()
	a := &Arena{}
	for round := range 4 {
		PoisonOnReset = round%2 == 1 // a poisoned arena hands out zero values too
		for _, src := range parseSeeds {
			want, werr := ParseString(src)
			got, gerr := ParseStringIn(a, src, 0)
			if (werr == nil) != (gerr == nil) || !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d, %q: arena %v (%v), heap %v (%v)", round, src, got, gerr, want, werr)
			}
		}
		a.Reset()
	}
}

// TestArenaResetTakesAllBack: Reset takes back every chunk of the arena
// (what a chunk's Reset does with what it held, package chunk tests):
// after it, each chunk hands out its memory from the start again.
func TestArenaResetTakesAllBack(t *testing.T) {
	a := &Arena{}
	takes := func() []any {
		return []any{&chunk.Take(&a.vals, 1, false)[0], &chunk.Take(&a.conts, 1, false)[0], &chunk.Take(&a.ptrs, 1, false)[0], &chunk.Take(&a.keys, 1, false)[0], &chunk.Take(&a.offs, 1, false)[0]}
	}
	start := takes()
	if _, err := ParseStringIn(a, `{"k": ["x", {"y": 1}], "z": "w"}`, 0); err != nil {
		t.Fatal(err)
	}
	a.Reset()
	for i, p := range takes() {
		if p != start[i] {
			t.Errorf("chunk %d does not hand out its memory from the start after Reset", i)
		}
	}
}

// FuzzArenaParse holds arena parsing to heap parsing on random input, in
// an arena that already holds another document and after a Reset.
func FuzzArenaParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		want, werr := ParseString(in)
		a := &Arena{}
		if _, err := ParseStringIn(a, `{"before": [1, "two", {"three": null}]}`, 0); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			got, gerr := ParseStringIn(a, in, 0)
			if (werr == nil) != (gerr == nil) || !reflect.DeepEqual(got, want) {
				t.Fatalf("%q: arena %v (%v), heap %v (%v)", in, got, gerr, want, werr)
			}
			a.Reset()
		}
	})
}

// TestPoisonShows: with PoisonOnReset, a value read after its arena was
// reset is the poison, not a value that could pass for one.
func TestPoisonShows(t *testing.T) {
	defer func() { PoisonOnReset = false }()
	PoisonOnReset = true
	a := &Arena{}
	v, err := ParseStringIn(a, `{"k": "v"}`, 0)
	if err != nil {
		t.Fatal(err)
	}
	a.Reset()
	if v.Str != poisonText || v.Get("k") != nil || len(v.Keys()) != 1 || v.Keys()[0] != poisonText ||
		v.Len() != 1 || len(v.Arr()) != 1 || v.Arr()[0].Str != poisonText || v.Vals()[0].Str != poisonText {
		t.Fatalf("after Reset the value reads %+v", *v)
	}
}

// TestNewObjectIn: an object taken from an arena holds what is set in it
// like a heap one, and members past the room it was given move its lists
// rather than write over the next value the arena hands out.
func TestNewObjectIn(t *testing.T) {
	var a Arena
	o := NewObjectIn(&a, 2)
	next := NewObjectIn(&a, 2)
	next.Set("x", NewString("kept"))
	for i, k := range []string{"a", "b", "c", "d"} {
		o.Set(k, NewString(strings.Repeat(k, i+1)))
	}
	want := NewObjectCap(2)
	for i, k := range []string{"a", "b", "c", "d"} {
		want.Set(k, NewString(strings.Repeat(k, i+1)))
	}
	if !Equal(o, want) || len(o.Keys()) != 4 {
		t.Fatalf("arena object %v, want %v", o.Keys(), want.Keys())
	}
	if s, _ := next.Get("x").AsString(); s != "kept" || len(next.Keys()) != 1 {
		t.Fatalf("the next arena object was overwritten: %v", next.Keys())
	}
	if h := NewObjectIn(nil, 3); h.Kind != Object || cap(h.Keys()) != 3 {
		t.Fatalf("nil arena: %+v", h)
	}
}
