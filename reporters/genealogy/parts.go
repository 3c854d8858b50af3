package genealogy

import (
	"fmt"
	"sort"
	"strings"

	"github.com/brenner-ci/brenner-ci/diag"
)

// How large a part of the graph can be drawn and still be read where the
// markdown report is read: GitHub draws a Mermaid block at the width of the
// job summary or comment (about 900 px; .markdown-body is at most 1,012 px)
// and scales a wider drawing down to it, text included; a taller one only
// makes the page longer. Measured by rendering Mermaid 11's flowcharts of
// this package (item labels like "H1: Quorum timing hypothesis", session
// keys like "RS-20260301-quorum-timing") in headless Chromium and reading
// each SVG's size:
//
//   - left to right, each session of a reference chain adds a column of
//     about 408 px (2 sessions: 734 px, 3: 1,142, 4: 1,550, 5: 1,958):
//     past 2 columns the text is scaled to 79%, 58%, 46% of its 16 px, so
//     a chain of four sessions is drawn at 9 px. Each item stacked in a
//     column adds about 168 px of height (8 sessions referencing one:
//     1,172 px).
//   - top to bottom, each session of a chain adds a row of about 202 px
//     (5 sessions: 952 px, 9: 1,760) and each item side by side in a row
//     about 310 px of width (3 items: 966 px, 93%; 5 sessions side by
//     side: 1,396 px, 64%).
//
// So a part is drawn left to right when its sessions make at most
// maxColumns columns and those columns hold at most maxColumnItems items
// (one screen, about 1,000 px, high); otherwise top to bottom when it has
// at most maxRows rows (about 950 px) of at most maxRowItems items each (at
// least 93% of the text's size); otherwise it is not drawn but listed as a
// table of its references.
const (
	maxColumns     = 2
	maxColumnItems = 6
	maxRows        = 5
	maxRowItems    = 3
	// MaxDiagrams is how many parts the markdown report draws; the
	// references of the others are listed in a table. Nine diagrams of
	// up to a screen each are more than a reviewer reads anyway.
	MaxDiagrams = 8
)

// Part is one connected part of a graph: sessions linked by references,
// directly or through others, and those references.
type Part struct {
	// G holds the part's sessions and edges, in the graph's order.
	G diag.Genealogy
	// Edges are the indexes in the whole graph of G.Edges.
	Edges []int
	// Dir is the direction the part can be drawn legibly in, "LR" or
	// "TB"; "" when it is too large to draw legibly (see maxColumns).
	Dir string
}

// Parts splits g into its connected parts, in the order of their first
// edge (sessions without an edge belong to no part).
func Parts(g *diag.Genealogy) []Part {
	parent := map[string]string{}
	find := func(s string) string {
		for parent[s] != s {
			parent[s] = parent[parent[s]] // path halving: no recursion
			s = parent[s]
		}
		return s
	}
	for _, e := range g.Edges {
		for _, s := range []string{e.FromSession, e.ToSession} {
			if _, ok := parent[s]; !ok {
				parent[s] = s
			}
		}
		a, b := find(e.FromSession), find(e.ToSession)
		if a != b {
			parent[b] = a
		}
	}
	index := map[string]int{} // root → part
	var parts []Part
	for i, e := range g.Edges {
		root := find(e.FromSession)
		k, ok := index[root]
		if !ok {
			k = len(parts)
			index[root] = k
			parts = append(parts, Part{})
		}
		parts[k].G.Edges = append(parts[k].G.Edges, e)
		parts[k].Edges = append(parts[k].Edges, i)
	}
	for _, s := range g.Sessions {
		if _, ok := parent[s.Key]; !ok {
			continue
		}
		p := &parts[index[find(s.Key)]]
		p.G.Sessions = append(p.G.Sessions, s)
	}
	for i := range parts {
		parts[i].Dir = direction(&parts[i].G)
	}
	return parts
}

