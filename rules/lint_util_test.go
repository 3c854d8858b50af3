package rules

// A builder for hand-made parsed artifacts, and helpers to run one artifact
// rule on them. The rule tests use it so that they do not depend on the
// markdown parser; lint_corpus_test.go and the golden fixtures run the
// parser.

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/diag"
)

// doc builds a Parsed line by line: every front field, heading, field and
// row takes the next line.
type doc struct {
	p    *artifact.Parsed
	line int
	sec  string
	last *artifact.ParsedItem
}

func newDoc() *doc {
	return &doc{p: &artifact.Parsed{File: "a.md", ByID: map[string][]*artifact.ParsedItem{}}, line: 1}
}

func (d *doc) pos() diag.Pos {
	d.line++
	return diag.Pos{File: d.p.File, Line: d.line, Col: 1, EndLine: d.line, EndCol: 10}
}

// front adds a front matter key (opening the block on first use).
func (d *doc) front(key string, value any) *doc {
	if !d.p.HasFrontMatter {
		d.p.HasFrontMatter = true
		d.p.FrontPos = diag.Pos{File: d.p.File, Line: 1, Col: 1}
	}
	raw := ""
	switch v := value.(type) {
	case string:
		raw = fmt.Sprintf("%q", v)
	case []any, map[string]any, nil:
	default:
		raw = fmt.Sprint(v)
	}
	pos := d.pos()
	d.p.Front = append(d.p.Front, artifact.FrontField{Key: key, Value: value, Raw: raw, Pos: pos, KeyPos: pos})
	d.p.FrontPos.EndLine = d.line + 1
	return d
}

// endFront closes the front matter block (a line of its own).
func (d *doc) endFront() *doc {
	if !d.p.HasFrontMatter {
		d.p.HasFrontMatter = true
		d.p.FrontPos = diag.Pos{File: d.p.File, Line: 1, Col: 1}
	}
	d.line++
	d.p.FrontPos.EndLine = d.line
	return d
}

// section adds "## n. Title" for section s (title "" → the spec's).
func (d *doc) section(s string) *doc {
	num := 0
	if s != "" {
		num = alOrder[s] + 1
	}
	return d.sectionAs(s, fmt.Sprintf("%d. %s", num, alTitle[s]), num)
}

func (d *doc) sectionAs(s, title string, num int) *doc {
	d.p.Sections = append(d.p.Sections, artifact.ParsedSection{Title: title, Number: num, Section: s, Pos: d.pos()})
	d.sec = s
	d.last = nil
	return d
}

// empty sets the current section's explicit empty-state text.
func (d *doc) empty(text string) *doc {
	d.p.Sections[len(d.p.Sections)-1].Empty = text
	d.line++
	return d
}

// item adds "### id: name" (killed when label starts with "~~").
func (d *doc) item(id, name string) *doc {
	label := name
	if id != "" {
		label = id + ": " + name
	}
	it := &artifact.ParsedItem{ID: id, Label: label, Name: name, Section: d.sec, Pos: d.pos(), Killed: strings.HasPrefix(name, "~~")}
	d.p.Items = append(d.p.Items, it)
	if id != "" {
		d.p.ByID[id] = append(d.p.ByID[id], it)
	}
	d.last = it
	return d
}

// rt adds the research thread item (fields follow).
func (d *doc) rt() *doc {
	it := &artifact.ParsedItem{ID: "RT", Section: delta.ResearchThread, Pos: d.p.Sections[len(d.p.Sections)-1].Pos}
	d.p.Items = append(d.p.Items, it)
	d.last = it
	return d
}

// f adds "**Label**: value" to the last item; key is the canonical key
// ("" when unknown); a label ending in "~" is an alias.
func (d *doc) f(key, label, value string) *doc {
	alias := strings.HasSuffix(label, "~")
	label = strings.TrimSuffix(label, "~")
	pos := d.pos()
	d.last.Fields = append(d.last.Fields, artifact.ParsedField{Label: label, Key: key, Value: value, Pos: pos, ValuePos: pos, Alias: alias, Form: "bold"})
	return d
}

