package artifact

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/diag"
)

// NoneRegistered is the anomaly register's line when no anomaly is active.
const NoneRegistered = "**None registered**: No observations currently conflict with the framing."

// Heading returns the markdown heading of a section ("## 2. Hypothesis Slate").
func Heading(section string) string {
	if sec := schema.Get(section); sec != nil {
		return sec.Heading()
	}
	return ""
}

// headings are the headings of delta.Sections, in their order.
var headings = func() []string {
	h := make([]string, len(delta.Sections))
	for i, s := range delta.Sections {
		h[i] = Heading(s)
	}
	return h
}()

// Value kinds of known fields: the schema's render kinds.
const (
	kText     = schema.Text
	kJoin     = schema.Join
	kOutline  = schema.Outline
	kRefs     = schema.Refs
	kFlag     = schema.Flag
	kHeadFlag = schema.HeadFlag
	kSkip     = schema.Elsewhere
)

type fieldSpec struct {
	Key, Label string
	Kind       schema.Render
	Head       string // "**Label**: ", what the field's line starts with
}

// known fields per section, in rendering order, from the schema.
var known = func() map[string][]fieldSpec {
	m := map[string][]fieldSpec{}
	for _, sec := range schema.Sections {
		if len(sec.Fields) > maxKnown {
			panic("artifact: section " + sec.ID + " has more known fields than maxKnown")
		}
		for _, f := range sec.Fields {
			m[sec.ID] = append(m[sec.ID], fieldSpec{f.Key, f.Label, f.Render, fieldHead(f.Label)})
		}
	}
	return m
}()

// maxKnown is the most known fields a section has (the schema's test
// section has 12).
const maxKnown = 16

