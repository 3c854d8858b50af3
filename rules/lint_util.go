package rules

// Helpers shared by the artifact linter rules (lint_*.go,
// artifact_linter_spec_v0.1.md). Every helper tolerates a partial Parsed: a
// nil Art, items without positions, a missing Src.

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/diag"
)

// transcriptMax is the last section number of the Brenner transcript
// (artifact_linter_spec_v0.1.md, Anchor requirements: "currently 1-236").
const transcriptMax = 236

// alTitle, alOrder, alIDPattern and alIDForm index the section schema:
// each section's heading text (without "## n. "), 0-based position, item id
// convention (ES-003; plain P<n> is accepted beside P<n>.H<m>: see
// docs/divergences.md §5) and how that convention is written in messages.
var alTitle, alOrder, alIDPattern, alIDForm = func() (map[string]string, map[string]int, map[string]*regexp.Regexp, map[string]string) {
	title, order, pattern, form := map[string]string{}, map[string]int{}, map[string]*regexp.Regexp{}, map[string]string{}
	for i, sec := range schema.Sections {
		title[sec.ID], order[sec.ID], pattern[sec.ID], form[sec.ID] = sec.Title, i, sec.IDPattern, sec.IDForm
	}
	return title, order, pattern, form
}()

// alSection returns the first H2 section with id s, or nil.
func alSection(p *artifact.Parsed, s string) *artifact.ParsedSection {
	for i := range p.Sections {
		if p.Sections[i].Section == s {
			return &p.Sections[i]
		}
	}
	return nil
}

// alItems returns the items of section s in document order, killed ones
// included. For the predictions table the table rows are used when the
// parser kept them apart from Items.
func alItems(p *artifact.Parsed, s string) []*artifact.ParsedItem {
	var out []*artifact.ParsedItem
	for _, it := range p.Items {
		if it != nil && it.Section == s {
			out = append(out, it)
		}
	}
	if len(out) == 0 && s == delta.PredictionsTable && p.Table != nil {
		for _, r := range p.Table.Rows {
			if r != nil {
				out = append(out, r)
			}
		}
	}
	return out
}

// alActive returns the non-killed items of section s.
func alActive(p *artifact.Parsed, s string) []*artifact.ParsedItem {
	var out []*artifact.ParsedItem
	for _, it := range alItems(p, s) {
		if !it.Killed {
			out = append(out, it)
		}
	}
	return out
}

// alRT returns the research thread item, or nil.
func alRT(p *artifact.Parsed) *artifact.ParsedItem {
	for _, it := range p.Items {
		if it != nil && it.Section == delta.ResearchThread {
			return it
		}
	}
	return nil
}

// alLabel is an item's heading text, trimmed and on one line.
func alLabel(it *artifact.ParsedItem) string {
	l := diag.CollapseSpace(it.Label)
	if l == "" {
		l = diag.CollapseSpace(it.Name)
	}
	return l
}

// alName names an item in a message: its id, else its quoted heading.
func alName(it *artifact.ParsedItem) string {
	if it.Section == delta.ResearchThread {
		return "The research thread"
	}
	if it.ID != "" {
		return it.ID
	}
	if l := alLabel(it); l != "" {
		return fmt.Sprintf("Item %q", alClip(l, 60))
	}
	return "An item without an id"
}

// alKey identifies an item in an anchor (never a line number).
func alKey(it *artifact.ParsedItem) string {
	if it.Section == delta.ResearchThread {
		return "RT"
	}
	if it.ID != "" {
		return it.ID
	}
	return alLabel(it)
}

