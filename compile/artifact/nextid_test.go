package artifact

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/delta"
)

// plainNextID is nextID as it was: the highest number among all the
// section's items, plus one (a scan of the whole list per added item).
func plainNextID(a *Artifact, section string) string {
	prefix := delta.Prefix[section]
	top := 0
	for _, it := range a.Items[section] {
		if p, n := idNum(it.ID); p == prefix && n > top {
			top = n
		}
	}
	return prefix + strconv.Itoa(top+1)
}

// TestNextIDAgreesWithPlainScan: the incremental nextID gives the ids the
// plain scan gives, over random ADDs and KILLs in several sections, across
// clones taken midway (a clone and its original go on independently) and
// after a section's list is replaced.
func TestNextIDAgreesWithPlainScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sections := []string{delta.HypothesisSlate, delta.DiscriminativeTests, delta.AssumptionLedger}
	payload := map[string]string{
		delta.HypothesisSlate:     hyp("h"),
		delta.DiscriminativeTests: `{"name":"t","procedure":"p","discriminates":"H1 vs H2","expected_outcomes":{"H1":"a"},"potency_check":"c","score":{"cost":1}}`,
		delta.AssumptionLedger:    `{"name":"a","statement":"s","load":"l","test":"t"}`,
	}
	seqs := []*seq{newSeq(t)}
	for step := 0; step < 600; step++ {
		s := seqs[rng.IntN(len(seqs))]
		sec := sections[rng.IntN(len(sections))]
		switch r := rng.IntN(10); {
		case r == 0 && len(seqs) < 4:
			c := &seq{t: t, a: s.a.Clone(), n: s.n}
			seqs = append(seqs, c)
		case r == 1 && len(s.a.Items[sec]) > 0:
			it := s.a.Items[sec][rng.IntN(len(s.a.Items[sec]))]
			s.do("B", delta.OpKill, sec, it.ID, `{"reason":"r"}`)
		case r == 2 && len(s.a.Items[sec]) > 1:
			// A replaced list (as a parse builds one): shorter than before.
			s.a.Items[sec] = append([]*Item(nil), s.a.Items[sec][1:]...)
		default:
			want := plainNextID(s.a, sec)
			if got := s.a.nextID(sec); got != want {
				t.Fatalf("step %d, %s: nextID %s, the plain scan %s", step, sec, got, want)
			}
			if ok, _ := s.do("A", delta.OpAdd, sec, "", payload[sec]); !ok {
				continue // a full section (six active hypotheses)
			}
			items := s.a.Items[sec]
			if got := items[len(items)-1].ID; got != want {
				t.Fatalf("step %d, %s: added %s, want %s", step, sec, got, want)
			}
		}
	}
}

// TestCreditListsEachItemOnce: an agent's Items are the ids it touched,
// each once, in first-touched order, below and past the size at which a
// set replaces the scan, and across a clone.
func TestCreditListsEachItemOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	a := New("S")
	var want []string
	seen := map[string]bool{}
	for step := 0; step < 400; step++ {
		id := "A" + strconv.Itoa(1+rng.IntN(60))
		a.credit(Applied{Agent: "A"}, id)
		if !seen[id] {
			seen[id] = true
			want = append(want, id)
		}
		if step == 200 {
			a = a.Clone()
		}
	}
	got := a.Contributors[0].Items
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("Items %v, want %v", got, want)
	}
}

// TestNextIDKeepsEverySection: nextID keeps what it has seen of every
// section of the schema (a section past maxTopSections would be scanned
// whole at each ADD: right, but quadratic in a long thread).
func TestNextIDKeepsEverySection(t *testing.T) {
	if len(delta.Sections) > maxTopSections {
		t.Fatalf("the schema has %d sections; nextID keeps %d (maxTopSections)", len(delta.Sections), maxTopSections)
	}
}
