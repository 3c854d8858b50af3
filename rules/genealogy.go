package rules

import (
	"sort"

	"github.com/brenner-ci/brenner-ci/diag"
)

// Genealogy builds the reference graph of facts (one per thread): the
// items that reference or are referenced, by session, and every reference.
func Genealogy(facts []*Facts) diag.Genealogy {
	g := newRefGraph(facts)
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
			if fact := f.Item(id); fact != nil {
				it.Name, it.Killed, it.Known = fact.Name(), fact.Killed, true
			}
		}
		s.Items = append(s.Items, it)
	}
	var out diag.Genealogy
	g.eachEdge(func(f *Facts, e RefFact, target *Facts) {
		addItem(f.Key, true, f, e.From)
		to := e.Session
		if target != nil {
			to = target.Key
		}
		addItem(to, target != nil, target, e.Item)
		out.Edges = append(out.Edges, diag.GenEdge{FromSession: f.Key, From: e.From, ToSession: to, To: e.Item, Relation: e.Relation})
	})
	for _, s := range sessions {
		sort.Slice(s.Items, func(i, j int) bool { return s.Items[i].ID < s.Items[j].ID })
		out.Sessions = append(out.Sessions, *s)
	}
	sort.Slice(out.Sessions, func(i, j int) bool { return out.Sessions[i].Key < out.Sessions[j].Key })
	return out
}
