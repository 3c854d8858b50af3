package artifact

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

// ParseJSONObject reads a JSON artifact object {metadata, sections} (the
// upstream linter's input) through its markdown rendering: the object
// becomes an *Artifact, which is rendered and read back by ParseMarkdown.
// Positions point into the rendering (Parsed.Src); Origin names the file.
//
// So that rules see what the object says rather than what the model keeps:
//   - the front matter is the metadata object itself, key by key in its
//     order, each value as JSON (valid YAML), so an invalid created_at or
//     status, a version 1.5 or a missing key reach the rules as written;
//     without a metadata object there is no front matter;
//   - a section key missing from "sections" leaves its section out of the
//     rendering (with no "sections" object, all seven are left out);
//   - items keep their JSON order (the rendering orders tests by score),
//     their "id" (ID "" when absent), and their kill state from killed,
//     killed_by, killed_at and kill_reason.
//
// A file that is not JSON, or whose value is not an object, gives an IN-001
// finding positioned in the JSON file, and an empty artifact.
//
// Parsed.OriginPos carries a position in the rendering back to the JSON
// value it was rendered from (a metadata value, an item object, an item
// member, a predictions cell), so that findings point into the JSON file.
func ParseJSONObject(src []byte, file string) *Parsed {
	return Read(src, file, true, limits.Parse{})
}

func parseJSONObject(src []byte, file string, lim limits.Parse) *Parsed {
	fail := func(off int, msg string) *Parsed {
		p := &Parsed{File: file, Origin: file, FromJSON: true, Art: New(""), ByID: map[string][]*ParsedItem{}}
		li := diag.NewLineIndex(src)
		p.Findings = append(p.Findings, diag.Finding{Rule: ruleid.IN001, Code: "UNREADABLE_INPUT", Severity: diag.Error,
			Message: msg, Hint: "Pass a JSON artifact object {\"metadata\": {…}, \"sections\": {…}}.",
			Pos: li.Span(file, off, off), Anchor: "json artifact " + file})
		return p
	}
	root, err := jsonv.ParseDepth(src, lim.Depth())
	if err != nil {
		var se *jsonv.SyntaxError
		off := 0
		if errors.As(err, &se) {
			off = se.Off
		}
		return fail(off, fmt.Sprintf("The JSON artifact object is not valid JSON: %v.", err))
	}
	if root.Kind != jsonv.Object {
		return fail(root.Off, fmt.Sprintf("The JSON artifact is %s, not an object {metadata, sections}.", root.Kind.Phrase()))
	}
	md := renderJSONObject(root)
	p := readMarkdown(md, file, lim)
	p.FromJSON, p.Origin = true, file
	p.places = placesOf(src, root, p)
	p.json = &jsonSource{root: root, lines: p.places.li} // one line index of the JSON file

	return p
}

// jsonPlaces maps positions in a JSON artifact object's rendering back to
// the JSON file: each line of the rendering to the innermost JSON value it
// was rendered from, and each predictions cell (several values share its
// line) to its own.
type jsonPlaces struct {
	li, rli *diag.LineIndex // of the JSON file, of the rendering
	lines   []*jsonv.Value  // indexed by rendering line (1-based); nil: none
	cells   map[[2]int]*jsonv.Value
	brace   int // the object's opening brace
	// end is the empty position just after the rendering's last
	// character, where a linter places what is missing from the document
	// (a section): it is the sections object's (nil: none).
	end      [2]int
	sections *jsonv.Value
}

