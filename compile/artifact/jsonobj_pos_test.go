package artifact

import (
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/diag"
)

const posSrc = `{
  "metadata": {"session_id": "S-1", "version": 1.5, "odd key": true, "contributors": ["Amber", "Slate"]},
  "sections": {
    "research_thread": {"id": "RT", "statement": "Q?", "anchors": ["§1", "§42"]},
    "hypothesis_slate": [
      {"id": "H1", "name": "First", "claim": "C1"},
      {"name": "No id", "claim": "C3"},
      {"id": "H2", "name": "Second", "claim": "C2", "killed": true, "killed_by": "X", "kill_reason": "R"}
    ],
    "predictions_table": [{"id": "P1", "condition": "cond", "predictions": {"H1": "a", "H2": "b"}}],
    "discriminative_tests": [
      {"id": "T1", "name": "t", "procedure": "p1", "score": {"likelihood_ratio": 1}},
      {"id": "T2", "name": "u", "procedure": "p2", "score": {"likelihood_ratio": 3}}
    ]
  }
}
`

// TestOriginPos: every position of a JSON artifact object's rendering is
// carried back to the JSON value it was rendered from: metadata values,
// item objects (matched by id, whatever order the rendering gives them),
// members, predictions cells, and the element of a list rendered on one
// line.
func TestOriginPos(t *testing.T) {
	p := ParseJSONObject([]byte(posSrc), "a.json")
	if len(p.Findings) != 0 {
		t.Fatal(p.Findings)
	}
	li := diag.NewLineIndex([]byte(posSrc))
	// at is where the JSON value starting with the text after prefix
	// lies (its first byte).
	at := func(prefix string) (line, col int) {
		t.Helper()
		i := strings.Index(posSrc, prefix)
		if i < 0 {
			t.Fatalf("%q not in the source", prefix)
		}
		return li.LineCol(i + len(prefix))
	}
	check := func(what string, pos diag.Pos, prefix string) {
		t.Helper()
		got := p.OriginPos(pos)
		line, col := at(prefix)
		if got.File != "a.json" || got.Line != line || got.Col != col {
			t.Errorf("%s: rendering %d:%d maps to %d:%d, want %d:%d (after %q)", what, pos.Line, pos.Col, got.Line, got.Col, line, col, prefix)
		}
	}
	front := func(k string) FrontField {
		for _, f := range p.Front {
			if f.Key == k {
				return f
			}
		}
		t.Fatalf("no front matter key %s", k)
		return FrontField{}
	}
	check("version value", front("version").Pos, `"version": `)
	check("version key", front("version").KeyPos, `"version": `)
	check("quoted key", front("odd key").Pos, `"odd key": `)
	check("front matter block", p.FrontPos, `"metadata": `)
	check("title", *p.Title, `"session_id": `)

	item := func(sec, id string) *ParsedItem {
		for _, it := range p.Items {
			if it.Section == sec && it.ID == id {
				return it
			}
		}
		t.Fatalf("no item %s in %s", id, sec)
		return nil
	}
	h1 := item(delta.HypothesisSlate, "H1")
	check("H1 heading", h1.Pos, `      `)
	check("H1 claim label", h1.Field("claim").Pos, `"claim": `)
	check("H1 claim value", h1.Field("claim").ValuePos, `"claim": `)
	check("item without an id", item(delta.HypothesisSlate, "").Pos, "\"C1\"},\n      ")
	h2 := item(delta.HypothesisSlate, "H2")
	check("killed H2 heading", h2.Pos, "\"C3\"},\n      ")
	check("killed_by", h2.Field("killed_by").ValuePos, `"killed_by": `)
	// The rendering lists T2 (higher score) before T1.
	t1 := item(delta.DiscriminativeTests, "T1")
	check("T1 heading", t1.Pos, "\"discriminative_tests\": [\n      ")
	check("T1 procedure", t1.Field("procedure").ValuePos, `"procedure": `) // T1's is the first
	check("T2 procedure", item(delta.DiscriminativeTests, "T2").Field("procedure").ValuePos, `"name": "u", "procedure": `)

	row := item(delta.PredictionsTable, "P1")
	for _, f := range row.Fields {
		switch f.Key {
		case "condition":
			check("condition cell", f.Pos, `"condition": `)
		case "H2":
			check("H2 cell", f.ValuePos, `"H2": `)
		case "id":
			check("id cell", f.Pos, `"predictions_table": [{"id": `)
		}
	}
	check("row", row.Pos, `"predictions_table": [`)

	// An anchor inside the RT's anchors line: the element holding it.
	rt := item(delta.ResearchThread, "RT")
	an := rt.Field("anchors").ValuePos
	line := string(p.Src[p.places.rli.LineStart(an.Line):])
	col := strings.Index(line, "§42")
	if col < 0 {
		t.Fatalf("anchors line %q", line[:strings.IndexByte(line, '\n')])
	}
	c := len([]rune(line[:col])) + 1
	check("anchor §42", diag.Pos{File: "a.json", Line: an.Line, Col: c, EndLine: an.Line, EndCol: c + 3}, `"§1", `)
	check("anchors line", diag.Pos{File: "a.json", Line: an.Line, Col: 1}, `"anchors": `)

	// A section heading: the section's value.
	for _, s := range p.Sections {
		if s.Section == delta.HypothesisSlate {
			check("section heading", s.Pos, `"hypothesis_slate": `)
		}
	}

	// The empty position at the end of the rendering, where a linter
	// reports what is missing (a section): the sections object.
	end := len(strings.TrimRight(string(p.Src), "\n"))
	el, ec := p.places.rli.LineCol(end)
	check("end of the document", diag.Pos{File: "a.json", Line: el, Col: ec, EndLine: el, EndCol: ec}, `"sections": `)

	// The whole file, and a markdown artifact, are left as they are.
	if got := p.OriginPos(diag.Pos{File: "a.json"}); got != (diag.Pos{File: "a.json"}) {
		t.Errorf("the file as a whole became %+v", got)
	}
	md := ParseMarkdown([]byte("---\nsession_id: S\n---\n# T\n"), "a.md")
	if pos := (diag.Pos{File: "a.md", Line: 2, Col: 3}); md.OriginPos(pos) != pos {
		t.Errorf("a markdown position moved: %+v", md.OriginPos(pos))
	}
	// A syntax error is already in the JSON file.
	bad := ParseJSONObject([]byte("{\n  \"metadata\": {,}\n}"), "c.json")
	if pos := bad.Findings[0].Pos; bad.OriginPos(pos) != pos {
		t.Errorf("the syntax error moved from %+v to %+v", pos, bad.OriginPos(pos))
	}
}
