package artifact

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
)

// Random artifacts, produced by the merge from random deltas with awkward
// values, round-trip through Render and ParseMarkdown.

var rtStrings = []string{
	"Plain text.", "Cell fate is determined by lineage.", "  padded value  ", "two\nlines", "crlf\r\nline", "cr\rline",
	"a <br> literal", "pipe | inside", `back\slash`, `ends with \`, "~~struck~~", "**Bold**: not a field", "- not a list",
	"# not a heading", "H1: prefixed", "a, b, c", `§150 ("a, b"), §161`, `{"a":1}`, `[1,"x"]`, "5", "-2.5", "true", "null",
	`"quoted"`, "μ² ≈ 10 μm²/s — ok", "tab\there", "x: y", "ends with colon:", "(parenthesized)", "—", "N/A",
	"Third alternative: none", "Memory (Third Alternative)", "Foo (Score: 3/12)", "[inference]", "10/12", "LR=3",
	"trailing ##", "* star", "1. numbered", "> quote", "```", "|", "a|b|c", "\\|", "<!-- comment -->", "&amp; entity",
	"[link](http://x)", "`code`", "Killed by: nobody", "Reason: none", "日本語テキスト", "🙂 emoji",
}

var rtAgents = []string{"BlueLake", "GreenDog", "Red Creek", "", "PinkSnow", "agent-9"}

type rtGen struct {
	r *rand.Rand
}

func (g *rtGen) pick(xs []string) string { return xs[g.r.Intn(len(xs))] }

func (g *rtGen) str() *jsonv.Value { return jsonv.NewString(g.pick(rtStrings)) }

func (g *rtGen) scalar() *jsonv.Value {
	switch g.r.Intn(10) {
	case 0:
		return &jsonv.Value{Kind: jsonv.Number, Num: json.Number([]string{"5", "0.7", "1500.0", "-2", "0", "1e3"}[g.r.Intn(6)])}
	case 1:
		return &jsonv.Value{Kind: jsonv.Bool, Bool: g.r.Intn(2) == 0}
	case 2:
		return &jsonv.Value{Kind: jsonv.Null}
	}
	return g.str()
}

func (g *rtGen) value(depth int) *jsonv.Value {
	switch n := g.r.Intn(12); {
	case n < 7 || depth > 1:
		return g.scalar()
	case n < 9:
		arr := jsonv.NewArray([]*jsonv.Value{})
		for i := g.r.Intn(4); i > 0; i-- {
			arr.Append(g.value(depth + 1))
		}
		return arr
	default:
		o := jsonv.NewObject()
		for i := g.r.Intn(4); i > 0; i-- {
			o.Set(g.pick([]string{"H1", "H2", "If H3", "result_id", "note", "k", "a b", "x: y"}), g.value(depth+1))
		}
		return o
	}
}

func (g *rtGen) list() *jsonv.Value {
	if g.r.Intn(4) == 0 {
		return g.value(0)
	}
	arr := jsonv.NewArray([]*jsonv.Value{})
	for i := g.r.Intn(4); i > 0; i-- {
		arr.Append(jsonv.NewString(g.pick([]string{"§42", "§1-§3", "inference", "[inference]", "EV-001#E1", `§150 ("a, b")`, "H1", "A2", "  "})))
	}
	return arr
}

func (g *rtGen) refs() *jsonv.Value {
	arr := jsonv.NewArray([]*jsonv.Value{})
	for i := g.r.Intn(3); i > 0; i-- {
		switch g.r.Intn(4) {
		case 0:
			arr.Append(jsonv.NewString("RS-x/C1"))
		case 1:
			o := jsonv.NewObject()
			o.Set("session", jsonv.NewString("RS-20251228-initial"))
			o.Set("item", jsonv.NewString("H2"))
			arr.Append(o)
		default:
			o := jsonv.NewObject()
			o.Set("session", jsonv.NewString("RS-y"))
			o.Set("item", jsonv.NewString("C3"))
			o.Set("relation", jsonv.NewString(g.pick([]string{"extends", "refutes", "informed_by"})))
			arr.Append(o)
		}
	}
	return arr
}

func (g *rtGen) score() *jsonv.Value {
	switch g.r.Intn(5) {
	case 0:
		return g.scalar()
	}
	o := jsonv.NewObject()
	for _, k := range []string{"likelihood_ratio", "cost", "speed", "ambiguity", "note"} {
		switch g.r.Intn(5) {
		case 0:
		case 1:
			o.Set(k, g.scalar())
		default:
			o.Set(k, &jsonv.Value{Kind: jsonv.Number, Num: json.Number(fmt.Sprint(g.r.Intn(4)))})
		}
	}
	return o
}

