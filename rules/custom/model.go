package custom

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/compile/subject"
	"github.com/brenner-ci/brenner-ci/diag"
)

// The types below are what CEL expressions see (docs/custom-rules.md lists
// them): a typed view of the compiled model, built once per thread or
// artifact. The cel tags are the names in expressions; a field without
// one is not visible.

// Message is one message of a thread.
type Message struct {
	ID          string            `cel:"id"`
	Type        string            `cel:"type"` // KICKOFF, DELTA, COMPILED, CRITIQUE, ACK, CLAIM, HANDOFF, BLOCKED, QUESTION, INFO or UNKNOWN
	Role        string            `cel:"role"` // the DELTA[role] tag, "" for other types
	Subject     string            `cel:"subject"`
	From        string            `cel:"from"`
	To          []string          `cel:"to"`
	Body        string            `cel:"body"`
	Created     time.Time         `cel:"created"`
	AckRequired bool              `cel:"ack_required"`
	Thread      string            `cel:"thread"`
	Sections    map[string]string `cel:"sections"` // heading (lower case, spaces for punctuation) → its text
	Deltas      int               `cel:"deltas"`   // delta blocks in the body
	ValidDeltas int               `cel:"valid_deltas"`

	src *compile.Msg // where it came from: its position is read only to report
}

// pos is where a finding about the message is placed: its subject.
func (m *Message) pos() diag.Pos {
	if m.src == nil {
		return diag.Pos{}
	}
	return m.src.Pos("subject")
}

// Thread is a compiled thread.
type Thread struct {
	ID           string             `cel:"id"`
	Subject      string             `cel:"subject"` // the first message's subject
	Messages     []*Message         `cel:"messages"`
	Version      int                `cel:"version"` // the latest COMPILED version (0: none)
	Contributors []string           `cel:"contributors"`
	Sections     map[string][]*Item `cel:"sections"` // section id → its items
	Items        []*Item            `cel:"items"`
	Started      time.Time          `cel:"started"`
	Last         time.Time          `cel:"last"`
	Deltas       int                `cel:"deltas"`
	Applied      int                `cel:"applied"`
	Types        map[string]int     `cel:"types"` // message type → how many

	byMsg map[*compile.Msg]*Message
}

// pos is where a finding about the thread is placed: its first message.
func (th *Thread) pos() diag.Pos {
	if len(th.Messages) == 0 {
		return diag.Pos{}
	}
	return th.Messages[0].pos()
}

// Item is one item of a compiled artifact (thread.items, an item rule's
// item) or of a persisted one (artifact.items).
type Item struct {
	ID         string         `cel:"id"`
	Section    string         `cel:"section"`
	Fields     map[string]any `cel:"fields"` // the payload (JSON values; a persisted artifact's: strings)
	Status     string         `cel:"status"` // active | killed
	Anchors    []string       `cel:"anchors"`
	References []*Reference   `cel:"references"`
	AddedBy    string         `cel:"added_by"`
	AddedAt    time.Time      `cel:"added_at"`
	KilledBy   string         `cel:"killed_by"`
	KillReason string         `cel:"kill_reason"`
	Message    *Message       `cel:"message"` // the message that added it (an empty one when unknown)

	at  diag.Pos       // an artifact's item: its heading
	th  *Thread        // a thread's item: its thread
	src *artifact.Item // a thread's item: the model's (fillFields)
}

// pos is where a finding about the item is placed: the message that added
// it (else its thread's first message), or its heading in an artifact.
func (it *Item) pos() diag.Pos {
	switch {
	case it.at.Line > 0:
		return it.at
	case it.Message != nil && it.Message.src != nil:
		return it.Message.pos()
	case it.th != nil:
		return it.th.pos()
	}
	return diag.Pos{}
}

// Reference is one entry of an item's references.
type Reference struct {
	Session  string `cel:"session"`
	Item     string `cel:"item"`
	Relation string `cel:"relation"`
}

// Artifact is a persisted artifact file.
type Artifact struct {
	Path     string         `cel:"path"`
	Session  string         `cel:"session"` // front matter session_id, else the file's name
	Front    map[string]any `cel:"front"`
	Sections []string       `cel:"sections"` // the section ids present, in document order
	Titles   []string       `cel:"titles"`   // every H2 title as written
	Items    []*Item        `cel:"items"`
	Version  int            `cel:"version"`
}

// needs says which costly parts of the model a rule reads: a message's
// sections and a thread item's fields are built when a rule that names
// them is about to read them (a word test on its source: it may build them
// without need, never leave them out when needed), once.
type needs struct {
	sections, fields bool
}

