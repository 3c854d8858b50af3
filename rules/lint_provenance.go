package rules

// EP-P01, WP-P01, WP-P02, IP-P01, IP-P02: citation and provenance
// (artifact_linter_spec_v0.1.md, Citation & Provenance Rules). WP-P03
// ("multi-source synthesis should explain connection") is not implemented:
// the spec defines no marker for a synthesis explanation, so it is a human
// review (docs/divergences.md §5).

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/diag"
)

var provenanceRules = []Rule{
	{ID: "EP-P01", Name: "anchor-out-of-range", Code: "ANCHOR_OUT_OF_RANGE", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Citation & Provenance Rules, Provenance Checks",
		Short: "Every §n anchor names a transcript section (§1-§236), and ranges ascend.",
		Full: "Every §n citation anywhere in the artifact (outside front matter, code blocks and comments) must " +
			"name a section of the Brenner transcript, 1-236. Ranges (§42-45, §42-§45) are expanded: every " +
			"section of the range must exist, and a descending range (§45-42) is reported. One finding per " +
			"citation, naming the sections that do not exist. Upstream checks only research-thread and " +
			"hypothesis anchors, reads §127-§129 as two numbers, and silently ignores descending ranges.",
		Check: checkAnchorRange},
	{ID: "WP-P01", Name: "provenance-missing", Code: "PROVENANCE_MISSING", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Citation & Provenance Rules, Provenance Checks and Provenance by Section",
		Short: "Anchors fields hold valid provenance markers, and anomalies cite a source.",
		Full: "Outside the hypothesis slate (where WH-001/WH-002 apply), every \"**Anchors**:\" field must hold a " +
			"valid marker list (§n, EV-nnn, [inference], [inference] from §n, [axiomatic], [external: source]). " +
			"Anomalies, which the spec requires to be sourced (\"§n required for observations\"), must carry a " +
			"provenance marker somewhere in their block. Sections whose provenance the spec only recommends " +
			"(research thread, tests, assumptions, critiques) are not required to have one." + divergeArt,
		Check: checkProvenanceMarker},
	{ID: "WP-P02", Name: "inference-without-source", Code: "INFERENCE_WITHOUT_SOURCE", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Citation & Provenance Rules, Provenance Checks",
		Short: "Anchors marked as inference say what the inference is drawn from.",
		Full:  "An Anchors value that marks an inference ([inference], inference) but cites no §n and no EV- record is a pure inference: prefer \"[inference] from §n\" or \"§n [inference]\". Checked on every Anchors field (upstream: hypotheses only).",
		Check: checkInferenceContext},
	{ID: "IP-P01", Name: "no-direct-quote", Code: "NO_DIRECT_QUOTE", Family: "AL", Severity: diag.Note, Scope: ScopeArtifact, Spec: specAL + "Citation & Provenance Rules, Distinguishing Quote vs Interpretation",
		Short: "An artifact that cites the transcript quotes it at least once.",
		Full:  "Direct quotes are preferred over paraphrase. When the artifact cites §n sections but quotes none of them — no \"> …\" block quote mentioning §n and no double-quoted passage next to a §n (\"…\" (§58), §150 (\"…\")) — one note is given at the first citation.",
		Check: checkDirectQuotes},
	{ID: "IP-P02", Name: "potency-check-without-chastity-citation", Code: "POTENCY_CHECK_WITHOUT_CHASTITY_CITATION", Family: "AL", Severity: diag.Note, Scope: ScopeArtifact, Spec: specAL + "Citation & Provenance Rules, Provenance Checks",
		Short: "Potency checks cite §50, the chastity principle.",
		Full:  "A test's potency check should cite §50 (Brenner's chastity-versus-impotence control), alone or within a range. Upstream matches the substring \"§50\", so §500 passes there; brenner-ci matches the section number.",
		Check: checkPotencyCitation},
}

// alSecNum parses a section number; huge numbers saturate.
func alSecNum(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n > 1e9 {
		return 1e9
	}
	return n
}

func checkAnchorRange(c *Ctx) {
	if len(c.P.Src) == 0 {
		return
	}
	li := alLines(c.P)
	for _, m := range alScan(c.P, alSectionNumRE) {
		text := strings.TrimSpace(string(c.P.Src[m.Start:m.End]))
		pos := li.Span(c.P.File, m.Start, m.End)
		where := alWhere(c.P, m.Start)
		a := alSecNum(m.Groups[0])
		if m.Groups[1] == "" {
			if a < 1 || a > transcriptMax {
				c.reportAt(pos, fmt.Sprintf("Anchor %s is not a transcript section: sections run from §1 to §%d.", text, transcriptMax),
					"Cite an existing section of complete_brenner_transcript.md (§1-§236), or mark the statement [inference].", c.anchor(where, text))
			}
			continue
		}
		b := alSecNum(m.Groups[1])
		if b < a {
			c.reportAt(pos, fmt.Sprintf("Anchor range %s is descending.", text),
				fmt.Sprintf("Write ranges low to high: §%d-§%d.", b, a), c.anchor(where, text))
			continue
		}
		var bad []string
		count := 0
		if a < 1 {
			bad = append(bad, "§0")
			count++
		}
		if b > transcriptMax {
			lo := a
			if lo <= transcriptMax {
				lo = transcriptMax + 1
			}
			count += b - lo + 1
			if lo == b {
				bad = append(bad, "§"+strconv.Itoa(b))
			} else {
				bad = append(bad, fmt.Sprintf("§%d-§%d", lo, b))
			}
		}
		if len(bad) > 0 {
			c.reportAt(pos, fmt.Sprintf("Anchor range %s reaches outside the transcript: %s %s not exist (sections run from §1 to §%d).",
				text, strings.Join(bad, " and "), diag.Plural(count, "does", "do"), transcriptMax),
				"Keep ranges within §1-§236.", c.anchor(where, text))
		}
	}
}

