package rules

// RF-: cross-session references (delta_output_format_v0.1.md, Cross-Session
// References). Sessions are the threads of the batch.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
)

var rfRules = []Rule{
	{ID: "RF-001", Name: "unknown-reference", Code: "UNKNOWN_REFERENCE", Family: "RF", Severity: diag.Error, Scope: ScopeBatch, Spec: specDF + ", Reference Validation",
		Short: "Cross-session references resolve.",
		Full:  "A reference names a session (thread) and an item. When the session is among the inputs, the item must exist there. A session that is not among the inputs is RF-004.",
		Bad:   "{\"session\": \"RS-20251228-initial\", \"item\": \"H9\", \"relation\": \"refines\"}", Good: "{\"session\": \"RS-20251228-initial\", \"item\": \"H2\", \"relation\": \"refines\"}",
		Check: checkUnknownReferences},
	{ID: "RF-002", Name: "circular-reference", Code: "CIRCULAR_REFERENCE", Family: "RF", Severity: diag.Warning, Scope: ScopeBatch, Spec: specDF + ", Reference Validation",
		Short: "References do not form a cycle.",
		Full:  "Reference chains must not loop back (A→B→C→A): genealogy would have no origin.",
		Bad:   "H1 refines B:H2, B:H2 refines C:H1, C:H1 refines A:H1", Good: "a chain that ends",
		Check: checkCircularReferences},
	{ID: "RF-003", Name: "invalid-relation", Code: "INVALID_RELATION", Family: "RF", Severity: diag.Warning, Scope: ScopeMessage, By: ByCompiler, Spec: specDF + ", Reference Relation Types",
		Short: "Cross-session references are well formed.",
		Full:  "payload.references is an array of {session, item, relation} objects, with relation one of extends, refines, refutes, informed_by, supersedes, replicates. Malformed entries are reported and ignored for the cross-thread reference checks (RF-001, RF-002); the delta still applies.",
		Bad:   "```delta\n{\"operation\": \"EDIT\", \"section\": \"hypothesis_slate\", \"target_id\": \"H3\", \"payload\": {\"references\": [{\"session\": \"RS-20251228-initial\", \"item\": \"H2\", \"relation\": \"builds_on\"}]}}\n```\n",
		Good:  "```delta\n{\"operation\": \"EDIT\", \"section\": \"hypothesis_slate\", \"target_id\": \"H3\", \"payload\": {\"references\": [{\"session\": \"RS-20251228-initial\", \"item\": \"H2\", \"relation\": \"extends\"}]}}\n```\n"},
	{ID: "RF-004", Name: "unverifiable-reference", Code: "UNVERIFIABLE_REFERENCE", Family: "RF", Severity: diag.Note, Scope: ScopeBatch, Spec: specDF + ", Reference Validation",
		Short: "Referenced sessions are among the inputs.",
		Full:  "A reference to a session (thread) that is not among the inputs cannot be checked: include that session's export in the run. (Split from RF-001, which reports with one severity: a missing item in a session that is checked.)",
		Bad:   "{\"session\": \"RS-20251228-elsewhere\", \"item\": \"H2\", \"relation\": \"refines\"}", Good: "{\"session\": \"RS-20251228-initial\", \"item\": \"H2\", \"relation\": \"refines\"}",
		Check: checkUnreachableReferences},
}

type refEdge struct {
	from, toSession, toItem, relation string
	pos                               diag.Pos
	msgID                             string
}

type refInfo struct {
	key, threadID string
	items         map[string]bool // every item id of the current artifact, killed ones too
	latest        int             // latest COMPILED version (0 when none)
	edges         []refEdge
}