// anchor builds a finding anchor from the rule id and stable parts.
func (c *Ctx) anchor(parts ...string) string {
	out := []string{c.rule.ID}
	for _, p := range parts {
		if p = diag.CollapseSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

// alClip shortens s to n runes for a message, its credentials redacted
// first (cut short, a credential no longer looks like one).
func alClip(s string, n int) string {
	s = diag.CollapseSpace(diag.RedactSecrets(s))
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// alText is a field's whole value: the inline value and its list items.
func alText(f *artifact.ParsedField) string {
	if f == nil {
		return ""
	}
	parts := []string{}
	if v := strings.TrimSpace(f.Value); v != "" {
		parts = append(parts, v)
	}
	for _, l := range f.List {
		if l = strings.TrimSpace(l); l != "" && !strings.Contains(f.Value, l) {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "\n")
}

// alBlank reports whether a value says nothing: empty, or only a dash.
func alBlank(s string) bool {
	switch strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "*_")) {
	case "", "—", "–", "-", "--":
		return true
	}
	return false
}

// alFieldPos is the position of a field's label (its value when the label
// has none), falling back to the item.
func alFieldPos(it *artifact.ParsedItem, f *artifact.ParsedField) diag.Pos {
	if f != nil && f.Pos.Line > 0 {
		return f.Pos
	}
	if f != nil && f.ValuePos.Line > 0 {
		return f.ValuePos
	}
	return it.Pos
}

// alNorm normalises a label for comparison.
func alNorm(s string) string {
	s = strings.ToLower(diag.CollapseSpace(s))
	return strings.TrimRight(strings.TrimSpace(s), ":")
}

// alAliases are non-standard labels met in real artifacts, per section and
// canonical key, used when the parser did not map them itself.
var alAliases = map[string]map[string][]string{
	delta.ResearchThread: {
		"statement": {"question", "research question", "research thread", "statement", "problem"},
		"context":   {"background"},
	},
	delta.HypothesisSlate: {
		"claim":     {"statement", "hypothesis", "claims"},
		"mechanism": {"mechanisms", "how it works"},
		"anchors":   {"anchor", "citations", "sources"},
	},
	delta.DiscriminativeTests: {
		"procedure":         {"design", "method", "protocol", "experiment"},
		"expected_outcomes": {"expected outcome", "expected results", "outcomes", "predictions"},
		"potency_check":     {"potency", "potency control", "potency controls", "controls"},
	},
	delta.AssumptionLedger: {
		"statement":   {"assumption", "claim"},
		"calculation": {"calculations", "numbers"},
	},
	delta.AnomalyRegister: {
		"observation":    {"observations", "anomaly"},
		"conflicts_with": {"conflicts", "conflict", "challenges"},
	},
	delta.AdversarialCritique: {
		"attack": {"critique", "challenge", "argument"},
	},
}

// alFind returns the field of it with canonical key, or a field whose label
// is one of the accepted labels, or (alias true) a field written under a
// known non-standard label.
func alFind(it *artifact.ParsedItem, key string, accept ...string) (f *artifact.ParsedField, alias bool) {
	if it == nil {
		return nil, false
	}
	ok := func(fl *artifact.ParsedField) bool {
		for _, a := range accept {
			if alNorm(fl.Label) == alNorm(a) {
				return true
			}
		}
		return false
	}
	// The canonical key, written canonically (or under an accepted label).
	for i := range it.Fields {
		fl := &it.Fields[i]
		if fl.Key == key && (!fl.Alias || ok(fl)) {
			return fl, false
		}
	}
	for i := range it.Fields {
		if fl := &it.Fields[i]; ok(fl) {
			return fl, false
		}
	}
	for i := range it.Fields {
		if fl := &it.Fields[i]; fl.Key == key {
			return fl, true
		}
	}
	for i := range it.Fields {
		fl := &it.Fields[i]
		if fl.Key != "" {
			continue
		}
		for _, a := range alAliases[it.Section][key] {
			if alNorm(fl.Label) == a {
				return fl, true
			}
		}
	}
	return nil, false
}

// alRequire reports a required field of an item that is missing, empty or
// written under another label; it reports nothing and returns the field
// when it is present. label is the spec's label ("Claim"); accept lists
// other labels that are fine.
func alRequire(c *Ctx, it *artifact.ParsedItem, key, label, hint string, accept ...string) *artifact.ParsedField {
	f, alias := alFind(it, key, accept...)
	name := alName(it)
	switch {
	case f == nil:
		c.reportAt(it.Pos, fmt.Sprintf("%s has no **%s** field.", name, label),
			hint, c.anchor(alKey(it), key))
		return nil
	case alias:
		c.reportAt(alFieldPos(it, f), fmt.Sprintf("%s uses **%s** instead of **%s**.", name, strings.TrimSpace(f.Label), label),
			fmt.Sprintf("Rename the field to \"**%s**:\" (artifact_schema_v0.1.md); tools read only the standard label.", label),
			c.anchor(alKey(it), key, "alias", f.Label))
		return nil
	case alBlank(alText(f)):
		c.reportAt(alFieldPos(it, f), fmt.Sprintf("%s has an empty **%s** field.", name, label), hint, c.anchor(alKey(it), key, "empty"))
		return nil
	}
	return f
}

// alTrue reports whether a flag field ("**Scale check**: true") is set.
func alTrue(it *artifact.ParsedItem, key string) bool {
	f, _ := alFind(it, key)
	if f == nil {
		return false
	}
	switch strings.ToLower(strings.Trim(strings.TrimSpace(alText(f)), "*_~")) {
	case "true", "yes":
		return true
	}
	return false
}

// alArtItem returns the model item behind a parsed item, or nil.
func alArtItem(p *artifact.Parsed, it *artifact.ParsedItem) *artifact.Item {
	if p.Art == nil || it == nil || it.ID == "" {
		return nil
	}
	if it.Section == delta.ResearchThread {
		return p.Art.RT
	}
	return p.Art.Find(it.Section, it.ID)
}

// alArtFlag reports whether the model item has boolean field k set.
func alArtFlag(p *artifact.Parsed, it *artifact.ParsedItem, k string) bool {
	v := alArtItem(p, it).Get(k)
	return v != nil && v.Kind == jsonv.Bool && v.Bool
}

// ---- front matter ----

// alScalar returns a front matter value as text; ok is false for lists and
// maps. nil gives "".
func alScalar(f *artifact.FrontField) (string, bool) {
	switch v := f.Value.(type) {
	case nil:
		return strings.TrimSpace(alUnquote(f.Raw)), true
	case string:
		return v, true
	case []any, map[string]any, map[any]any:
		return "", false
	default:
		if f.Raw != "" {
			return alUnquote(f.Raw), true
		}
		return fmt.Sprint(v), true
	}
}

func alUnquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) < 2 {
		return s
	}
	switch {
	case s[0] == '"' && s[len(s)-1] == '"':
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
		return s[1 : len(s)-1]
	case s[0] == '\'' && s[len(s)-1] == '\'':
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}

// alFrontPos is where to report a front matter field: its value, else its key.
func alFrontPos(p *artifact.Parsed, f *artifact.FrontField) diag.Pos {
	if f != nil && f.Pos.Line > 0 {
		return f.Pos
	}
	if f != nil && f.KeyPos.Line > 0 {
		return f.KeyPos
	}
	if p.FrontPos.Line > 0 {
		return diag.Pos{File: p.FrontPos.File, Line: p.FrontPos.Line, Col: 1}
	}
	return diag.Pos{Line: 1, Col: 1}
}

// ---- text scanning ----

// alLines is a line index of the artifact source, built once per check.
var commentRE = regexp.MustCompile(`(?s)<!--(.*?)-->`)

func alLines(p *artifact.Parsed) *diag.LineIndex { return diag.NewLineIndex(p.Src) }

var alFenceRE = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")

// alSpans returns the byte ranges of the artifact body to scan for
// citations: after the front matter, outside fenced code blocks and HTML
// comments.
func alSpans(p *artifact.Parsed) [][2]int {
	src := p.Src
	start := 0
	if p.HasFrontMatter || len(src) >= 3 && string(src[:3]) == "---" {
		start = alFrontEnd(p)
	}
	var spans [][2]int
	var fence string
	spanStart := start
	for off := start; off < len(src); {
		nl := bytes.IndexByte(src[off:], '\n')
		end := len(src)
		if nl >= 0 {
			end = off + nl + 1
		}
		line := strings.TrimRight(string(src[off:end]), "\r\n")
		if fence == "" {
			if t := strings.TrimLeft(line, " "); !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "~~~") {
				// not a fence: no need for the regexp
			} else if m := alFenceRE.FindStringSubmatch(line); m != nil {
				if off > spanStart {
					spans = append(spans, [2]int{spanStart, off})
				}
				fence = m[1]
			}
		} else if t := strings.TrimSpace(line); strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
			fence = ""
			spanStart = end
		}
		off = end
	}
	if fence == "" && spanStart < len(src) {
		spans = append(spans, [2]int{spanStart, len(src)})
	}
	// Cut out HTML comments.
	var out [][2]int
	for _, sp := range spans {
		s := string(src[sp[0]:sp[1]])
		pos := 0
		for _, m := range commentRE.FindAllStringIndex(s, -1) {
			if m[0] > pos {
				out = append(out, [2]int{sp[0] + pos, sp[0] + m[0]})
			}
			pos = m[1]
		}
		if pos < len(s) {
			out = append(out, [2]int{sp[0] + pos, sp[1]})
		}
	}
	return out
}