// OriginPos returns where in the input file a position of p lies. For a
// JSON artifact object, whose positions point into its rendering (Src), it
// is the region of the JSON value the position's line (or predictions
// cell) was rendered from — in a list rendered on one line (anchors,
// contributors), the element holding the position's text; a line rendered
// from no value (the title without a session_id, a blank line between
// sections) is at the object's opening brace, and the empty position at
// the end of the rendering, where what is missing is reported (a
// section), is the sections object's. Other positions are
// returned as they are: markdown artifacts, positions already in the JSON
// file (a syntax error) and positions with no line (the file as a whole).
func (p *Parsed) OriginPos(pos diag.Pos) diag.Pos {
	pl := p.places
	if pl == nil || pos.Line <= 0 {
		return pos
	}
	v := pl.cells[[2]int{pos.Line, pos.Col}]
	if at := [2]int{pos.Line, pos.Col}; v == nil && at == pl.end && (pos.EndLine <= pos.Line && pos.EndCol <= pos.Col) {
		v = pl.sections
	}
	if v == nil && pos.Line < len(pl.lines) {
		v = pl.lines[pos.Line]
	}
	if v == nil {
		return pl.li.Span(pos.File, pl.brace, pl.brace+1)
	}
	if v.Kind == jsonv.Array {
		if text := pl.text(p.Src, pos); text != "" {
			for _, e := range v.Arr() {
				if holds(e, text) {
					v = e
					break
				}
			}
		}
	}
	return pl.li.Span(pos.File, v.Off, v.End)
}

// text is the rendering's text in pos when pos lies on one line ("" when
// it is empty or spans lines).
func (pl *jsonPlaces) text(src []byte, pos diag.Pos) string {
	if pos.EndLine != pos.Line || pos.EndCol <= pos.Col || pos.Col < 1 {
		return ""
	}
	off := pl.rli.LineStart(pos.Line)
	runeAt := func(col int) int {
		i := off
		for c := 1; c < col && i < len(src) && src[i] != '\n'; c++ {
			_, n := utf8.DecodeRune(src[i:])
			i += n
		}
		return i
	}
	return strings.TrimSpace(string(src[runeAt(pos.Col):runeAt(pos.EndCol)]))
}

// holds reports whether a string in v (v itself, or one nested in it)
// contains text.
func holds(v *jsonv.Value, text string) bool {
	switch v.Kind {
	case jsonv.String:
		return strings.Contains(v.Str, text)
	case jsonv.Array:
		for _, e := range v.Arr() {
			if holds(e, text) {
				return true
			}
		}
	case jsonv.Object:
		for _, e := range v.Vals() {
			if holds(e, text) {
				return true
			}
		}
	}
	return false
}

