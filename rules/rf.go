package rules

// RF-: cross-session references (delta_output_format_v0.1.md, Cross-Session
// References). Sessions are the threads of the batch and the sessions of its
// persisted artifacts (rf_artifact.go).

import (
	"fmt"
	"sort"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
)

var rfRules = []Rule{
	{ID: "RF-001", Name: "unknown-reference", Code: "UNKNOWN_REFERENCE", Family: "RF", Severity: diag.Warning, Scope: ScopeBatch, Spec: specDF + ", Reference Validation",
		Short: "Cross-session references resolve.",
		Full:  "A reference names a session and an item. When the session is among the inputs (a thread, or a persisted artifact whose session_id it is, markdown or JSON), the item should exist there; a reference to an item that does not exist is a warning (\"soft fail\"): the delta is applied and the reference kept. A session that is not among the inputs is RF-004. The references of persisted artifacts' items are checked too, at the item's References line (markdown) or at the entry (JSON); a persisted artifact of a thread among the inputs is reported only for the references its thread does not hold, so that each reference is reported once, where it was made.",
		Check: checkUnknownReferences},
	{ID: "RF-002", Name: "circular-reference", Code: "CIRCULAR_REFERENCE", Family: "RF", Severity: diag.Warning, Scope: ScopeBatch, Spec: specDF + ", Reference Validation",
		Short: "References do not form a cycle.",
		Full:  "Reference chains must not loop back (A→B→C→A): genealogy would have no origin. The chains run through the references of threads and of persisted artifacts alike.",
		Check: checkCircularReferences},
	{ID: "RF-003", Name: "invalid-relation", Code: "INVALID_RELATION", Family: "RF", Severity: diag.Warning, Scope: ScopeMessage, By: ByCompiler, Spec: specDF + ", Reference Relation Types",
		Short: "Cross-session references are well formed.",
		Full:  "payload.references is an array of {session, item, relation} objects, with relation one of extends, refines, refutes, informed_by, supersedes, replicates. Malformed entries are reported and ignored for the cross-thread reference checks (RF-001, RF-002); the delta still applies. The references of a persisted artifact's items are checked the same way, with the same messages, the item's id standing for payload (H1.references[0] …): in markdown the References field, read as session/item (relation) entries and reported at its line; in a JSON artifact object the value as written, reported where it is. A persisted artifact of a thread among the inputs is reported only for the items whose references its thread's artifact does not hold (the delta that wrote them was reported).",
	},
	{ID: "RF-004", Name: "unverifiable-reference", Code: "UNVERIFIABLE_REFERENCE", Family: "RF", Severity: diag.Note, Scope: ScopeBatch, Spec: specDF + ", Reference Validation",
		Short: "Referenced sessions are among the inputs.",
		Full:  "A reference to a session that is not among the inputs — neither a thread nor a persisted artifact with that session_id — cannot be checked: include that session's export (or its artifact) in the run. Persisted artifacts' references are checked as RF-001 says. (Split from RF-001, which reports with one severity: a missing item in a session that is checked.)",
		Check: checkUnreachableReferences},
	{ID: "RF-005", Name: "builds-on-killed", Code: "BUILDS_ON_KILLED", Family: "RF", Severity: diag.Warning, Scope: ScopeBatch, Spec: specDF + ", Cross-Session References (Hypothesis Genealogy)",
		Short: "Items do not build on killed items.",
		Full:  "An item whose references say it extends, refines or replicates an item that was KILLed in its session builds on an idea the team already ruled out. Reported when the referenced session is among the inputs and the referencing item is active; refutes, supersedes and informed_by are fine. Persisted artifacts' references are checked as RF-001 says.",
		Check: checkBuildsOnKilled},
	{ID: "RF-006", Name: "reproposes-killed", Code: "REPROPOSES_KILLED", Family: "RF", Severity: diag.Note, Scope: ScopeBatch, Spec: specDF + ", Cross-Session References (Avoiding Duplicate Work)",
		Short: "A hypothesis does not repeat one killed in a referenced session.",
		Full:  "\"Avoiding Duplicate Work — prevent re-proposing killed hypotheses\": an active hypothesis whose claim equals, after normalisation (case, white space and punctuation ignored), the claim of a hypothesis killed in a session its thread references is reported at its claim. Only exact normalised equality counts, so a reworded claim is not caught. A persisted artifact's hypotheses are checked against the sessions its own references name, and reported at their claim in the file.",
		Check: checkReproposesKilled},
}