// alAnchored lists the items that can carry an Anchors field: the research
// thread and the active items of every section.
func alAnchored(p *artifact.Parsed) []*artifact.ParsedItem {
	var out []*artifact.ParsedItem
	if rt := alRT(p); rt != nil {
		out = append(out, rt)
	}
	for _, s := range delta.Sections[1:] {
		out = append(out, alActive(p, s)...)
	}
	return out
}

func checkProvenanceMarker(c *Ctx) {
	for _, it := range alAnchored(c.P) {
		if it.Section == delta.HypothesisSlate {
			continue // WH-001, WH-002
		}
		f, alias := alFind(it, "anchors")
		if f != nil && !alias {
			v := alAnchorsValue(f)
			switch {
			case alBlank(v) && it.Section == delta.ResearchThread:
				// WR-001
			case alBlank(v):
				c.reportAt(alFieldPos(it, f), fmt.Sprintf("%s has an empty **Anchors** field.", alName(it)),
					"Write the transcript sections (§n), evidence records (EV-nnn) or [inference] / [axiomatic] the item rests on.", c.anchor(alKey(it), "empty"))
			case !alValidAnchors(v):
				c.reportAt(alFieldPos(it, f), fmt.Sprintf("%s anchors %q are not a valid provenance marker.", alName(it), alClip(v, 60)),
					hintAnchorFormat, c.anchor(alKey(it), "format"))
			}
			continue
		}
		if it.Section != delta.AnomalyRegister {
			continue
		}
		if alProvenanceRE.MatchString(alBlock(c.P, it)) {
			continue
		}
		c.reportAt(it.Pos, fmt.Sprintf("%s cites no source for its observation: no §n anchor, EV- record or [inference] label.", alName(it)),
			"Anomalies are empirical: add \"**Anchors**:\" with the transcript section (§n) or evidence record (EV-nnn) the observation comes from.",
			c.anchor(alKey(it)))
	}
}

func checkInferenceContext(c *Ctx) {
	for _, it := range alAnchored(c.P) {
		f, alias := alFind(it, "anchors")
		if f == nil || alias {
			continue
		}
		v := alAnchorsValue(f)
		if !alInferenceRE.MatchString(v) || alSectionNumRE.MatchString(v) || alEvidenceRE.MatchString(v) {
			continue
		}
		c.reportAt(alFieldPos(it, f), fmt.Sprintf("%s is marked as inference but cites no source context (anchors %q).", alName(it), alClip(v, 40)),
			"Say what the inference is drawn from: \"[inference] from §42-45\" or \"§42, §57 [inference]\".", c.anchor(alKey(it)))
	}
}

func checkDirectQuotes(c *Ctx) {
	if !bytes.Contains(c.P.Src, []byte("§")) {
		return // no citation at all
	}
	first, ok := alFirst(c.P, alSectionNumRE)
	if !ok {
		return
	}
	if alHas(c.P, alBlockquoteRE) || (bytes.ContainsAny(c.P.Src, "\"“") && alHas(c.P, alQuoteCitesRE)) {
		return
	}
	li := alLines(c.P)
	c.reportAt(li.Span(c.P.File, first.Start, first.End), "The artifact cites transcript sections but quotes none of them.",
		"Quote the passage a key anchor rests on, as a \"> …\" block quote ending \"— §50\" or inline as \"\\\"…\\\" (§58)\", so readers can tell quotation from interpretation.",
		c.anchor("quotes"))
}

// alCites50 reports whether text cites §50 (alone or within a range).
func alCites50(text string) bool {
	for _, m := range alSectionNumRE.FindAllStringSubmatch(text, -1) {
		a := alSecNum(m[1])
		b := a
		if m[2] != "" {
			b = alSecNum(m[2])
		}
		if a <= 50 && 50 <= b {
			return true
		}
	}
	return false
}

func checkPotencyCitation(c *Ctx) {
	for _, it := range alActive(c.P, delta.DiscriminativeTests) {
		f, alias := alFind(it, "potency_check")
		if f == nil || alias || alBlank(alText(f)) || alCites50(alText(f)) {
			continue
		}
		c.reportAt(alFieldPos(it, f), fmt.Sprintf("%s's potency check does not cite §50 (Brenner's chastity-versus-impotence principle).", alName(it)),
			"Ground the control in the transcript: add \"(§50)\" where the potency check explains why a negative result stays interpretable.", c.anchor(alKey(it)))
	}
}