// placesOf maps the rendering p of the JSON artifact object root (parsed
// from src) back to it. Lines are marked from the outside in, so that the
// innermost value wins: the metadata object, then its values; each
// section's value, then its items' objects, then their members.
func placesOf(src []byte, root *jsonv.Value, p *Parsed) *jsonPlaces {
	rli := diag.NewLineIndex(p.Src)
	n, _ := rli.LineCol(len(p.Src))
	pl := &jsonPlaces{li: diag.NewLineIndex(src), rli: rli, lines: make([]*jsonv.Value, n+1),
		cells: map[[2]int]*jsonv.Value{}, brace: root.Off}
	mark := func(from, to int, v *jsonv.Value) {
		from, to = max(from, 1), min(to, n)
		for l := from; l <= to; l++ {
			pl.lines[l] = v
		}
	}
	// markBytes marks the lines of the rendering's bytes [start, end).
	markBytes := func(start, end int, v *jsonv.Value) {
		if end <= start {
			return
		}
		from, _ := rli.LineCol(start)
		to, _ := rli.LineCol(end - 1)
		mark(from, to, v)
	}

	end := len(p.Src)
	for end > 0 && (p.Src[end-1] == '\n' || p.Src[end-1] == '\r') {
		end--
	}
	pl.end[0], pl.end[1] = rli.LineCol(end)
	if secs := root.Get("sections"); secs != nil && secs.Kind == jsonv.Object {
		pl.sections = secs
	}

	meta := root.Get("metadata")
	if p.HasFrontMatter && meta != nil && meta.Kind == jsonv.Object {
		mark(p.FrontPos.Line, p.FrontPos.EndLine, meta)
		for _, f := range p.Front {
			if v := meta.Get(f.Key); v != nil {
				mark(f.KeyPos.Line, max(f.Pos.EndLine, f.KeyPos.Line), v)
			}
		}
	}
	// The title is rendered from the session id.
	if sid := meta.Get("session_id"); p.Title != nil && sid != nil {
		mark(p.Title.Line, p.Title.Line, sid)
	}
	secs := root.Get("sections")
	for _, s := range p.Sections {
		if v := secs.Get(s.Section); s.Section != "" && v != nil {
			markBytes(s.Start, s.End, v)
		}
	}
	for _, sec := range delta.Sections {
		var rendered []*ParsedItem
		for _, it := range p.Items {
			if it != nil && it.Section == sec {
				rendered = append(rendered, it)
			}
		}
		for k, e := range matchItems(rendered, jsonItems(secs.Get(sec), sec)) {
			if e == nil {
				continue
			}
			it := rendered[k]
			if it.End > it.Start {
				markBytes(it.Start, it.End, e)
			} else {
				mark(it.Pos.Line, it.Pos.EndLine, e)
			}
			for _, f := range it.Fields {
				v := e.Get(f.Key)
				if v == nil && f.Key != "" {
					v = e.Get("predictions").Get(f.Key) // a predictions cell: H1 …
				}
				if v == nil {
					continue
				}
				if f.Form == "table" {
					pl.cells[[2]int{f.Pos.Line, f.Pos.Col}] = v
					pl.cells[[2]int{f.ValuePos.Line, f.ValuePos.Col}] = v
					continue
				}
				mark(f.Pos.Line, max(f.ValuePos.EndLine, f.Pos.Line), v)
			}
		}
	}
	return pl
}

// jsonItems are the JSON objects artifactFromJSON makes items of in
// section sec, in order.
func jsonItems(v *jsonv.Value, sec string) []*jsonv.Value {
	switch {
	case v == nil:
		return nil
	case sec == delta.ResearchThread:
		if v.Kind == jsonv.Object {
			return []*jsonv.Value{v}
		}
		return nil
	case v.Kind != jsonv.Array:
		return nil
	}
	var out []*jsonv.Value
	for _, e := range v.Arr() {
		if e.Kind == jsonv.Object {
			out = append(out, e)
		}
	}
	return out
}

// matchItems pairs a section's rendered items with its JSON objects: by
// id, in order among equal ids (the rendering keeps the JSON order, but
// orders tests by score), then the rest in order. The result is aligned
// with rendered; nil where no object is left.
func matchItems(rendered []*ParsedItem, objs []*jsonv.Value) []*jsonv.Value {
	out := make([]*jsonv.Value, len(rendered))
	used := make([]bool, len(objs))
	for k, it := range rendered {
		for j, e := range objs {
			if !used[j] && (it.Section == delta.ResearchThread || jsonItemID(e) == it.ID) {
				out[k], used[j] = e, true
				break
			}
		}
	}
	j := 0
	for k := range rendered {
		if out[k] != nil {
			continue
		}
		for j < len(objs) && used[j] {
			j++
		}
		if j == len(objs) {
			break
		}
		out[k], used[j] = objs[j], true
	}
	return out
}

// jsonItemID is an item object's id as itemFromJSON reads it.
func jsonItemID(v *jsonv.Value) string {
	switch id := v.Get("id"); {
	case id == nil || id.IsNull():
		return ""
	case id.Kind == jsonv.String:
		return strings.TrimSpace(id.Str)
	default:
		return id.Text()
	}
}

