package genealogy

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
)

func sample(hostile string) *diag.Genealogy {
	return &diag.Genealogy{
		Sessions: []diag.GenSession{
			{Key: "RS-20260101-origin", Input: true, Items: []diag.GenItem{{ID: "H1", Name: hostile, Killed: true, Known: true}}},
			{Key: "RS-20260301-follow" + hostile, Input: true, Items: []diag.GenItem{{ID: "H2", Name: "Lineage", Known: true}}},
			{Key: "RS-20251201-elsewhere", Input: false, Items: []diag.GenItem{{ID: "T9"}}},
		},
		Edges: []diag.GenEdge{
			{FromSession: "RS-20260301-follow" + hostile, From: "H2", ToSession: "RS-20260101-origin", To: "H1", Relation: "refines|x" + hostile},
			{FromSession: "RS-20260301-follow" + hostile, From: "H2", ToSession: "RS-20251201-elsewhere", To: "T9", Relation: "informed_by"},
		},
	}
}

// TestLabelsCannotBreakOut: names and ids from the input cannot close the
// markdown code block, end a Mermaid label, start a new statement or inject
// markup, in Mermaid or DOT.
func TestLabelsCannotBreakOut(t *testing.T) {
	hostile := "x\"]\n```\nend\n  click s0n0 \"javascript:alert(1)\"\n<script>`;{}|#\\"
	g := sample(hostile)
	for name, out := range map[string]string{"mermaid": Mermaid(g), "dot": DOT(g)} {
		for _, bad := range []string{"```", "`", "<script", "javascript:alert(1)\"", "\\\"", "{}", "|x"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s output carries %q:\n%s", name, bad, out)
			}
		}
		// Every line is one statement of ours.
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "click") || strings.TrimSpace(line) == "x" {
				t.Errorf("%s: input became a statement: %q", name, line)
			}
		}
	}
	m := Mermaid(g)
	for _, want := range []string{"-->|refinesx", "-->|informed_by|", "class s0n0 killed", "(not among the inputs)", "class s2n0 unknown"} {
		if !strings.Contains(m, want) {
			t.Errorf("mermaid lacks %q:\n%s", want, m)
		}
	}
}

func TestLabelIsBounded(t *testing.T) {
	if l := label(strings.Repeat("word ", 100)); len([]rune(l)) > maxLabel+1 || !strings.HasSuffix(l, "…") {
		t.Errorf("label %q (%d runes)", l, len([]rune(l)))
	}
	if relation("") != "references" || relation("Refines!") != "refines" {
		t.Error("relation labels")
	}
	// The spec's own example writes "informed by": its label keeps the
	// space (it read "informedby"), as it keeps "_" and "-".
	for in, want := range map[string]string{"informed by": "informed by", " Informed \t  By ": "informed by", "informed_by": "informed_by", "Informed-By": "informed-by", "refines|x": "refinesx"} {
		if got := relation(in); got != want {
			t.Errorf("relation(%q) = %q, want %q", in, got, want)
		}
	}
	g := sample("n")
	g.Edges[1].Relation = "informed by"
	if m := Mermaid(g); !strings.Contains(m, "-->|informed by| s2n0") {
		t.Errorf("mermaid:\n%s", m)
	}
	if d := DOT(g); !strings.Contains(d, `[label="informed by"];`) {
		t.Errorf("dot:\n%s", d)
	}
}

func TestJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, sample("n")); err != nil {
		t.Fatal(err)
	}
	var back diag.Genealogy
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || len(back.Sessions) != 3 || len(back.Edges) != 2 {
		t.Errorf("round trip: %v %+v", err, back)
	}
	buf.Reset()
	WriteJSON(&buf, &diag.Genealogy{})
	if !strings.Contains(buf.String(), `"sessions": []`) || !strings.Contains(buf.String(), `"edges": []`) {
		t.Errorf("empty graph: %s", buf.String())
	}
}

// TestCredentialsRedacted: session keys, item names and ids that hold a
// credential reach no graph (Mermaid, DOT, JSON) as they are, cut or not.
func TestCredentialsRedacted(t *testing.T) {
	tok := "ghp_" + strings.Repeat("Gq9x", 9)
	g := sample(" " + tok)
	g.Sessions[0].Items[0].Name = strings.Repeat("n", 40) + " " + tok // cut by label
	g.Edges[0].Artifact = "artifacts/" + tok + ".json"
	var js bytes.Buffer
	if err := WriteJSON(&js, g); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"mermaid": Mermaid(g), "dot": DOT(g), "json": js.String()} {
		if strings.Contains(out, "Gq9xGq9x") || !strings.Contains(out, "redacted GitHub token") {
			t.Errorf("%s output:\n%s", name, out)
		}
	}
	if g.Sessions[1].Key != "RS-20260301-follow "+tok {
		t.Error("WriteJSON changed the graph it was given")
	}
}

// TestArtifactEdges: an edge read from a persisted artifact is drawn dotted
// and the graph carries a legend line saying so, in Mermaid and DOT; JSON
// names the artifact. A graph of delta references alone has neither.
func TestArtifactEdges(t *testing.T) {
	g := sample("n")
	g.Edges[1].Artifact = "artifacts/RS-20260301-follow.json"
	m := Mermaid(g)
	for _, want := range []string{"s1n0 -->|refinesxn| s0n0", "s1n0 -.->|informed_by| s2n0", `legend>"` + artifactLegend + `"]`, "class legend legend"} {
		if !strings.Contains(m, want) {
			t.Errorf("mermaid lacks %q:\n%s", want, m)
		}
	}
	d := DOT(g)
	for _, want := range []string{`[label="refinesxn"];`, `[label="informed_by", style=dotted];`, `label="` + artifactLegend + `";`} {
		if !strings.Contains(d, want) {
			t.Errorf("dot lacks %q:\n%s", want, d)
		}
	}
	if strings.Index(d, "label=\""+artifactLegend) < strings.LastIndex(d, "subgraph") {
		t.Errorf("the legend is set before a cluster, which would inherit it:\n%s", d)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, g); err != nil {
		t.Fatal(err)
	}
	if strings.Count(js.String(), `"artifact": "artifacts/RS-20260301-follow.json"`) != 1 {
		t.Errorf("json:\n%s", js.String())
	}
	plain := sample("n")
	for name, out := range map[string]string{"mermaid": Mermaid(plain), "dot": DOT(plain)} {
		if strings.Contains(out, "legend") || strings.Contains(out, artifactLegend) || strings.Contains(out, "-.->") {
			t.Errorf("%s of delta references only has an artifact style or legend:\n%s", name, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, " -> ") && strings.Contains(line, "dotted") {
				t.Errorf("%s: a delta reference is drawn dotted: %s", name, line)
			}
		}
	}
}