func collectRefs(t *compile.Thread) refInfo {
	ri := refInfo{key: t.Key, threadID: t.ThreadID, items: map[string]bool{}}
	if n := len(t.Versions); n > 0 {
		ri.latest = t.Versions[n-1].N
	}
	if t.Current == nil {
		return ri
	}
	if t.Current.RT != nil {
		ri.items["RT"] = true
	}
	for _, sec := range delta.Sections {
		for _, it := range t.Current.Section(sec) {
			ri.items[it.ID] = true
			refs := it.Get("references")
			if refs == nil || refs.Kind != jsonv.Array {
				continue
			}
			for _, r := range refs.Arr {
				s, _ := r.Get("session").AsString()
				item, _ := r.Get("item").AsString()
				rel, _ := r.Get("relation").AsString()
				if s == "" || item == "" {
					continue // RF-003 reports malformed entries
				}
				pos, msgID := refPos(t, s, item)
				ri.edges = append(ri.edges, refEdge{from: it.ID, toSession: s, toItem: item, relation: rel, pos: pos, msgID: msgID})
			}
		}
	}
	return ri
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
			for _, r := range refs.Arr {
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

func checkUnknownReferences(c *Ctx)     { checkReferences(c, refMissingItem) }
func checkUnreachableReferences(c *Ctx) { checkReferences(c, refMissingSession) }
func checkCircularReferences(c *Ctx)    { checkReferences(c, refCycle) }

// What checkReferences reports: one kind per rule.
const (
	refMissingItem    = iota // RF-001: the session is an input and has no such item
	refMissingSession        // RF-004: the session is not among the inputs
	refCycle                 // RF-002: references loop back
)

func checkReferences(c *Ctx, kind int) {
	results := c.Batch.Threads
	sessions := map[string]*refInfo{}
	for i := range results {
		ri := &results[i].ref
		sessions[ri.key] = ri
		if ri.threadID != "" {
			sessions[ri.threadID] = ri
		}
	}
	type node struct{ s, i string }
	graph := map[node][]node{}
	edgeAt := map[[2]node]refEdge{}
	for i := range results {
		ri := &results[i].ref
		for _, e := range ri.edges {
			from := node{ri.key, e.from}
			target, ok := sessions[e.toSession]
			if ok {
				to := node{target.key, e.toItem}
				graph[from] = append(graph[from], to)
				edgeAt[[2]node{from, to}] = e
			}
			switch {
			case !ok && kind == refMissingSession:
				c.emit(diag.Finding{
					Message: fmt.Sprintf("%s references %s in session %s, which is not among the inputs, so the reference cannot be checked.", e.from, e.toItem, e.toSession),
					Hint:    "Include the referenced session's export in the run to check it.", Pos: e.pos, Thread: ri.key, MsgID: e.msgID,
					Anchor: fmt.Sprintf("%s->%s:%s", e.from, e.toSession, e.toItem)})
			case ok && kind == refMissingItem && !target.items[e.toItem]:
				c.emit(diag.Finding{
					Message: fmt.Sprintf("%s references %s in session %s, which has no such item.", e.from, e.toItem, e.toSession),
					Hint:    "Reference an item id that exists in that session's artifact.", Pos: e.pos, Thread: ri.key, MsgID: e.msgID,
					Anchor: fmt.Sprintf("%s->%s:%s", e.from, e.toSession, e.toItem)})
			}
		}
	}
	if kind != refCycle {
		return
	}
	// Find cycles: report each once, at the edge leaving its smallest node.
	nodes := make([]node, 0, len(graph))
	for n := range graph {
		nodes = append(nodes, n)
	}
	sort.Slice(nodes, func(i, j int) bool {
		if nodes[i].s != nodes[j].s {
			return nodes[i].s < nodes[j].s
		}
		return nodes[i].i < nodes[j].i
	})
	less := func(a, b node) bool { return a.s < b.s || (a.s == b.s && a.i < b.i) }
	reported := map[string]bool{}
	const white, grey, black = 0, 1, 2
	color := map[node]int{}
	var stack []node
	var visit func(n node)
	visit = func(n node) {
		color[n] = grey
		stack = append(stack, n)
		for _, m := range graph[n] {
			switch color[m] {
			case white:
				visit(m)
			case grey:
				// cycle: stack from m to n
				k := len(stack) - 1
				for k >= 0 && stack[k] != m {
					k--
				}
				cyc := append([]node(nil), stack[k:]...)
				min := 0
				for i := range cyc {
					if less(cyc[i], cyc[min]) {
						min = i
					}
				}
				cyc = append(cyc[min:], cyc[:min]...)
				names := make([]string, len(cyc)+1)
				for i, c := range cyc {
					names[i] = c.s + ":" + c.i
				}
				names[len(cyc)] = names[0]
				key := strings.Join(names, "→")
				if reported[key] {
					continue
				}
				reported[key] = true
				e := edgeAt[[2]node{cyc[0], cyc[1%len(cyc)]}]
				c.emit(diag.Finding{
					Message: fmt.Sprintf("References form a cycle: %s.", key),
					Hint:    "Break the loop: a reference chain must end at an origin item.", Pos: e.pos, Thread: cyc[0].s, MsgID: e.msgID,
					Anchor: key})
			}
		}
		stack = stack[:len(stack)-1]
		color[n] = black
	}
	for _, n := range nodes {
		if color[n] == white {
			visit(n)
		}
	}
}