// alFrontEnd is the byte offset just after the front matter.
func alFrontEnd(p *artifact.Parsed) int {
	src := p.Src
	if p.FrontPos.EndLine > 0 {
		li := alLines(p)
		return li.LineStart(p.FrontPos.EndLine + 1)
	}
	if len(src) < 3 || string(src[:3]) != "---" {
		return 0
	}
	off := bytes.IndexByte(src, '\n')
	if off < 0 {
		return len(src)
	}
	off++
	for off < len(src) {
		nl := bytes.IndexByte(src[off:], '\n')
		end := len(src)
		if nl >= 0 {
			end = off + nl + 1
		}
		if l := strings.TrimRight(string(src[off:end]), "\r\n"); l == "---" || l == "..." {
			return end
		}
		off = end
	}
	return 0
}

// alMatch is one regexp match in the artifact source.
type alMatch struct {
	Start, End int
	Groups     []string // submatches ("" when absent)
}

// alScan finds re in the scannable text of the artifact.
func alScan(p *artifact.Parsed, re *regexp.Regexp) []alMatch {
	var out []alMatch
	for _, sp := range alSpans(p) {
		s := string(p.Src[sp[0]:sp[1]])
		for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
			am := alMatch{Start: sp[0] + m[0], End: sp[0] + m[1]}
			for g := 2; g+1 < len(m); g += 2 {
				if m[g] < 0 {
					am.Groups = append(am.Groups, "")
				} else {
					am.Groups = append(am.Groups, s[m[g]:m[g+1]])
				}
			}
			out = append(out, am)
		}
	}
	return out
}

