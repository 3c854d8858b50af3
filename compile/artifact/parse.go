package artifact

import (
	"fmt"
	"regexp"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

// ParseMarkdown reads a persisted artifact (YAML front matter + the seven
// sections). It never panics; problems become Parsed.Findings.
//
// What it reads (see parse_fields.go for the label → key table):
//
//   - Front matter: every top-level key in document order, decoded with
//     yaml.v3 (timestamps stay the strings written); a YAML error is an
//     IN-001 finding and the body is still read. Art gets session_id,
//     version, compiled_at, compiled_by, agent_mail_message_id, created_at,
//     updated_at, status and the contributors' names.
//   - Sections: every top-level H2, known or not. A known section's items
//     are its H3 headings ("### H1: Name", "### ~~H2: Name~~ [KILLED]",
//     "### T1: Name (Score: 10/12)"; "### Critique 1: …" gives an item with
//     ID ""), the rows of the predictions table, and the rows of a table
//     whose first column is "ID" in another section. The research thread
//     is the item "RT" made of the fields of section 1.
//   - Fields: "**Label**: value" lines (the value runs on over following
//     lines of the same paragraph), "- **Label**: value" and "- Label:
//     value" list items, "- …" items under a label with no inline value,
//     and the rows of a two-column table inside an item.
//   - Values (Art): see parse_values.go; a killed item's ~~struck~~ values
//     are read without the strikethrough (ParsedField.Value too).
func ParseMarkdown(src []byte, file string) *Parsed {
	return Read(src, file, false, limits.Parse{})
}

// Read parses a persisted artifact within the run's limits: markdown
// (ParseMarkdown), or a JSON artifact object when fromJSON
// (ParseJSONObject). A markdown file over lim.Body() bytes is an IN-008
// finding, not parsed; JSON nested deeper than lim.Depth() is an IN-001.
func Read(src []byte, file string, fromJSON bool, lim limits.Parse) *Parsed {
	if fromJSON {
		return parseJSONObject(src, file, lim)
	}
	return readMarkdown(src, file, lim)
}

func readMarkdown(src []byte, file string, lim limits.Parse) (p *Parsed) {
	defer func() {
		if r := recover(); r != nil {
			p = &Parsed{File: file, Src: src, Art: New(""), ByID: map[string][]*ParsedItem{}}
			p.Findings = append(p.Findings, diag.Finding{Rule: ruleid.IN001, Code: "UNREADABLE_INPUT", Severity: diag.Error,
				Message: fmt.Sprintf("The artifact could not be parsed (internal parser error: %v).", r),
				Hint:    "Report this as a brenner-ci bug with the file attached.",
				Pos:     diag.Pos{File: file}, Anchor: "parser panic " + firstLine(string(debug.Stack()))})
		}
	}()
	if why := body.Guard(string(src), lim.Body()); why != "" {
		// Past the markdown parser's limits: reported, not parsed (IN-008).
		p = &Parsed{File: file, Src: src, Art: New(""), ByID: map[string][]*ParsedItem{}}
		p.Findings = append(p.Findings, diag.Finding{Rule: ruleid.IN008, Severity: diag.Error,
			Message: "The artifact is not parsed as markdown: " + why + ". None of its sections are checked.",
			Hint:    "Simplify the file; such markdown makes parsers slow enough to stall a CI job.",
			Pos:     diag.Pos{File: file, Line: 1, Col: 1}, Anchor: "unparsed artifact " + file})
		return p
	}
	return parseMarkdown(src, file)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// parseState is one parse.
type parseState struct {
	src    []byte
	file   string
	li     *diag.LineIndex
	p      *Parsed
	d      *doc
	doc0   *doc // the same doc (the front matter reader uses its lines before the body is scanned)
	inFlow bool

	builders []*itemB
	rows     []*itemB // predictions table rows
}

// parseMarkdown is ParseMarkdown without the recover (the fuzz test calls it).
func parseMarkdown(src []byte, file string) *Parsed {
	p := &Parsed{File: file, Src: src, Art: New(""), ByID: map[string][]*ParsedItem{}}
	ps := &parseState{src: src, file: file, li: diag.NewLineIndex(src), p: p}
	ps.d = &doc{src: src, lines: splitLines(src)}
	ps.doc0 = ps.d
	base := ps.frontMatter()
	ps.frontArt()
	ps.d.scanBlocks(base)
	ps.sections()
	ps.finish()
	return p
}

var (
	secNumRE   = regexp.MustCompile(`^(\d{1,6})\s*[.):]?\s+`)
	secParenRE = regexp.MustCompile(`\s*\([^()]*\)$`)
)

// sectionNames maps a section heading (lower case, number removed) to its
// id: the schema's titles and heading aliases.
var sectionNames = func() map[string]string {
	m := map[string]string{}
	for _, sec := range schema.Sections {
		m[strings.ToLower(sec.Title)] = sec.ID
		for _, a := range sec.HeadingAliases {
			m[a] = sec.ID
		}
	}
	return m
}()

// sectionTitle reads "2. Hypothesis Slate" → 2, hypothesis_slate.
func sectionTitle(plain string) (int, string) {
	t := strings.TrimSpace(plain)
	num := 0
	if m := secNumRE.FindStringSubmatch(t); m != nil {
		num, _ = strconv.Atoi(m[1])
		t = t[len(m[0]):]
	}
	t = strings.ToLower(diag.CollapseSpace(strings.TrimSuffix(strings.TrimSpace(t), ":")))
	if id, ok := sectionNames[t]; ok {
		return num, id
	}
	if u := secParenRE.ReplaceAllString(t, ""); u != t {
		if id, ok := sectionNames[u]; ok {
			return num, id
		}
	}
	return num, ""
}

// headingPos is the region of a heading's line(s), from its first non-blank byte.
func (ps *parseState) headingPos(h *heading) (diag.Pos, int) {
	ln := ps.d.lines[h.l0]
	s := ln.start
	for s < ln.end && (ps.src[s] == ' ' || ps.src[s] == '\t') {
		s++
	}
	return ps.li.Span(ps.file, s, ps.d.lines[h.l1].end), ln.start
}

// sections splits the body at top-level H1/H2 headings and reads each known section.
func (ps *parseState) sections() {
	d := ps.d
	p := ps.p
	hs := d.headings
	for i := range hs {
		h := &hs[i]
		if h.level > 2 {
			continue
		}
		pos, start := ps.headingPos(h)
		if h.level == 1 {
			if p.Title == nil {
				t := pos
				p.Title = &t
			}
			continue
		}
		// The section runs to the next heading of level 1 or 2.
		endLine := len(d.lines) // exclusive
		end := len(ps.src)
		for j := i + 1; j < len(hs); j++ {
			if hs[j].level <= 2 {
				endLine = hs[j].l0
				end = d.lines[endLine].start
				break
			}
		}
		num, id := sectionTitle(h.plain)
		sec := ParsedSection{Title: h.raw, Number: num, Section: id, Pos: pos, Start: start, End: end}
		for l := h.l1 + 1; l < endLine; l++ {
			if d.lines[l].kind == lnQuote {
				sec.Quote = true
				break
			}
		}
		p.Sections = append(p.Sections, sec)
		if id != "" {
			ps.section(&p.Sections[len(p.Sections)-1], h, i, endLine)
		}
	}
}

// section reads the items of a known section whose heading is hs[hi] and
// whose body ends before line endLine.
func (ps *parseState) section(sec *ParsedSection, h *heading, hi, endLine int) {
	d := ps.d
	// H3 items.
	type h3 struct {
		h  *heading
		hi int
	}
	var items []h3
	for j := hi + 1; j < len(d.headings) && d.headings[j].l0 < endLine; j++ {
		if d.headings[j].level == 3 {
			items = append(items, h3{&d.headings[j], j})
		}
	}
	preEnd := endLine - 1
	if len(items) > 0 {
		preEnd = items[0].h.l0 - 1
	}
	ps.preamble(sec, h.l1+1, preEnd)
	if sec.Section == delta.ResearchThread {
		return // H3 headings in section 1 are not items
	}
	for k, x := range items {
		last := endLine - 1
		end := sec.End
		if k+1 < len(items) {
			last = items[k+1].h.l0 - 1
			end = d.lines[items[k+1].h.l0].start
		}
		pos, start := ps.headingPos(x.h)
		id, name, killed, third := parseItemHeading(x.h.raw, sec.Section)
		it := &ParsedItem{ID: id, Label: x.h.raw, Name: name, Section: sec.Section, Killed: killed, Pos: pos, Start: start, End: end}
		b := &itemB{it: it, killed: killed, thirdAlt: third, art: &Item{ID: id, Section: sec.Section, Fields: jsonv.NewObject()}}
		if name != "" && sec.Section != delta.PredictionsTable {
			b.art.Fields.Set("name", jsonv.NewString(name))
		}
		ps.scanFields(b, x.h.l1+1, last, false)
		ps.builders = append(ps.builders, b)
	}
}

var emptyStateRE = regexp.MustCompile(`(?i)^[\s*_>]*(none registered|none\b|no\s+\S.*\b(registered|has been set|recorded|identified|yet)\b)`)

// preamble reads the lines of a section before its first H3: the research
// thread's fields, the predictions table and its details, ID tables, and an
// explicit empty state.
func (ps *parseState) preamble(sec *ParsedSection, l0, l1 int) {
	d := ps.d
	if sec.Section == delta.ResearchThread {
		it := &ParsedItem{ID: "RT", Label: sec.Title, Section: sec.Section, Pos: sec.Pos, Start: sec.Start, End: sec.End}
		b := &itemB{it: it, art: &Item{ID: "RT", Section: sec.Section, Fields: jsonv.NewObject()}}
		ps.scanFields(b, l0, l1, false)
		if len(it.Fields) > 0 {
			ps.builders = append(ps.builders, b)
		}
	}
	sawTable := false
	for li := l0; li <= l1 && li < len(d.lines); li++ {
		ln := d.lines[li]
		switch ln.kind {
		case lnTable:
			t := ps.tableAt(li)
			if t == nil {
				continue
			}
			switch {
			case sec.Section == delta.PredictionsTable && !sawTable && ps.p.Table == nil:
				ps.predictionsTable(sec, t)
			case sec.Section != delta.PredictionsTable && sec.Section != delta.ResearchThread && len(t.header) > 1 && isIDHeader(t.header[0].text):
				ps.idTable(sec, t)
			}
			sawTable = true
			li = t.l1
		case lnText:
			s := string(ps.src[ln.start:ln.end])
			t := strings.TrimSpace(s)
			if sec.Section == delta.PredictionsTable {
				if m := detailsRE.FindStringSubmatch(t); m != nil {
					if b := ps.rowByID(m[1]); b != nil {
						li = ps.scanFields(b, li+1, l1, true) - 1
					}
					continue
				}
			}
			if sec.Empty == "" && emptyStateRE.MatchString(t) {
				sec.Empty = t
			}
		}
	}
}

func isIDHeader(s string) bool {
	n := normLabel(stripBold(s))
	return n == "id" || n == "#"
}

// tableAt returns the table whose first line is li (nil when none).
func (ps *parseState) tableAt(li int) *table {
	for i := range ps.d.tables {
		if ps.d.tables[i].l0 == li {
			return &ps.d.tables[i]
		}
	}
	return nil
}

func (ps *parseState) rowByID(id string) *itemB {
	for _, b := range ps.rows {
		if b.it.ID == id {
			return b
		}
	}
	return nil
}

var (
	itemIDRE    = regexp.MustCompile(`^([A-Z][A-Za-z]{0,2}[0-9]{1,9}(?:\.[A-Z][A-Za-z]?[0-9]{1,9})?)(?:$|[\s:.\-–—(])`)
	scoreSufRE  = regexp.MustCompile(`\s*\(Score:[^()]*\)$`)
	hypColRE    = regexp.MustCompile(`^(?i)h([0-9]{1,9})\b`)
	rowIDRE     = regexp.MustCompile(`^[A-Z][A-Za-z]{0,2}[0-9]{1,9}(?:\.[A-Z][A-Za-z]?[0-9]{1,9})?$`)
	thirdAltSuf = " (Third Alternative)"
)

// parseItemHeading reads "H1: Name", "~~H2: Name~~ [KILLED]",
// "T1: Name (Score: 10/12)", "H3: Name (Third Alternative)". An item with
// no id ("Critique 1: …") has ID "" and the text after the first ": " as
// its name. A test's "(Score: …)" stays in the name here; finish removes it
// when the test has a score line (render.go adds it only then).
func parseItemHeading(raw, sec string) (id, name string, killed, thirdAlt bool) {
	t := strings.TrimSpace(raw)
	if len(t) >= 8 && strings.EqualFold(t[len(t)-8:], "[KILLED]") {
		killed = true
		t = strings.TrimSpace(t[:len(t)-8])
	}
	if len(t) >= 4 && strings.HasPrefix(t, "~~") && strings.HasSuffix(t, "~~") {
		killed = true
		t = strings.TrimSpace(t[2 : len(t)-2])
	}
	if m := itemIDRE.FindStringSubmatch(t); m != nil {
		id = m[1]
		rest := t[len(id):]
		switch {
		case strings.HasPrefix(rest, ":"):
			name = strings.TrimSpace(rest[1:])
		default:
			r := strings.TrimSpace(rest)
			for _, sep := range []string{".", "-", "–", "—"} {
				if strings.HasPrefix(r, sep) {
					r = strings.TrimSpace(r[len(sep):])
					break
				}
			}
			name = r
		}
	} else if strings.HasPrefix(t, ":") {
		name = strings.TrimSpace(t[1:])
	} else if i := strings.Index(t, ": "); i > 0 && i <= 40 {
		name = strings.TrimSpace(t[i+2:])
	} else {
		name = t
	}
	switch sec {
	case delta.HypothesisSlate:
		if len(name) > len(thirdAltSuf) && strings.HasSuffix(name, thirdAltSuf) {
			name = strings.TrimSpace(name[:len(name)-len(thirdAltSuf)])
			thirdAlt = true
		}
	}
	return id, name, killed, thirdAlt
}

// colKey is the field key of a table column of section sec.
func colKey(sec, header string) (string, bool) {
	h := stripBold(strings.TrimSpace(header))
	n := normLabel(h)
	switch {
	case n == "id" || n == "#":
		return "id", false
	case sec == delta.PredictionsTable && (n == "observation/condition" || n == "observation / condition" || n == "condition" || n == "observation" || n == "condition/observation"):
		return "condition", false
	case sec == delta.PredictionsTable && hypColRE.MatchString(h):
		return "H" + hypColRE.FindStringSubmatch(h)[1], false
	}
	if li, ok := lookupLabel(sec, h); ok {
		return li.key, li.alias
	}
	return "", false
}

// predictionsTable reads the predictions table: one item per row.
func (ps *parseState) predictionsTable(sec *ParsedSection, t *table) {
	pt := &ParsedTable{}
	end := ps.d.lines[t.l1].end
	s := ps.d.lines[t.l0].start
	for s < end && (ps.src[s] == ' ' || ps.src[s] == '\t') {
		s++
	}
	pt.Pos = ps.li.Span(ps.file, s, end)
	for _, c := range t.header {
		pt.Header = append(pt.Header, c.text)
	}
	ps.p.Table = pt
	for _, li := range t.rows {
		b := ps.tableRow(sec, t, li)
		pt.Rows = append(pt.Rows, b.it)
		ps.rows = append(ps.rows, b)
	}
}

// idTable reads a table whose first column is ID as one item per row.
func (ps *parseState) idTable(sec *ParsedSection, t *table) {
	for _, li := range t.rows {
		b := ps.tableRow(sec, t, li)
		ps.builders = append(ps.builders, b)
	}
}

// tableRow makes the item of one table row. Its fields are the cells, keyed
// by column; the payload is built by finishRow (predictions need the
// hypotheses' kill states).
func (ps *parseState) tableRow(sec *ParsedSection, t *table, li int) *itemB {
	ln := ps.d.lines[li]
	s := ln.start
	for s < ln.end && (ps.src[s] == ' ' || ps.src[s] == '\t') {
		s++
	}
	cs := ps.d.cells(li)
	it := &ParsedItem{Section: sec.Section, Pos: ps.li.Span(ps.file, s, ln.end), Start: ln.start, End: ln.next}
	b := &itemB{it: it, art: &Item{Section: sec.Section, Fields: jsonv.NewObject()}}
	if len(cs) > 0 {
		it.Label = cs[0].text
		id := cs[0].text
		if u := unstrike(id); u != id {
			b.killed = true
			id = strings.TrimSpace(u)
		}
		if rowIDRE.MatchString(id) {
			it.ID = id
		}
	}
	it.Killed = b.killed
	b.art.ID = it.ID
	for i, c := range cs {
		label := ""
		if i < len(t.header) {
			label = t.header[i].text
		}
		key, alias := colKey(sec.Section, label)
		if i == 0 {
			key, alias = "id", false
		}
		val := c.text
		if b.killed && i > 0 {
			val = unstrike(val)
		}
		it.Fields = append(it.Fields, ParsedField{Label: label, Key: key, Alias: alias, Value: val, Form: "table",
			Pos: ps.li.Span(ps.file, c.start, c.end), ValuePos: ps.li.Span(ps.file, c.start, c.end)})
		b.raw = append(b.raw, fieldRaw{inline: val, listIndent: -1, table: true})
	}
	b.ncells = len(cs)
	return b
}

// rowPayload moves a row's cells into its payload before its details are
// read: condition, predictions (a cell "—" is no value) and the other
// columns. It marks the
// cell fields so that finish does not read them again.
func (ps *parseState) rowPayload(b *itemB) {
	it := b.it
	f := b.art.Fields
	preds := jsonv.NewObject()
	n := b.ncells
	for i := 0; i < n; i++ {
		c := &it.Fields[i]
		v := strings.TrimSpace(c.Value)
		if c.Key == "id" || v == "" || v == "—" {
			continue
		}
		switch {
		case c.Key == "condition":
			if !f.Has("condition") {
				f.Set("condition", decodeText(v))
			}
		case it.Section == delta.PredictionsTable && strings.HasPrefix(c.Key, "H") && hypColRE.MatchString(c.Key):
			// "N/A" (render.go's cell of a killed hypothesis) stays the
			// string "N/A": the stored value is not shown.
			preds.Set(c.Key, decodeText(v))
		case c.Key != "":
			if !f.Has(c.Key) {
				f.Set(c.Key, decodeInline(it.Section, c.Key, v))
			}
		default:
			if k := snakeKey(c.Label); k != "" && !f.Has(k) && !systemKey(k) {
				f.Set(k, decodeText(v))
			}
		}
	}
	if len(preds.Keys()) > 0 {
		f.Set("predictions", preds)
	}
	// The cells are done: finish reads only the fields after them.
	cells := append([]ParsedField(nil), it.Fields[:n]...)
	it.Fields = it.Fields[n:]
	b.raw = b.raw[n:]
	b.finish(ps)
	it.Fields = append(cells, it.Fields...)
	b.raw = nil
}

// finish builds the payloads, the artifact and the indexes.
func (ps *parseState) finish() {
	p := ps.p
	for _, b := range ps.builders {
		if b.ncells > 0 {
			ps.rowPayload(b)
		} else {
			b.finish(ps)
		}
	}
	for _, b := range ps.rows {
		ps.rowPayload(b)
	}
	var all []*itemB
	all = append(all, ps.builders...)
	all = append(all, ps.rows...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].it.Start < all[j].it.Start })
	a := p.Art
	for _, b := range all {
		it := b.it
		it.model = b.art
		p.Items = append(p.Items, it)
		if it.ID != "" {
			p.ByID[it.ID] = append(p.ByID[it.ID], it)
		}
		if it.Section == delta.ResearchThread {
			if a.RT == nil {
				a.RT = b.art
			}
			continue
		}
		a.Items[it.Section] = append(a.Items[it.Section], b.art)
	}
	for s, items := range a.Items {
		sort.SliceStable(items, func(i, j int) bool { return idLess(items[i].ID, items[j].ID) })
		a.Items[s] = items
	}
}