// refPos finds the delta block that carried a reference, for its position.
func refPos(t *compile.Thread, session, item string) (diag.Pos, string) {
	for _, m := range t.Msgs {
		for j := range m.Blocks {
			b := &m.Blocks[j]
			if b.Delta == nil || b.Delta.Payload == nil {
				continue
			}
			refs := b.Delta.Payload.Get("references")
			if refs == nil || refs.Kind != jsonv.Array {
				continue
			}
			for _, r := range refs.Arr() {
				s, _ := r.Get("session").AsString()
				it, _ := r.Get("item").AsString()
				if s == session && it == item {
					return m.BodyPos(b.BodyOffset(r.Off), b.BodyOffset(r.End)).Normalize(), m.ID
				}
			}
		}
	}
	if len(t.Msgs) > 0 {
		m := t.Msgs[len(t.Msgs)-1]
		return m.Pos("subject"), m.ID
	}
	return diag.Pos{}, ""
}

func checkUnknownReferences(c *Ctx) {
	reportEdges(c, func(e *refEdge) bool { return e.target != nil && !e.target.Items.Has(e.Item) },
		"which has no such item", "Reference an item id that exists in that session's artifact.")
}

func checkUnreachableReferences(c *Ctx) {
	reportEdges(c, func(e *refEdge) bool { return e.target == nil },
		"which is not among the inputs, so the reference cannot be checked", "Include the referenced session's export in the run to check it.")
}

// reportEdges reports every reference for which bad holds (RF-001, RF-004).
func reportEdges(c *Ctx, bad func(e *refEdge) bool, why, hint string) {
	for _, e := range c.Batch.refGraph().edges {
		if bad(e) {
			c.emit(diag.Finding{
				Message: fmt.Sprintf("%s references %s in session %s, %s.", e.From, e.Item, e.Session, why),
				Hint:    hint, Pos: e.Pos, Thread: e.src.Key, MsgID: e.MsgID,
				Anchor: fmt.Sprintf("%s->%s:%s", e.From, e.Session, e.Item)})
		}
	}
}

// checkCircularReferences reports each cycle once, at the edge leaving its
// smallest node.
func checkCircularReferences(c *Ctx) {
	g := c.Batch.refGraph()
	g.cycles(func(cyc []refNode) {
		names := make([]string, len(cyc)+1)
		for i, n := range cyc {
			names[i] = n.s + ":" + n.i
		}
		names[len(cyc)] = names[0]
		key := strings.Join(names, "→")
		e := g.edge[[2]refNode{cyc[0], cyc[1%len(cyc)]}]
		c.emit(diag.Finding{
			Message: fmt.Sprintf("References form a cycle: %s.", key),
			Hint:    "Break the loop: a reference chain must end at an origin item.", Pos: e.Pos, Thread: cyc[0].s, MsgID: e.MsgID,
			Anchor: key})
	})
}

// refNode is an item of a session.
type refNode struct{ s, i string }

func (a refNode) less(b refNode) bool { return a.s < b.s || (a.s == b.s && a.i < b.i) }

// refEdge is one reference of the graph.
type refEdge struct {
	RefFact
	src    *Facts // the facts holding it: a thread's, or an artifact's
	from   *Facts // the session it is made in: src, or the thread (or first artifact) of src's session
	target *Facts // the referenced session; nil when it is not among the inputs
}

