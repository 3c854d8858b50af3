package artifact

import (
	"regexp"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/diag"
)

// labelInfo is the canonical payload key of a field label. alias marks a
// known non-standard label (reported by rules; used only when the item has
// no field with the standard label).
type labelInfo struct {
	key   string
	alias bool
}

// sectionLabels maps normalized labels (lower case, single spaces) to keys,
// per section: the schema's labels and the non-standard forms (aliases)
// humans use.
var sectionLabels = func() map[string]map[string]labelInfo {
	m := map[string]map[string]labelInfo{}
	for _, sec := range schema.Sections {
		m[sec.ID] = labelsOf(sec.Fields)
	}
	return m
}()

// commonLabels are known in every section.
var commonLabels = labelsOf(schema.CommonFields)

func labelsOf(fs []schema.Field) map[string]labelInfo {
	m := map[string]labelInfo{}
	for _, f := range fs {
		for _, l := range f.Labels {
			if _, dup := m[l]; !dup {
				m[l] = labelInfo{f.Key, false}
			}
		}
		for _, l := range f.Aliases {
			if _, dup := m[l]; !dup {
				m[l] = labelInfo{f.Key, true}
			}
		}
	}
	return m
}

// killLabels are the kill state of an item (not payload fields). "Reason"
// is the kill reason only after a "Killed by" or "Killed" line.
var killLabels = map[string]string{
	"killed by": "killed_by", "killed at": "killed_at", "killed": "killed", "kill reason": "kill_reason",
}

// normLabel folds a label for lookup: trimmed, lower case, single spaces,
// without a trailing colon.
func normLabel(l string) string {
	return strings.ToLower(diag.CollapseSpace(strings.TrimSuffix(strings.TrimSpace(l), ":")))
}

// lookupLabel returns the canonical key of a label in a section.
func lookupLabel(sec, label string) (labelInfo, bool) {
	n := normLabel(label)
	if li, ok := sectionLabels[sec][n]; ok {
		return li, true
	}
	li, ok := commonLabels[n]
	return li, ok
}

func knownLabel(sec, label string) bool {
	n := normLabel(label)
	if _, ok := killLabels[n]; ok {
		return true
	}
	_, ok := lookupLabel(sec, label)
	return ok
}

var (
	noSuchHypRE  = regexp.MustCompile(`^\*\*(.+?)\*\* \(no such hypothesis\):`)
	detailsRE    = regexp.MustCompile(`^\*\*(\S+) details\*\*:[ \t]*$`)
	listRE       = regexp.MustCompile(`^([ \t]*)([-*+]|[0-9]{1,9}[.)])([ \t]+|$)`)
	plainLabelRE = regexp.MustCompile(`^([A-Za-z][A-Za-z /'()-]{0,60}?)[ \t]*:[ \t]`)
)

// labelMatch is a field label found at the start of a line's text.
type labelMatch struct {
	label      string
	start, end int  // the label region ("**Label**:") in the text
	val        int  // where the value starts in the text
	noSuchHyp  bool // "**H9** (no such hypothesis): …"
}

// matchBold finds "**Label**: value" (or "**Label:** value", "__Label__:";
// with details, also "**H9** (no such hypothesis): value"). The label is
// the shortest non-empty text up to a closing marker that a colon follows
// (like the regular expression ^\*\*(.+?)\*\*[ \t]*:).
func matchBold(s string, details bool) (labelMatch, bool) {
	if len(s) < 5 || !(strings.HasPrefix(s, "**") || strings.HasPrefix(s, "__")) {
		return labelMatch{}, false
	}
	mk := s[:2]
	if details && mk == "**" {
		if m := noSuchHypRE.FindStringSubmatchIndex(s); m != nil {
			return labelMatch{label: s[m[2]:m[3]], end: m[1], val: m[1], noSuchHyp: true}, true
		}
	}
	// "**Label**:" and "__Label__:".
	for i := 3; i+2 <= len(s); {
		j := strings.Index(s[i:], mk)
		if j < 0 {
			break
		}
		e := i + j // the closing marker
		k := e + 2
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		if k < len(s) && s[k] == ':' {
			if l := strings.TrimSpace(s[2:e]); l != "" {
				return labelMatch{label: l, end: k + 1, val: k + 1}, true
			}
		}
		i = e + 1
	}
	// "**Label:**" (no '*' inside the label).
	if mk == "**" {
		if e := strings.Index(s[2:], ":**"); e > 0 {
			l := s[2 : 2+e]
			if !strings.Contains(l, "*") && strings.TrimSpace(l) != "" {
				return labelMatch{label: strings.TrimSpace(l), end: 2 + e + 3, val: 2 + e + 3}, true
			}
		}
	}
	return labelMatch{}, false
}