func needsOf(d *Def) needs {
	src := d.When + " " + d.Message
	return needs{sections: strings.Contains(src, "sections"), fields: strings.Contains(src, "fields")}
}

// fill builds what rule needs of the model in v: of the message or item it
// is about, or of every message or item of the thread.
func (n needs) fill(v *vars) {
	if n.sections {
		if v.message != nil {
			v.message.fillSections()
		} else if v.thread != nil {
			for _, m := range v.thread.Messages {
				m.fillSections()
			}
		}
	}
	if n.fields {
		if v.item != nil {
			v.item.fillFields()
		} else if v.thread != nil {
			for _, it := range v.thread.Items {
				it.fillFields()
			}
		}
	}
}

// fillSections builds message.sections.
func (m *Message) fillSections() {
	if m.Sections != nil {
		return
	}
	m.Sections = map[string]string{}
	if m.src == nil || m.src.Doc == nil {
		return
	}
	d := m.src.Doc
	for i := range d.Headings {
		h := &d.Headings[i]
		key := headingName(h.Text)
		if _, dup := m.Sections[key]; !dup {
			m.Sections[key] = d.SectionText(h)
		}
	}
}

// fillFields builds a thread item's fields.
func (it *Item) fillFields() {
	if it.Fields != nil {
		return
	}
	it.Fields = map[string]any{}
	if it.src == nil || it.src.Fields == nil {
		return
	}
	vals := it.src.Fields.Vals()
	for i, k := range it.src.Fields.Keys() {
		it.Fields[k] = plain(vals[i], 0)
	}
}

var noMessage = &Message{To: []string{}, Sections: map[string]string{}}

// noMessage is shared: fill leaves it as it is (its Sections are set).

// threadModel builds the model of t.
func threadModel(t *compile.Thread) *Thread {
	th := &Thread{ID: t.ID(), Version: t.Version, Deltas: t.Stats.Blocks, Applied: t.Stats.Applied,
		Sections: map[string][]*Item{}, Types: map[string]int{}, Contributors: []string{}, Items: []*Item{}, Messages: make([]*Message, 0, len(t.Msgs)),
		byMsg: make(map[*compile.Msg]*Message, len(t.Msgs))}
	byAuthor := map[authorAt]*Message{}
	for _, m := range t.Msgs {
		mm := messageModel(t, m)
		th.Messages = append(th.Messages, mm)
		th.byMsg[m] = mm
		th.Types[mm.Type]++
		if _, seen := byAuthor[authorAt{mm.From, mm.Created}]; !seen {
			byAuthor[authorAt{mm.From, mm.Created}] = mm
		}
	}
	if n := len(th.Messages); n > 0 {
		th.Subject, th.Started, th.Last = th.Messages[0].Subject, th.Messages[0].Created, th.Messages[n-1].Created
	}
	if a := t.Current; a != nil {
		for _, c := range a.Contributors {
			th.Contributors = append(th.Contributors, c.Agent)
		}
		for _, sec := range sectionOrder(a) {
			for _, it := range a.Items[sec] {
				im := itemModel(it)
				im.Message, im.th = noMessage, th
				if mm := byAuthor[authorAt{it.AddedBy, it.AddedAt}]; mm != nil {
					im.Message = mm
				}
				th.Items = append(th.Items, im)
				th.Sections[sec] = append(th.Sections[sec], im)
			}
		}
	}
	return th
}

type authorAt struct {
	from string
	at   time.Time
}

// sectionOrder lists an artifact's sections with items in the schema's
// order.
func sectionOrder(a *artifact.Artifact) []string {
	var out []string
	for _, s := range schema.IDs() {
		if len(a.Items[s]) > 0 {
			out = append(out, s)
		}
	}
	return out
}

func messageModel(t *compile.Thread, m *compile.Msg) *Message {
	mm := &Message{ID: m.ID, Type: m.Subject.Kind.String(), Subject: m.Message.Subject, From: m.From, To: m.To,
		Body: m.Body, Created: m.Created, AckRequired: m.AckRequired, Thread: t.ID(),
		Deltas: len(m.Blocks), src: m}
	if m.Subject.Kind == subject.Delta {
		mm.Role = m.Subject.Role
	}
	if mm.To == nil {
		mm.To = []string{}
	}
	for _, b := range m.Blocks {
		if b.Valid() {
			mm.ValidDeltas++
		}
	}
	return mm
}