// refGraph is the batch's reference graph: items as nodes, references
// between the sessions of the batch as edges, in thread order, then in
// artifact order.
//
// A session is a thread, or an artifact whose session no thread among the
// inputs has (the first such artifact of a session). An artifact of a
// session that is among the inputs already — the persisted copy of a
// thread — adds the references the session does not hold yet, so that a
// reference is checked once, where it was made.
type refGraph struct {
	facts    []*Facts          // threads, then artifacts
	sessions map[string]*Facts // by thread key and thread id
	edges    []*refEdge
	next     map[refNode][]refNode
	edge     map[[2]refNode]*refEdge
}

// refGraph builds the batch's reference graph once; the RF rules share it.
func (b *Batch) refGraph() *refGraph {
	if b.refs == nil {
		b.refs = newRefGraph(b.facts())
	}
	return b.refs
}

// facts lists the facts of the batch: its threads', then its artifacts'.
func (b *Batch) facts() []*Facts {
	facts := make([]*Facts, 0, len(b.Threads)+len(b.Artifacts))
	for i := range b.Threads {
		facts = append(facts, &b.Threads[i].Facts)
	}
	for i := range b.Artifacts {
		if f := b.Artifacts[i].Facts; f != nil && !b.Artifacts[i].Skipped {
			facts = append(facts, f)
		}
	}
	return facts
}

func newRefGraph(facts []*Facts) *refGraph {
	names := len(facts) // a thread's key, and its id when it is another
	for _, f := range facts {
		if f.Artifact == "" && f.ThreadID != "" && f.ThreadID != f.Key {
			names++
		}
	}
	g := &refGraph{facts: make([]*Facts, 0, len(facts)), sessions: make(map[string]*Facts, names),
		next: map[refNode][]refNode{}, edge: map[[2]refNode]*refEdge{}}
	for _, f := range facts {
		if f.Artifact == "" {
			g.facts = append(g.facts, f)
			g.sessions[f.Key] = f
			if f.ThreadID != "" {
				g.sessions[f.ThreadID] = f
			}
		}
	}
	threads := len(g.facts)
	for _, f := range facts {
		if f.Artifact != "" {
			g.facts = append(g.facts, f)
			if g.sessions[f.Key] == nil {
				g.sessions[f.Key] = f
			}
		}
	}
	// The references held so far, which an artifact's do not repeat; kept
	// only when there are artifacts (80 bytes a reference).
	type refKey struct{ session, from, toSession, to, relation string }
	var held map[refKey]bool
	if threads < len(g.facts) {
		held = map[refKey]bool{}
	}
	for _, f := range g.facts {
		from := f
		if f.Artifact != "" {
			from = g.sessions[f.Key]
		}
		for _, r := range f.Refs {
			k := refKey{from.Key, r.From, r.Session, r.Item, r.Relation}
			if f.Artifact != "" && held[k] {
				continue // the session's thread (or an artifact before) holds it
			}
			if held != nil {
				held[k] = true
			}
			e := &refEdge{RefFact: r, src: f, from: from, target: g.sessions[r.Session]}
			g.edges = append(g.edges, e)
			if e.target != nil {
				a, b := refNode{from.Key, r.From}, refNode{e.target.Key, r.Item}
				g.next[a] = append(g.next[a], b)
				g.edge[[2]refNode{a, b}] = e
			}
		}
	}
	return g
}