// fieldRaw is what the scanner keeps of a field besides ParsedField.
type fieldRaw struct {
	inline     string   // the value on the label's line
	cont       []string // continuation lines
	listIndent int      // column of the list marker of a "- **Label**:" field; -1 for a bold line
	noSuchHyp  bool
	table      bool
}

// itemB builds one item.
type itemB struct {
	it     *ParsedItem
	raw    []fieldRaw
	killed bool // from the heading (or a struck row id)
	// heading-derived values, used when no field gives them
	thirdAlt bool
	art      *Item
	ncells   int  // a table row: its first ncells fields are the cells
	killLine bool // a "Killed by" / "Killed" … line has been read
}

func (b *itemB) add(f ParsedField, r fieldRaw) int {
	b.it.Fields = append(b.it.Fields, f)
	b.raw = append(b.raw, r)
	return len(b.raw) - 1
}

// scanFields reads the fields of lines l0..l1 into b. In details mode (the
// "**P1 details**:" list under the predictions table) it stops at the first
// line that is not a list item and returns its index.
//
// It is long on purpose: one pass over the lines with the current field as state (inline value, continuation, list items, table rows).
func (ps *parseState) scanFields(b *itemB, l0, l1 int, details bool) int {
	d := ps.d
	cur := -1      // index of the open field
	para := false  // the open field's paragraph has not been interrupted by a blank line
	lastItem := -1 // index in List of the last list item of the open field (for continuations)
	sec := b.it.Section
	for li := l0; li <= l1 && li < len(d.lines); li++ {
		ln := d.lines[li]
		switch ln.kind {
		case lnBlank:
			if details {
				return li
			}
			para = false
			continue
		case lnTable:
			if details {
				return li
			}
			if t := ps.tableAt(li); t != nil {
				ps.kvTable(b, t)
				li = t.l1
			}
			cur, para = -1, false
			continue
		case lnHeading, lnOpaque, lnQuote:
			if details {
				return li
			}
			cur, para = -1, false
			continue
		}
		s := string(d.src[ln.start:ln.end])
		lm := listRE.FindStringSubmatchIndex(s)
		if lm == nil {
			if details {
				return li
			}
			ind := 0
			for ind < len(s) && (s[ind] == ' ' || s[ind] == '\t') {
				ind++
			}
			if m, ok := matchBold(s[ind:], false); ok && ind < 4 {
				cur = ps.newField(b, ln.start+ind, s[ind:], m, "bold", -1)
				para, lastItem = true, -1
				continue
			}
			if cur >= 0 && para {
				t := strings.TrimSpace(s)
				f := &b.it.Fields[cur]
				if lastItem >= 0 {
					f.List[lastItem] += "\n" + t
				} else {
					b.raw[cur].cont = append(b.raw[cur].cont, t)
				}
				f.ValuePos = ps.extendTo(f.ValuePos, ln.start+len(s)-len(strings.TrimLeft(s, " \t")), ln.end)
				continue
			}
			cur, para, lastItem = -1, false, -1
			continue
		}
		// A list item.
		mi := lm[3] - lm[2] // marker indent
		cs := lm[1]         // content start in s
		content := s[cs:]
		open := false
		if cur >= 0 {
			r := b.raw[cur]
			f := &b.it.Fields[cur]
			emptyLabel := r.inline == "" && len(r.cont) == 0
			switch {
			case r.listIndent >= 0:
				open = mi > r.listIndent && (emptyLabel || len(f.List) > 0 || para)
			default:
				open = emptyLabel || len(f.List) > 0 || para
			}
		}
		if m, ok := matchBold(content, details); ok {
			attach := open && !(b.raw[cur].listIndent < 0 && knownLabel(sec, m.label))
			if !attach {
				cur = ps.newField(b, ln.start+cs, content, m, "list", mi)
				para, lastItem = true, -1
				continue
			}
		} else if !open {
			if pm := plainLabelRE.FindStringSubmatchIndex(content); pm != nil && !details && knownLabel(sec, content[pm[2]:pm[3]]) {
				m := labelMatch{label: content[pm[2]:pm[3]], end: pm[1] - 1, val: pm[1]}
				cur = ps.newField(b, ln.start+cs, content, m, "list", mi)
				para, lastItem = true, -1
				continue
			}
			if details {
				return li
			}
			cur, para, lastItem = -1, false, -1
			continue
		}
		f := &b.it.Fields[cur]
		item := strings.TrimSpace(content)
		if b.killed {
			item = unstrikeItem(item)
		}
		f.List = append(f.List, item)
		lastItem = len(f.List) - 1
		f.ValuePos = ps.extendTo(f.ValuePos, ln.start+cs, ln.end)
		para = true
	}
	return l1 + 1
}

