package artifact

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/schema"
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
}

// known fields per section, in rendering order, from the schema.
var known = func() map[string][]fieldSpec {
	m := map[string][]fieldSpec{}
	for _, sec := range schema.Sections {
		for _, f := range sec.Fields {
			m[sec.ID] = append(m[sec.ID], fieldSpec{f.Key, f.Label, f.Render})
		}
	}
	return m
}()

// FormatTime formats an instant as RFC 3339 in UTC with the fractional
// seconds it has (none when whole).
func FormatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// quote renders s as a JSON double-quoted string without HTML escaping (a
// valid YAML double-quoted scalar).
func quote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimRight(buf.String(), "\n")
}

var digits = regexp.MustCompile(`^[0-9]+$`)

type lines struct{ l []string }

func (w *lines) add(s ...string) { w.l = append(w.l, s...) }

// blank adds an empty line unless the last line is already empty.
func (w *lines) blank() {
	if len(w.l) > 0 && w.l[len(w.l)-1] != "" {
		w.l = append(w.l, "")
	}
}

// bytes is the lines joined, each ending with a newline, trailing empty
// lines left out: one allocation.
func (w *lines) bytes() []byte {
	for len(w.l) > 0 && w.l[len(w.l)-1] == "" {
		w.l = w.l[:len(w.l)-1]
	}
	n := len(w.l)
	for _, l := range w.l {
		n += len(l)
	}
	out := make([]byte, 0, max(n, 1))
	for _, l := range w.l {
		out = append(append(out, l...), '\n')
	}
	if len(w.l) == 0 {
		out = append(out, '\n')
	}
	return out
}

