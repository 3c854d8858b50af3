package markdown_test

import (
	"bytes"
	"fmt"
	stdhtml "html"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters/internal/fixture"
)

// render is md as GitHub renders it (GFM), through goldmark.
func render(t testing.TB, md string) string {
	t.Helper()
	var html bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(md), &html); err != nil {
		t.Fatal(err)
	}
	return stdhtml.UnescapeString(html.String())
}

var (
	mermaidRE = regexp.MustCompile(`(?s)<pre><code class="language-mermaid">(.*?)</code></pre>`)
	rowRE     = regexp.MustCompile(`(?s)<tr>\s*<td[^>]*>(.*?)</td>\s*<td[^>]*>(.*?)</td>\s*<td[^>]*>(.*?)</td>\s*<td[^>]*>(.*?)</td>\s*</tr>`)
)

func sessionKey(part, i int) string { return fmt.Sprintf("RS-2026%02d%02d-p%d", part%12+1, i+1, part) }

// addChain adds part: n sessions, each's H1 refining the one before's.
func addChain(g *diag.Genealogy, part, n int) {
	for i := range n {
		g.Sessions = append(g.Sessions, diag.GenSession{Key: sessionKey(part, i), Input: true, Items: []diag.GenItem{{ID: "H1", Name: "Quorum timing", Known: true}}})
		if i > 0 {
			g.Edges = append(g.Edges, diag.GenEdge{FromSession: sessionKey(part, i), From: "H1", ToSession: sessionKey(part, i-1), To: "H1", Relation: "refines"})
		}
	}
}

// lineage is the genealogy of the fixture report: a pair whose reference
// has an RF-001 finding and one read from an artifact, and a chain of
// eight sessions, with an RF-002 cycle closing on its first two.
func lineage() *diag.Genealogy {
	g := &diag.Genealogy{}
	addChain(g, 0, 2)
	g.Sessions[0].Items = append(g.Sessions[0].Items, diag.GenItem{ID: "H2", Known: true, Killed: true})
	g.Sessions[1].Items = append(g.Sessions[1].Items, diag.GenItem{ID: "H9"})
	g.Edges = append(g.Edges,
		diag.GenEdge{FromSession: sessionKey(0, 0), From: "H2", ToSession: sessionKey(0, 1), To: "H9", Relation: "informed by"},
		diag.GenEdge{FromSession: sessionKey(0, 1), From: "H1", ToSession: sessionKey(0, 0), To: "H2", Relation: "extends", Artifact: "artifacts/x.md"})
	addChain(g, 1, 8)
	g.Edges = append(g.Edges, diag.GenEdge{FromSession: sessionKey(1, 0), From: "H1", ToSession: sessionKey(1, 1), To: "H1", Relation: "refutes"})
	return g
}

// withLineage is the fixture report with lineage and its RF findings.
func withLineage(t testing.TB) *diag.Report {
	r := fixture.NoBaseline(t)
	r.Genealogy = lineage()
	r.Findings = append(r.Findings,
		diag.Finding{Rule: "RF-001", Severity: diag.Warning, Message: "H2 references H9 in session " + sessionKey(0, 1) + ", which has no such item.",
			Thread: sessionKey(0, 0), Anchor: "H2->" + sessionKey(0, 1) + ":H9", Pos: diag.Pos{File: "threads/alpha.json", Line: 2, Col: 1}},
		diag.Finding{Rule: "RF-002", Severity: diag.Warning, Message: "References form a cycle.",
			Thread: sessionKey(1, 0), Anchor: sessionKey(1, 0) + ":H1→" + sessionKey(1, 1) + ":H1→" + sessionKey(1, 0) + ":H1", Pos: diag.Pos{File: "threads/alpha.json", Line: 3, Col: 1}})
	fixture.Sort(r.Findings)
	r.Fingerprints = diag.Fingerprints(r.Findings)
	r.CompareWith(nil)
	return r
}