// unstrikeItem removes the strikethrough of a killed item's list entry:
// "~~e~~" → "e", "k: ~~v~~" → "k: v".
func unstrikeItem(s string) string {
	if strings.HasSuffix(s, "~~") {
		if i := strings.Index(s, ": ~~"); i >= 0 && i+4 <= len(s)-2 {
			return s[:i] + ": " + s[i+4:len(s)-2]
		}
	}
	if u := unstrike(s); u != s {
		return u
	}
	return s
}

// newField adds a field whose label match m is at the start of text (which
// starts at byte offset off in src).
func (ps *parseState) newField(b *itemB, off int, text string, m labelMatch, form string, listIndent int) int {
	val := strings.TrimSpace(text[m.val:])
	vs := m.val
	for vs < len(text) && (text[vs] == ' ' || text[vs] == '\t') {
		vs++
	}
	ve := len(strings.TrimRight(text, " \t"))
	if ve < vs {
		ve = vs
	}
	if b.killed && !b.isKillLabel(m.label) {
		val = unstrike(val)
	}
	if _, ok := killLabels[normLabel(m.label)]; ok {
		b.killLine = true
	}
	f := ParsedField{Label: m.label, Value: val, Form: form,
		Pos: ps.li.Span(ps.file, off+m.start, off+m.end), ValuePos: ps.li.Span(ps.file, off+vs, off+ve)}
	return b.add(f, fieldRaw{inline: val, listIndent: listIndent, noSuchHyp: m.noSuchHyp})
}

// isKillLabel reports whether a label starts a kill line of b: "Killed
// by", "Killed", "Killed at", "Kill reason", or "Reason" after one of those.
func (b *itemB) isKillLabel(l string) bool {
	n := normLabel(l)
	if _, ok := killLabels[n]; ok {
		return true
	}
	return n == "reason" && b.killLine
}

// extendTo widens a value region to end at byte offset end (starting at
// start when the region is empty).
func (ps *parseState) extendTo(p diag.Pos, start, end int) diag.Pos {
	e := ps.li.Span(ps.file, start, end)
	if p.Line == 0 || (p.Line == p.EndLine && p.Col == p.EndCol) {
		return e
	}
	p.EndLine, p.EndCol = e.EndLine, e.EndCol
	return p
}

// kvTable reads a two-column key/value table inside an item as fields.
func (ps *parseState) kvTable(b *itemB, t *table) {
	if len(t.header) != 2 {
		return
	}
	for _, li := range t.rows {
		cs := ps.d.cells(li)
		if len(cs) < 2 || cs[0].text == "" {
			continue
		}
		label := strings.TrimSuffix(stripBold(cs[0].text), ":")
		val := cs[1].text
		if b.killed {
			val = unstrike(val)
		}
		f := ParsedField{Label: label, Value: val, Form: "table",
			Pos: ps.li.Span(ps.file, cs[0].start, cs[0].end), ValuePos: ps.li.Span(ps.file, cs[1].start, cs[1].end)}
		b.add(f, fieldRaw{inline: val, listIndent: -1, table: true})
	}
}

