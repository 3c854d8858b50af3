package artifact

// The DR-001 comparison of a persisted artifact with its thread compiled at
// the artifact's front-matter version.

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
)

// Version returns the front-matter version of a parsed artifact, when it is
// a whole number.
func (p *Parsed) Version() (int, bool) {
	f := p.Field("version")
	if f == nil {
		return 0, false
	}
	switch v := f.Value.(type) {
	case int:
		return v, true
	case float64:
		return int(v), v == float64(int(v))
	}
	return 0, false
}

// Drift lists the item-level differences between want, a thread compiled at
// some version, and p, the artifact persisted for that version (DR-001), and the position of the first differing item in the
// persisted file.
func Drift(want *Artifact, p *Parsed) ([]string, diag.Pos) {
	got := p.Art
	if p.Src != nil && bytes.Equal(p.Src, want.Render()) {
		return nil, diag.Pos{} // the file is the compiled rendering, byte for byte
	}
	// A field differs only when it differs both from the compiled value and
	// from that value as its rendering reads back: markdown cannot tell an
	// anchors string from a one-element list, and other renderers keep a
	// killed hypothesis's cells where ours writes N/A.
	back := ReadBack(want)
	// A killed hypothesis's prediction cells render as N/A whatever their
	// value, and an EDIT that leaves one out keeps it (objects merge key by
	// key), where other renderers drop it: those cells are not compared.
	killed := map[string]bool{}
	for _, h := range want.Section(delta.HypothesisSlate) {
		if h.Killed {
			killed[strings.ToLower(h.ID)] = true
		}
	}
	var diffs []string
	var first diag.Pos
	mark := func(id string) {
		if first.Line != 0 {
			return
		}
		if items := p.ByID[id]; len(items) > 0 {
			first = items[0].Pos
		}
	}
	for _, sec := range delta.Sections {
		wantItems, gotItems, backItems := itemsOf(want, sec), itemsOf(got, sec), itemsOf(back, sec)
		ids := map[string]bool{}
		for id := range wantItems {
			ids[id] = true
		}
		for id := range gotItems {
			ids[id] = true
		}
		sorted := make([]string, 0, len(ids))
		for id := range ids {
			sorted = append(sorted, id)
		}
		sort.Slice(sorted, func(i, j int) bool { return IDLess(sorted[i], sorted[j]) })
		for _, id := range sorted {
			w, g := wantItems[id], gotItems[id]
			switch {
			case w == nil:
				diffs = append(diffs, id+" is in the file but not in the thread")
				mark(id)
			case g == nil && w.Killed && sec == delta.AnomalyRegister:
				// The reference renderer drops killed anomalies ("None
				// registered." when none is active); not a drift.
			case g == nil:
				diffs = append(diffs, id+" is missing from the file")
				if first.Line == 0 && len(p.Sections) > 0 {
					for _, s := range p.Sections {
						if s.Section == sec {
							first = s.Pos
						}
					}
				}
			default:
				if w.Killed != g.Killed {
					state := "killed in the thread but active in the file"
					if g.Killed {
						state = "active in the thread but killed in the file"
					}
					diffs = append(diffs, id+" is "+state)
					mark(id)
				}
				fs := changedFields(w, g, killed)
				if b := backItems[id]; b != nil && len(fs) > 0 {
					fs = intersect(fs, changedFields(b, g, killed))
				}
				if len(fs) > 0 {
					diffs = append(diffs, fmt.Sprintf("%s changed %s", id, strings.Join(fs, ", ")))
					mark(id)
				}
			}
		}
	}
	return diffs, first
}

func intersect(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if in[x] {
			out = append(out, x)
		}
	}
	return out
}

func itemsOf(a *Artifact, sec string) map[string]*Item {
	m := map[string]*Item{}
	if a == nil {
		return m
	}
	if sec == delta.ResearchThread {
		if a.RT != nil {
			m["RT"] = a.RT
		}
		return m
	}
	for _, it := range a.Section(sec) {
		m[it.ID] = it
	}
	return m
}

// changedFields names the payload fields whose values differ (white space
// folded in strings; prediction cells of killed hypotheses left out).
func changedFields(w, g *Item, killed map[string]bool) []string {
	keys := map[string]bool{}
	var order []string
	add := func(v *jsonv.Value) {
		if v == nil {
			return
		}
		for _, k := range v.Keys() {
			if !keys[k] {
				keys[k] = true
				order = append(order, k)
			}
		}
	}
	add(w.Fields)
	add(g.Fields)
	var out []string
	for _, k := range order {
		wv, gv := w.Get(k), g.Get(k)
		if k == "predictions" {
			wv, gv = liveCells(wv, killed), liveCells(gv, killed)
		}
		if !renderedField[k] && (wv == nil || gv == nil) {
			// A field the artifact format does not lay out (references,
			// flags, extra keys) may be left out of a persisted file.
			continue
		}
		if !sameValue(wv, gv) {
			out = append(out, k)
		}
	}
	return out
}

// renderedField are the payload fields the artifact schema lays out, so a
// persisted file must carry them.
var renderedField = map[string]bool{
	"statement": true, "context": true, "why_it_matters": true, "anchors": true, "name": true, "claim": true,
	"mechanism": true, "condition": true, "predictions": true, "procedure": true, "discriminates": true,
	"expected_outcomes": true, "potency_check": true, "feasibility": true, "score": true, "load": true,
	"test": true, "status": true, "calculation": true, "implication": true, "observation": true,
	"conflicts_with": true, "resolution_plan": true, "attack": true, "evidence": true, "current_status": true,
}

// liveCells returns a predictions object without the cells of killed
// hypotheses (v itself when it is not an object or has none).
func liveCells(v *jsonv.Value, killed map[string]bool) *jsonv.Value {
	if v == nil || v.Kind != jsonv.Object {
		return v
	}
	out := jsonv.NewObject()
	for _, k := range v.Keys() {
		if !killed[strings.ToLower(k)] {
			out.Set(k, v.Get(k))
		}
	}
	return out
}

func sameValue(a, b *jsonv.Value) bool {
	if a.IsNull() || b.IsNull() {
		return a.IsBlank() && b.IsBlank()
	}
	if a.Kind == jsonv.String && b.Kind == jsonv.String {
		return diag.CollapseSpace(a.Str) == diag.CollapseSpace(b.Str)
	}
	return jsonv.Equal(a, b)
}
