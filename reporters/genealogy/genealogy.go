// Package genealogy renders the reference graph of a run's sessions
// (diag.Genealogy) as Mermaid, Graphviz DOT or JSON: sessions as clusters,
// items as nodes (killed ones styled), references as labelled edges — drawn
// dotted, with a legend line, when they were read from a persisted
// artifact rather than from a thread's delta.
//
// Every label comes from the input, so it is reduced to a safe character
// set (letters, digits, spaces and plain punctuation) and bounded; node ids
// are generated, never taken from the input. A graph can therefore neither
// break out of its code block in a markdown report nor inject markup.
package genealogy

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/diag"
)

// Bounds of an embedded graph: GitHub renders Mermaid blocks in job
// summaries and pull-request comments, but large graphs fail to render
// (Mermaid's default text limit is 50,000 characters).
const (
	MaxEmbedEdges = 150
	MaxEmbedChars = 20000
	maxLabel      = 60
)

// label reduces input text to a safe label of at most maxLabel runes, its
// credentials redacted first (diag.RedactSecrets; cut short, a credential
// no longer looks like one).
func label(s string) string {
	s = diag.RedactSecrets(s)
	var b strings.Builder
	n := 0
	space := false
	for _, r := range s {
		ok := unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" -_.,:;()/'+&§", r)
		if !ok || r == ' ' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		if n >= maxLabel {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// relation is a safe edge label: lower-case letters and underscores.
func relation(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || r == '_' {
			b.WriteRune(r)
		}
		if b.Len() >= 24 {
			break
		}
	}
	if b.Len() == 0 {
		return "references"
	}
	return b.String()
}

// artifactLegend is the legend line of a graph with edges read from
// persisted artifacts.
const artifactLegend = "Dotted arrows: references read from persisted artifacts, not from deltas"

// fromArtifacts reports whether some edge of g was read from an artifact.
func fromArtifacts(g *diag.Genealogy) bool {
	for _, e := range g.Edges {
		if e.Artifact != "" {
			return true
		}
	}
	return false
}

// ids numbers sessions and items: s3 and s3n2.
type ids map[[2]string]string

func number(g *diag.Genealogy) ids {
	m := ids{}
	for i, s := range g.Sessions {
		m[[2]string{s.Key, ""}] = fmt.Sprintf("s%d", i)
		for j, it := range s.Items {
			m[[2]string{s.Key, it.ID}] = fmt.Sprintf("s%dn%d", i, j)
		}
	}
	return m
}

func itemLabel(it diag.GenItem) string {
	l := label(it.ID)
	if it.Name != "" {
		l += ": " + label(it.Name)
	}
	if it.Killed {
		l += " (killed)"
	}
	return l
}

// Mermaid renders g as a Mermaid flowchart (without the code fence).
func Mermaid(g *diag.Genealogy) string {
	id := number(g)
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	var killed, unknown []string
	for _, s := range g.Sessions {
		title := label(s.Key)
		if !s.Input {
			title += " (not among the inputs)"
		}
		fmt.Fprintf(&b, "  subgraph %s[\"%s\"]\n", id[[2]string{s.Key, ""}], title)
		for _, it := range s.Items {
			n := id[[2]string{s.Key, it.ID}]
			fmt.Fprintf(&b, "    %s[\"%s\"]\n", n, itemLabel(it))
			switch {
			case it.Killed:
				killed = append(killed, n)
			case !it.Known:
				unknown = append(unknown, n)
			}
		}
		b.WriteString("  end\n")
	}
	for _, e := range g.Edges {
		arrow := "-->"
		if e.Artifact != "" {
			arrow = "-.->"
		}
		fmt.Fprintf(&b, "  %s %s|%s| %s\n", id[[2]string{e.FromSession, e.From}], arrow, relation(e.Relation), id[[2]string{e.ToSession, e.To}])
	}
	if fromArtifacts(g) {
		fmt.Fprintf(&b, "  legend>\"%s\"]\n", artifactLegend)
		b.WriteString("  classDef legend fill:#fff,stroke:#fff,color:#555\n  class legend legend\n")
	}
	if len(killed) > 0 {
		b.WriteString("  classDef killed fill:#f6f6f6,stroke:#999,stroke-dasharray:4 3,color:#777\n")
		fmt.Fprintf(&b, "  class %s killed\n", strings.Join(killed, ","))
	}
	if len(unknown) > 0 {
		b.WriteString("  classDef unknown fill:#fff,stroke:#c00,stroke-dasharray:2 2\n")
		fmt.Fprintf(&b, "  class %s unknown\n", strings.Join(unknown, ","))
	}
	return b.String()
}

// quote is a DOT string literal of label(s).
func quote(s string) string { return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"` }

// DOT renders g as a Graphviz digraph.
func DOT(g *diag.Genealogy) string {
	id := number(g)
	var b strings.Builder
	b.WriteString("digraph genealogy {\n  rankdir=LR;\n  node [shape=box];\n")
	for _, s := range g.Sessions {
		title := label(s.Key)
		style := "solid"
		if !s.Input {
			title += " (not among the inputs)"
			style = "dashed"
		}
		fmt.Fprintf(&b, "  subgraph cluster_%s {\n    label=%s;\n    style=%s;\n", id[[2]string{s.Key, ""}], quote(title), style)
		for _, it := range s.Items {
			attrs := ""
			switch {
			case it.Killed:
				attrs = `, style="dashed,filled", fillcolor="#f6f6f6", fontcolor="#777777"`
			case !it.Known:
				attrs = `, style=dotted, color="#cc0000"`
			}
			fmt.Fprintf(&b, "    %s [label=%s%s];\n", id[[2]string{s.Key, it.ID}], quote(itemLabel(it)), attrs)
		}
		b.WriteString("  }\n")
	}
	for _, e := range g.Edges {
		style := ""
		if e.Artifact != "" {
			style = ", style=dotted"
		}
		fmt.Fprintf(&b, "  %s -> %s [label=%s%s];\n", id[[2]string{e.FromSession, e.From}], id[[2]string{e.ToSession, e.To}], quote(relation(e.Relation)), style)
	}
	if fromArtifacts(g) {
		// Set after the clusters, which have labels of their own.
		fmt.Fprintf(&b, "  label=%s;\n  labelloc=b;\n", quote(artifactLegend))
	}
	b.WriteString("}\n")
	return b.String()
}

// WriteJSON writes g as indented JSON (input text is data there, escaped by
// the encoder; labels are not reduced, but credentials are redacted).
func WriteJSON(w io.Writer, g *diag.Genealogy) error {
	r := diag.RedactSecrets
	out := diag.Genealogy{Sessions: make([]diag.GenSession, len(g.Sessions)), Edges: make([]diag.GenEdge, len(g.Edges))}
	for i, s := range g.Sessions {
		s.Key, s.Items = r(s.Key), append([]diag.GenItem{}, s.Items...)
		for j := range s.Items {
			it := &s.Items[j]
			it.ID, it.Name = r(it.ID), r(it.Name)
		}
		out.Sessions[i] = s
	}
	for i, e := range g.Edges {
		e.FromSession, e.From, e.ToSession, e.To, e.Relation, e.Artifact = r(e.FromSession), r(e.From), r(e.ToSession), r(e.To), r(e.Relation), r(e.Artifact)
		out.Edges[i] = e
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&out)
}

// Embeddable reports whether g is small enough to embed as Mermaid in a
// markdown report, and returns the Mermaid text when it is.
func Embeddable(g *diag.Genealogy) (string, bool) {
	if len(g.Edges) == 0 || len(g.Edges) > MaxEmbedEdges {
		return "", false
	}
	m := Mermaid(g)
	return m, utf8.RuneCountInString(m) <= MaxEmbedChars
}
