package delta

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/limits"
)

// TestArenaMatchesHeap: the blocks of a thread's bodies, analysed one
// after another into one arena, are the blocks the heap gives, read after
// the last one was analysed; and again after Reset, with and without
// poison. Reset with poison shows in every block and Delta made before it.
func TestArenaMatchesHeap(t *testing.T) {
	defer func() { PoisonOnReset = false }()
	a := &Arena{}
	for round := range 6 {
		PoisonOnReset = round%2 == 1
		var docs []*body.Doc
		var got [][]Block
		for i := range 40 {
			src := fmt.Sprintf("## Deltas\n\n```delta\n{\"operation\": \"ADD\", \"section\": \"hypothesis_slate\", \"payload\": {\"name\": \"H%d\", \"claim\": \"c%d\", \"mechanism\": \"m\"}}\n```\n\n"+
				"```delta\n{\"operation\": \"KILL\", \"section\": \"hypothesis_slate\", \"target_id\": \"H%d\"}\n```\n\n```delta\n{bad\n```\n", i, round, i)
			d := body.Parse(src)
			blocks, _ := AnalyzeIn(nil, a, d, limits.Parse{})
			docs, got = append(docs, d), append(got, blocks)
		}
		valid := 0
		var deltas []*Delta // held across the Reset, as a result must not
		for i, d := range docs {
			want, _ := Analyze(d, limits.Parse{})
			if !reflect.DeepEqual(got[i], want) {
				t.Fatalf("round %d, body %d:\narena %+v\nheap  %+v", round, i, got[i], want)
			}
			for _, b := range got[i] {
				if b.Delta != nil {
					valid++
					deltas = append(deltas, b.Delta)
				}
			}
		}
		if valid != 40 {
			t.Fatalf("round %d: %d valid blocks, want 40 (the ADDs)", round, valid)
		}
		a.Reset()
		if PoisonOnReset {
			for _, blocks := range got {
				for _, b := range blocks {
					if b.Raw != poisonText {
						t.Fatalf("round %d: a reset block reads %+v", round, b)
					}
				}
			}
			for _, d := range deltas {
				if d.Section != poisonText {
					t.Fatalf("round %d: a reset Delta reads %+v", round, d)
				}
			}
		}
	}
}