// TestGenealogyLegible: each connected part of the genealogy is a diagram
// of its own while it can be read drawn — here the pair, its finding's
// rule ending the reference's label — and a chain too long to read drawn
// is a table of its references, its cycle's finding in the Findings
// column; a legend says what the arrows' styles mean; the relation keeps
// its space. (It was one diagram of both, shrunk to fit.)
func TestGenealogyLegible(t *testing.T) {
	r := withLineage(t)
	md := write(t, r, 0)
	fixture.Golden(t, "report.genealogy.md", []byte(md))
	sec, ok := section(md, "Session genealogy")
	if !ok {
		t.Fatalf("no genealogy:\n%s", md)
	}
	html := render(t, sec)
	diagrams := mermaidRE.FindAllStringSubmatch(html, -1)
	if len(diagrams) != 1 {
		t.Fatalf("%d diagrams, want 1 (the pair):\n%s", len(diagrams), sec)
	}
	d := diagrams[0][1]
	for _, want := range []string{"flowchart LR\n", "-->|informed by ⚠ RF-001|", "-.->|extends|", "linkStyle 1 "} {
		if !strings.Contains(d, want) {
			t.Errorf("the pair's diagram lacks %q:\n%s", want, d)
		}
	}
	if strings.Contains(d, "-p1") || strings.Contains(d, "legend") {
		t.Errorf("the pair's diagram holds the chain or a legend node:\n%s", d)
	}
	rows := rowRE.FindAllStringSubmatch(html, -1)
	if len(rows) != 8 {
		t.Fatalf("%d table rows, want the chain's 8 references:\n%s", len(rows), sec)
	}
	if got := rows[0][1:]; got[0] != sessionKey(1, 1)+" · H1: Quorum timing" || got[1] != "refines" || got[2] != sessionKey(1, 0)+" · H1: Quorum timing" || got[3] != "RF-002" {
		t.Errorf("first row: %q", got)
	}
	if got := rows[7][1:]; got[1] != "refutes" || got[3] != "RF-002" {
		t.Errorf("the cycle's closing reference: %q", got)
	}
	for _, want := range []string{"11 cross-session references between 10 sessions, in 2 unconnected groups.",
		"Solid arrows: references made by deltas. Dotted arrows: references read from persisted artifacts, not from deltas. Red arrows",
		"The references of 1 group too large to draw here"} {
		if !strings.Contains(html, want) {
			t.Errorf("genealogy lacks %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, "not shown") {
		t.Errorf("the genealogy says it was cut:\n%s", html)
	}
}

// TestGenealogyManyParts: a hundred unconnected pairs are drawn as the
// first genealogy.MaxDiagrams small diagrams, and the others' references
// listed in a table, saying why; nothing is said to be too large.
func TestGenealogyManyParts(t *testing.T) {
	r := fixture.NoBaseline(t)
	r.Genealogy = &diag.Genealogy{}
	for p := range 100 {
		addChain(r.Genealogy, p, 2)
	}
	md := write(t, r, 0)
	sec, _ := section(md, "Session genealogy")
	html := render(t, sec)
	if n := len(mermaidRE.FindAllString(html, -1)); n != 8 {
		t.Errorf("%d diagrams, want 8", n)
	}
	if n := len(rowRE.FindAllString(html, -1)); n != 92 {
		t.Errorf("%d table rows, want 92", n)
	}
	if !strings.Contains(html, "The references of 92 groups past the 8 this summary draws:") || strings.Contains(html, "too large") {
		t.Errorf("why a table:\n%s", md[strings.Index(md, "### Session genealogy"):])
	}
}

// TestGenealogyCutByBudget: when the findings use the summary's room, the
// genealogy says so, and how many references it leaves out; it does not
// call a small graph too large to draw (it did).
func TestGenealogyCutByBudget(t *testing.T) {
	root := fixture.Repo(t)
	r := fixture.Many(t, root, 2000)
	r.Genealogy = &diag.Genealogy{}
	addChain(r.Genealogy, 0, 2)
	md := write(t, r, 20000)
	sec, ok := section(md, "Session genealogy")
	if !ok {
		t.Fatalf("no genealogy:\n%s", md[len(md)-1500:])
	}
	if strings.Contains(sec, "too large") {
		t.Errorf("a graph of one reference is called too large:\n%s", sec)
	}
	if !strings.Contains(sec, "1 of 1 cross-session reference not shown**: this summary is limited to 20000 characters, and the findings come first.") {
		t.Errorf("the genealogy does not say the room ran out:\n%s", sec)
	}
	// With room, it is drawn.
	if sec, _ := section(write(t, r, 10<<20), "Session genealogy"); !strings.Contains(sec, "```mermaid\nflowchart LR\n") {
		t.Errorf("not drawn with room to spare:\n%s", sec)
	}
}

// TestGenealogySmallNeverTooLarge: whatever the room, a graph of one
// small reference is never called too large to draw (it was when its
// title fitted in the room the findings left and its diagram did not).
func TestGenealogySmallNeverTooLarge(t *testing.T) {
	small := fixture.NoBaseline(t)
	small.Genealogy = &diag.Genealogy{}
	addChain(small.Genealogy, 0, 2)
	full := write(t, small, 0)
	for max := 1000; max <= len(full); max++ {
		if md := write(t, small, max); strings.Contains(md, "too large") {
			sec, _ := section(md, "Session genealogy")
			t.Fatalf("maxChars %d: a graph of one reference is called too large:\n%s", max, sec)
		}
	}
}

// TestGenealogyUnderEveryBudget: whatever the budget, the genealogy is
// whole diagrams, whole rows and at most one notice of what was cut, and
// the report stays under its limit.
func TestGenealogyUnderEveryBudget(t *testing.T) {
	r := withLineage(t)
	full := write(t, r, 0)
	for max := 1000; max <= len(full)+200; max += 97 {
		md := write(t, r, max)
		if n := len([]rune(md)); n >= max {
			t.Fatalf("maxChars %d: %d characters", max, n)
		}
		if strings.Count(md, "```")%2 != 0 {
			t.Errorf("maxChars %d: an unclosed code block", max)
		}
		sec, ok := section(md, "Session genealogy")
		if !ok {
			continue
		}
		if strings.Count(sec, "cross-session reference not shown**")+strings.Count(sec, "cross-session references not shown**") > 1 {
			t.Errorf("maxChars %d: two notices:\n%s", max, sec)
		}
		if strings.Contains(sec, "| From |") && !strings.Contains(sec, "| :-- |") {
			t.Errorf("maxChars %d: a table head without its delimiter row", max)
		}
	}
}
