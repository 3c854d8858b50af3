package artifact

import (
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
)

// ItemSource is one item of a parsed artifact as its file writes it, for
// the checks that report on a field's value where the file holds it (the
// cross-session references). A markdown item is positioned by its lines;
// an item of a JSON artifact object by its values, in the JSON file (not
// in the rendering the rest of Parsed points into).
type ItemSource struct {
	ID      string   // the item id as the model reads it ("" when it has none)
	Section string   // section id
	Killed  bool     // the item's kill state as the model reads it
	Pos     diag.Pos // the item: its heading or table row; in a JSON file, its "id" value (else the object's first byte)

	parsed *ParsedItem     // markdown
	object *jsonv.Value    // JSON: the item object as written
	lines  *diag.LineIndex // JSON: the file's lines
	file   string
}

// Field returns payload field k of the item as the file has it, and where
// it is. In a JSON file the value is the one written, its offsets in the
// file, and the position is the value's; in markdown it is the value the
// field reads back as (the model's) and the position is the field's label.
// It returns nil when the item has no field k (a JSON null is returned as
// written).
func (s *ItemSource) Field(k string) (*jsonv.Value, diag.Pos) {
	if s.object != nil {
		v := s.object.Get(k)
		if v == nil {
			return nil, diag.Pos{}
		}
		return v, s.lines.Span(s.file, v.Off, v.End)
	}
	if s.parsed == nil || s.parsed.model == nil {
		return nil, diag.Pos{}
	}
	v := s.parsed.model.Get(k)
	if v == nil {
		return nil, diag.Pos{}
	}
	pos := s.Pos
	if f := s.parsed.Field(k); f != nil {
		switch {
		case f.Pos.Line > 0:
			pos = f.Pos
		case f.ValuePos.Line > 0:
			pos = f.ValuePos
		}
	}
	return v, pos
}

// At is the position of v, a part of a value Field returned: the part's own
// in a JSON file; in markdown, whose values have no position of their own,
// field (the position Field returned).
func (s *ItemSource) At(v *jsonv.Value, field diag.Pos) diag.Pos {
	if s.object == nil || v == nil {
		return field
	}
	return s.lines.Span(s.file, v.Off, v.End)
}

// jsonSource is what Sources reads of a JSON artifact object: the object
// as written and the file's lines.
type jsonSource struct {
	root  *jsonv.Value
	lines *diag.LineIndex
}

// Sources lists the artifact's items as its file writes them. Markdown
// items come in document order; the items of a JSON artifact object in
// section order (research thread first), then in their array's order,
// leaving out what the model leaves out (an entry that is not an object, a
// section that is not an array).
func (p *Parsed) Sources() []ItemSource {
	if p.json != nil {
		return p.json.sources(p.Origin)
	}
	out := make([]ItemSource, 0, len(p.Items))
	for _, it := range p.Items {
		if it == nil || it.model == nil {
			continue
		}
		out = append(out, ItemSource{ID: it.model.ID, Section: it.Section, Killed: it.model.Killed, Pos: it.Pos, parsed: it})
	}
	return out
}

func (j *jsonSource) sources(file string) []ItemSource {
	secs := j.root.Get("sections")
	if secs == nil || secs.Kind != jsonv.Object {
		return nil
	}
	var out []ItemSource
	add := func(v *jsonv.Value, sec string) {
		it := itemFromJSON(v, sec)
		if sec == delta.ResearchThread && it.ID == "" {
			it.ID = "RT"
		}
		s := ItemSource{ID: it.ID, Section: sec, Killed: it.Killed, object: v, lines: j.lines, file: file}
		if id := v.Get("id"); id != nil {
			s.Pos = j.lines.Span(file, id.Off, id.End)
		} else {
			s.Pos = j.lines.Span(file, v.Off, v.Off+1)
		}
		out = append(out, s)
	}
	for _, sec := range delta.Sections {
		v := secs.Get(sec)
		switch {
		case v == nil:
		case sec == delta.ResearchThread:
			if v.Kind == jsonv.Object {
				add(v, sec)
			}
		case v.Kind == jsonv.Array:
			for _, e := range v.Arr() {
				if e.Kind == jsonv.Object {
					add(e, sec)
				}
			}
		}
	}
	return out
}