// list adds a list field.
func (d *doc) list(key, label string, items ...string) *doc {
	pos := d.pos()
	d.line += len(items)
	d.last.Fields = append(d.last.Fields, artifact.ParsedField{Label: label, Key: key, List: items, Value: strings.Join(items, "\n"), Pos: pos, ValuePos: pos, Form: "bold"})
	return d
}

// table starts the predictions table with a header.
func (d *doc) table(header ...string) *doc {
	d.p.Table = &artifact.ParsedTable{Pos: d.pos(), Header: header}
	d.line++ // separator
	return d
}

// row adds a predictions row: cells in header order.
func (d *doc) row(cells ...string) *doc {
	id := strings.Trim(cells[0], "~")
	it := &artifact.ParsedItem{ID: id, Label: cells[0], Section: delta.PredictionsTable, Pos: d.pos(), Killed: strings.HasPrefix(cells[0], "~~")}
	for i, c := range cells {
		h := ""
		if i < len(d.p.Table.Header) {
			h = d.p.Table.Header[i]
		}
		key := ""
		switch {
		case i == 1:
			key = "condition"
		case alHypIDRE.MatchString(alColumnHyp(h)):
			key = alColumnHyp(h)
		}
		it.Fields = append(it.Fields, artifact.ParsedField{Label: h, Key: key, Value: c, Pos: it.Pos, ValuePos: it.Pos, Form: "table"})
	}
	d.p.Table.Rows = append(d.p.Table.Rows, it)
	d.p.Items = append(d.p.Items, it)
	d.p.ByID[id] = append(d.p.ByID[id], it)
	return d
}

// src sets the markdown source (for the rules that scan text).
func (d *doc) src(s string) *doc {
	d.p.Src = []byte(s)
	return d
}

// lint runs one artifact rule on p.
func lint(t testing.TB, id string, p *artifact.Parsed, ev *EvidencePack) []diag.Finding {
	t.Helper()
	m := Lookup(id)
	chk := artifactChecks[id]
	if m == nil || chk == nil {
		t.Fatalf("no artifact rule %s", id)
	}
	c := &Ctx{P: p, Evidence: ev, Thread: "RS-20251230-cell-fate", rule: m}
	chk(c)
	for _, f := range c.out {
		if f.Rule != id || f.Message == "" || f.Hint == "" || f.Anchor == "" || f.Pos.Line == 0 {
			t.Errorf("%s: incomplete finding %+v", id, f)
		}
		if strings.ContainsAny(f.Anchor, "\n") {
			t.Errorf("%s: anchor has a line break: %q", id, f.Anchor)
		}
	}
	return c.out
}

// msgs renders findings as "line: message" lines, sorted.
func msgs(fs []diag.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%d: %s", f.Pos.Line, f.Message))
	}
	sort.Strings(out)
	return out
}

// expect checks that rule id gives exactly the wanted messages (substrings,
// in line order) on p.
func expect(t *testing.T, id string, p *artifact.Parsed, ev *EvidencePack, want ...string) {
	t.Helper()
	got := lint(t, id, p, ev)
	sort.SliceStable(got, func(i, j int) bool { return got[i].Pos.Line < got[j].Pos.Line })
	if len(got) != len(want) {
		t.Errorf("%s: got %d findings, want %d:\n%s", id, len(got), len(want), strings.Join(msgs(got), "\n"))
		return
	}
	for i, w := range want {
		if !strings.Contains(got[i].Message, w) {
			t.Errorf("%s finding %d = %q, want it to contain %q", id, i, got[i].Message, w)
		}
	}
}