// alHas reports whether re matches the artifact source outside fenced
// code, stopping at the first match.
func alHas(p *artifact.Parsed, re *regexp.Regexp) bool {
	_, ok := alFirst(p, re)
	return ok
}

// alFirst returns re's first match in the artifact source outside fenced
// code.
func alFirst(p *artifact.Parsed, re *regexp.Regexp) (alMatch, bool) {
	for _, sp := range alSpans(p) {
		if m := re.FindIndex(p.Src[sp[0]:sp[1]]); m != nil {
			return alMatch{Start: sp[0] + m[0], End: sp[0] + m[1]}, true
		}
	}
	return alMatch{}, false
}

// alBlock is the source text of an item (its heading to its end), or its
// label and field values when the source is not available.
func alBlock(p *artifact.Parsed, it *artifact.ParsedItem) string {
	if it.End > it.Start && it.Start >= 0 && it.End <= len(p.Src) {
		return string(p.Src[it.Start:it.End])
	}
	var b strings.Builder
	b.WriteString(it.Label)
	for i := range it.Fields {
		b.WriteString("\n" + it.Fields[i].Label + ": " + alText(&it.Fields[i]))
	}
	return b.String()
}

// ---- anchors ----

const (
	alTranscriptRef = `§\s*\d+(?:\s*[-–]\s*§?\s*\d+)?(?:\s*\(quote\))?`
	alEvidenceRef   = `EV-\d+(?:#E\d+)?`
	alRef           = `(?:` + alTranscriptRef + `|` + alEvidenceRef + `)`
	alInf           = `\[(?i:inference)\]`
	alElem          = `(?:` + alRef + `(?:\s*` + alInf + `)?` +
		`|` + alInf + `(?:\s+from\s+` + alRef + `)?` +
		`|\[(?i:axiomatic)\]|\[(?i:external):[^\]\n]+\])`
)

// alAnchorsRE is the Anchors Field Contract (artifact_schema_v0.1.md) plus
// the linter spec's provenance markers: a comma-separated list of §n, §n-m,
// §n-§m, EV-nnn, EV-nnn#En (each optionally followed by [inference]),
// "[inference] from §n", [inference], [axiomatic], [external: source]; or the
// literal "inference" alone.
var alAnchorsRE = regexp.MustCompile(`^(?:(?i:inference)|` + alElem + `(?:\s*[,;]\s*` + alElem + `)*(?:\s*` + alInf + `)?)$`)

