package artifact

import (
	"github.com/brenner-ci/brenner-ci/diag"
)

// Parsed is an artifact read back from its markdown (or from a JSON artifact
// object, via its rendering), with the source position of everything a
// linter reports on. Art is the same model compile renders, so a compiled
// artifact, rendered and parsed back, gives an equal Art (the round trip).
type Parsed struct {
	File string // path as given, slash separated
	Src  []byte // the markdown (for JSON objects: their rendering)
	// FromJSON is true when the input was a JSON artifact object; positions
	// then point into the rendering, and Origin names the JSON file.
	FromJSON bool
	Origin   string

	Art *Artifact

	HasFrontMatter bool
	FrontPos       diag.Pos     // the whole front matter block (zero when absent)
	Front          []FrontField // top-level keys in document order

	Title    *diag.Pos                // the "# …" title line, when present
	Sections []ParsedSection          // every H2 section in document order, known or not
	Items    []*ParsedItem            // every item (### heading or table row) in document order
	ByID     map[string][]*ParsedItem // id → items (more than one: a duplicate id)
	Table    *ParsedTable             // the predictions table, when present
	// Findings are problems met while parsing (a YAML error in the front
	// matter, a table that cannot be read …); never a panic.
	Findings []diag.Finding

	// json is the object a JSON artifact was read from (Sources).
	json *jsonSource
	// places carries positions in the rendering of a JSON artifact object
	// back to the JSON file (OriginPos, jsonobj.go); nil otherwise.
	places *jsonPlaces
}

// FrontField is one top-level front matter key.
type FrontField struct {
	Key    string
	Value  any      // decoded with yaml.v3: string, int, float64, bool, []any, map[string]any, nil
	Raw    string   // the scalar as written ("" for collections)
	Pos    diag.Pos // the value
	KeyPos diag.Pos
}

// ParsedSection is an H2 section.
type ParsedSection struct {
	Title   string   // heading text as written, e.g. "2. Hypothesis Slate"
	Number  int      // the leading number, 0 when absent
	Section string   // section id (delta.HypothesisSlate …), "" for an extra section
	Pos     diag.Pos // the heading line
	Start   int      // byte offset of the heading
	End     int      // byte offset where the section ends
	// Empty is the explicit empty-state text when the section says so
	// ("**None registered**: …", "*No anomalies registered…*"), else "".
	Empty string
	Quote bool // the section holds block quotes
}

// ParsedItem is one item: an H3 block (### H1: Name) or a predictions row.
type ParsedItem struct {
	ID         string   // as written ("H1", "P1", "P1.H2", "Critique 1" → "" when none)
	Label      string   // the heading or first-cell text as written
	Name       string   // the item name (heading text after "H1:"), strikethrough removed
	Section    string   // section id of the enclosing H2
	Killed     bool     // struck heading or [KILLED]
	Pos        diag.Pos // the heading (or row)
	Start, End int
	Fields     []ParsedField // in document order

	model *Item // the item as the model reads it (Sources)
}

// Field returns the first field with canonical key k, or nil.
func (it *ParsedItem) Field(k string) *ParsedField {
	for i := range it.Fields {
		if it.Fields[i].Key == k {
			return &it.Fields[i]
		}
	}
	return nil
}

// ParsedField is one "**Label**: value" field (or a table cell).
type ParsedField struct {
	Label    string   // as written: "Claim", "Evidence that would confirm this", "Question"
	Key      string   // canonical payload key: "claim", "evidence", "statement" …; "" when unknown
	Value    string   // the value text, trimmed (list items joined by newlines)
	List     []string // list items under the label ("- If H1: …"), when any
	Pos      diag.Pos // the label
	ValuePos diag.Pos // the value
	// Alias is true when Label is a known non-standard form of Key (e.g.
	// "Question" for RT, "Statement" for a hypothesis claim); rules report it.
	Alias bool
	// Form says how the field was written: "bold" (**Label**: value),
	// "table" (a row of a key/value table), "list" (- Label: value).
	Form string
}

// ParsedTable is the predictions table.
type ParsedTable struct {
	Pos    diag.Pos
	Header []string
	Rows   []*ParsedItem // one item per row; Fields are the cells keyed by column header
}