// FormatTime formats an instant as RFC 3339 in UTC with the fractional
// seconds it has (none when whole).
func FormatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// quote renders s as a JSON double-quoted string without HTML escaping (a
// valid YAML double-quoted scalar).
func quote(s string) string {
	if plainQuoted(s) {
		return `"` + s + `"`
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimRight(buf.String(), "\n")
}

// plainQuoted reports whether JSON quotes s as it is: printable ASCII
// without a quote or a backslash (most ids, names and times).
// FuzzQuote holds quote's shortcut to the encoder.
func plainQuoted(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// allDigits reports whether s is one or more ASCII digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// lines is a text being rendered, one line at a time, in one growing
// buffer: a line is written in parts (put, then end; or line), so that a
// rendered line is not first built as a string of its own.
type lines struct {
	b     []byte
	start int // where the line being written begins in b
	n     int // lines ended
	trail int // of them, the empty lines at the end
}

// put writes parts of the current line.
func (w *lines) put(parts ...string) {
	for _, p := range parts {
		if p != "" { // the strike marks of a live item: no copy call for them
			w.b = append(w.b, p...)
		}
	}
}

// putQuoted writes s as quote renders it.
func (w *lines) putQuoted(s string) {
	if !plainQuoted(s) {
		w.b = append(w.b, quote(s)...)
		return
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, s...)
	w.b = append(w.b, '"')
}

// putTime writes an instant as FormatTime formats it.
func (w *lines) putTime(t time.Time) { w.b = t.UTC().AppendFormat(w.b, time.RFC3339Nano) }

// end ends the current line.
func (w *lines) end() {
	if len(w.b) == w.start {
		w.trail++
	} else {
		w.trail = 0
	}
	w.b = append(w.b, '\n')
	w.start = len(w.b)
	w.n++
}

// line writes one line made of parts.
func (w *lines) line(parts ...string) {
	w.put(parts...)
	w.end()
}

// add writes each of ls as a line (a string with line breaks is several
// lines, written as they are).
func (w *lines) add(ls ...string) {
	for _, l := range ls {
		w.line(l)
	}
}

// blank adds an empty line unless the last line is already empty.
func (w *lines) blank() {
	if w.n > 0 && w.trail == 0 {
		w.end()
	}
}

// bytes is the lines, each ending with a newline, trailing empty lines left
// out (a text of no other line is one newline).
func (w *lines) bytes() []byte {
	if w.n == w.trail {
		return []byte{'\n'}
	}
	return w.b[:len(w.b)-w.trail]
}

// Render returns the persisted artifact markdown: YAML front matter
// (artifact_publish_spec_v0.1.md) and the seven sections
// (artifact_schema_v0.1.md). It is deterministic and does not change a.
func (a *Artifact) Render() []byte {
	return a.RenderInto(make([]byte, 0, 8192)) // most artifacts: 4-8 KB
}

// RenderInto is Render written from the start of buf's array (buf's length
// does not matter), which it outgrows when the rendering needs more room: a
// caller that renders artifact after artifact can reuse one buffer. The
// result shares buf's array unless it outgrew it.
func (a *Artifact) RenderInto(buf []byte) []byte {
	w := &lines{b: buf[:0]}
	a.frontMatter(w)
	w.add("")
	w.line("# Brenner Protocol Artifact: ", diag.CollapseSpace(a.SessionID))
	w.add("")
	for i, s := range delta.Sections {
		w.add(headings[i], "")
		switch s {
		case delta.ResearchThread:
			a.renderRT(w)
		case delta.PredictionsTable:
			a.renderPredictions(w)
		case delta.DiscriminativeTests:
			for _, it := range a.RankedTests() {
				a.renderItem(w, it)
			}
		case delta.AnomalyRegister:
			if a.activeCount(s) == 0 {
				w.add(NoneRegistered, "")
			}
			for _, it := range a.Items[s] {
				a.renderItem(w, it)
			}
		default:
			for _, it := range a.Items[s] {
				a.renderItem(w, it)
			}
		}
		w.blank()
	}
	return w.bytes()
}

func (a *Artifact) frontMatter(w *lines) {
	w.add("---")
	w.put("session_id: ")
	w.putQuoted(a.SessionID)
	w.end()
	w.put("version: ")
	w.b = strconv.AppendInt(w.b, int64(a.Version), 10)
	w.end()
	// An instant as FormatTime writes it needs no escape: quote puts it
	// between quotes.
	if !a.CompiledAt.IsZero() {
		w.put(`compiled_at: "`)
		w.putTime(a.CompiledAt)
		w.line(`"`)
	}
	if a.CompiledBy != "" {
		w.put("compiled_by: ")
		w.putQuoted(a.CompiledBy)
		w.end()
	}
	if len(a.Contributors) == 0 {
		w.add("contributors: []")
	} else {
		w.add("contributors:")
		for _, c := range a.Contributors {
			w.put("  - ")
			w.putQuoted(c.Agent)
			w.end()
		}
	}
	if a.MessageID != "" {
		if allDigits(a.MessageID) {
			w.line("agent_mail_message_id: ", a.MessageID)
		} else {
			w.put("agent_mail_message_id: ")
			w.putQuoted(a.MessageID)
			w.end()
		}
	}
	if !a.CreatedAt.IsZero() {
		w.put(`created_at: "`)
		w.putTime(a.CreatedAt)
		w.line(`"`)
	}
	if !a.UpdatedAt.IsZero() {
		w.put(`updated_at: "`)
		w.putTime(a.UpdatedAt)
		w.line(`"`)
	}
	if a.Status != "" {
		w.put("status: ")
		w.putQuoted(a.Status)
		w.end()
	}
	w.add("---")
}

func (a *Artifact) renderRT(w *lines) {
	if a.RT == nil {
		w.add("*No research thread has been set.*")
		return
	}
	fields(w, a.RT, "", "", true)
	if a.RT.Killed {
		killLines(w, a.RT, "")
	}
}

// title returns an item's display name: its name without a repeated id
// prefix ("H1: Foo" → "Foo"), on one line.
func title(it *Item) string {
	name := diag.CollapseSpace(it.Str("name"))
	if name == "" {
		if v := it.Get("name"); v != nil && !v.IsNull() {
			name = diag.CollapseSpace(v.Text())
		}
	}
	if len(name) > len(it.ID) && strings.EqualFold(name[:len(it.ID)], it.ID) {
		rest := strings.TrimLeft(name[len(it.ID):], " ")
		for _, sep := range []string{":", ".", "-", "–", "—"} {
			if strings.HasPrefix(rest, sep) {
				if r := strings.TrimSpace(rest[len(sep):]); r != "" {
					name = r
				}
				break
			}
		}
	}
	return name
}

// putHeading writes an item's heading text: "H1: Name (Third Alternative)"
// / "T1: Name (Score: 9/12)".
func (a *Artifact) putHeading(w *lines, it *Item) {
	name := title(it)
	w.put(it.ID)
	third := false
	if it.Section == delta.HypothesisSlate {
		if v := it.Get("third_alternative"); v != nil && v.Kind == jsonv.Bool && v.Bool && !thirdAltName.MatchString(name) {
			third = true
		}
	}
	switch {
	case third && name == "":
		w.put(": Third Alternative")
	case third:
		w.put(": ", name, " (Third Alternative)")
	case name != "":
		w.put(": ", name)
	}
	if it.Section == delta.DiscriminativeTests {
		if sc := it.Get("score"); sc != nil && !sc.IsNull() {
			w.put(" (Score: ", num(Score(it)), "/12)")
		}
	}
}

func num(f float64) string {
	if f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func (a *Artifact) renderItem(w *lines, it *Item) {
	if it.Killed {
		w.put("### ~~")
		a.putHeading(w, it)
		w.line("~~ [KILLED]")
	} else {
		w.put("### ")
		a.putHeading(w, it)
		w.end()
	}
	fields(w, it, "", "", false)
	if it.Killed {
		killLines(w, it, "")
	}
	w.add("")
}

// NoKillReason is the reason rendered for a KILL that gave none (its
// payload is optional, artifact_delta_spec_v0.1.md; DL-011).
const NoKillReason = "no reason given"

// killLines writes who killed the item and why, each line after prefix.
func killLines(w *lines, it *Item, prefix string) {
	w.put(prefix, "**Killed by**: ")
	if by := diag.CollapseSpace(it.KilledBy); by != "" {
		w.put(by)
	} else {
		w.put("unknown")
	}
	if !it.KilledAt.IsZero() {
		w.put(" (")
		w.putTime(it.KilledAt)
		w.put(")")
	}
	w.end()
	r := text(it.KillReason)
	if r == "" {
		r = NoKillReason
	}
	w.line(prefix, "**Reason**: ", r)
}

// fields writes the item's fields (known ones in schema order, then the
// others in document order): a field's first line after first, its further
// lines after rest, and an empty line after each field when gap is set.
func fields(w *lines, it *Item, first, rest string, gap bool) {
	f := it.Fields
	if f == nil {
		return
	}
	written := func() {
		if gap {
			w.add("")
		}
	}
	field := func(head string, v *jsonv.Value, kind schema.Render) {
		if renderField(w, first, rest, head, v, kind, it.Killed) {
			written()
		}
	}
	// One pass over the item's keys finds its known fields' values (by
	// their place in the schema) and whether it has others.
	specs := known[it.Section]
	keys, vals := f.Keys(), f.Vals()
	var at [maxKnown]*jsonv.Value
	others := false
	for i, k := range keys {
		if j := knownIndex(specs, k); j >= 0 {
			at[j] = vals[i]
		} else {
			others = true
		}
	}
	for j, fs := range specs {
		// An absent field writes nothing: renderField finds it empty.
		if v := at[j]; v != nil {
			kind := fs.Kind
			if kind == kFlag || kind == kHeadFlag {
				if v.Kind == jsonv.Bool {
					if v.Bool && kind == kFlag {
						o, c := strikes("true", it.Killed)
						w.line(first, fs.Head, o, "true", c)
						written()
					}
					continue
				}
				kind = genericKind(v) // not a boolean: shown as it is
			}
			if kind != kSkip {
				field(fs.Head, v, kind)
			}
		}
		if it.Section == delta.DiscriminativeTests && fs.Key == "feasibility" {
			if putScoreLine(w, first, it) {
				written()
			}
		}
	}
	if others {
		for i, k := range keys {
			if knownIndex(specs, k) < 0 {
				v := vals[i]
				field(fieldHead(labelOf(k)), v, genericKind(v))
			}
		}
	}
}

// knownIndex is the place of key k among a section's known fields, or -1.
func knownIndex(specs []fieldSpec, k string) int {
	for j := range specs {
		if specs[j].Key == k {
			return j
		}
	}
	return -1
}

// putScoreLine writes the evidence-per-week score line of a test after
// first, and reports whether the test has a score to write.
func putScoreLine(w *lines, first string, it *Item) bool {
	sc := it.Get("score")
	if sc == nil || sc.IsNull() {
		return false
	}
	w.put(first, "**Evidence-per-week score**: ")
	if sc.Kind != jsonv.Object {
		s := sc.Text()
		o, c := strikes(s, it.Killed)
		w.line(o, s, c)
		return true
	}
	o, c := strikes("parts", it.Killed) // there are always parts to strike
	w.put(o)
	for i, p := range scoreParts {
		if i > 0 {
			w.put(", ")
		}
		w.put(p.Label, "=")
		switch v := sc.Get(p.Key); {
		case v == nil || v.IsNull():
			w.put("0")
		case v.Kind == jsonv.Number:
			w.put(v.Num.String())
		default:
			w.put(v.Text())
		}
	}
	vals := sc.Vals()
	for i, k := range sc.Keys() {
		if !slices.ContainsFunc(scoreParts, func(p scorePart) bool { return p.Key == k }) {
			w.put(", ", diag.CollapseSpace(k), "=", inlineValue(vals[i]))
		}
	}
	w.line(c)
	return true
}

func genericKind(v *jsonv.Value) schema.Render {
	if v == nil {
		return kText
	}
	switch v.Kind {
	case jsonv.Object:
		return kOutline
	case jsonv.Array:
		for _, e := range v.Arr() {
			if e.Kind == jsonv.Object || e.Kind == jsonv.Array {
				return kOutline
			}
		}
		return kJoin
	}
	return kText
}

var labelSpaces = strings.NewReplacer("_", " ", "-", " ")

// labelOf turns a payload key into a field label: "why_it_matters" → "Why it matters".
func labelOf(k string) string {
	s := strings.TrimSpace(labelSpaces.Replace(diag.CollapseSpace(k)))
	if s == "" {
		return "(unnamed field)"
	}
	r := []rune(s)
	r[0] = []rune(strings.ToUpper(string(r[0])))[0]
	return string(r)
}

// empty reports whether a value has nothing to show.
func empty(v *jsonv.Value) bool {
	if v == nil || v.Kind == jsonv.Null {
		return true
	}
	switch v.Kind {
	case jsonv.String:
		return strings.TrimSpace(v.Str) == ""
	case jsonv.Array:
		for _, e := range v.Arr() {
			if !empty(e) {
				return false
			}
		}
		return true
	case jsonv.Object:
		return len(v.Keys()) == 0
	}
	return false
}

// fieldHead is what the line of a field labelled label starts with.
func fieldHead(label string) string { return "**" + label + "**: " }

// renderField writes one field as "**Label**: value" (or a label line and
// "- …" lines), its first line after first and the others after rest; head
// is fieldHead of its label. It writes nothing and returns false when the
// value is empty.
func renderField(w *lines, first, rest, head string, v *jsonv.Value, kind schema.Render, killed bool) bool {
	if empty(v) {
		return false
	}
	var value string
	switch kind {
	case kJoin:
		w.put(first, head)
		putList(w, v, killed)
		w.end()
		return true
	case kRefs:
		value = refsList(v)
	case kOutline:
		if v.Kind == jsonv.Object || v.Kind == jsonv.Array {
			w.line(first, strings.TrimSuffix(head, " "))
			for _, k := range v.Keys() {
				x := inlineValue(v.Get(k))
				o, c := strikes(x, killed)
				w.line(rest, "- ", diag.CollapseSpace(k), ": ", o, x, c)
			}
			for _, e := range v.Arr() {
				if !empty(e) {
					x := inlineValue(e)
					o, c := strikes(x, killed)
					w.line(rest, "- ", o, x, c)
				}
			}
			return true
		}
		value = inlineValue(v)
	default:
		value = inlineValue(v)
	}
	o, c := strikes(value, killed)
	w.line(first, head, o, value, c)
	return true
}

// inlineValue renders a value on one line: strings as text, everything else
// as compact JSON.
func inlineValue(v *jsonv.Value) string {
	if v == nil || v.Kind == jsonv.Null {
		return ""
	}
	if v.Kind == jsonv.String {
		return text(v.Str)
	}
	return v.Text()
}

// putList writes a list (or a single value) joined with ", ", struck
// through when killed (as strike does: not when there is nothing to strike).
func putList(w *lines, v *jsonv.Value, killed bool) {
	start := len(w.b)
	if killed {
		w.put("~~")
	}
	body := len(w.b)
	one := func(e *jsonv.Value) {
		if s := inlineValue(e); s != "" {
			if len(w.b) > body {
				w.put(", ")
			}
			w.put(s)
		}
	}
	if v != nil && v.Kind == jsonv.Array {
		for _, e := range v.Arr() {
			one(e)
		}
	} else if v != nil && v.Kind != jsonv.Null {
		one(v)
	}
	switch {
	case len(w.b) == body:
		w.b = w.b[:start]
	case killed:
		w.put("~~")
	}
}

// refsList renders cross-session references as "session/item (relation)".
func refsList(v *jsonv.Value) string {
	var parts []string
	for _, e := range list(v) {
		s, sok := e.Get("session").AsString()
		i, iok := e.Get("item").AsString()
		r, rok := e.Get("relation").AsString()
		if e.Kind == jsonv.Object && sok && iok && len(e.Keys()) <= 3 {
			p := text(s) + "/" + text(i)
			if rok {
				p += " (" + text(r) + ")"
			}
			parts = append(parts, p)
			continue
		}
		if x := inlineValue(e); x != "" {
			parts = append(parts, x)
		}
	}
	return strings.Join(parts, ", ")
}

// strike strikes s through when the item is killed ("~~s~~"; nothing to
// strike when s is empty).
func strike(s string, killed bool) string {
	o, c := strikes(s, killed)
	return o + s + c
}

// strikes returns what strike puts before and after s.
func strikes(s string, killed bool) (open, close string) {
	if !killed || s == "" {
		return "", ""
	}
	return "~~", "~~"
}

var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// text trims a string and turns its line breaks into <br> so that it stays
// on its field's line.
func text(s string) string {
	if strings.IndexByte(s, '\n') < 0 && strings.IndexByte(s, '\r') < 0 { // ContainsAny builds a set each call
		return strings.TrimSpace(s) // most values: one line
	}
	s = strings.TrimSpace(lineBreaks.Replace(s))
	return strings.ReplaceAll(s, "\n", "<br>")
}

// cell renders a table cell: pipes escaped, line breaks as <br>.
func cell(s string) string {
	return strings.ReplaceAll(text(s), "|", `\|`)
}

func (a *Artifact) renderPredictions(w *lines) {
	hyps := a.Items[delta.HypothesisSlate]
	w.put("| ID | Observation/Condition |")
	for _, h := range hyps {
		w.put(" ", h.ID, " |")
	}
	w.end()
	w.put("| --- | --- |")
	for range hyps {
		w.put(" --- |")
	}
	w.end()
	preds := a.Items[delta.PredictionsTable]
	for _, p := range preds {
		o, c := strikes(p.ID, p.Killed)
		w.put("| ", o, p.ID, c, " | ")
		if cond := cell(inlineValue(p.Get("condition"))); cond == "" {
			w.put("—")
		} else {
			o, c := strikes(cond, p.Killed)
			w.put(o, cond, c)
		}
		w.put(" |")
		for _, h := range hyps {
			v, na := a.Cell(p, h.ID)
			switch {
			case na:
				w.put(" N/A |")
			case empty(v):
				w.put(" — |")
			default:
				x := cell(inlineValue(v))
				o, c := strikes(x, p.Killed)
				w.put(" ", o, x, c, " |")
			}
		}
		w.end()
	}
	w.add("")
	// Whatever the table cannot show: kill state, cells for no hypothesis,
	// other fields. The details' title is taken back when there are none.
	for _, p := range preds {
		before := *w
		w.line("**", p.ID, " details**:")
		n := w.n
		if p.Killed {
			killLines(w, p, "- ")
		}
		if pr := p.Get("predictions"); pr != nil && !pr.IsNull() {
			if pr.Kind != jsonv.Object {
				x := inlineValue(pr)
				o, c := strikes(x, p.Killed)
				w.line("- **Predictions**: ", o, x, c)
			} else {
				for _, k := range pr.Keys() {
					if a.resolveHyp(k) == "" && !empty(pr.Get(k)) {
						x := inlineValue(pr.Get(k))
						o, c := strikes(x, p.Killed)
						w.line("- **", diag.CollapseSpace(k), "** (no such hypothesis): ", o, x, c)
					}
				}
			}
		}
		fields(w, p, "- ", "  ", false)
		if w.n == n {
			*w = before
			continue
		}
		w.add("")
	}
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