// renderJSONObject renders a JSON artifact object as markdown.
func renderJSONObject(root *jsonv.Value) []byte {
	a := artifactFromJSON(root)
	full := string(a.Render())
	// Replace the model's front matter by the metadata as written.
	var b strings.Builder
	if meta := root.Get("metadata"); meta != nil && meta.Kind == jsonv.Object {
		b.WriteString("---\n")
		for _, k := range meta.Keys() {
			b.WriteString(yamlKey(k))
			b.WriteString(": ")
			b.WriteString(meta.Get(k).Text())
			b.WriteByte('\n')
		}
		b.WriteString("---\n")
	}
	if _, _, bodyStart, ok := body.FrontMatter(full); ok {
		full = full[bodyStart:]
	}
	if b.Len() == 0 {
		full = strings.TrimLeft(full, "\n")
	}
	// Leave out the sections the object does not have.
	secs := root.Get("sections")
	var out strings.Builder
	out.WriteString(b.String())
	chunks := splitSections(full)
	for _, c := range chunks {
		if c.section != "" && (secs == nil || secs.Kind != jsonv.Object || !secs.Has(c.section)) {
			continue
		}
		out.WriteString(c.text)
	}
	return []byte(out.String())
}

var plainYAMLKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// yamlKey writes a mapping key: plain when it is a word, else JSON-quoted.
func yamlKey(k string) string {
	if plainYAMLKey.MatchString(k) {
		switch strings.ToLower(k) {
		case "true", "false", "null", "yes", "no", "on", "off", "y", "n":
		default:
			return k
		}
	}
	return quote(k)
}

type sectionChunk struct {
	section string // section id of a "## N. …" chunk; "" for the text before the first
	text    string
}

// splitSections cuts a rendering at its "## " section headings.
func splitSections(md string) []sectionChunk {
	ids := map[string]string{}
	for _, sec := range schema.Sections {
		ids[sec.Heading()] = sec.ID
	}
	var out []sectionChunk
	cur := sectionChunk{}
	for len(md) > 0 {
		line := md
		if i := strings.IndexByte(md, '\n'); i >= 0 {
			line = md[:i+1]
		}
		md = md[len(line):]
		if id, ok := ids[strings.TrimRight(line, "\n")]; ok {
			out = append(out, cur)
			cur = sectionChunk{section: id}
		}
		cur.text += line
	}
	return append(out, cur)
}

// artifactFromJSON builds the model of a JSON artifact object.
func artifactFromJSON(root *jsonv.Value) *Artifact {
	meta := root.Get("metadata")
	sid, _ := meta.Get("session_id").AsString()
	a := New(sid)
	secs := root.Get("sections")
	for _, s := range delta.Sections {
		v := secs.Get(s)
		if v == nil {
			continue
		}
		if s == delta.ResearchThread {
			if v.Kind == jsonv.Object {
				a.RT = itemFromJSON(v, s)
				if a.RT.ID == "" {
					a.RT.ID = "RT"
				}
			}
			continue
		}
		if v.Kind != jsonv.Array {
			continue
		}
		for _, e := range v.Arr() {
			if e.Kind != jsonv.Object {
				continue
			}
			a.Items[s] = append(a.Items[s], itemFromJSON(e, s))
		}
	}
	return a
}

// itemFromJSON makes an item of a JSON item object: "id", kill state, and
// every other member as a payload field.
func itemFromJSON(v *jsonv.Value, sec string) *Item {
	it := &Item{Section: sec, Fields: jsonv.NewObject(), ID: jsonItemID(v)}
	for _, k := range v.Keys() {
		e := v.Get(k)
		switch k {
		case "id":
		case "killed":
			it.Killed = e.Kind == jsonv.Bool && e.Bool
		case "killed_by":
			it.KilledBy, _ = e.AsString()
		case "killed_at":
			s, _ := e.AsString()
			it.KilledAt = parseInstant(s)
		case "kill_reason":
			if s, ok := e.AsString(); ok {
				it.KillReason = s
			} else if !e.IsNull() {
				it.KillReason = e.Text()
			}
		default:
			if !delta.ForbiddenKey(k) {
				it.Fields.Set(k, e.Clone())
			}
		}
	}
	if it.KilledBy != "" || !it.KilledAt.IsZero() {
		it.Killed = true
	}
	return it
}
