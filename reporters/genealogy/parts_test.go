package genealogy

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
)

func key(i int) string { return fmt.Sprintf("RS-202603%02d-s%d", i+1, i) }

// chain is n sessions of k items, the items of each refining those of the
// one before.
func chain(n, k int) *diag.Genealogy {
	g := &diag.Genealogy{}
	for i := range n {
		s := diag.GenSession{Key: key(i), Input: true}
		for j := range k {
			id := fmt.Sprintf("H%d", j+1)
			s.Items = append(s.Items, diag.GenItem{ID: id, Name: "Quorum timing hypothesis", Known: true})
			if i > 0 {
				g.Edges = append(g.Edges, diag.GenEdge{FromSession: key(i), From: id, ToSession: key(i - 1), To: id, Relation: "refines"})
			}
		}
		g.Sessions = append(g.Sessions, s)
	}
	return g
}

// star is n sessions whose H1 is informed by the first's.
func star(n int) *diag.Genealogy {
	g := &diag.Genealogy{}
	for i := range n {
		g.Sessions = append(g.Sessions, diag.GenSession{Key: key(i), Input: true, Items: []diag.GenItem{{ID: "H1", Known: true}}})
		if i > 0 {
			g.Edges = append(g.Edges, diag.GenEdge{FromSession: key(i), From: "H1", ToSession: key(0), To: "H1", Relation: "informed_by"})
		}
	}
	return g
}

// TestPartsDirection: a part is drawn left to right while its chain of
// sessions is two columns of at most six items, top to bottom while it is
// five rows of at most three items, and not at all beyond (the
// measurements are at maxColumns).
func TestPartsDirection(t *testing.T) {
	for _, c := range []struct {
		name string
		g    *diag.Genealogy
		dir  string
	}{
		{"pair", chain(2, 1), "LR"},
		{"pair of 3 items", chain(2, 3), "LR"},
		{"chain of 3", chain(3, 1), "TB"},
		{"chain of 5", chain(5, 1), "TB"},
		{"chain of 5 with 3 items each", chain(5, 3), "TB"},
		{"chain of 6", chain(6, 1), ""},
		{"chain of 3 with 4 items each", chain(3, 4), ""},
		{"star of 7 (six referencing one)", star(7), "LR"},
		{"star of 8", star(8), ""},
		{"chain of 40", chain(40, 2), ""},
	} {
		parts := Parts(c.g)
		if len(parts) != 1 {
			t.Fatalf("%s: %d parts", c.name, len(parts))
		}
		if parts[0].Dir != c.dir {
			t.Errorf("%s: direction %q, want %q", c.name, parts[0].Dir, c.dir)
		}
		if m := parts[0].Mermaid(nil); c.dir != "" && !strings.HasPrefix(m, "flowchart "+c.dir+"\n") {
			t.Errorf("%s: drawn as\n%s", c.name, m)
		}
	}
	// A cycle of three sessions is three rows, not endless.
	cyc := chain(3, 1)
	cyc.Edges = append(cyc.Edges, diag.GenEdge{FromSession: key(0), From: "H1", ToSession: key(2), To: "H1", Relation: "refines"})
	if p := Parts(cyc); len(p) != 1 || p[0].Dir != "TB" {
		t.Errorf("cycle: %+v", p)
	}
}

// TestPartsSplit: unconnected references are parts of their own, in the
// order of their first edge, each with its sessions and edges (and their
// indexes in the whole graph); a graph of 200 references in 100 pairs is
// 100 small parts, not one graph too large to read.
func TestPartsSplit(t *testing.T) {
	g := &diag.Genealogy{}
	for i := range 100 {
		a, b := fmt.Sprintf("RS-a%03d", i), fmt.Sprintf("RS-b%03d", i)
		g.Sessions = append(g.Sessions, diag.GenSession{Key: a, Input: true, Items: []diag.GenItem{{ID: "H1", Known: true}, {ID: "H2", Known: true}}},
			diag.GenSession{Key: b, Input: true, Items: []diag.GenItem{{ID: "H1", Known: true}}})
		g.Edges = append(g.Edges, diag.GenEdge{FromSession: a, From: "H1", ToSession: b, To: "H1", Relation: "extends"},
			diag.GenEdge{FromSession: a, From: "H2", ToSession: b, To: "H1", Relation: "refutes"})
	}
	// One edge that joins the first two pairs, listed last.
	g.Edges = append(g.Edges, diag.GenEdge{FromSession: "RS-b001", From: "H1", ToSession: "RS-a000", To: "H1", Relation: "refines"})
	parts := Parts(g)
	if len(parts) != 99 {
		t.Fatalf("%d parts, want 99", len(parts))
	}
	if !reflect.DeepEqual(parts[0].Edges, []int{0, 1, 2, 3, 200}) || len(parts[0].G.Sessions) != 4 || parts[0].G.Sessions[0].Key != "RS-a000" {
		t.Errorf("first part: edges %v, sessions %v", parts[0].Edges, parts[0].G.Sessions)
	}
	if !reflect.DeepEqual(parts[1].Edges, []int{4, 5}) || len(parts[1].G.Sessions) != 2 || parts[1].G.Edges[1].Relation != "refutes" {
		t.Errorf("second part: %+v", parts[1])
	}
	for i := 1; i < len(parts); i++ {
		if parts[i].Dir != "LR" {
			t.Errorf("part %d: direction %q", i, parts[i].Dir)
		}
	}
}

