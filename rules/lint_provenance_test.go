package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/diag"
)

func TestAnchorRange(t *testing.T) {
	src := "---\nnote: §999\n---\n**Anchors**: §0, §42, §230-240, §45-42, §127-§129, §236\n" +
		"Text cites § 237 and §1-2 and §99999999999999999999.\n```\n§500\n```\n"
	d := newDoc().src(src)
	d.p.HasFrontMatter = true
	expect(t, "EP-P01", d.p, nil,
		"Anchor §0 is not a transcript section", "Anchor range §230-240 reaches outside the transcript: §237-§240 do not exist",
		"Anchor range §45-42 is descending", "Anchor § 237 is not a transcript section", "Anchor §99999999999999999999 is not")
	fs := lint(t, "EP-P01", d.p, nil)
	if fs[0].Pos.Line != 4 || fs[0].Pos.Col != 14 || fs[3].Pos.Line != 5 {
		t.Errorf("EP-P01 positions: %+v / %+v", fs[0].Pos, fs[3].Pos)
	}
	if fs[2].Hint != "Write ranges low to high: §42-§45." {
		t.Errorf("EP-P01 descending hint %q", fs[2].Hint)
	}
	one := newDoc().src("§236-237")
	expect(t, "EP-P01", one.p, nil, "§237 does not exist")
}

