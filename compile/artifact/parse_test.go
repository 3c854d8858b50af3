package artifact

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// --- the value codec -------------------------------------------------------

func jv(t *testing.T, s string) *jsonv.Value {
	t.Helper()
	v, err := jsonv.Parse([]byte(s))
	if err != nil {
		t.Fatalf("bad JSON in test: %s: %v", s, err)
	}
	return v
}

func TestDecodeText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", `"plain"`},
		{"5", `5`},
		{"-2.5", `-2.5`},
		{"1500.0", `1500.0`},
		{"true", `true`},
		{"false", `false`},
		{"null", `"null"`}, // render.go never writes a null: the text "null" is a string
		{`"quoted"`, `"\"quoted\""`},
		{`{"a":1}`, `{"a":1}`},
		{`[1,"x"]`, `[1,"x"]`},
		{"a<br>b<br/>c<BR />d", `"a\nb\nc\nd"`},
		{"1500 m/s", `"1500 m/s"`},
		{"2025-12-30", `"2025-12-30"`},
		{"01", `"01"`},
		{"{not json", `"{not json"`},
		{"", `""`},
	}
	for _, c := range cases {
		if got := decodeText(c.in); !jsonv.Equal(got, jv(t, c.want)) || got.Kind != jv(t, c.want).Kind {
			t.Errorf("decodeText(%q) = %s, want %s", c.in, got.Text(), c.want)
		}
	}
	// Where render.go writes objects and arrays as lists, inline JSON is text.
	for _, c := range []struct{ in, want string }{{"5", `5`}, {"true", `true`}, {`{"a":1}`, `"{\"a\":1}"`}, {`[1]`, `"[1]"`}, {"x<br>y", `"x\ny"`}} {
		if got := decodeScalarText(c.in); !jsonv.Equal(got, jv(t, c.want)) {
			t.Errorf("decodeScalarText(%q) = %s, want %s", c.in, got.Text(), c.want)
		}
	}
	if !inlineJSON(delta.HypothesisSlate, "claim") || inlineJSON(delta.HypothesisSlate, "notes") || inlineJSON(delta.DiscriminativeTests, "expected_outcomes") || !inlineJSON(delta.PredictionsTable, "condition") {
		t.Error("inlineJSON disagrees with render.go's known table")
	}
}

