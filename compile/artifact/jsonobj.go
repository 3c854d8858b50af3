package artifact

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

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
		return fail(root.Off, fmt.Sprintf("The JSON artifact is %s, not an object {metadata, sections}.", article(root.Kind.String())))
	}
	md := renderJSONObject(root)
	p := readMarkdown(md, file, lim)
	p.FromJSON, p.Origin = true, file
	p.json = &jsonSource{root: root, lines: diag.NewLineIndex(src)}
	return p
}

// renderJSONObject renders a JSON artifact object as markdown.
func renderJSONObject(root *jsonv.Value) []byte {
	a := artifactFromJSON(root)
	full := string(a.Render())
	// Replace the model's front matter by the metadata as written.
	var b strings.Builder
	if meta := root.Get("metadata"); meta != nil && meta.Kind == jsonv.Object {
		b.WriteString("---\n")
		for _, k := range meta.Keys {
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

type chunk struct {
	section string // section id of a "## N. …" chunk; "" for the text before the first
	text    string
}

// splitSections cuts a rendering at its "## " section headings.
func splitSections(md string) []chunk {
	ids := map[string]string{}
	for _, sec := range schema.Sections {
		ids[sec.Heading()] = sec.ID
	}
	var out []chunk
	cur := chunk{}
	for len(md) > 0 {
		line := md
		if i := strings.IndexByte(md, '\n'); i >= 0 {
			line = md[:i+1]
		}
		md = md[len(line):]
		if id, ok := ids[strings.TrimRight(line, "\n")]; ok {
			out = append(out, cur)
			cur = chunk{section: id}
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
		for _, e := range v.Arr {
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
	it := &Item{Section: sec, Fields: jsonv.NewObject()}
	switch id := v.Get("id"); {
	case id == nil || id.IsNull():
	case id.Kind == jsonv.String:
		it.ID = strings.TrimSpace(id.Str)
	default:
		it.ID = id.Text()
	}
	for _, k := range v.Keys {
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
			if !forbiddenKeys[k] {
				it.Fields.Set(k, e.Clone())
			}
		}
	}
	if it.KilledBy != "" || !it.KilledAt.IsZero() {
		it.Killed = true
	}
	return it
}