// fullDoc is a hand-built artifact that passes every rule.
func fullDoc() *doc {
	d := newDoc().front("session_id", "RS-20251230-cell-fate").front("created_at", "2025-12-30T19:00:00Z").
		front("updated_at", "2025-12-30T20:30:00Z").front("version", 2).front("contributors", []any{map[string]any{"agent": "GreenDog"}}).
		front("status", "active").endFront()
	d.section(delta.ResearchThread).rt().f("statement", "RT", "Lineage or gradient?").f("context", "Context", "Invariant lineage.").
		f("why_it_matters", "Why it matters", "Decides the experiments.").f("anchors", "Anchors", "§161, §205")
	d.section(delta.HypothesisSlate).
		item("H1", "Lineage").f("claim", "Claim", "Fate follows ancestry.").f("mechanism", "Mechanism", "Determinants partition.").f("anchors", "Anchors", "§161").
		item("H2", "Gradient").f("claim", "Claim", "Fate follows position.").f("mechanism", "Mechanism", "Cells read fields.").f("anchors", "Anchors", "§205, EV-001#E1").
		item("H3", "Third Alternative").f("claim", "Claim", "Neither.").f("how_this_could_be_true", "How this could be true", "Chromatin memory.").f("anchors", "Anchors", "§103 [inference]")
	d.section(delta.PredictionsTable).table("ID", "Observation/Condition", "H1", "H2 (gradient)", "H3").
		row("P1", "Early transplant", "Unchanged", "Changes", "indeterminate").
		row("P2", "Late transplant", "Unchanged", "Unchanged", "indeterminate").
		row("P3", "Ablation", "No effect", "Changes", "indeterminate")
	d.section(delta.DiscriminativeTests).
		item("T1", "Transplant (Score: 10/12)").f("procedure", "Procedure", "Transplant.").f("discriminates", "Discriminates", "H1 vs H2").
		list("expected_outcomes", "Expected outcomes", "If H1: lineage", "If H2: position").f("potency_check", "Potency check", "Late control (§50).").
		f("feasibility", "Feasibility", "Moderate.").f("score", "Evidence-per-week score", "LR=3, Cost=2, Speed=2, Ambiguity=3").
		item("T2", "Division block (Score: 8/12)").f("procedure", "Procedure", "Block division.").f("discriminates", "Discriminates", "H1 vs H2").
		list("expected_outcomes", "Expected outcomes", "If H1: fails", "If H2: normal").f("potency_check", "Potency check", "DNA content, per §48-52.").
		f("feasibility", "Feasibility", "Easy.").list("score", "Evidence-per-week score", "Likelihood ratio: 2 (10-100:1)", "Cost: 3", "Speed: 2", "Ambiguity: 1")
	d.section(delta.AssumptionLedger).
		item("A1", "Invariant lineage").f("statement", "Statement", "Same divisions.").f("load", "Load", "T1 breaks.").f("test", "Test", "Trace.").f("status", "Status", "verified (Sulston 1983)").
		item("A2", "Stable gradients").f("statement", "Statement", "Gradients persist.").f("load", "Load", "H2 breaks.").f("test", "Test", "Image.").f("status", "Status", "unchecked").
		item("A3", "Scale/Physics Check").f("statement", "Statement", "Diffusion time.").f("calculation", "Calculation", "τ ≈ L²/D ≈ 4 min").f("implication", "Implication", "Plausible.")
	d.section(delta.AnomalyRegister).empty("**None registered**: No observations currently conflict with the framing.")
	d.section(delta.AdversarialCritique).
		item("C1", "Anachronistic dichotomy").f("attack", "Attack", "Neither.").f("evidence", "Evidence", "scRNA-seq.").f("current_status", "Current status", "Moderate.").
		item("C2", "The real third alternative: chromatin").f("attack", "Attack", "Memory.").f("evidence", "Evidence that would confirm this~", "Partial fates.").f("current_status", "Current status", "High.")
	d.src("---\nsession_id: x\n---\n\n**Anchors**: §161, §205 and EV-001#E1\n\n> \"The most important thing is who were your ancestors.\" — §161\n")
	return d
}

// TestFullDocPasses: the hand-built complete artifact gives no finding of
// any artifact rule (with its evidence pack).
func TestFullDocPasses(t *testing.T) {
	p := fullDoc().p
	ev := &EvidencePack{File: "e.json", Records: map[string]map[string]bool{"EV-001": {"E1": true}}, Verified: map[string]bool{"EV-001": true}}
	for id := range artifactChecks {
		if fs := lint(t, id, p, ev); len(fs) > 0 {
			t.Errorf("%s on the complete artifact:\n%s", id, strings.Join(msgs(fs), "\n"))
		}
	}
}