// ReadBack returns a as its rendering reads back: ParseMarkdown(a.Render()).Art.
// Compare a persisted artifact's Parsed.Art with ReadBack(compiled) rather
// than with the compiled artifact: the rendering loses what it cannot show
// (the stored value of an N/A cell, an anchors string that reads back as a
// list, a number written as a string, …; see parse_roundtrip_test.go), so
// only ReadBack(compiled) equals the parse of an untouched persisted file.
func ReadBack(a *Artifact) *Artifact {
	return ParseMarkdown(a.Render(), "").Art
}

// FileSession returns the session_id a persisted artifact declares, as
// Read reads it within lim ("" when there is none or the file is not
// read): enough to tell which thread it belongs to. Of a markdown file it
// parses the front matter only.
func FileSession(src []byte, fromJSON bool, lim limits.Parse) string {
	if fromJSON {
		if p := parseJSONObject(src, "", lim); p.Art != nil {
			return p.Art.SessionID
		}
		return ""
	}
	return frontSession(src, lim)
}

func frontSession(src []byte, lim limits.Parse) (id string) {
	defer func() {
		if recover() != nil {
			id = ""
		}
	}()
	if body.Guard(string(src), lim.Body()) != "" {
		return ""
	}
	p := &Parsed{Art: New(""), ByID: map[string][]*ParsedItem{}}
	ps := &parseState{src: src, li: diag.NewLineIndex(src), p: p}
	ps.frontMatter()
	ps.frontArt()
	return p.Art.SessionID
}