func TestProvenanceRules(t *testing.T) {
	d := newDoc()
	d.section(delta.ResearchThread).rt().f("anchors", "Anchors", "§105, §103, inference")
	d.section(delta.HypothesisSlate).item("H1", "a").f("anchors", "Anchors", "inference").
		item("H2", "b").f("anchors", "Anchors", "[inference] from transcript").
		item("H3", "c").f("anchors", "Anchors", "EV-003#E1, [inference]").
		item("H4", "d").f("anchors", "Anchors", "[inference] from §42-45")
	d.section(delta.DiscriminativeTests).item("T1", "x").f("potency_check", "Potency check", "Controls (§500).").
		item("T2", "y").f("potency_check", "Potency check", "Controls (§ 50).").
		item("T3", "z").f("potency_check", "Potency check", "Range §48-52.").
		item("T4", "w").f("anchors", "Anchors", "[axiomatic]").
		item("T5", "v").f("anchors", "Anchors", "see the literature")
	d.section(delta.AnomalyRegister).
		item("X1", "Sourced").f("observation", "Observation", "Mixed fates (§163).").
		item("X2", "Unsourced").f("observation", "Observation", "Compensation.").
		item("X3", "Evidence").f("observation", "Observation", "From EV-002.").
		item("X4", "Empty anchors").f("observation", "Observation", "x").f("anchors", "Anchors", "")
	expect(t, "WP-P01", d.p, nil, `The research thread anchors "§105, §103, inference" are not a valid provenance marker.`,
		`T5 anchors "see the literature" are not a valid provenance marker.`,
		"X2 cites no source for its observation", "X4 has an empty **Anchors** field.")
	expect(t, "WP-P02", d.p, nil, "H1 is marked as inference but cites no source context", `H2 is marked as inference but cites no source context (anchors "[inference] from transcript")`)
	expect(t, "IP-P02", d.p, nil, "T1's potency check does not cite §50")

	// IP-P01: a quote with §n anywhere is enough.
	for src, quoted := range map[string]bool{
		"**Anchors**: §42\n\nParaphrase (§42).\n":                              false,
		"**Anchors**: §50\n\n> \"You cannot do an experiment…\" — §50\n":       true,
		"**Anchors**: §150 (\"completely isogenic, because each animal\")\n":   true,
		"**Mechanism**: \"you are what you are because of the way\" (§161).\n": true,
		"No citation at all.\n": true,
		"```\n> \"quoted in code, not real\" §42\n```\nCites §42 plainly.\n": false,
	} {
		fs := lint(t, "IP-P01", newDoc().src(src).p, nil)
		if (len(fs) == 0) != quoted {
			t.Errorf("IP-P01 on %q: %v", src, msgs(fs))
		}
	}
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

const packOK = `{
  "version": "0.1",
  "thread_id": "RS-20251230-cell-fate",
  "records": [
    {"id": "EV-001", "type": "paper", "title": "T", "source": "doi:x", "relevance": "r", "key_findings": [], "verified": true,
     "excerpts": [{"anchor": "E1", "text": "a"}, {"anchor": "E2", "text": "b"}]},
    {"id": "EV-002", "type": "dataset", "title": "T", "source": "u", "relevance": "r", "key_findings": [], "verified": false, "excerpts": []}
  ]
}
`

func TestEvidencePath(t *testing.T) {
	for in, want := range map[string]string{
		"artifacts/RS-1/artifact.md": "artifacts/RS-1/evidence.json", "artifacts/RS-1.md": "artifacts/RS-1/evidence.json",
		"RS-1.md": "RS-1/evidence.json", "a/b/fixture.json": "a/b/fixture/evidence.json", "artifact.md": "evidence.json",
	} {
		if got := EvidencePath(in); got != want {
			t.Errorf("EvidencePath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLoadEvidence(t *testing.T) {
	dir := t.TempDir()
	art := filepath.ToSlash(filepath.Join(dir, "artifacts", "RS-20251230-cell-fate.md"))
	if ev, f := LoadEvidence(osFiles{}, art, limits.Parse{}); ev != nil || f != nil {
		t.Fatalf("no pack: %+v %+v", ev, f)
	}
	pack := filepath.Join(dir, "artifacts", "RS-20251230-cell-fate", "evidence.json")
	writeFile(t, pack, packOK)
	ev, f := LoadEvidence(osFiles{}, art, limits.Parse{})
	if f != nil || ev == nil || ev.Unusable || len(ev.Problems) != 0 || !ev.Records["EV-001"]["E2"] || !ev.Verified["EV-001"] || ev.Verified["EV-002"] || ev.ThreadID != "RS-20251230-cell-fate" {
		t.Fatalf("pack: %+v", ev)
	}
	writeFile(t, pack, "{\n  \"records\": [\n    {\"id\": \"EV-001\",},\n  ]\n}\n")
	ev, _ = LoadEvidence(osFiles{}, art, limits.Parse{})
	if !ev.Unusable || len(ev.Problems) != 1 || ev.Problems[0].Rule != "EV-002" || ev.Problems[0].Pos.Line != 3 ||
		!strings.Contains(ev.Problems[0].Message, "is not valid JSON at line 3, column") {
		t.Fatalf("syntax error: %+v", ev.Problems)
	}
	for body, want := range map[string]string{
		`[]`:                   "is an array, not a JSON object",
		`{"version": "0.1"}`:   `has no "records" array`,
		`{"records": {"a":1}}`: `has "records" as an object, not an array`,
	} {
		writeFile(t, pack, body)
		ev, _ = LoadEvidence(osFiles{}, art, limits.Parse{})
		if !ev.Unusable || len(ev.Problems) != 1 || !strings.Contains(ev.Problems[0].Message, want) {
			t.Errorf("%s: %+v", body, ev.Problems)
		}
	}
	writeFile(t, pack, `{"version": 0.1, "records": [7, {"id": "EV-1", "type": "paper", "title": 3, "source": "s", "relevance": "r", "key_findings": [], "verified": "yes",
	  "excerpts": [{"anchor": "E1"}, {"anchor": "E1"}, {"anchor": "x"}, {"text": "no anchor"}]}, {"id": "EV-1"}]}`)
	ev, _ = LoadEvidence(osFiles{}, art, limits.Parse{})
	var got []string
	for _, p := range ev.Problems {
		if p.Rule != "EV-003" {
			t.Errorf("problem %+v", p)
		}
		got = append(got, p.Message)
	}
	want := []string{
		`The evidence pack version 0.1 is not a version string such as "0.1".`,
		"Evidence record 1 is a number, not a JSON object.",
		`Evidence record EV-1 has "title" as a number, not a string.`,
		`Evidence record EV-1 has "verified" as a string, not a boolean.`,
		`Evidence record id "EV-1" does not follow the EV-NNN format.`,
		"Excerpt anchor EV-1#E1 is used twice.",
		`Excerpt anchor "x" of EV-1 does not follow the E{N} format.`,
		`Excerpt 4 of EV-1 has no string "anchor".`,
		`Evidence record EV-1 has no "type".`,
	}
	if len(got) < len(want) {
		t.Fatalf("problems:\n%s", strings.Join(got, "\n"))
	}
	all := strings.Join(got, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("missing problem %q in:\n%s", w, all)
		}
	}
	if !strings.Contains(all, "Evidence record id EV-1 is used twice.") {
		t.Errorf("duplicate id not reported:\n%s", all)
	}
	if err := os.Remove(pack); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(pack, 0o755); err != nil {
		t.Fatal(err)
	}
	ev, _ = LoadEvidence(osFiles{}, art, limits.Parse{})
	if ev == nil || !ev.Unusable || !strings.Contains(ev.Problems[0].Message, "cannot be read: it is a directory") {
		t.Errorf("directory pack: %+v", ev)
	}
}

func TestEvidenceRules(t *testing.T) {
	src := "## 1. Research Thread\n\n**Anchors**: EV-001#E1, EV-002, EV-1\n\nSee EV-003 and EV-001#E3, EV-001#E1 again, EV-002#E1.\n"
	p := newDoc().src(src).p
	expect(t, "EV-001", p, nil, "Citation EV-001#E1 cannot be resolved: the artifact has no evidence pack (cited 2 times).",
		"Citation EV-002 cannot", "Citation EV-1 cannot", "Citation EV-003 cannot", "Citation EV-001#E3 cannot", "Citation EV-002#E1 cannot")
	// "If it doesn't, treat the statement as [inference]" (artifact_schema_v0.1.md):
	// an unresolved citation is a warning, and the hint says how it is read.
	for _, f := range lint(t, "EV-001", p, nil) {
		if f.Severity != diag.Warning || !strings.Contains(f.Hint, "mark the statement [inference]") {
			t.Errorf("EV-001 without a pack: %s %q (hint %q), want a warning whose hint offers [inference]", f.Severity, f.Message, f.Hint)
		}
	}
	p.File = "artifacts/RS-20251230-cell-fate.md"
	ev := &EvidencePack{File: "artifacts/RS-20251230-cell-fate/evidence.json", ThreadID: "RS-20251230-cell-fate",
		Records:  map[string]map[string]bool{"EV-001": {"E1": true, "E2": true}, "EV-002": {}},
		Verified: map[string]bool{"EV-001": true}}
	expect(t, "EV-001", p, ev, "Citation EV-1 names no record of the evidence pack", "Citation EV-003 names no record",
		"Citation EV-001#E3 names no excerpt of record EV-001", "Citation EV-002#E1 names no excerpt of record EV-002")
	fs := lint(t, "EV-001", p, ev)
	if fs[0].Hint != "Did you mean EV-001? Record ids are written exactly as in artifacts/RS-20251230-cell-fate/evidence.json." ||
		fs[2].Hint != "Cite one of its excerpts (E1 and E2), or add the excerpt to artifacts/RS-20251230-cell-fate/evidence.json." {
		t.Errorf("EV-001 hints: %q / %q", fs[0].Hint, fs[2].Hint)
	}
	expect(t, "EV-004", p, ev, "Citation EV-002 rests on record EV-002, which the evidence pack does not mark verified.")
	expect(t, "EV-003", p, ev)
	ev.ThreadID = "RS-20260101-other"
	expect(t, "EV-003", p, ev, `Evidence pack thread_id "RS-20260101-other" does not match the artifact's session "RS-20251230-cell-fate".`)
	ev.Unusable = true
	ev.Problems = []EvidenceProblem{{Rule: "EV-002", Pos: ev.ThreadPos, Message: "m", Hint: "h", Anchor: "EV-002 syntax"}}
	ev.Problems[0].Pos.File, ev.Problems[0].Pos.Line = ev.File, 3
	expect(t, "EV-001", p, ev) // EV-002 says it
	expect(t, "EV-004", p, ev)
	expect(t, "EV-003", p, ev)
	fs = lint(t, "EV-002", p, ev)
	if len(fs) != 1 || fs[0].Pos.File != ev.File {
		t.Errorf("EV-002: %+v", fs)
	}
}
