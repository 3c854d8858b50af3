package rules

// ES-/WS-: structure across sections (artifact_linter_spec_v0.1.md,
// Structure): the seven sections, their order, item ids.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/diag"
)

var structureRules = []Rule{
	{ID: "ES-001", Name: "section-missing", Code: "SECTION_MISSING", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Structure (S)",
		Short: "All seven required sections are present.",
		Full: "An artifact has the seven H2 sections 1. Research Thread, 2. Hypothesis Slate, 3. Predictions " +
			"Table, 4. Discriminative Tests, 5. Assumption Ledger, 6. Anomaly Register, 7. Adversarial Critique. " +
			"A missing section is reported at the place it belongs; the rules about its content then stay " +
			"silent. A missing Anomaly Register is reported by EX-001 instead, so it is reported once." + divergeArt,
		Check: checkSectionsPresent},
	{ID: "ES-002", Name: "section-order", Code: "SECTION_ORDER", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Structure (S)",
		Short: "Sections come once each, in the order 1-7, numbered as the spec numbers them.",
		Full:  "The seven sections must appear in the spec's order, each once, and a numbered heading must carry the spec's number (\"## 3. Hypothesis Slate\" is reported). Extra sections (a validation checklist, a version history) are allowed anywhere.",
		Check: checkSectionOrder},
	{ID: "ES-003", Name: "item-id-invalid", Code: "ITEM_ID_INVALID", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Structure (S)",
		Short: "Every item id follows its section's naming convention.",
		Full:  "Items are headed \"### <id>: Name\" with the section's prefix: H<n>, T<n>, A<n>, X<n>, C<n>; prediction rows start with P<n> or P<n>.H<m>. The spec's regex allows only P<n>.H<m>, but its schema examples and every renderer use P1, P2, so plain P<n> is accepted. An item without an id (\"### Critique 1: …\") or with another section's prefix is reported." + divergeArt,
		Check: checkItemIDs},
	{ID: "ES-004", Name: "item-id-duplicate", Code: "ITEM_ID_DUPLICATE", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Structure (S)",
		Short: "No item id is used twice.",
		Full:  "Item ids are stable and never shared: two items (or two prediction rows) with the same id make references ambiguous. The second one is reported.",
		Check: checkDuplicateIDs},
	{ID: "WS-001", Name: "item-id-gap", Code: "ITEM_ID_GAP", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Structure (S)",
		Short: "Item ids of a section are sequential, without gaps.",
		Full:  "Ids are assigned in order and killed items keep theirs (struck through), so H1, H2, H4 means an item was deleted or an id skipped. Document order is not checked (tests are ordered by score).",
		Check: checkIDGaps},
}

// alMissingPos is where a missing section belongs: the heading of the next
// section present, else the end of the document.
func alMissingPos(p *artifact.Parsed, s string) diag.Pos {
	want := alOrder[s]
	var best *artifact.ParsedSection
	for i := range p.Sections {
		sec := &p.Sections[i]
		if sec.Section == "" {
			continue
		}
		if o := alOrder[sec.Section]; o > want && (best == nil || o < alOrder[best.Section]) {
			best = sec
		}
	}
	if best != nil {
		return best.Pos
	}
	if len(p.Src) > 0 {
		li := alLines(p)
		end := len(p.Src)
		for end > 0 && (p.Src[end-1] == '\n' || p.Src[end-1] == '\r') {
			end--
		}
		return li.Span(p.File, end, end)
	}
	return diag.Pos{Line: 1, Col: 1}
}

// checkSectionsPresent: ES-001. The anomaly register has its own rule
// (EX-001), so a missing register is reported once, there.
func checkSectionsPresent(c *Ctx) {
	for i, s := range delta.Sections {
		if s == delta.AnomalyRegister || alSection(c.P, s) != nil {
			continue
		}
		h := artifact.Heading(s)
		c.reportAt(alMissingPos(c.P, s), fmt.Sprintf("The artifact has no %q section.", strings.TrimPrefix(h, "## ")),
			fmt.Sprintf("Add the heading %q (section %d of 7) and its content, even if it starts empty.", h, i+1), c.anchor(s))
	}
}

// checkSectionOrder: ES-002. Sections must come in the order 1-7, each
// once, numbered as the spec numbers them.
func checkSectionOrder(c *Ctx) {
	seen := map[string]*artifact.ParsedSection{}
	var last *artifact.ParsedSection
	for i := range c.P.Sections {
		sec := &c.P.Sections[i]
		if sec.Section == "" {
			continue
		}
		name := alTitle[sec.Section]
		want := alOrder[sec.Section] + 1
		if prev := seen[sec.Section]; prev != nil {
			c.reportAt(sec.Pos, fmt.Sprintf("Section %q appears a second time (first at line %d).", name, prev.Pos.Line),
				"Merge the two sections into one: an artifact has each of the seven sections exactly once.", c.anchor(sec.Section, "duplicate"))
			continue
		}
		seen[sec.Section] = sec
		if last != nil && alOrder[sec.Section] < alOrder[last.Section] {
			c.reportAt(sec.Pos, fmt.Sprintf("Section %q (section %d) comes after %q (section %d).", name, want, alTitle[last.Section], alOrder[last.Section]+1),
				"Put the sections in the spec's order: 1. Research Thread, 2. Hypothesis Slate, 3. Predictions Table, 4. Discriminative Tests, 5. Assumption Ledger, 6. Anomaly Register, 7. Adversarial Critique.",
				c.anchor(sec.Section, "order"))
		} else {
			last = sec
		}
		if sec.Number != 0 && sec.Number != want {
			c.reportAt(sec.Pos, fmt.Sprintf("Section %q is numbered %d; it is section %d.", name, sec.Number, want),
				fmt.Sprintf("Write the heading as %q.", artifact.Heading(sec.Section)), c.anchor(sec.Section, "number"))
		}
	}
}