func TestSplitList(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"§150, §155, §161", []string{"§150", "§155", "§161"}},
		{`§150 ("completely isogenic, because x"), §161 ("who, what")`, []string{`§150 ("completely isogenic, because x")`, `§161 ("who, what")`}},
		{"a (b, c), [d, e], {f, g}, h", []string{"a (b, c)", "[d, e]", "{f, g}", "h"}},
		{"“curly, quote”, x", []string{"“curly, quote”", "x"}},
		{`"esc \" , still", y`, []string{`"esc \" , still"`, "y"}},
		{" a ,, b , ", []string{"a", "b"}},
		{"a (unbalanced, b", []string{"a (unbalanced", "b"}},
		{"", nil},
		{"inference", []string{"inference"}},
	}
	for _, c := range cases {
		got := splitList(c.in)
		if fmt.Sprint(got) != fmt.Sprint(c.want) || len(got) != len(c.want) {
			t.Errorf("splitList(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseRefs(t *testing.T) {
	got := parseRefs(`RS-20251228-initial/C2 (extends), RS-x/C1, RS-y/C3 (), {"session":"a","item":"b","x":1}, free text`)
	want := jv(t, `[{"session":"RS-20251228-initial","item":"C2","relation":"extends"},{"session":"RS-x","item":"C1"},{"session":"RS-y","item":"C3","relation":""},{"session":"a","item":"b","x":1},"free text"]`)
	if !jsonv.Equal(got, want) {
		t.Errorf("parseRefs = %s", got.Text())
	}
}

func TestParseScore(t *testing.T) {
	cases := []struct{ in, want string }{
		{"LR=3, Cost=2, Speed=2, Ambiguity=3", `{"likelihood_ratio":3,"cost":2,"speed":2,"ambiguity":3}`},
		{`LR=0, Cost="3", Speed=true, Ambiguity={"a":1}, note=hello, n=2`, `{"likelihood_ratio":0,"cost":"3","speed":true,"ambiguity":{"a":1},"note":"hello","n":2}`},
		{`"high"`, `"high"`},
		{"7", `7`},
		{"10/12", `"10/12"`},
		{"LR=3, something else", `"LR=3, something else"`},
	}
	for _, c := range cases {
		if got := parseScoreInline(c.in); !jsonv.Equal(got, jv(t, c.want)) {
			t.Errorf("parseScoreInline(%q) = %s, want %s", c.in, got.Text(), c.want)
		}
	}
	v, ok := parseScoreList([]string{"Likelihood ratio: 3 (>100:1 — binary)", "Cost: 2 ($5K)", "Speed: 2", "Ambiguity: unclear"})
	if !ok || !jsonv.Equal(v, jv(t, `{"likelihood_ratio":3,"cost":2,"speed":2,"ambiguity":"unclear"}`)) {
		t.Errorf("parseScoreList = %s %t", v.Text(), ok)
	}
	if _, ok := parseScoreList([]string{"If H1: x"}); ok {
		t.Error("parseScoreList accepted a non-score list")
	}
}

func TestDecodeOutline(t *testing.T) {
	cases := []struct {
		key   string
		items []string
		want  string
	}{
		{"expected_outcomes", []string{"If H1: Fate unchanged", "H2: 3", "if H4: x: y"}, `{"H1":"Fate unchanged","H2":3,"H4":"x: y"}`},
		{"last_run", []string{"result_id: r-1", "exit_code: 0", "timed_out: false", "empty:"}, `{"result_id":"r-1","exit_code":0,"timed_out":false,"empty":""}`},
		{"x", []string{"a", "b: c"}, `["a","b: c"]`},
		{"x", []string{`{"k":"v: w"}`, "5"}, `[{"k":"v: w"},5]`},
		{"x", []string{"**H1**: bold key"}, `{"H1":"bold key"}`},
	}
	for _, c := range cases {
		if got := decodeOutline(c.key, c.items); !jsonv.Equal(got, jv(t, c.want)) {
			t.Errorf("decodeOutline(%q, %q) = %s, want %s", c.key, c.items, got.Text(), c.want)
		}
	}
}

func TestSnakeAndLabels(t *testing.T) {
	for in, want := range map[string]string{"Key prediction": "key_prediction", "Why it matters": "why_it_matters", "Notes": "notes", "A.b": "a.b", "  Spaced   out ": "spaced_out"} {
		if got := snakeKey(in); got != want {
			t.Errorf("snakeKey(%q) = %q, want %q", in, got, want)
		}
	}
	// Every label render.go writes maps back to its key, in its section.
	for sec, specs := range known {
		for _, fs := range specs {
			if fs.Label == "" || fs.Key == "quarantine_status" {
				continue
			}
			li, ok := lookupLabel(sec, fs.Label)
			if !ok || li.key != fs.Key || li.alias {
				t.Errorf("%s: label %q reads as %+v (%t), want key %q", sec, fs.Label, li, ok, fs.Key)
			}
		}
	}
}

// --- constructs, with exact positions --------------------------------------

// rg is a region "line:col-endline:endcol".
func rg(p diag.Pos) string {
	return fmt.Sprintf("%d:%d-%d:%d", p.Line, p.Col, p.EndLine, p.EndCol)
}

func item(t *testing.T, p *Parsed, id string) *ParsedItem {
	t.Helper()
	its := p.ByID[id]
	if len(its) != 1 {
		t.Fatalf("want one item %s, got %d (items: %v)", id, len(its), ids(p))
	}
	return its[0]
}

func ids(p *Parsed) []string {
	var out []string
	for _, it := range p.Items {
		out = append(out, it.ID+"/"+it.Label)
	}
	return out
}

func field(t *testing.T, it *ParsedItem, label string) *ParsedField {
	t.Helper()
	for i := range it.Fields {
		if it.Fields[i].Label == label {
			return &it.Fields[i]
		}
	}
	t.Fatalf("%s: no field %q", it.ID, label)
	return nil
}

type wantField struct {
	label, key, value string
	pos, vpos         string
	form              string
	alias             bool
	list              int
}

func checkFields(t *testing.T, it *ParsedItem, want []wantField) {
	t.Helper()
	if len(it.Fields) != len(want) {
		var got []string
		for _, f := range it.Fields {
			got = append(got, f.Label)
		}
		t.Fatalf("%s: %d fields %q, want %d", it.ID, len(it.Fields), got, len(want))
	}
	for i, w := range want {
		f := it.Fields[i]
		if f.Label != w.label || f.Key != w.key || f.Value != w.value || rg(f.Pos) != w.pos || rg(f.ValuePos) != w.vpos || f.Form != w.form || f.Alias != w.alias || len(f.List) != w.list {
			t.Errorf("%s field %d:\n got  %q key=%q value=%q pos=%s vpos=%s form=%s alias=%t list=%d\n want %q key=%q value=%q pos=%s vpos=%s form=%s alias=%t list=%d",
				it.ID, i, f.Label, f.Key, f.Value, rg(f.Pos), rg(f.ValuePos), f.Form, f.Alias, len(f.List),
				w.label, w.key, w.value, w.pos, w.vpos, w.form, w.alias, w.list)
		}
		if f.Pos.File != "x.md" || f.ValuePos.File != "x.md" {
			t.Errorf("%s field %d: file %q", it.ID, i, f.Pos.File)
		}
	}
}

func fieldsJSON(t *testing.T, it *Item, want string) {
	t.Helper()
	if !jsonv.Equal(it.Fields, jv(t, want)) {
		t.Errorf("%s fields %s\n want %s", it.ID, it.Fields.Text(), want)
	}
}

func TestBoldFields(t *testing.T) {
	src := "## 2. Hypothesis Slate\n\n### H1: Name\n**Claim**: The claim.\n**Mechanism**: Line one\ncontinues here.\n**Anchors**: §1, §2 (a, b)\n**Key prediction**: extra\n"
	p := ParseMarkdown([]byte(src), "x.md")
	if len(p.Sections) != 1 || rg(p.Sections[0].Pos) != "1:1-1:23" || p.Sections[0].Number != 2 || p.Sections[0].Section != delta.HypothesisSlate || p.Sections[0].Start != 0 || p.Sections[0].End != len(src) {
		t.Fatalf("sections %+v", p.Sections)
	}
	it := item(t, p, "H1")
	if rg(it.Pos) != "3:1-3:13" || it.Label != "H1: Name" || it.Name != "Name" || it.Start != 24 || it.End != len(src) || it.Section != delta.HypothesisSlate {
		t.Errorf("item %+v", it)
	}
	checkFields(t, it, []wantField{
		{"Claim", "claim", "The claim.", "4:1-4:11", "4:12-4:22", "bold", false, 0},
		{"Mechanism", "mechanism", "Line one\ncontinues here.", "5:1-5:15", "5:16-6:16", "bold", false, 0},
		{"Anchors", "anchors", "§1, §2 (a, b)", "7:1-7:13", "7:14-7:27", "bold", false, 0},
		{"Key prediction", "", "extra", "8:1-8:20", "8:21-8:26", "bold", false, 0},
	})
	fieldsJSON(t, p.Art.Find(delta.HypothesisSlate, "H1"), `{"name":"Name","claim":"The claim.","mechanism":"Line one\ncontinues here.","anchors":["§1","§2 (a, b)"],"key_prediction":"extra"}`)
}

func TestKilledItems(t *testing.T) {
	src := "## 2. Hypothesis Slate\n\n" +
		"### ~~H2: Gradient~~ [KILLED]\n" + // 3
		"**Claim**: ~~Struck claim.~~\n" + // 4
		"**Reason**: ~~payload reason~~\n" + // 5
		"**Killed by**: GreenDog (2026-01-02T20:00:11Z)\n" + // 6
		"**Reason**: Subsumed<br>by H3\n" + // 7
		"\n### ~~H3: Upstream~~\n" + // 9
		"**Claim**: Not struck.\n\n" + // 10
		"**Killed**: true\n" + // 12
		"**Killed by**: BlueLake\n" +
		"**Killed at**: 2026-01-02T20:00:11.5+00:00\n" +
		"**Kill reason**: Because.\n"
	p := ParseMarkdown([]byte(src), "x.md")
	h2 := item(t, p, "H2")
	if !h2.Killed || h2.Name != "Gradient" || rg(h2.Pos) != "3:1-3:30" {
		t.Errorf("H2 %+v", h2)
	}
	checkFields(t, h2, []wantField{
		{"Claim", "claim", "Struck claim.", "4:1-4:11", "4:12-4:29", "bold", false, 0},
		{"Reason", "", "payload reason", "5:1-5:12", "5:13-5:31", "bold", false, 0},
		{"Killed by", "killed_by", "GreenDog (2026-01-02T20:00:11Z)", "6:1-6:15", "6:16-6:47", "bold", false, 0},
		{"Reason", "kill_reason", "Subsumed<br>by H3", "7:1-7:12", "7:13-7:30", "bold", false, 0},
	})
	a := p.Art.Find(delta.HypothesisSlate, "H2")
	if !a.Killed || a.KilledBy != "GreenDog" || !a.KilledAt.Equal(time.Date(2026, 1, 2, 20, 0, 11, 0, time.UTC)) || a.KillReason != "Subsumed\nby H3" {
		t.Errorf("H2 kill state %+v", a)
	}
	fieldsJSON(t, a, `{"name":"Gradient","claim":"Struck claim.","reason":"payload reason"}`)
	h3 := p.Art.Find(delta.HypothesisSlate, "H3")
	if !h3.Killed || h3.KilledBy != "BlueLake" || !h3.KilledAt.Equal(time.Date(2026, 1, 2, 20, 0, 11, 5e8, time.UTC)) || h3.KillReason != "Because." {
		t.Errorf("H3 kill state %+v", h3)
	}
	fieldsJSON(t, h3, `{"name":"Upstream","claim":"Not struck."}`)
	// An upstream kill block on an unstruck heading still kills.
	p = ParseMarkdown([]byte("## 7. Adversarial Critique\n\n### C1: X\n**Attack**: A.\n**Killed**: true\n"), "x.md")
	if c := p.Art.Find(delta.AdversarialCritique, "C1"); !c.Killed || !item(t, p, "C1").Killed {
		t.Errorf("C1 not killed")
	}
}

func TestListsAndScores(t *testing.T) {
	src := "## 4. Discriminative Tests\n\n" +
		"### T2: Second (Score: 9/12)\n" + // 3
		"**Expected outcomes**:\n" + // 4
		"- If H1: Fate unchanged\n" + // 5
		"- If H2: Fate changes\n" + // 6
		"  and more\n" + // 7
		"**Evidence-per-week score**:\n" + // 8
		"- Likelihood ratio: 3 (>100:1)\n" + // 9
		"- Cost: 2\n" +
		"- Speed: 2\n" +
		"- Ambiguity: 2\n" + // 12
		"- Status: a plain item under an open label stays an item\n" + // 13
		"- **Potency check**: bold list form\n" + // 14
		"\n### T1: First\n" + // 16
		"- Procedure: list form\n" + // 17
		"**Design**: aliased\n" + // 18
		"**Evidence-per-week score**: LR=3, Cost=2, Speed=2, Ambiguity=3\n"
	p := ParseMarkdown([]byte(src), "x.md")
	t2 := item(t, p, "T2")
	if t2.Name != "Second" {
		t.Errorf("T2 name %q", t2.Name)
	}
	checkFields(t, t2, []wantField{
		{"Expected outcomes", "expected_outcomes", "If H1: Fate unchanged\nIf H2: Fate changes\nand more", "4:1-4:23", "5:3-7:11", "bold", false, 2},
		{"Evidence-per-week score", "score", "Likelihood ratio: 3 (>100:1)\nCost: 2\nSpeed: 2\nAmbiguity: 2\nStatus: a plain item under an open label stays an item", "8:1-8:29", "9:3-13:57", "bold", false, 5},
		{"Potency check", "potency_check", "bold list form", "14:3-14:21", "14:22-14:36", "list", false, 0},
	})
	// A list that is not all score parts reads as an outline.
	fieldsJSON(t, p.Art.Find(delta.DiscriminativeTests, "T2"), `{"name":"Second","expected_outcomes":{"H1":"Fate unchanged","H2":"Fate changes\nand more"},"score":{"Likelihood ratio":"3 (>100:1)","Cost":2,"Speed":2,"Ambiguity":2,"Status":"a plain item under an open label stays an item"},"potency_check":"bold list form"}`)
	t1 := item(t, p, "T1")
	checkFields(t, t1, []wantField{
		{"Procedure", "procedure", "list form", "17:3-17:13", "17:14-17:23", "list", false, 0},
		{"Design", "", "aliased", "18:1-18:12", "18:13-18:20", "bold", false, 0},
		{"Evidence-per-week score", "score", "LR=3, Cost=2, Speed=2, Ambiguity=3", "19:1-19:29", "19:30-19:64", "bold", false, 0},
	})
	fieldsJSON(t, p.Art.Find(delta.DiscriminativeTests, "T1"), `{"name":"First","procedure":"list form","design":"aliased","score":{"likelihood_ratio":3,"cost":2,"speed":2,"ambiguity":3}}`)
	// Art is in id order, the parsed items in document order.
	if ts := p.Art.Items[delta.DiscriminativeTests]; ts[0].ID != "T1" || p.Items[0].ID != "T2" {
		t.Errorf("order: art %s…, items %s…", ts[0].ID, p.Items[0].ID)
	}
	// An alias stands in for a missing standard field.
	p = ParseMarkdown([]byte("## 4. Discriminative Tests\n\n### T1: X\n**Design**: D.\n"), "x.md")
	if f := field(t, item(t, p, "T1"), "Design"); f.Key != "procedure" || !f.Alias || p.Art.Lookup("T1").Str("procedure") != "D." {
		t.Errorf("Design %+v", f)
	}
	// Without a score line the "(Score: …)" stays in the name.
	p = ParseMarkdown([]byte("## 4. Discriminative Tests\n\n### T1: Name (Score: 9/12)\n**Procedure**: P.\n"), "x.md")
	if it := item(t, p, "T1"); it.Name != "Name (Score: 9/12)" {
		t.Errorf("name %q", it.Name)
	}
}

func TestPredictionsTable(t *testing.T) {
	src := "## 2. Hypothesis Slate\n\n### H1: A\n\n### ~~H2: B~~ [KILLED]\n\n" + // 1-6
		"## 3. Predictions Table\n\n" + // 7
		"| ID | Observation/Condition | H1 (lineage) | H2 |\n" + // 9
		"| --- | --- | --- | --- |\n" +
		"| P1 | é \\| pipe<br>two | 5 | N/A |\n" + // 11
		"| ~~P2~~ | ~~Late~~ | — | — |\n" + // 12
		"\n**P2 details**:\n" + // 14
		"- **Killed by**: GreenDog (2026-01-02T20:00:12Z)\n" + // 15
		"- **Reason**: Not discriminative.\n" + // 16
		"- **H7** (no such hypothesis): ~~?~~\n" + // 17
		"- **Notes**:\n" + // 18
		"  - k: ~~v~~\n" + // 19
		"- **Observation**: not the condition\n"
	p := ParseMarkdown([]byte(src), "x.md")
	tb := p.Table
	if tb == nil || rg(tb.Pos) != "9:1-12:30" || fmt.Sprint(tb.Header) != "[ID Observation/Condition H1 (lineage) H2]" || len(tb.Rows) != 2 {
		t.Fatalf("table %+v", tb)
	}
	p1 := item(t, p, "P1")
	if p1 != tb.Rows[0] || rg(p1.Pos) != "11:1-11:36" || p1.Label != "P1" {
		t.Errorf("P1 %+v", p1)
	}
	checkFields(t, p1, []wantField{
		{"ID", "id", "P1", "11:3-11:5", "11:3-11:5", "table", false, 0},
		{"Observation/Condition", "condition", "é | pipe<br>two", "11:8-11:24", "11:8-11:24", "table", false, 0},
		{"H1 (lineage)", "H1", "5", "11:27-11:28", "11:27-11:28", "table", false, 0},
		{"H2", "H2", "N/A", "11:31-11:34", "11:31-11:34", "table", false, 0},
	})
	fieldsJSON(t, p.Art.Find(delta.PredictionsTable, "P1"), `{"condition":"é | pipe\ntwo","predictions":{"H1":5,"H2":"N/A"}}`)
	p2 := item(t, p, "P2")
	if !p2.Killed || p2.Label != "~~P2~~" || len(p2.Fields) != 9 {
		t.Fatalf("P2 %+v", p2)
	}
	if f := field(t, p2, "H7"); f.Key != "H7" || f.Value != "?" || f.Form != "list" || rg(f.Pos) != "17:3-17:31" || rg(f.ValuePos) != "17:32-17:37" {
		t.Errorf("H7 %+v %s", f, rg(f.Pos))
	}
	if f := field(t, p2, "Observation"); f.Key != "" || f.Alias {
		t.Errorf("Observation (condition present) %+v", f)
	}
	a := p.Art.Find(delta.PredictionsTable, "P2")
	if !a.Killed || a.KilledBy != "GreenDog" || a.KillReason != "Not discriminative." {
		t.Errorf("P2 kill %+v", a)
	}
	fieldsJSON(t, a, `{"condition":"Late","predictions":{"H7":"?"},"notes":{"k":"v"},"observation":"not the condition"}`)
}

func TestTablesAndQuotes(t *testing.T) {
	src := "> Purpose: text before section 1.\n\n" + // 1
		"## 5. Assumption Ledger\n\n" + // 3
		"### A1: Table fields\n" + // 5
		"| Field | Value |\n" + // 6
		"| --- | --- |\n" +
		"| **Statement** | S. |\n" + // 8
		"| Load | L. |\n" + // 9
		"\n> **Test**: inside a quote, not a field\n" + // 11
		"\n```\n**Status**: inside code\n```\n" + // 13-15
		"**Status**: verified\n" + // 16
		"\n| ID | Assumption | Status |\n" + // 18
		"|---|---|---|\n" +
		"| A2 | From a table | unchecked |\n" // 20
	p := ParseMarkdown([]byte(src), "x.md")
	if len(p.Sections) != 1 || !p.Sections[0].Quote {
		t.Fatalf("sections %+v", p.Sections)
	}
	a1 := item(t, p, "A1")
	checkFields(t, a1, []wantField{
		{"Statement", "statement", "S.", "8:3-8:16", "8:19-8:21", "table", false, 0},
		{"Load", "load", "L.", "9:3-9:7", "9:10-9:12", "table", false, 0},
		{"Status", "status", "verified", "16:1-16:12", "16:13-16:21", "bold", false, 0},
	})
	// The ID table after A1's fields belongs to A1's range: it is not an ID
	// table of the section (those are read before the first H3).
	if len(p.ByID["A2"]) != 0 {
		t.Errorf("A2 read from a table inside A1")
	}
	p = ParseMarkdown([]byte("## 5. Assumption Ledger\n\n| ID | Assumption | Status |\n|---|---|---|\n| A2 | From a table | unchecked |\n"), "x.md")
	a2 := item(t, p, "A2")
	if f := field(t, a2, "Assumption"); f.Key != "statement" || !f.Alias || rg(a2.Pos) != "5:1-5:34" {
		t.Errorf("A2 %+v %s", f, rg(a2.Pos))
	}
	fieldsJSON(t, p.Art.Find(delta.AssumptionLedger, "A2"), `{"statement":"From a table","status":"unchecked"}`)
}

func TestSectionTitles(t *testing.T) {
	src := "# Title\n\n## Research Thread (RT)\n\n**Question**: Q?\n\n## **2. Hypothesis Slate**\n\n## 3) Predictions\n\nSetext Tests\n---\n\n## 4. Discriminative Tests\n\n## Notes\n\n### H9: not an item\n\n## 6. Anomaly Register\n\nNone registered.\n\n## 7. Adversarial Critique\n\n*No critiques registered yet.*\n\n### Critique 1: No id\n**Attack**: A.\n\n### Hypothesis 1\n"
	p := ParseMarkdown([]byte(src), "x.md")
	if p.Title == nil || rg(*p.Title) != "1:1-1:8" {
		t.Errorf("title %+v", p.Title)
	}
	var got []string
	for _, s := range p.Sections {
		got = append(got, fmt.Sprintf("%s|%d|%s|%s", s.Title, s.Number, s.Section, s.Empty))
	}
	want := []string{
		"Research Thread (RT)|0|research_thread|",
		"**2. Hypothesis Slate**|2|hypothesis_slate|",
		"3) Predictions|3|predictions_table|",
		"Setext Tests|0||",
		"4. Discriminative Tests|4|discriminative_tests|",
		"Notes|0||",
		"6. Anomaly Register|6|anomaly_register|None registered.",
		"7. Adversarial Critique|7|adversarial_critique|*No critiques registered yet.*",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sections:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rg(p.Sections[3].Pos) != "11:1-12:4" {
		t.Errorf("setext heading pos %s", rg(p.Sections[3].Pos))
	}
	rt := item(t, p, "RT")
	if f := field(t, rt, "Question"); f.Key != "statement" || !f.Alias {
		t.Errorf("Question %+v", f)
	}
	if p.Art.RT == nil || p.Art.RT.Str("statement") != "Q?" {
		t.Errorf("RT %+v", p.Art.RT)
	}
	if len(p.ByID["H9"]) != 0 {
		t.Error("an H3 in an extra section is an item")
	}
	cs := p.Art.Items[delta.AdversarialCritique]
	if len(cs) != 2 || cs[0].ID != "" || cs[0].Str("name") != "No id" || cs[1].Str("name") != "Hypothesis 1" {
		t.Errorf("critiques without ids: %+v", cs)
	}
	var labels []string
	for _, it := range p.Items {
		if it.Section == delta.AdversarialCritique {
			labels = append(labels, it.ID+"|"+it.Label)
		}
	}
	if fmt.Sprint(labels) != "[|Critique 1: No id |Hypothesis 1]" {
		t.Errorf("labels %q", labels)
	}
}

func TestHeadings(t *testing.T) {
	cases := []struct {
		raw, sec, id, name string
		killed, third      bool
	}{
		{"H1: Name", delta.HypothesisSlate, "H1", "Name", false, false},
		{"~~H2: Name~~ [KILLED]", delta.HypothesisSlate, "H2", "Name", true, false},
		{"~~H2: Name~~", delta.HypothesisSlate, "H2", "Name", true, false},
		{"H3: Memory (Third Alternative)", delta.HypothesisSlate, "H3", "Memory", false, true},
		{"H3: Third Alternative", delta.HypothesisSlate, "H3", "Third Alternative", false, false},
		{"H3: (Third Alternative)", delta.HypothesisSlate, "H3", "(Third Alternative)", false, false},
		{"T1: Name (Score: 10/12)", delta.DiscriminativeTests, "T1", "Name (Score: 10/12)", false, false},
		{"T1 (Score: 10/12)", delta.DiscriminativeTests, "T1", "(Score: 10/12)", false, false},
		{"C2: The real third alternative — x", delta.AdversarialCritique, "C2", "The real third alternative — x", false, false},
		{"H1 - Dash form", delta.HypothesisSlate, "H1", "Dash form", false, false},
		{"H1", delta.HypothesisSlate, "H1", "", false, false},
		{": No id", delta.HypothesisSlate, "", "No id", false, false},
		{"Critique 1: Evidence Gap", delta.AdversarialCritique, "", "Evidence Gap", false, false},
		{"P1.H2: Scoped", delta.PredictionsTable, "P1.H2", "Scoped", false, false},
		{"H1: Name ##", delta.HypothesisSlate, "H1", "Name ##", false, false},
		{"H1: a ~~b~~ c", delta.HypothesisSlate, "H1", "a ~~b~~ c", false, false},
	}
	for _, c := range cases {
		id, name, killed, third := parseItemHeading(c.raw, c.sec)
		if id != c.id || name != c.name || killed != c.killed || third != c.third {
			t.Errorf("parseItemHeading(%q) = %q %q %t %t, want %q %q %t %t", c.raw, id, name, killed, third, c.id, c.name, c.killed, c.third)
		}
	}
}

// --- front matter ----------------------------------------------------------

func TestFrontMatter(t *testing.T) {
	src := "---\n" +
		"session_id: \"RS-μ-1\"  # comment\n" + // 2
		"version: 3\n" + // 3
		"compiled_at: 2025-12-30T14:00:00Z\n" + // 4
		"contributors:\n" + // 5
		"  - opus\n" +
		"  - agent: \"GreenDog\"\n" + // 7
		"    contributed_at: \"2026-01-02T20:00:00Z\"\n" +
		"agent_mail_message_id: 0123\n" + // 9
		"tags: [a, b]\n" + // 10
		"empty:\n" + // 11
		"---\n\n# Title\n"
	p := ParseMarkdown([]byte(src), "x.md")
	if !p.HasFrontMatter || rg(p.FrontPos) != "1:1-12:4" || len(p.Findings) != 0 {
		t.Fatalf("front matter %v %s %v", p.HasFrontMatter, rg(p.FrontPos), p.Findings)
	}
	var got []string
	for _, f := range p.Front {
		got = append(got, fmt.Sprintf("%s=%#v raw=%q key=%s val=%s", f.Key, f.Value, f.Raw, rg(f.KeyPos), rg(f.Pos)))
	}
	want := []string{
		`session_id="RS-μ-1" raw="\"RS-μ-1\"" key=2:1-2:11 val=2:13-2:21`,
		`version=3 raw="3" key=3:1-3:8 val=3:10-3:11`,
		`compiled_at="2025-12-30T14:00:00Z" raw="2025-12-30T14:00:00Z" key=4:1-4:12 val=4:14-4:34`,
		`contributors=[]interface {}{"opus", map[string]interface {}{"agent":"GreenDog", "contributed_at":"2026-01-02T20:00:00Z"}} raw="" key=5:1-5:13 val=6:3-8:43`,
		`agent_mail_message_id=83 raw="0123" key=9:1-9:22 val=9:24-9:28`,
		`tags=[]interface {}{"a", "b"} raw="" key=10:1-10:5 val=10:7-10:13`,
		`empty=<nil> raw="" key=11:1-11:6 val=11:7-11:7`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("front:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	a := p.Art
	if a.SessionID != "RS-μ-1" || a.Version != 3 || !a.CompiledAt.Equal(time.Date(2025, 12, 30, 14, 0, 0, 0, time.UTC)) || a.MessageID != "0123" ||
		len(a.Contributors) != 2 || a.Contributors[0].Agent != "opus" || a.Contributors[1].Agent != "GreenDog" || a.Contributors[1].LastAt.IsZero() {
		t.Errorf("art %+v %+v", a, a.Contributors)
	}
	if p.Title == nil || p.Title.Line != 14 {
		t.Errorf("title %+v", p.Title)
	}
}

func TestFrontMatterErrors(t *testing.T) {
	// A YAML error: a finding on its file line; the body is still read.
	p := ParseMarkdown([]byte("---\nsession_id: x\nversion: [1\n---\n\n## 2. Hypothesis Slate\n\n### H1: A\n"), "x.md")
	// (yaml.v3 gives the line of the flow sequence's context, 0-based: line 2.)
	if len(p.Findings) != 1 || p.Findings[0].Rule != "IN-001" || p.Findings[0].Code != "UNREADABLE_INPUT" || p.Findings[0].Pos.Line < 2 || p.Findings[0].Pos.Line > 4 ||
		!strings.Contains(p.Findings[0].Message, "not valid YAML") || !strings.Contains(p.Findings[0].Message, fmt.Sprintf("(line %d)", p.Findings[0].Pos.Line)) {
		t.Errorf("findings %+v", p.Findings)
	}
	if !p.HasFrontMatter || len(p.Front) != 0 || len(p.ByID["H1"]) != 1 {
		t.Errorf("after a YAML error: front %v %d, H1 %d", p.HasFrontMatter, len(p.Front), len(p.ByID["H1"]))
	}
	p = ParseMarkdown([]byte("---\na: b\nc: d: e\n---\n"), "x.md")
	if len(p.Findings) != 1 || p.Findings[0].Pos.Line != 3 || !strings.Contains(p.Findings[0].Message, "mapping values are not allowed in this context (line 3)") {
		t.Errorf("findings %+v", p.Findings)
	}
	p = ParseMarkdown([]byte("---\n- a\n- b\n---\n"), "x.md")
	if len(p.Findings) != 1 || !strings.Contains(p.Findings[0].Message, "not a YAML mapping") {
		t.Errorf("findings %+v", p.Findings)
	}
	p = ParseMarkdown([]byte("---\nsession_id: x\n\n## 1. Research Thread\n"), "x.md")
	if len(p.Findings) != 1 || !strings.Contains(p.Findings[0].Message, "not closed") || p.HasFrontMatter {
		t.Errorf("findings %+v", p.Findings)
	}
	// CRLF and a byte order mark.
	p = ParseMarkdown([]byte("\ufeff---\r\nsession_id: \"S\"\r\nversion: 2\r\n---\r\n\r\n## 2. Hypothesis Slate\r\n\r\n### H1: A\r\n**Claim**: C.\r\n"), "x.md")
	if len(p.Findings) != 0 || p.Art.SessionID != "S" || p.Art.Version != 2 || rg(p.Front[0].Pos) != "2:13-2:16" || rg(p.FrontPos) != "1:1-4:4" {
		t.Errorf("crlf/bom: %v %+v %s %s", p.Findings, p.Art, rg(p.Front[0].Pos), rg(p.FrontPos))
	}
	if f := field(t, item(t, p, "H1"), "Claim"); f.Value != "C." || rg(f.ValuePos) != "9:12-9:14" {
		t.Errorf("crlf claim %+v", f)
	}
}

// --- hand-written expectations for two golden renderings -------------------

func TestParseRenderedGolden(t *testing.T) {
	p := ParseMarkdown(mustRead(t, "nonstring_values"), "expected.md")
	want := map[string]string{
		"RT": `{"statement":42,"context":"Line one\nLine two\n## not a heading"}`,
		"H1": `{"name":"Repeated id prefix","claim":{"text":"object claim"},"mechanism":["a","b"],"anchors":["§1","§2"],"statement":"Off-schema statement field","basis":"extra","confidence":0.7}`,
		"H2": `{"name":"Third alternative: none of the above","claim":"C.","mechanism":"M.","anchors":["inference"]}`,
		"H3": `{"name":"Third Alternative","claim":"Unnamed third alternative.","how_this_could_be_true":"Assay artefact."}`,
		"H4": `{"name":"Flag not bool","claim":"C.","third_alternative":"yes"}`,
		"P1": `{"condition":"Pipe | in condition\nand a newline","predictions":{"H1":"a | b","H2":3,"H3":{"x":1}},"notes":"Extra note.","observation":"Also an observation"}`,
		"T1": `{"name":"Objects everywhere","test_id":"exp-1","procedure":{"steps":["a","b"]},"discriminates":["H1","H2"],"expected_outcomes":"H1 wins","potency_check":{"control":"late transplant","type":"chastity"},"score":"high","status":"passed","last_run":{"result_id":"r-1","run_at":"2026-01-03T00:00:00Z","exit_code":0,"timed_out":false,"duration_ms":1250},"actual_outcomes":{"H1":"observed"}}`,
		"A1": `{"name":"Numbers","statement":"S.","load":5,"test":true,"status":"unchecked","scale_check":"maybe","calculation":1500.0}`,
		"X1": `{"name":"Odd","observation":"O.","conflicts_with":["H1"],"status":"deferred","resolution_plan":["step 1","step 2"]}`,
		"C1": `{"name":"Attack list","attack":["one","two"],"references":[{"session":"RS-20251228-initial","item":"C2","relation":"extends"},{"session":"RS-x","item":"C1"},{"session":"RS-y","item":"C3"}],"attack_type":"framing","anchors":["§9"]}`,
	}
	for id, w := range want {
		var it *Item
		if id == "RT" {
			it = p.Art.RT
		} else {
			it = p.Art.Lookup(id)
		}
		if it == nil {
			t.Errorf("no %s", id)
			continue
		}
		fieldsJSON(t, it, w)
	}
	p = ParseMarkdown(mustRead(t, "killed_rendering"), "expected.md")
	type ks struct {
		id, by, at, reason string
	}
	for _, k := range []ks{
		{"H2", "GreenDog", "2026-01-02T20:00:11Z", "Subsumed by H3 which explains gradient-like behavior as a special case of inherited state"},
		{"P2", "GreenDog", "2026-01-02T20:00:12Z", "Not discriminative: same outcome under H1 and H2."},
		{"T1", "GreenDog", "2026-01-02T20:00:13Z", "Superseded."},
		{"A1", "GreenDog", "2026-01-02T20:00:14Z", "Falsified."},
		{"X1", "GreenDog", "2026-01-02T20:00:15Z", "Explained by H3."},
		{"C1", "GreenDog", "2026-01-02T20:00:16Z", ""},
	} {
		it := p.Art.Lookup(k.id)
		if it == nil || !it.Killed || it.KilledBy != k.by || FormatTime(it.KilledAt) != k.at || it.KillReason != k.reason {
			t.Errorf("%s: %+v", k.id, it)
		}
	}
	fieldsJSON(t, p.Art.Lookup("T1"), `{"name":"Transplant","procedure":"Move.","discriminates":"H1 vs H2","expected_outcomes":{"H1":"a","H2":"b"},"potency_check":"Control.","score":{"likelihood_ratio":3,"cost":2,"speed":2,"ambiguity":3}}`)
	fieldsJSON(t, p.Art.Lookup("P2"), `{"condition":"Late transplant","predictions":{"H1":"unchanged","H2":"N/A"}}`)
	fieldsJSON(t, p.Art.Lookup("H3"), `{"name":"Memory","claim":"Memory explains the effect.","mechanism":"Mechanism of Memory.","anchors":["§42"],"third_alternative":true}`)
	if s := p.Sections[5]; s.Section != delta.AnomalyRegister || s.Empty != NoneRegistered {
		t.Errorf("anomaly register %+v", s)
	}
}

func mustRead(t *testing.T, golden string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(t), "testdata", "artifact", golden, "expected.md"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// matchBold is the hand-written form of these expressions.
func TestMatchBold(t *testing.T) {
	res := []*regexp.Regexp{
		regexp.MustCompile(`^\*\*(.+?)\*\*[ \t]*:`),
		regexp.MustCompile(`^\*\*([^*]+?):\*\*`),
		regexp.MustCompile(`^__(.+?)__[ \t]*:`),
	}
	inputs := []string{
		"**Claim**: x", "**Claim** : x", "**Claim**:", "**Why it matters:** y", "__Load__: 3", "**a**b**: c", "**a** b", "****: x",
		"** **: x", "**x", "**Bold** statement: no", "**Killed by**: A (t)", "**a:b**: c", "**:**", "**x:** **y**: z", "__a__ : b", "**é**: ü",
	}
	for _, in := range inputs {
		var want labelMatch
		found := false
		for _, re := range res {
			if m := re.FindStringSubmatchIndex(in); m != nil && strings.TrimSpace(in[m[2]:m[3]]) != "" {
				want = labelMatch{label: strings.TrimSpace(in[m[2]:m[3]]), end: m[1], val: m[1]}
				found = true
				break
			}
		}
		got, ok := matchBold(in, false)
		if ok != found || got != want {
			t.Errorf("matchBold(%q) = %+v %t, want %+v %t", in, got, ok, want, found)
		}
	}
}

// TestFrontMatterDuplicatesAndAliases: a repeated front-matter key and YAML
// aliases (an alias bomb) are findings, never swallowed; aliases are not
// expanded.
func TestFrontMatterDuplicatesAndAliases(t *testing.T) {
	dup := ParseMarkdown([]byte("---\nsession_id: \"RS-20260301-x\"\nversion: 1\nversion: 2\n---\n"), "a.md")
	bomb := "---\na: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n"
	for i, n := range []string{"b", "c", "d", "e", "f", "g", "h"} {
		prev := string(rune('a' + i))
		bomb += n + ": &" + n + " [" + strings.Repeat("*"+prev+",", 8) + "*" + prev + "]\n"
	}
	ali := ParseMarkdown([]byte(bomb+"session_id: \"RS-20260301-y\"\n---\n"), "b.md")
	for name, tc := range map[string]struct {
		p    *Parsed
		want string
	}{"duplicate": {dup, "appears twice"}, "aliases": {ali, "aliases"}} {
		found := false
		for _, f := range tc.p.Findings {
			found = found || (f.Rule == "IN-001" && strings.Contains(f.Message, tc.want))
		}
		if !found {
			t.Errorf("%s: no finding: %+v", name, tc.p.Findings)
		}
	}
	for _, f := range dup.Front {
		if f.Key == "version" && f.Raw != "1" {
			t.Errorf("the repeated key's value %q was used, not the first", f.Raw)
		}
	}
}