// direction is the direction g can be drawn legibly in, or "" (see
// maxColumns).
func direction(g *diag.Genealogy) string {
	items := 0
	for _, s := range g.Sessions {
		items += max(len(s.Items), 1)
	}
	if items > max(maxColumns*maxColumnItems, maxRows*maxRowItems) {
		return "" // too large either way; spares the layering of a huge part
	}
	rank := ranks(g)
	layers := 0
	for _, r := range rank {
		layers = max(layers, r+1)
	}
	per := make([]int, layers) // items per layer
	for _, s := range g.Sessions {
		per[rank[s.Key]] += max(len(s.Items), 1)
	}
	widest := 0
	for _, n := range per {
		widest = max(widest, n)
	}
	switch {
	case layers <= maxColumns && widest <= maxColumnItems:
		return "LR"
	case layers <= maxRows && widest <= maxRowItems:
		return "TB"
	}
	return ""
}

// ranks layers g's sessions as Mermaid's layout does: a referenced session
// one layer after the latest of the sessions that reference it (longest
// path from a session no one references), a reference that closes a
// cycle ignored. g is small (direction bounds it).
func ranks(g *diag.Genealogy) map[string]int {
	next := map[string][]string{}
	referenced := map[string]bool{}
	for _, e := range g.Edges {
		if e.FromSession != e.ToSession {
			next[e.FromSession] = append(next[e.FromSession], e.ToSession)
			referenced[e.ToSession] = true
		}
	}
	rank := map[string]int{}
	onPath := map[string]bool{}
	var visit func(s string, r int)
	visit = func(s string, r int) {
		if onPath[s] {
			return // a cycle
		}
		if old, ok := rank[s]; ok && old >= r {
			return
		}
		rank[s] = r
		onPath[s] = true
		for _, t := range next[s] {
			visit(t, r+1)
		}
		onPath[s] = false
	}
	for _, s := range g.Sessions {
		if !referenced[s.Key] {
			visit(s.Key, 0)
		}
	}
	for _, s := range g.Sessions { // a part that is all cycle
		if _, ok := rank[s.Key]; !ok {
			visit(s.Key, 0)
		}
	}
	return rank
}

// Mermaid renders the part in its direction (LR when it has none), its
// edges marked with marks, aligned with the whole graph's edges (Marks),
// and without a legend node: the report says once what the styles mean.
func (p *Part) Mermaid(marks [][]string) string {
	dir := p.Dir
	if dir == "" {
		dir = "LR"
	}
	var own [][]string
	if marks != nil {
		own = make([][]string, len(p.Edges))
		for i, k := range p.Edges {
			if k < len(marks) {
				own[i] = marks[k]
			}
		}
	}
	return mermaid(&p.G, dir, own, false)
}

// The cross-session reference rules whose findings Marks places on edges.
const (
	ruleUnknown      = "RF-001" // no such item in the referenced session
	ruleCycle        = "RF-002"
	ruleRelation     = "RF-003" // an invalid relation
	ruleUnverifiable = "RF-004" // the session is not among the inputs
	ruleKilled       = "RF-005" // builds on a killed item
	ruleRepeats      = "RF-006" // repeats a claim killed in a referenced session
)

// relations are the spec's (delta_output_format_v0.1.md, Reference
// Relation Types; compile/delta.Relations, which this package may not
// import).
var relations = map[string]bool{"extends": true, "refines": true, "refutes": true, "informed_by": true, "supersedes": true, "replicates": true}