// cycles calls fn once per distinct cycle, rotated to start at its
// smallest node. The depth-first search keeps its own stack, so a long
// reference chain in the input cannot exhaust the goroutine stack.
func (g *refGraph) cycles(fn func([]refNode)) {
	nodes := make([]refNode, 0, len(g.next))
	for n := range g.next {
		nodes = append(nodes, n)
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].less(nodes[j]) })
	const white, grey, black = 0, 1, 2
	color := map[refNode]int{}
	reported := map[string]bool{}
	type frame struct {
		n    refNode
		next int
	}
	var path []refNode
	for _, root := range nodes {
		if color[root] != white {
			continue
		}
		stack := []frame{{n: root}}
		color[root] = grey
		path = append(path[:0], root)
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			succ := g.next[top.n]
			if top.next == len(succ) {
				color[top.n] = black
				stack = stack[:len(stack)-1]
				path = path[:len(path)-1]
				continue
			}
			m := succ[top.next]
			top.next++
			switch color[m] {
			case white:
				color[m] = grey
				stack = append(stack, frame{n: m})
				path = append(path, m)
			case grey:
				k := len(path) - 1
				for k >= 0 && path[k] != m {
					k--
				}
				cyc := append([]refNode(nil), path[k:]...)
				min := 0
				for i := range cyc {
					if cyc[i].less(cyc[min]) {
						min = i
					}
				}
				cyc = append(cyc[min:], cyc[:min]...)
				key := fmt.Sprint(cyc)
				if !reported[key] {
					reported[key] = true
					fn(cyc)
				}
			}
		}
	}
}

// buildsOn are the relations that build on the referenced item.
var buildsOn = map[string]bool{"extends": true, "refines": true, "replicates": true}

// checkBuildsOnKilled (RF-005): an active item extends, refines or
// replicates a killed one.
func checkBuildsOnKilled(c *Ctx) {
	for _, e := range c.Batch.refGraph().edges {
		if e.target == nil || !buildsOn[e.Relation] {
			continue
		}
		if to, ok := e.target.Items.Find(e.Item); !ok || !to.Killed {
			continue
		}
		if from, ok := e.src.Items.Find(e.From); ok && from.Killed {
			continue
		}
		c.emit(diag.Finding{
			Message: fmt.Sprintf("%s %s %s of session %s, which was killed there.", e.From, e.Relation, e.Item, e.Session),
			Hint:    "Say why the killed idea is worth building on, refer to it as refutes or informed_by, or build on a surviving item.",
			Pos:     e.Pos, Thread: e.src.Key, MsgID: e.MsgID, Anchor: fmt.Sprintf("%s %s killed %s:%s", e.From, e.Relation, e.Session, e.Item)})
	}
}

// checkReproposesKilled (RF-006): an active hypothesis repeats the claim of
// one killed in a session its thread (or artifact) references.
func checkReproposesKilled(c *Ctx) {
	g := c.Batch.refGraph()
	// The sessions each facts references, in first-reference order.
	targets := map[*Facts][]*Facts{}
	seen := map[[2]*Facts]bool{}
	for _, e := range g.edges {
		if t := e.target; t != nil && t != e.src && t != e.from && !seen[[2]*Facts{e.src, t}] {
			seen[[2]*Facts{e.src, t}] = true
			targets[e.src] = append(targets[e.src], t)
		}
	}
	for _, f := range g.facts {
		if len(targets[f]) == 0 {
			continue
		}
		for it := range f.Items.All() {
			if it.Killed || it.Hyp == nil || it.Hyp.ClaimKey == 0 {
				continue
			}
			for _, t := range targets[f] {
				for old := range t.Items.All() {
					if old.Killed && old.Hyp != nil && old.Hyp.ClaimKey == it.Hyp.ClaimKey {
						var at ClaimAt // not found: the finding has no place
						if it.Hyp.Claim != nil {
							at = *it.Hyp.Claim
						}
						c.emit(diag.Finding{
							Message: fmt.Sprintf("%s repeats the claim of %s, which was killed in session %s.", it.ID, old.ID, t.Key),
							Hint:    "Say what is new since the kill, or drop the hypothesis.",
							Pos:     at.Pos, Thread: f.Key, MsgID: at.MsgID, Anchor: fmt.Sprintf("%s repeats killed %s:%s", it.ID, t.Key, old.ID)})
					}
				}
			}
		}
	}
}
