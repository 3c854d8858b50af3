package rules

// DR-001 artifact drift: a persisted artifact compared with its thread
// compiled up to the artifact's front-matter version.

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
)

var drRules = []Rule{
	{ID: "DR-001", Name: "artifact-drift", Code: "ARTIFACT_DRIFT", Family: "DR", Severity: diag.Error, Scope: ScopeThread, Spec: "artifact_publish_spec_v0.1.md, Latest Artifact Pointer (dual-source truth)",
		Short: "Persisted artifact matches its thread compiled at the same version.",
		Full:  "When a thread and its persisted artifacts/<thread_id>.md are both inputs, brenner-ci compiles the thread up to the artifact's front-matter version and compares item by item: items added or missing, changed fields, kill state. Hand edits that no delta explains make the two sources of truth disagree. The finding lists the differences and points at the first differing item.",
		Check: checkDrift},
	{ID: "DR-002", Name: "artifact-file-name-mismatch", Code: "ARTIFACT_FILE_NAME_MISMATCH", Family: "DR", Severity: diag.Error, Scope: ScopeBatch, Spec: specAP + "; " + specTH + ", Artifact storage layout",
		Short: "A persisted artifact's file name matches its session_id.",
		Full:  "When a persisted artifact and its thread are both inputs, the file must be artifacts/<session_id>.md (or artifacts/<session_id>/artifact.md): tools find an artifact by its thread id. (This was part of AP-005, which checks the Artifact Path line of COMPILED bodies; the file check is a batch check of its own.)",
		Check: checkArtifactFileName},
	{ID: "DR-003", Name: "artifact-path-not-artifact", Code: "ARTIFACT_PATH_NOT_ARTIFACT", Family: "DR", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specTH + ", Artifact storage layout; " + specAP + ", Latest Artifact Pointer",
		Short: "The file at a thread's artifact path is an artifact.",
		Full: "artifacts/<thread_id>.md (or artifacts/<thread_id>/artifact.md)" +
			" — where <thread_id> is a thread among the inputs or a research-session or coordination thread id — must hold the thread's persisted artifact. " +
			"An empty file, or one replaced by other text, is reported instead of being skipped as markdown that is not an artifact, and when its thread is among the inputs it is still compared with the thread's latest compiled version (DR-001), so emptying the file cannot make the drift disappear.",
	},
}

// frontVersion returns the front-matter version of a parsed artifact.
func frontVersion(p *artifact.Parsed) (int, bool) {
	for _, f := range p.Front {
		if f.Key == "version" {
			switch v := f.Value.(type) {
			case int:
				return v, true
			case float64:
				return int(v), v == float64(int(v))
			}
			return 0, false
		}
	}
	return 0, false
}

// checkDrift compares a thread with its persisted artifacts (Ctx.Persisted).
func checkDrift(c *Ctx) {
	t := c.T
	id := t.ID()
	for _, p := range c.Persisted {
		v, ok := frontVersion(p)
		if !ok {
			if p.HasFrontMatter {
				continue // EM-/IM- rules report a missing version
			}
			// No front matter at all (an emptied or replaced file, DR-003):
			// compared with the latest compiled version.
			v = t.Version
		}
		var want *artifact.Artifact
		switch {
		case v == t.Version:
			want = t.Current
		default:
			for i := range t.Versions {
				if t.Versions[i].N == v {
					want = t.VersionArtifact(i)
				}
			}
		}
		if want == nil {
			continue // AP-010 reports a version the thread never compiled
		}
		diffs, first := diffArtifacts(want, p)
		if len(diffs) == 0 {
			continue
		}
		pos := first
		if pos.Line == 0 {
			pos = diag.Pos{File: p.File, Line: 1, Col: 1}
		}
		shown := diffs
		more := ""
		if len(shown) > 8 {
			more = fmt.Sprintf("; and %d more", len(shown)-8)
			shown = shown[:8]
		}
		c.emit(diag.Finding{
			Message: fmt.Sprintf("Artifact %s differs from thread %s compiled at v%d: %s%s.", p.File, t.Key, v, strings.Join(shown, "; "), more),
			Hint:    "Re-persist the artifact from the mailbox (brenner-ci check --fix --out DIR writes the recompiled file), or post the deltas that explain the edits.",
			Pos:     pos.Normalize(), Thread: t.Key, Anchor: fmt.Sprintf("drift %s v%d %s", id, v, strings.Join(diffs, "|"))})
	}
}

// diffArtifacts lists item-level differences between the compiled artifact
// and the persisted one, and the position of the first differing item in the
// persisted file.
func diffArtifacts(want *artifact.Artifact, p *artifact.Parsed) ([]string, diag.Pos) {
	got := p.Art
	if p.Src != nil && bytes.Equal(p.Src, want.Render()) {
		return nil, diag.Pos{} // the file is the compiled rendering, byte for byte
	}
	// A field differs only when it differs both from the compiled value and
	// from that value as its rendering reads back: markdown cannot tell an
	// anchors string from a one-element list, and other renderers keep a
	// killed hypothesis's cells where ours writes N/A.
	back := artifact.ReadBack(want)
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
		sort.Slice(sorted, func(i, j int) bool { return artifact.IDLess(sorted[i], sorted[j]) })
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

func itemsOf(a *artifact.Artifact, sec string) map[string]*artifact.Item {
	m := map[string]*artifact.Item{}
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
func changedFields(w, g *artifact.Item, killed map[string]bool) []string {
	keys := map[string]bool{}
	var order []string
	add := func(v *jsonv.Value) {
		if v == nil {
			return
		}
		for _, k := range v.Keys {
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
	for _, k := range v.Keys {
		if !killed[strings.ToLower(k)] {
			out.Set(k, v.Get(k))
		}
	}
	return out
}

func sameValue(a, b *jsonv.Value) bool {
	if a.IsNull() || b.IsNull() {
		return blank(a) && blank(b)
	}
	if a.Kind == jsonv.String && b.Kind == jsonv.String {
		return strings.Join(strings.Fields(a.Str), " ") == strings.Join(strings.Fields(b.Str), " ")
	}
	return jsonv.Equal(a, b)
}

func blank(v *jsonv.Value) bool {
	if v.IsNull() {
		return true
	}
	switch v.Kind {
	case jsonv.String:
		return strings.TrimSpace(v.Str) == ""
	case jsonv.Array:
		return len(v.Arr) == 0
	case jsonv.Object:
		return len(v.Keys) == 0
	}
	return false
}