// Marks places the findings of the RF- rules among fs on the edges of g:
// aligned with g.Edges, the distinct ids of the rules with a finding on
// each edge, in id order. A finding is matched to its edge by the ids it
// carries (its thread and anchor, as the RF rules of rules/rf.go write
// them), never by its message:
//
//   - RF-001, RF-004: the thread is the edge's session and the anchor is
//     "FROM->SESSION:ITEM";
//   - RF-005: the anchor is "FROM RELATION killed SESSION:ITEM";
//   - RF-002: the anchor is the cycle "S:I→S:I→…→S:I"; every edge from one
//     of its nodes to the next is on it;
//   - RF-003: the edge's relation is not one of the spec's and the finding
//     is in the edge's session (an RF-003 finding names no item);
//   - RF-006: the anchor is "ITEM repeats killed SESSION:ITEM" and the edge
//     goes from the finding's session to the session of the killed claim,
//     which the reference brought into comparison.
//
// Findings reach the report with their thread and anchor redacted
// (pipeline), so the ids are compared redacted. A finding that was
// suppressed or ignored is not in the report and marks nothing.
func Marks(g *diag.Genealogy, fs []diag.Finding) [][]string {
	type key struct{ rule, thread, anchor string }
	have := map[key]bool{}
	var cycles []string             // RF-002 anchors, "→"-framed
	relationIn := map[string]bool{} // sessions with an RF-003 finding
	var repeats []key               // RF-006 findings
	for i := range fs {
		f := &fs[i]
		switch f.Rule {
		case ruleUnknown, ruleUnverifiable, ruleKilled:
			have[key{f.Rule, f.Thread, f.Anchor}] = true
		case ruleCycle:
			cycles = append(cycles, "→"+f.Anchor+"→")
		case ruleRelation:
			relationIn[f.Thread] = true
		case ruleRepeats:
			repeats = append(repeats, key{f.Rule, f.Thread, f.Anchor})
		}
	}
	if len(have)+len(cycles)+len(relationIn)+len(repeats) == 0 {
		return nil
	}
	r := diag.RedactSecrets
	out := make([][]string, len(g.Edges))
	for i, e := range g.Edges {
		from, session, to, item := r(e.FromSession), r(e.From), r(e.ToSession), r(e.To)
		var ids []string
		ref := fmt.Sprintf("%s->%s:%s", session, to, item)
		for _, rule := range []string{ruleUnknown, ruleUnverifiable} {
			if have[key{rule, from, ref}] {
				ids = append(ids, rule)
			}
		}
		if have[key{ruleKilled, from, fmt.Sprintf("%s %s killed %s:%s", session, e.Relation, to, item)}] {
			ids = append(ids, ruleKilled)
		}
		step := "→" + from + ":" + session + "→" + to + ":" + item + "→"
		for _, c := range cycles {
			if strings.Contains(c, step) {
				ids = append(ids, ruleCycle)
				break
			}
		}
		if relationIn[from] && !relations[e.Relation] {
			ids = append(ids, ruleRelation)
		}
		for _, k := range repeats {
			if k.thread == from && strings.Contains(k.anchor, " repeats killed "+to+":") {
				ids = append(ids, ruleRepeats)
				break
			}
		}
		sort.Strings(ids)
		out[i] = ids
	}
	return out
}

// Row is one reference as a table row: its ends and relation as safe
// labels (see label), for a report that escapes them as its format needs.
type Row struct {
	From, Relation, To string
}

// Rows lists the edges of g, aligned with g.Edges.
func Rows(g *diag.Genealogy) []Row {
	type node struct{ s, i string }
	items := map[node]diag.GenItem{}
	input := map[string]bool{}
	for _, s := range g.Sessions {
		input[s.Key] = s.Input
		for _, it := range s.Items {
			items[node{s.Key, it.ID}] = it
		}
	}
	end := func(session, id string) string {
		it, ok := items[node{session, id}]
		if !ok {
			it = diag.GenItem{ID: id}
		}
		s := label(session)
		if !input[session] {
			s += " (not among the inputs)"
		}
		return s + " · " + itemLabel(it)
	}
	out := make([]Row, len(g.Edges))
	for i, e := range g.Edges {
		out[i] = Row{From: end(e.FromSession, e.From), Relation: relation(e.Relation), To: end(e.ToSession, e.To)}
	}
	return out
}