// TestMarks: the findings of RF-001 to RF-006 are placed on the edges they
// are about by the ids they carry (as rules/rf.go writes them), not by
// their messages; a finding of another rule, or of the same rule about
// another reference, marks nothing.
func TestMarks(t *testing.T) {
	g := &diag.Genealogy{
		Sessions: []diag.GenSession{
			{Key: "RS-a", Input: true, Items: []diag.GenItem{{ID: "H1", Known: true}, {ID: "H2", Known: true}}},
			{Key: "RS-b", Input: true, Items: []diag.GenItem{{ID: "H1", Known: true}, {ID: "H9"}}},
			{Key: "RS-c", Input: true, Items: []diag.GenItem{{ID: "H1", Known: true}}},
			{Key: "RS-far", Input: false, Items: []diag.GenItem{{ID: "T1"}}},
		},
		Edges: []diag.GenEdge{
			{FromSession: "RS-a", From: "H1", ToSession: "RS-b", To: "H1", Relation: "extends"},     // 0: cycle a→b→c→a
			{FromSession: "RS-b", From: "H1", ToSession: "RS-c", To: "H1", Relation: "refines"},     // 1: cycle
			{FromSession: "RS-c", From: "H1", ToSession: "RS-a", To: "H1", Relation: "replicates"},  // 2: cycle, builds on killed
			{FromSession: "RS-a", From: "H2", ToSession: "RS-b", To: "H9", Relation: "informed by"}, // 3: no such item, bad relation
			{FromSession: "RS-a", From: "H2", ToSession: "RS-far", To: "T1", Relation: "refutes"},   // 4: not among the inputs
			{FromSession: "RS-b", From: "H1", ToSession: "RS-a", To: "H2", Relation: "informed_by"}, // 5: nothing
		},
	}
	fs := []diag.Finding{
		{Rule: "RF-002", Thread: "RS-a", Anchor: "RS-a:H1→RS-b:H1→RS-c:H1→RS-a:H1", Message: "References form a cycle."},
		{Rule: "RF-005", Thread: "RS-c", Anchor: "H1 replicates killed RS-a:H1"},
		{Rule: "RF-001", Thread: "RS-a", Anchor: "H2->RS-b:H9"},
		{Rule: "RF-003", Thread: "RS-a", Anchor: "whatever the compiler wrote"},
		{Rule: "RF-004", Thread: "RS-a", Anchor: "H2->RS-far:T1"},
		{Rule: "RF-006", Thread: "RS-c", Anchor: "H1 repeats killed RS-a:H7"},
		// About no edge of the graph: marks nothing.
		{Rule: "RF-001", Thread: "RS-b", Anchor: "H2->RS-b:H9", Message: "H2->RS-b:H9 H1->RS-b:H1"},
		{Rule: "RF-004", Thread: "RS-c", Anchor: "H2->RS-far:T1"},
		{Rule: "MG-001", Thread: "RS-b", Anchor: "H1->RS-a:H2"},
	}
	got := Marks(g, fs)
	want := [][]string{{"RF-002"}, {"RF-002"}, {"RF-002", "RF-005", "RF-006"}, {"RF-001", "RF-003"}, {"RF-004"}, nil}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("marks\n got %q\nwant %q", got, want)
	}
	if Marks(g, []diag.Finding{{Rule: "MG-001"}}) != nil {
		t.Error("marks without RF findings")
	}

	// Drawn: the label ends with the rule ids and the link is styled red,
	// by its number.
	p := Parts(g)
	if len(p) != 1 {
		t.Fatalf("%d parts", len(p))
	}
	m := p[0].Mermaid(got)
	for _, want := range []string{"-->|replicates " + MarkLabel + " RF-002 RF-005 RF-006| s0n0\n", "-->|informed by " + MarkLabel + " RF-001 RF-003| s1n1\n",
		"-->|informed_by| s0n1\n", "  linkStyle 0,1,2,3,4 " + markStyle + "\n"} {
		if !strings.Contains(m, want) {
			t.Errorf("mermaid lacks %q:\n%s", want, m)
		}
	}
	if strings.Contains(p[0].Mermaid(nil), "linkStyle") {
		t.Error("a link is styled without marks")
	}
}

// TestRows: a table row names each end by session and item (the killed, the
// unknown and sessions not among the inputs said), with safe labels.
func TestRows(t *testing.T) {
	g := sample("n")
	rows := Rows(g)
	want := []Row{
		{From: "RS-20260301-follown · H2: Lineage", Relation: "refinesxn", To: "RS-20260101-origin · H1: n (killed)"},
		{From: "RS-20260301-follown · H2: Lineage", Relation: "informed_by", To: "RS-20251201-elsewhere (not among the inputs) · T9"},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows\n got %q\nwant %q", rows, want)
	}
	hostile := Rows(sample("x|`<b>\n"))
	for _, r := range hostile {
		if strings.ContainsAny(r.From+r.Relation+r.To, "|`<>\n") {
			t.Errorf("row carries markup: %q", r)
		}
	}
}
