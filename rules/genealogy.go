package rules

import (
	"sort"

	"github.com/brenner-ci/brenner-ci/diag"
)

// genealogy is the reference graph g of a batch's facts (threads' and
// persisted artifacts') as the reports draw it: the items that reference
// or are referenced, by session, and every reference. An edge read from an
// artifact names its file; a reference an artifact shares with its
// session's thread is the thread's. It is the graph the RF- rules read
// (Batch.refGraph), built once for both.
func genealogy(g *refGraph) diag.Genealogy {
	type node struct{ session, item string }
	sessions := map[string]*diag.GenSession{}
	seen := map[node]bool{}
	addItem := func(key string, input bool, f *Facts, id string) {
		s := sessions[key]
		if s == nil {
			s = &diag.GenSession{Key: key, Input: input}
			sessions[key] = s
		}
		if seen[node{key, id}] {
			return
		}
		seen[node{key, id}] = true
		it := diag.GenItem{ID: id}
		if f != nil {
			if fact, ok := f.Items.Find(id); ok {
				it.Name, it.Killed, it.Known = fact.Name(), fact.Killed, true
			}
		}
		s.Items = append(s.Items, it)
	}
	out := diag.Genealogy{Edges: make([]diag.GenEdge, 0, len(g.edges))}
	for _, e := range g.edges {
		addItem(e.from.Key, true, e.src, e.From)
		to := e.Session
		if e.target != nil {
			to = e.target.Key
		}
		addItem(to, e.target != nil, e.target, e.Item)
		out.Edges = append(out.Edges, diag.GenEdge{FromSession: e.from.Key, From: e.From, ToSession: to, To: e.Item, Relation: e.Relation,
			Artifact: e.src.Artifact})
	}
	out.Sessions = make([]diag.GenSession, 0, len(sessions))
	for _, s := range sessions {
		sort.Slice(s.Items, func(i, j int) bool { return s.Items[i].ID < s.Items[j].ID })
		out.Sessions = append(out.Sessions, *s)
	}
	sort.Slice(out.Sessions, func(i, j int) bool { return out.Sessions[i].Key < out.Sessions[j].Key })
	return out
}