// headingName is how message.sections names a heading: lower case, runs of
// anything but letters and digits as one space ("## Open Questions!" →
// "open questions").
func headingName(s string) string {
	b := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			default:
				space = true
				continue
			}
			if space && len(b) > 0 {
				b = append(b, ' ')
			}
			space = false
			b = append(b, c)
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if space && len(b) > 0 {
			b = append(b, ' ')
		}
		space = false
		b = utf8.AppendRune(b, unicode.ToLower(r))
	}
	return string(b)
}

func itemModel(it *artifact.Item) *Item {
	im := &Item{ID: it.ID, Section: it.Section, src: it, Status: "active", Anchors: []string{}, References: []*Reference{},
		AddedBy: it.AddedBy, AddedAt: it.AddedAt, KilledBy: it.KilledBy, KillReason: it.KillReason}
	if it.Killed {
		im.Status = "killed"
	}
	if a := it.Get("anchors"); a != nil && a.Kind == jsonv.Array {
		for _, v := range a.Arr() {
			if s, ok := v.AsString(); ok {
				im.Anchors = append(im.Anchors, s)
			}
		}
	}
	if r := it.Get("references"); r != nil && r.Kind == jsonv.Array {
		for _, v := range r.Arr() {
			if v.Kind != jsonv.Object {
				continue
			}
			ref := &Reference{}
			ref.Session, _ = v.Get("session").AsString()
			ref.Item, _ = v.Get("item").AsString()
			ref.Relation, _ = v.Get("relation").AsString()
			im.References = append(im.References, ref)
		}
	}
	return im
}

// plain converts a JSON value to what CEL reads: string, float64, bool,
// nil, []any, map[string]any (the first of duplicate keys). Nesting below
// maxPlainDepth is cut off (the parser bounds depth already).
func plain(v *jsonv.Value, depth int) any {
	if v == nil || depth > maxPlainDepth {
		return nil
	}
	switch v.Kind {
	case jsonv.String:
		s, _ := v.AsString()
		return s
	case jsonv.Number:
		f, _ := v.Float()
		return f
	case jsonv.Bool:
		return v.Bool
	case jsonv.Array:
		out := make([]any, 0, len(v.Arr()))
		for _, e := range v.Arr() {
			out = append(out, plain(e, depth+1))
		}
		return out
	case jsonv.Object:
		out := make(map[string]any, v.Len())
		vals := v.Vals()
		for i, k := range v.Keys() {
			out[k] = plain(vals[i], depth+1)
		}
		return out
	}
	return nil
}

const maxPlainDepth = 64

// artifactModel builds the model of a persisted artifact.
func artifactModel(p *artifact.Parsed, session string) *Artifact {
	a := &Artifact{Path: p.File, Session: session, Front: map[string]any{}, Sections: []string{}, Titles: []string{}, Items: []*Item{}}
	if p.FromJSON && p.Origin != "" {
		a.Path = p.Origin
	}
	for _, f := range p.Front {
		if _, dup := a.Front[f.Key]; !dup {
			a.Front[f.Key] = yamlPlain(f.Value, 0)
		}
	}
	if p.Art != nil {
		a.Version = p.Art.Version
	}
	for _, s := range p.Sections {
		a.Titles = append(a.Titles, s.Title)
		if s.Section != "" {
			a.Sections = append(a.Sections, s.Section)
		}
	}
	for _, it := range p.Items {
		im := &Item{ID: it.ID, Section: it.Section, Fields: map[string]any{}, Status: "active", Anchors: []string{}, References: []*Reference{},
			Message: noMessage, at: it.Pos}
		if it.Killed {
			im.Status = "killed"
		}
		for _, f := range it.Fields {
			k := f.Key
			if k == "" {
				k = headingName(f.Label)
			}
			if _, dup := im.Fields[k]; !dup {
				im.Fields[k] = f.Value
			}
		}
		a.Items = append(a.Items, im)
	}
	return a
}

// yamlPlain keeps what yaml.v3 decoded that CEL reads (string, int,
// float64, bool, nil, lists, maps with string keys), converting ints to
// int64 and maps with other keys to string-keyed ones.
func yamlPlain(v any, depth int) any {
	if depth > maxPlainDepth {
		return nil
	}
	switch x := v.(type) {
	case int:
		return int64(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = yamlPlain(e, depth+1)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = yamlPlain(e, depth+1)
		}
		return out
	case string, float64, bool, nil, int64:
		return x
	}
	return nil
}
