package body

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/limits"
)

// TestArenaMatchesHeap: the Docs of a thread's bodies, parsed one after
// another into one arena, are the Docs the heap gives, read after the last
// one was parsed; and again after Reset, with and without poison.
func TestArenaMatchesHeap(t *testing.T) {
	defer func() { PoisonOnReset = false }()
	rng := rand.New(rand.NewSource(3))
	a := &Arena{}
	inArena := 0
	for round := range 40 {
		PoisonOnReset = round%2 == 1
		var srcs []string
		var got []*Doc
		for range 30 {
			src := randomBody(rng, guardedLines, 12, "\n")
			d, _ := ParseGuardedIn(a, src, limits.DefaultBodyBytes, round%3 == 0)
			srcs, got = append(srcs, src), append(got, d)
		}
		for i, src := range srcs {
			want, _ := ParseGuarded(src, limits.DefaultBodyBytes, round%3 == 0)
			if !reflect.DeepEqual(got[i], want) {
				t.Fatalf("round %d, %q:\narena %+v\nheap  %+v", round, src, got[i], want)
			}
		}
		a.Reset()
		for _, d := range got {
			if d != nil && d.Src == poisonText { // poisoned: it was the arena's
				inArena++
			}
		}
	}
	if inArena == 0 {
		t.Error("no Doc came from the arena: the test compares the heap with itself")
	}
}

// TestArenaPoisonShows: with PoisonOnReset, a Doc read after its arena was
// reset shows the poison.
func TestArenaPoisonShows(t *testing.T) {
	defer func() { PoisonOnReset = false }()
	PoisonOnReset = true
	a := &Arena{}
	d, why := ParseGuardedIn(a, "# Title\n\n```delta\n{}\n```\n", limits.DefaultBodyBytes, false)
	if d == nil || why != "" || len(d.Headings) != 1 || len(d.Fences) != 1 {
		t.Fatalf("parse: %+v %q", d, why)
	}
	a.Reset()
	if !strings.Contains(d.Src, poisonText) || d.Headings[0].Text != poisonText || d.Fences[0].Content != poisonText {
		t.Errorf("a reset Doc reads %+v", d)
	}
}