// alIDSection returns the section whose id convention id follows ("" when none).
func alIDSection(id string) string {
	for _, s := range delta.Sections {
		if alIDPattern[s].MatchString(id) {
			return s
		}
	}
	return ""
}

// checkItemIDs: ES-003.
func checkItemIDs(c *Ctx) {
	for _, s := range delta.Sections {
		if s == delta.ResearchThread {
			continue
		}
		for _, it := range alItems(c.P, s) {
			id := strings.TrimSpace(it.ID)
			if alIDPattern[s].MatchString(id) {
				continue
			}
			where := alTitle[s]
			form := alIDForm[s]
			hint := fmt.Sprintf("Head the item \"### %s: Name\" with the next free id (artifact_schema_v0.1.md, Item ID Conventions).", strings.Fields(form)[0])
			if s == delta.PredictionsTable {
				hint = "Start the row with its id in the ID column: P<n>, or P<n>.H<m> for a prediction scoped to one hypothesis."
			}
			written := id
			if written == "" {
				written = alWrittenID(it, s)
			}
			switch other := alIDSection(id); {
			case id == "" && written != "":
				c.reportAt(it.Pos, fmt.Sprintf("Item id %q in the %s does not follow the naming convention %s.", alClip(written, 30), where, form), hint, c.anchor(s, written))
			case id == "":
				c.reportAt(it.Pos, fmt.Sprintf("%s in the %s has no item id (expected %s).", alName(it), where, form), hint, c.anchor(s, alKey(it)))
			case other != "":
				c.reportAt(it.Pos, fmt.Sprintf("Item %s is in the %s, but its prefix belongs to the %s (expected %s).", id, where, alTitle[other], form),
					"Move the item to its section, or give it an id of this section.", c.anchor(s, id))
			default:
				c.reportAt(it.Pos, fmt.Sprintf("Item id %q in the %s does not follow the naming convention %s.", alClip(id, 30), where, form), hint, c.anchor(s, id))
			}
		}
	}
}

// alWrittenID is what an item without a parsed id has in the id's place:
// the heading text before its colon ("H-003: Name" → "H-003"), or a row's
// first cell, when that is one word; "" otherwise ("Critique 1: Name").
func alWrittenID(it *artifact.ParsedItem, s string) string {
	l := strings.Trim(alLabel(it), "~ ")
	if s != delta.PredictionsTable {
		i := strings.IndexByte(l, ':')
		if i < 0 {
			return ""
		}
		l = strings.TrimSpace(l[:i])
	}
	if l == "" || len(l) > 20 || strings.ContainsAny(l, " \t") {
		return ""
	}
	return l
}

// checkDuplicateIDs: ES-004.
func checkDuplicateIDs(c *Ctx) {
	first := map[string]*artifact.ParsedItem{}
	for _, s := range delta.Sections {
		for _, it := range alItems(c.P, s) {
			id := strings.TrimSpace(it.ID)
			if id == "" || s == delta.ResearchThread {
				continue
			}
			prev := first[id]
			if prev == nil {
				first[id] = it
				continue
			}
			msg := fmt.Sprintf("Item id %s is used twice (first at line %d).", id, prev.Pos.Line)
			if prev.Pos.Line == 0 {
				msg = fmt.Sprintf("Item id %s is used twice.", id)
			}
			c.reportAt(it.Pos, msg, "Give the second item the next free id; ids are never shared or reused (artifact_schema_v0.1.md, ID Rules).", c.anchor(id))
		}
	}
}

// checkIDGaps: WS-001. Killed items keep their ids, so a gap means an item
// was deleted or an id skipped.
func checkIDGaps(c *Ctx) {
	for _, s := range delta.Sections {
		if s == delta.ResearchThread {
			continue
		}
		prefix := delta.Prefix[s]
		nums := map[int]*artifact.ParsedItem{}
		var order []int
		for _, it := range alItems(c.P, s) {
			id := strings.TrimSpace(it.ID)
			if !alIDPattern[s].MatchString(id) {
				continue
			}
			num := id[len(prefix):]
			if i := strings.IndexByte(num, '.'); i >= 0 {
				num = num[:i]
			}
			n, err := strconv.Atoi(num)
			if err != nil || n > 1e6 {
				continue
			}
			if nums[n] == nil {
				nums[n] = it
				order = append(order, n)
			}
		}
		if len(order) == 0 {
			continue
		}
		sort.Ints(order)
		var missing []string
		var at *artifact.ParsedItem
		next := 1
		for _, n := range order {
			if n > next {
				if at == nil {
					at = nums[n]
				}
				for k := next; k < n && len(missing) < 6; k++ {
					missing = append(missing, prefix+strconv.Itoa(k))
				}
			}
			next = n + 1
		}
		if at == nil {
			continue
		}
		shown := missing
		if len(shown) > 5 {
			shown = append(shown[:5:5], "…")
		}
		what := "is"
		if len(missing) > 1 {
			what = "are"
		}
		c.reportAt(at.Pos, fmt.Sprintf("%s ids are not sequential: %s %s missing.", alTitle[s], strings.Join(shown, ", "), what),
			"Number items without gaps (H1, H2, H3 …); keep killed items in place (struck through) instead of deleting them.",
			c.anchor(s, strings.Join(missing, ",")))
	}
}