// alAnchorsValue is an Anchors field's value on one line.
func alAnchorsValue(f *artifact.ParsedField) string {
	v := strings.ReplaceAll(alText(f), "\n", ", ")
	v = strings.TrimSpace(v)
	v = strings.TrimSuffix(v, ".")
	return strings.TrimSpace(v)
}

// alValidAnchors reports whether an Anchors value follows the contract.
func alValidAnchors(v string) bool { return alAnchorsRE.MatchString(strings.TrimSpace(v)) }

var (
	alSectionNumRE = regexp.MustCompile(`§\s*(\d+)(?:\s*[-–]\s*§?\s*(\d+))?`)
	alEvidenceRE   = regexp.MustCompile(`\bEV-(\d+)(?:#(E\d+))?`)
	alInferenceRE  = regexp.MustCompile(`(?i)\binference\b`)
	alThirdAltRE   = regexp.MustCompile(`(?i)third\s+alternative`)
	alScaleRE      = regexp.MustCompile(`(?i)\b(scale|physics)\b`)
	alHypRefRE     = regexp.MustCompile(`\bH\d+\b`)
	alLeadingHypRE = regexp.MustCompile(`^\s*\**\s*([Hh]\d+)\b`)
	alFirstWordRE  = regexp.MustCompile(`^[\s*_~]*([A-Za-z-]+)`)
	alScoreHeadRE  = regexp.MustCompile(`(?i)\(\s*score\s*:\s*(\d+(?:\.\d+)?)\s*/\s*12\s*\)`)
	alProvenanceRE = regexp.MustCompile(`§\s*\d|\bEV-\d|(?i:\binference\b)|(?i:\[axiomatic\])|(?i:\[external:)`)
	alQuoteCitesRE = regexp.MustCompile(`["“][^"”\n]{8,}["”]\s*[(\[]?\s*(?:[—–-]\s*)?§\s*\d|§\s*\d+\s*\(\s*["“][^"”\n]{8,}["”]`)
	alBlockquoteRE = regexp.MustCompile(`(?m)^\s{0,3}>.*§\s*\d`)
)

// alFirstWord is the first word of a value, lower case ("verified (…)" → "verified").
func alFirstWord(s string) string {
	m := alFirstWordRE.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return strings.ToLower(m[1])
}

// alIsThirdAlt reports whether a hypothesis is the third alternative: its
// heading says "third alternative", or it carries the flag (as a field or in
// the model).
func alIsThirdAlt(p *artifact.Parsed, it *artifact.ParsedItem) bool {
	return alThirdAltRE.MatchString(it.Label) || alThirdAltRE.MatchString(it.Name) ||
		alTrue(it, "third_alternative") || alArtFlag(p, it, "third_alternative")
}

// alIsScaleCheck reports whether an assumption is a scale/physics check: the
// word "scale" or "physics" in its heading, or the scale_check flag.
func alIsScaleCheck(p *artifact.Parsed, it *artifact.ParsedItem) bool {
	return alScaleRE.MatchString(it.Label) || alScaleRE.MatchString(it.Name) ||
		alTrue(it, "scale_check") || alArtFlag(p, it, "scale_check")
}

// alList renders ids as "H1, H2 and H3".
func alList(ids []string) string {
	switch len(ids) {
	case 0:
		return ""
	case 1:
		return ids[0]
	}
	return strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1]
}

// alSectionPos is where to report about a section: its heading.
func alSectionPos(sec *artifact.ParsedSection) diag.Pos {
	if sec == nil {
		return diag.Pos{Line: 1, Col: 1}
	}
	return sec.Pos
}

// alWhere names the item holding byte offset off of the source, for
// anchors ("H2"; "" outside any item): the innermost item that spans it.
func alWhere(p *artifact.Parsed, off int) string {
	var best *artifact.ParsedItem
	for _, it := range p.Items {
		if it == nil || it.End <= it.Start || off < it.Start || off >= it.End {
			continue
		}
		if best == nil || it.End-it.Start < best.End-best.Start {
			best = it
		}
	}
	if best == nil {
		return ""
	}
	return alKey(best)
}