// finish resolves field keys and builds the item's payload and kill state,
// in order: late kill marks, value texts, keys (standard labels and kill
// lines, then aliases standing in for missing standard fields, then unknown
// labels), predictions for no column, the score suffix of a test's name, the
// third-alternative mark and the kill state.
func (b *itemB) finish(ps *parseState) {
	if b.art.Fields == nil {
		b.art.Fields = jsonv.NewObject()
	}
	b.lateKill()
	b.joinValues()
	isAlias := b.standardKeys()
	b.decodeFields(ps, isAlias)
	b.unknownHypPredictions()
	b.trimScoreSuffix()
	if b.thirdAlt && !b.art.Fields.Has("third_alternative") {
		b.art.Fields.Set("third_alternative", &jsonv.Value{Kind: jsonv.Bool, Bool: true})
	}
	b.killState()
}

// lateKill: an item killed by kill lines only (no struck heading: the
// research thread, upstream's renderings) has its strikethrough removed now.
func (b *itemB) lateKill() {
	it := b.it
	if b.killed {
		return
	}
	late := false
	for i := range it.Fields {
		if n := normLabel(it.Fields[i].Label); n == "killed by" || (n == "killed" && strings.EqualFold(strings.TrimSpace(b.raw[i].inline), "true")) {
			late = true
		}
	}
	if late {
		b.killed = true
		seen := false
		for i := range it.Fields {
			n := normLabel(it.Fields[i].Label)
			if _, ok := killLabels[n]; ok {
				seen = true
				continue
			}
			if n == "reason" && seen {
				continue
			}
			b.raw[i].inline = unstrike(b.raw[i].inline)
			for k, li := range it.Fields[i].List {
				it.Fields[i].List[k] = unstrikeItem(li)
			}
		}
	}
}

// joinValues sets each field's value text: the inline value, continuation
// lines, list items.
func (b *itemB) joinValues() {
	it := b.it
	for i := range it.Fields {
		r := b.raw[i]
		f := &it.Fields[i]
		parts := make([]string, 0, 1+len(r.cont)+len(f.List))
		if r.inline != "" {
			parts = append(parts, r.inline)
		}
		parts = append(parts, r.cont...)
		parts = append(parts, f.List...)
		f.Value = strings.Join(parts, "\n")
	}
}

// standardKeys gives fields with a standard label or a kill label their
// key, and reports which fields have an alias label (resolved later).
func (b *itemB) standardKeys() (isAlias []bool) {
	it, sec := b.it, b.it.Section
	killSeen := false
	isAlias = make([]bool, len(it.Fields))
	for i := range it.Fields {
		f := &it.Fields[i]
		r := b.raw[i]
		f.Key, f.Alias = "", false
		n := normLabel(f.Label)
		if r.noSuchHyp {
			f.Key = f.Label
			continue
		}
		if k, ok := killLabels[n]; ok {
			f.Key = k
			killSeen = true
			continue
		}
		if n == "reason" && killSeen {
			f.Key = "kill_reason"
			continue
		}
		li, ok := lookupLabel(sec, f.Label)
		if !ok {
			continue
		}
		if li.alias {
			isAlias[i] = true
			continue
		}
		f.Key = li.key
		if sec == delta.AnomalyRegister && li.key == "status" && n == "quarantine status" {
			for j := 0; j < i; j++ {
				if it.Fields[j].Key == "status" && normLabel(it.Fields[j].Label) == "quarantine status" {
					f.Key = "quarantine_status"
					break
				}
			}
		}
	}
	return isAlias
}