// Render returns the persisted artifact markdown: YAML front matter
// (artifact_publish_spec_v0.1.md) and the seven sections
// (artifact_schema_v0.1.md). It is deterministic and does not change a.
func (a *Artifact) Render() []byte {
	w := &lines{}
	a.frontMatter(w)
	w.add("", "# Brenner Protocol Artifact: "+oneLine(a.SessionID), "")
	for _, s := range delta.Sections {
		w.add(Heading(s), "")
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
	w.add("---", "session_id: "+quote(a.SessionID), "version: "+strconv.Itoa(a.Version))
	if !a.CompiledAt.IsZero() {
		w.add("compiled_at: " + quote(FormatTime(a.CompiledAt)))
	}
	if a.CompiledBy != "" {
		w.add("compiled_by: " + quote(a.CompiledBy))
	}
	if len(a.Contributors) == 0 {
		w.add("contributors: []")
	} else {
		w.add("contributors:")
		for _, c := range a.Contributors {
			w.add("  - " + quote(c.Agent))
		}
	}
	if a.MessageID != "" {
		if digits.MatchString(a.MessageID) {
			w.add("agent_mail_message_id: " + a.MessageID)
		} else {
			w.add("agent_mail_message_id: " + quote(a.MessageID))
		}
	}
	if !a.CreatedAt.IsZero() {
		w.add("created_at: " + quote(FormatTime(a.CreatedAt)))
	}
	if !a.UpdatedAt.IsZero() {
		w.add("updated_at: " + quote(FormatTime(a.UpdatedAt)))
	}
	if a.Status != "" {
		w.add("status: " + quote(a.Status))
	}
	w.add("---")
}

func (a *Artifact) renderRT(w *lines) {
	if a.RT == nil {
		w.add("*No research thread has been set.*")
		return
	}
	for _, fl := range fieldLines(a.RT) {
		w.add(fl...)
		w.add("")
	}
	if a.RT.Killed {
		w.add(killLines(a.RT)...)
	}
}

// title returns an item's display name: its name without a repeated id
// prefix ("H1: Foo" → "Foo"), on one line.
func title(it *Item) string {
	name := oneLine(it.Str("name"))
	if name == "" {
		if v := it.Get("name"); v != nil && !v.IsNull() {
			name = oneLine(v.Text())
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

// headingText returns "H1: Name (Third Alternative)" / "T1: Name (Score: 9/12)".
func (a *Artifact) headingText(it *Item) string {
	name := title(it)
	if it.Section == delta.HypothesisSlate {
		if v := it.Get("third_alternative"); v != nil && v.Kind == jsonv.Bool && v.Bool && !thirdAltName.MatchString(name) {
			if name == "" {
				name = "Third Alternative"
			} else {
				name += " (Third Alternative)"
			}
		}
	}
	h := it.ID
	if name != "" {
		h += ": " + name
	}
	if it.Section == delta.DiscriminativeTests {
		if sc := it.Get("score"); sc != nil && !sc.IsNull() {
			h += " (Score: " + num(Score(it)) + "/12)"
		}
	}
	return h
}

func num(f float64) string {
	if f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func (a *Artifact) renderItem(w *lines, it *Item) {
	h := a.headingText(it)
	if it.Killed {
		w.add("### ~~" + h + "~~ [KILLED]")
	} else {
		w.add("### " + h)
	}
	for _, fl := range fieldLines(it) {
		w.add(fl...)
	}
	if it.Killed {
		w.add(killLines(it)...)
	}
	w.add("")
}

// NoKillReason is the reason rendered for a KILL that gave none (its
// payload is optional, artifact_delta_spec_v0.1.md; DL-011).
const NoKillReason = "no reason given"

func killLines(it *Item) []string {
	by := oneLine(it.KilledBy)
	if by == "" {
		by = "unknown"
	}
	if !it.KilledAt.IsZero() {
		by += " (" + FormatTime(it.KilledAt) + ")"
	}
	r := text(it.KillReason)
	if r == "" {
		r = NoKillReason
	}
	return []string{"**Killed by**: " + by, "**Reason**: " + r}
}

// fieldLines renders the item's fields (known ones in schema order, then the
// others in document order), one group of lines per field.
func fieldLines(it *Item) [][]string {
	f := it.Fields
	if f == nil {
		return nil
	}
	var out [][]string
	schemaFields := known[it.Section]
	for _, fs := range schemaFields {
		v := f.Get(fs.Key)
		kind := fs.Kind
		if kind == kFlag || kind == kHeadFlag {
			if v != nil && v.Kind == jsonv.Bool {
				if v.Bool && kind == kFlag {
					out = append(out, []string{"**" + fs.Label + "**: " + strike("true", it.Killed)})
				}
				continue
			}
			kind = genericKind(v) // not a boolean: shown as it is
		}
		if kind == kSkip {
			continue
		}
		if g := renderField(fs.Label, v, kind, it.Killed); g != nil {
			out = append(out, g)
		}
		if it.Section == delta.DiscriminativeTests && fs.Key == "feasibility" {
			if g := scoreLine(it); g != nil {
				out = append(out, g)
			}
		}
	}
	for _, k := range f.Keys {
		if slices.ContainsFunc(schemaFields, func(fs fieldSpec) bool { return fs.Key == k }) {
			continue
		}
		v := f.Get(k)
		if g := renderField(labelOf(k), v, genericKind(v), it.Killed); g != nil {
			out = append(out, g)
		}
	}
	return out
}

// scoreLine renders the evidence-per-week score of a test.
func scoreLine(it *Item) []string {
	sc := it.Get("score")
	if sc == nil || sc.IsNull() {
		return nil
	}
	const label = "**Evidence-per-week score**: "
	if sc.Kind != jsonv.Object {
		return []string{label + strike(sc.Text(), it.Killed)}
	}
	var parts []string
	known := map[string]bool{}
	for _, p := range scoreParts {
		known[p.Key] = true
		v := sc.Get(p.Key)
		s := "0"
		switch {
		case v == nil || v.IsNull():
		case v.Kind == jsonv.Number:
			s = v.Num.String()
		default:
			s = v.Text()
		}
		parts = append(parts, p.Label+"="+s)
	}
	for _, k := range sc.Keys {
		if !known[k] {
			parts = append(parts, oneLine(k)+"="+inlineValue(sc.Get(k)))
		}
	}
	return []string{label + strike(strings.Join(parts, ", "), it.Killed)}
}

func genericKind(v *jsonv.Value) schema.Render {
	if v == nil {
		return kText
	}
	switch v.Kind {
	case jsonv.Object:
		return kOutline
	case jsonv.Array:
		for _, e := range v.Arr {
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
	s := strings.TrimSpace(labelSpaces.Replace(oneLine(k)))
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
		for _, e := range v.Arr {
			if !empty(e) {
				return false
			}
		}
		return true
	case jsonv.Object:
		return len(v.Keys) == 0
	}
	return false
}

// renderField renders one field as "**Label**: value" (or a label line and
// "- …" lines). It returns nil when the value is empty.
func renderField(label string, v *jsonv.Value, kind schema.Render, killed bool) []string {
	if empty(v) {
		return nil
	}
	var value string
	switch kind {
	case kJoin:
		value = joinList(v)
	case kRefs:
		value = refsList(v)
	case kOutline:
		if v.Kind == jsonv.Object || v.Kind == jsonv.Array {
			out := []string{"**" + label + "**:"}
			for _, k := range v.Keys {
				out = append(out, "- "+oneLine(k)+": "+strike(inlineValue(v.Get(k)), killed))
			}
			for _, e := range v.Arr {
				if !empty(e) {
					out = append(out, "- "+strike(inlineValue(e), killed))
				}
			}
			return out
		}
		value = inlineValue(v)
	default:
		value = inlineValue(v)
	}
	return []string{"**" + label + "**: " + strike(value, killed)}
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

// joinList renders a list (or a single value) joined with ", ".
func joinList(v *jsonv.Value) string {
	var parts []string
	for _, e := range list(v) {
		if s := inlineValue(e); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

// refsList renders cross-session references as "session/item (relation)".
func refsList(v *jsonv.Value) string {
	var parts []string
	for _, e := range list(v) {
		s, sok := e.Get("session").AsString()
		i, iok := e.Get("item").AsString()
		r, rok := e.Get("relation").AsString()
		if e.Kind == jsonv.Object && sok && iok && len(e.Keys) <= 3 {
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

func strike(s string, killed bool) string {
	if !killed || s == "" {
		return s
	}
	return "~~" + s + "~~"
}

var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// text trims a string and turns its line breaks into <br> so that it stays
// on its field's line.
func text(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return strings.TrimSpace(s) // most values: one line
	}
	s = strings.TrimSpace(lineBreaks.Replace(s))
	return strings.ReplaceAll(s, "\n", "<br>")
}

// oneLine trims a string and joins its lines with spaces (headings, labels):
// its fields (strings.Fields) joined by one space. Most names already are
// that, and come back as they are.
func oneLine(s string) string {
	if isOneLine(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// isOneLine reports whether s is ASCII without white space other than
// single spaces between other bytes: what oneLine would return unchanged.
func isOneLine(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80 || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' '):
			return false
		}
	}
	return true
}

// cell renders a table cell: pipes escaped, line breaks as <br>.
func cell(s string) string {
	return strings.ReplaceAll(text(s), "|", `\|`)
}

func (a *Artifact) renderPredictions(w *lines) {
	hyps := a.Items[delta.HypothesisSlate]
	head := "| ID | Observation/Condition |"
	sep := "| --- | --- |"
	for _, h := range hyps {
		head += " " + h.ID + " |"
		sep += " --- |"
	}
	w.add(head, sep)
	preds := a.Items[delta.PredictionsTable]
	for _, p := range preds {
		cond := inlineValue(p.Get("condition"))
		row := "| " + strike(p.ID, p.Killed) + " | " + orDash(strike(cell(cond), p.Killed)) + " |"
		for _, h := range hyps {
			v, na := a.Cell(p, h.ID)
			switch {
			case na:
				row += " N/A |"
			case empty(v):
				row += " — |"
			default:
				row += " " + strike(cell(inlineValue(v)), p.Killed) + " |"
			}
		}
		w.add(row)
	}
	w.add("")
	// Whatever the table cannot show: kill state, cells for no hypothesis,
	// other fields.
	for _, p := range preds {
		var det []string
		if p.Killed {
			for _, l := range killLines(p) {
				det = append(det, "- "+l)
			}
		}
		if pr := p.Get("predictions"); pr != nil && !pr.IsNull() {
			if pr.Kind != jsonv.Object {
				det = append(det, "- **Predictions**: "+strike(inlineValue(pr), p.Killed))
			} else {
				for _, k := range pr.Keys {
					if a.resolveHyp(k) == "" && !empty(pr.Get(k)) {
						det = append(det, "- **"+oneLine(k)+"** (no such hypothesis): "+strike(inlineValue(pr.Get(k)), p.Killed))
					}
				}
			}
		}
		for _, fl := range fieldLines(p) {
			det = append(det, "- "+fl[0])
			for _, l := range fl[1:] {
				det = append(det, "  "+l)
			}
		}
		if len(det) == 0 {
			continue
		}
		w.add("**" + p.ID + " details**:")
		w.add(det...)
		w.add("")
	}
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