// payload returns a random payload for a section.
func (g *rtGen) payload(sec string) *jsonv.Value {
	p := jsonv.NewObject()
	keys := map[string][]string{
		delta.ResearchThread:      {"statement", "context", "why_it_matters", "anchors", "references", "notes"},
		delta.HypothesisSlate:     {"name", "claim", "mechanism", "how_this_could_be_true", "anchors", "third_alternative", "references", "statement", "basis", "Notes"},
		delta.PredictionsTable:    {"condition", "predictions", "references", "notes", "observation", "name"},
		delta.DiscriminativeTests: {"name", "test_id", "procedure", "discriminates", "expected_outcomes", "potency_check", "feasibility", "score", "status", "last_run", "actual_outcomes", "design", "extra-key"},
		delta.AssumptionLedger:    {"name", "statement", "load", "test", "status", "scale_check", "calculation", "implication", "anchors", "assumption"},
		delta.AnomalyRegister:     {"name", "observation", "conflicts_with", "quarantine_status", "status", "resolution_plan", "reason"},
		delta.AdversarialCritique: {"name", "attack", "evidence", "why_it_might_be_right", "current_status", "real_third_alternative", "attack_type", "anchors"},
	}[sec]
	for _, k := range keys {
		if g.r.Intn(3) == 0 {
			continue
		}
		var v *jsonv.Value
		switch k {
		case "anchors", "conflicts_with":
			v = g.list()
		case "references":
			v = g.refs()
		case "score":
			v = g.score()
		case "third_alternative", "scale_check", "real_third_alternative":
			if g.r.Intn(4) == 0 {
				v = g.scalar()
			} else {
				v = &jsonv.Value{Kind: jsonv.Bool, Bool: g.r.Intn(2) == 0}
			}
		case "predictions":
			if g.r.Intn(6) == 0 {
				v = g.scalar()
			} else {
				v = jsonv.NewObject()
				for _, h := range []string{"H1", "H2", "h3", "H3", "H4", "H9"} {
					if g.r.Intn(2) == 0 {
						v.Set(h, g.scalar())
					}
				}
			}
		case "expected_outcomes", "last_run", "actual_outcomes":
			v = g.value(0)
		case "name":
			if g.r.Intn(8) == 0 {
				v = g.scalar()
			} else {
				v = g.str()
			}
		default:
			v = g.value(0)
		}
		p.Set(k, v)
	}
	return p
}

// artifact builds a random artifact through the merge.
func (g *rtGen) artifact() *Artifact {
	a := New("RT-RANDOM")
	a.Status = "active"
	at := time.Date(2026, 1, 2, 20, 0, 0, 0, time.UTC)
	for i, n := 0, 5+g.r.Intn(30); i < n; i++ {
		at = at.Add(time.Duration(1+g.r.Intn(5000)) * time.Millisecond)
		sec := delta.Sections[g.r.Intn(len(delta.Sections))]
		d := &delta.Delta{Section: sec, Payload: g.payload(sec)}
		switch k := g.r.Intn(10); {
		case sec == delta.ResearchThread:
			d.Op, d.Target = delta.OpEdit, "RT"
		case k < 6:
			d.Op = delta.OpAdd
		case k < 8:
			d.Op = delta.OpEdit
			d.Target = delta.Prefix[sec] + fmt.Sprint(1+g.r.Intn(4))
		default:
			d.Op = delta.OpKill
			d.Target = delta.Prefix[sec] + fmt.Sprint(1+g.r.Intn(4))
			d.Payload = jsonv.NewObject()
			if g.r.Intn(4) > 0 {
				d.Payload.Set("reason", g.scalar())
			}
		}
		a.Apply(Applied{Delta: d, Agent: g.pick(rtAgents), At: at, Msg: i})
	}
	a.Version = 1 + g.r.Intn(3)
	a.CompiledAt = at.Add(time.Second)
	a.CompiledBy = "operator"
	if g.r.Intn(2) == 0 {
		a.MessageID = fmt.Sprint(g.r.Intn(100000))
	}
	return a
}

func TestRoundTripRandom(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	if s := os.Getenv("BRENNER_ROUNDTRIP_N"); s != "" {
		n, _ = strconv.Atoi(s) // a longer search: BRENNER_ROUNDTRIP_N=50000
	}
	fails := 0
	for seed := 1; seed <= n && fails < 5; seed++ {
		g := &rtGen{r: rand.New(rand.NewSource(int64(seed)))}
		a := g.artifact()
		name := fmt.Sprintf("random-%d.md", seed)
		ok := t.Run(name, func(t *testing.T) { checkRoundTrip(t, a, name, false) })
		if !ok {
			fails++
		}
	}
}