// decodeFields decodes the values of known fields (the first of a repeated
// field wins), then lets aliases stand in for missing standard fields, then
// keeps unknown labels under a snake_case key.
func (b *itemB) decodeFields(ps *parseState, isAlias []bool) {
	it, sec, art := b.it, b.it.Section, b.art
	type slot struct {
		key string
		val *jsonv.Value
	}
	slots := make([]slot, len(it.Fields))
	// Values the heading or the table row gave count as present.
	has := map[string]bool{}
	for _, k := range art.Fields.Keys() {
		has[k] = true
	}
	decode := func(i int) *jsonv.Value {
		f := &it.Fields[i]
		v := ps.fieldValue(sec, f.Key, f, b.raw[i])
		if v == nil || empty(v) {
			return nil
		}
		return v
	}
	for i := range it.Fields {
		k := it.Fields[i].Key
		if k == "" || isAlias[i] || b.raw[i].noSuchHyp || isKillKey(k) {
			continue
		}
		if has[k] {
			continue // a repeated field: the first one is the value
		}
		if v := decode(i); v != nil {
			slots[i] = slot{k, v}
			has[k] = true
		}
	}
	// Pass 2: aliases stand in for a missing standard field.
	for i := range it.Fields {
		if !isAlias[i] {
			continue
		}
		f := &it.Fields[i]
		li, _ := lookupLabel(sec, f.Label)
		if has[li.key] {
			continue // the standard field is there: this label is unknown
		}
		f.Key, f.Alias = li.key, true
		if v := decode(i); v != nil {
			slots[i] = slot{li.key, v}
		}
		has[li.key] = true
	}
	// Pass 3: unknown labels keep a snake_case key.
	for i := range it.Fields {
		f := &it.Fields[i]
		if f.Key != "" || b.raw[i].noSuchHyp {
			continue
		}
		k := snakeKey(f.Label)
		if k == "" || has[k] || systemKey(k) {
			continue
		}
		if v := decode(i); v != nil {
			slots[i] = slot{k, v}
			has[k] = true
		}
	}
	for _, s := range slots {
		if s.val != nil {
			art.Fields.Set(s.key, s.val)
		}
	}
}

// unknownHypPredictions keeps predictions for no column of the table
// ("**H9** (no such hypothesis): …").
func (b *itemB) unknownHypPredictions() {
	it, art := b.it, b.art
	for i := range it.Fields {
		if !b.raw[i].noSuchHyp {
			continue
		}
		v := decodeText(it.Fields[i].Value)
		if empty(v) {
			continue
		}
		preds := art.Fields.Get("predictions")
		if preds == nil || preds.Kind != jsonv.Object {
			preds = jsonv.NewObject()
			art.Fields.Set("predictions", preds)
		}
		preds.Set(it.Fields[i].Label, v)
	}
}

// trimScoreSuffix removes a "(Score: n/12)" suffix from a scored test's name.
func (b *itemB) trimScoreSuffix() {
	it, art := b.it, b.art
	if it.Section != delta.DiscriminativeTests || !art.Fields.Has("score") {
		return
	}
	if nm, ok := art.Fields.Get("name").AsString(); ok {
		if loc := scoreSufRE.FindStringIndex(nm); loc != nil {
			nm = strings.TrimSpace(nm[:loc[0]])
			if nm == "" {
				art.Fields.Delete("name")
			} else {
				art.Fields.Set("name", jsonv.NewString(nm))
			}
			it.Name = nm
		}
	}
}

// killState reads the kill lines into the item's kill state.
func (b *itemB) killState() {
	it, art := b.it, b.art
	art.Killed = b.killed
	for i := range it.Fields {
		f := &it.Fields[i]
		v := strings.TrimSpace(f.Value)
		switch f.Key {
		case "killed":
			switch strings.ToLower(unstrike(v)) {
			case "true", "yes", "1":
				art.Killed = true
			}
		case "killed_by":
			art.Killed = true
			if m := killedByRE.FindStringSubmatch(v); m != nil {
				if t := parseInstant(m[2]); !t.IsZero() {
					art.KilledBy, art.KilledAt = m[1], t
					continue
				}
			}
			art.KilledBy = v
		case "killed_at":
			if t := parseInstant(v); !t.IsZero() && art.KilledAt.IsZero() {
				art.KilledAt = t
			}
		case "kill_reason":
			if art.KillReason == "" && v != NoKillReason {
				art.KillReason = brToNL(v)
			}
		}
	}
	it.Killed = art.Killed
}

var killedByRE = regexp.MustCompile(`^(.*?)[ \t]*\(([^()]*)\)$`)

func isKillKey(k string) bool {
	return k == "killed" || k == "killed_by" || k == "killed_at" || k == "kill_reason"
}

// fieldValue decodes one field's value (nil when it has none).
func (ps *parseState) fieldValue(sec, key string, f *ParsedField, r fieldRaw) *jsonv.Value {
	if r.inline == "" && len(r.cont) == 0 && len(f.List) > 0 {
		if key == "score" && sec == delta.DiscriminativeTests {
			if v, ok := parseScoreList(f.List); ok {
				return v
			}
		}
		return decodeOutline(key, f.List)
	}
	t := f.Value
	if t == "" {
		return nil
	}
	return decodeInline(sec, key, t)
}
