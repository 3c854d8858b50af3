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
//
// For the markdown report a graph is split into its connected parts
// (Parts), each drawn in the direction it stays legible in, or listed as a
// table (Rows) when it is too large to read drawn; the findings of the RF-
// rules are placed on the edges they are about (Marks).
package genealogy

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/brenner-ci/brenner-ci/diag"
)

// maxLabel bounds a label, in runes.
const maxLabel = 60

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

// relation is a safe edge label: the relation in lower case, of letters,
// "_" and "-", with its white space kept as single spaces ("informed by",
// as the spec's own example writes it, is not "informedby"); other
// characters are dropped. At most 24 runes.
func relation(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case (r < 'a' || r > 'z') && r != '_' && r != '-':
			continue
		}
		if b.Len() >= 24 {
			break
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return "references"
	}
	return strings.TrimSpace(b.String())
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

// Mermaid renders g as a Mermaid flowchart (without the code fence), left
// to right, with a legend node when some edge was read from an artifact.
func Mermaid(g *diag.Genealogy) string { return mermaid(g, "LR", nil, true) }

// markStyle is how an edge with a finding on it is drawn (GitHub's danger
// red), besides the rule ids that end its label.
const markStyle = "stroke:#cf222e,stroke-width:2px,color:#cf222e"

// MarkLabel is what ends the label of an edge with findings on it, before
// the rule ids: "refines ⚠ RF-002".
const MarkLabel = "⚠"

// mermaid renders g in direction dir (LR or TB). marks, when set, is
// aligned with g.Edges: the rule ids of the findings on each edge, which
// end its label and draw it red. legend adds the artifact legend node.
func mermaid(g *diag.Genealogy, dir string, marks [][]string, legend bool) string {
	id := number(g)
	var b strings.Builder
	b.WriteString("flowchart " + dir + "\n")
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
	var marked []string
	for i, e := range g.Edges {
		arrow := "-->"
		if e.Artifact != "" {
			arrow = "-.->"
		}
		rel := relation(e.Relation)
		if i < len(marks) && len(marks[i]) > 0 {
			rel += " " + MarkLabel + " " + strings.Join(marks[i], " ")
			marked = append(marked, fmt.Sprint(i))
		}
		fmt.Fprintf(&b, "  %s %s|%s| %s\n", id[[2]string{e.FromSession, e.From}], arrow, rel, id[[2]string{e.ToSession, e.To}])
	}
	if len(marked) > 0 {
		// Links are numbered in the order they are written, from 0.
		fmt.Fprintf(&b, "  linkStyle %s %s\n", strings.Join(marked, ","), markStyle)
	}
	if legend && fromArtifacts(g) {
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