// TestEmptyParsedNeverPanics: every rule runs on degenerate input.
func TestEmptyParsedNeverPanics(t *testing.T) {
	inputs := map[string]*artifact.Parsed{
		"zero":     {},
		"nil maps": {File: "x.md", Src: []byte("---\n---\n"), HasFrontMatter: true},
		"odd front": {File: "x.md", HasFrontMatter: true, Front: []artifact.FrontField{
			{Key: "session_id", Value: []any{1, 2}}, {Key: "created_at", Value: map[string]any{"a": 1}},
			{Key: "status", Value: nil}, {Key: "contributors", Value: "GreenDog"}, {Key: "version", Value: 1.5},
			{Key: "updated_at", Value: true}}},
		"items without sections": {File: "x.md", Items: []*artifact.ParsedItem{nil, {ID: "H1"}, {Section: delta.HypothesisSlate}},
			Table: &artifact.ParsedTable{Rows: []*artifact.ParsedItem{nil, {ID: "P1"}}}},
		"text": {File: "x.md", Src: []byte("§ §0 §99999999999999999999-1 EV- EV-1# ```\n§999\n<!-- §0")},
	}
	for name, p := range inputs {
		for id := range artifactChecks {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s panicked on %s: %v", id, name, r)
					}
				}()
				c := &Ctx{P: p, rule: Lookup(id)}
				artifactChecks[id](c)
			}()
		}
	}
}

func TestAnchorsContract(t *testing.T) {
	for v, ok := range map[string]bool{
		"§58, §127": true, "§161-§162 [inference]": true, "§58, EV-001#E1 [inference]": true, "EV-003": true,
		"inference": true, "Inference": true, "§42-45": true, "§42 (quote)": true, "[inference] from §42-45": true,
		"[inference]": true, "[axiomatic]": true, "[external: Smith 2024]": true, "EV-003#E1, [inference]": true,
		"§ 42, [inference]": true, "§42–45": true,
		"§230, §105, inference": false, "EV-001#E1 [verbatim], EV-002#E1": false, "§150 (\"completely isogenic\")": false,
		"[inference] — not directly supported": false, "": false, "see above": false, "§": false, "ev-001": false,
	} {
		if got := alValidAnchors(v); got != ok {
			t.Errorf("alValidAnchors(%q) = %v, want %v", v, got, ok)
		}
	}
}

func TestTimestamps(t *testing.T) {
	for v, ok := range map[string]bool{
		"2025-12-30T19:00:00Z": true, "2025-12-30": true, "2025-12-30T19:00:00.747Z": true, "2025-12-30T22:30:24.135064+00:00": true,
		"2025-12-30 19:00": true, "2025-12-30T19:00:00+0100": true,
		"Dec 30 2025": false, "not-a-timestamp": false, "2025-13-40": false, "": false, "2025-12-30T25:00:00Z": false,
	} {
		if _, got := alTimestamp(v); got != ok {
			t.Errorf("alTimestamp(%q) = %v, want %v", v, got, ok)
		}
	}
}

func TestSpansSkipFrontCodeComments(t *testing.T) {
	p := &artifact.Parsed{Src: []byte("---\na: §1\n---\nx §2\n```\n§3\n```\n<!-- §4 -->\n~~~~\n§5\n~~~~\n§6")}
	var got []string
	for _, m := range alScan(p, alSectionNumRE) {
		got = append(got, string(p.Src[m.Start:m.End]))
	}
	if strings.Join(got, " ") != "§2 §6" {
		t.Errorf("scanned %v, want [§2 §6]", got)
	}
}

// artifactChecks maps every artifact-scope rule to its check.
var artifactChecks = func() map[string]func(*Ctx) {
	m := map[string]func(*Ctx){}
	for _, r := range All() {
		if r.Scope == ScopeArtifact {
			m[r.ID] = r.Check
		}
	}
	return m
}()
