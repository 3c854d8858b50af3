package rules

// EH-/WH-/IH-: the hypothesis slate (artifact_linter_spec_v0.1.md,
// Hypothesis Slate; artifact_schema_v0.1.md §2). Counts and per-item checks
// cover active (non-killed) hypotheses; a missing section is ES-001's.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/diag"
)

var hypothesisRules = []Rule{
	{ID: "EH-001", Name: "too-few-hypotheses", Code: "TOO_FEW_HYPOTHESES", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Hypothesis Slate (H)",
		Short: "The hypothesis slate has at least " + minItems(schema.HypothesisSlate) + " active hypotheses.",
		Full: "At least two candidate explanations plus a third alternative: " + minItems(schema.HypothesisSlate) +
			" active (non-killed) hypotheses. Every item of the section counts, whatever its id (ES-003 reports a malformed id).",
		Check: checkMinHypotheses},
	{ID: "EH-002", Name: "too-many-hypotheses", Code: "TOO_MANY_HYPOTHESES", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Hypothesis Slate (H)",
		Short: "The hypothesis slate has at most " + maxItems(schema.HypothesisSlate) + " active hypotheses.",
		Full: "At most five candidates plus a third alternative: more than " + maxItems(schema.HypothesisSlate) +
			" active hypotheses dilute the discriminative tests. Kill the weakest (killed hypotheses do not count).",
		Check: checkMaxHypotheses},
	{ID: "EH-003", Name: "no-third-alternative-label", Code: "NO_THIRD_ALTERNATIVE_LABEL", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Hypothesis Slate (H)",
		Short: "An active hypothesis is labeled \"Third Alternative\".",
		Full:  "The slate must include a third alternative (both/all others wrong, or the question misspecified), found by the spec's pattern /third\\s+alternative/i in a hypothesis heading, or by the third_alternative flag (a \"**Third alternative**: true\" field, as upstream's renderer writes it). A killed third alternative does not count." + divergeArt,
		Check: checkThirdAlternative},
	{ID: "EH-004", Name: "hypothesis-claim-missing", Code: "HYPOTHESIS_CLAIM_MISSING", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Hypothesis Slate (H)",
		Short: "Every active hypothesis has a **Claim**.",
		Full:  "Each hypothesis states its claim in one sentence as \"**Claim**: …\". A \"**Statement**:\" field is reported as a non-standard label; an empty claim is reported too.",
		Check: checkHypothesisClaim},
	{ID: "WH-001", Name: "hypothesis-anchors-missing", Code: "HYPOTHESIS_ANCHORS_MISSING", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Hypothesis Slate (H)",
		Short: "Every active hypothesis has **Anchors**.",
		Full:  "Each hypothesis cites its provenance in \"**Anchors**:\": transcript sections (§n), evidence records (EV-nnn), or \"inference\".",
		Check: checkHypothesisAnchors},
	{ID: "WH-002", Name: "anchors-format", Code: "ANCHORS_FORMAT", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Hypothesis Slate (H); artifact_schema_v0.1.md, Anchors Field Contract",
		Short: "Hypothesis anchors use the §n / EV-nnn format or \"inference\".",
		Full: "A hypothesis's Anchors value is a comma-separated list of §n, §n-m, §n-§m, EV-nnn or EV-nnn#En, " +
			"each optionally followed by [inference] (the spec's \"[inference] from §n\", [axiomatic] and " +
			"[external: source] markers are accepted too), or the literal inference alone. Quotes and notes " +
			"inside the Anchors value (§150 (\"…\")) and a bare \"inference\" mixed into a list (§230, " +
			"inference: write §230 [inference]) are reported. Anchors of other sections are checked by WP-P01." + divergeArt,
		Check: checkAnchorFormat},
	{ID: "WH-003", Name: "inference-not-labeled", Code: "INFERENCE_NOT_LABELED", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Hypothesis Slate (H)",
		Short: "A hypothesis anchored only by \"inference\" is labeled [inference].",
		Full:  "When a hypothesis's Anchors is the literal inference, its block must say [inference] somewhere (usually at the start of the claim) so that readers do not take it for a Brenner quote.",
		Check: checkInferenceLabel},
	{ID: "IH-001", Name: "hypothesis-mechanism-missing", Code: "HYPOTHESIS_MECHANISM_MISSING", Family: "AL", Severity: diag.Note, Scope: ScopeArtifact, Spec: specAL + "Hypothesis Slate (H)",
		Short: "Every active hypothesis has a **Mechanism**.",
		Full:  "Each hypothesis should say how it would work. The schema's third-alternative format has \"**How this could be true**:\" instead, which is accepted for any hypothesis." + divergeArt,
		Check: checkHypothesisMechanism},
}

func alHypCount(c *Ctx) (active, killed int, ok bool) {
	if alSection(c.P, delta.HypothesisSlate) == nil {
		return 0, 0, false
	}
	for _, it := range alItems(c.P, delta.HypothesisSlate) {
		if it.Killed {
			killed++
		} else {
			active++
		}
	}
	return active, killed, true
}

// alMinimum reports a section with fewer active items than the schema's
// minimum (killed items are counted in the message but not toward the
// minimum). hint is a format with the minimum as its one verb.
func alMinimum(c *Ctx, section, phrase, hint string) {
	s := schema.Get(section)
	min := s.Min
	sec := alSection(c.P, section)
	if sec == nil {
		return
	}
	n, killed := 0, 0
	for _, it := range alItems(c.P, section) {
		if it.Killed {
			killed++
		} else {
			n++
		}
	}
	if n >= min {
		return
	}
	c.reportAt(sec.Pos, fmt.Sprintf("%s %d active %s%s; the minimum is %d.", phrase, n, diag.Plural(n, s.One, s.Many), alKilledNote(killed), min),
		fmt.Sprintf(hint, min), c.anchor("count"))
}

// minItems and maxItems are the schema's minimum and maximum number of
// active items of section, for descriptions.
func minItems(section string) string { return strconv.Itoa(schema.Get(section).Min) }
func maxItems(section string) string { return strconv.Itoa(schema.Get(section).Max) }

func alKilledNote(killed int) string {
	if killed == 0 {
		return ""
	}
	return fmt.Sprintf(" (and %d killed)", killed)
}

func checkMinHypotheses(c *Ctx) {
	s := schema.Get(schema.HypothesisSlate)
	n, killed, ok := alHypCount(c)
	if !ok || n >= s.Min {
		return
	}
	c.reportAt(alSectionPos(alSection(c.P, delta.HypothesisSlate)),
		fmt.Sprintf("The hypothesis slate has %d active %s%s; the minimum is %d.", n, diag.Plural(n, s.One, s.Many), alKilledNote(killed), s.Min),
		"Add candidate explanations until there are at least two plus a third alternative (artifact_schema_v0.1.md §2).", c.anchor("count"))
}

func checkMaxHypotheses(c *Ctx) {
	max := schema.Get(schema.HypothesisSlate).Max
	n, _, ok := alHypCount(c)
	if !ok || n <= max {
		return
	}
	c.reportAt(alSectionPos(alSection(c.P, delta.HypothesisSlate)),
		fmt.Sprintf("The hypothesis slate has %d active hypotheses; the maximum is %d.", n, max),
		"Kill the weakest hypotheses (strike them through with a reason) until at most five remain beside the third alternative.", c.anchor("count"))
}

func checkThirdAlternative(c *Ctx) {
	sec := alSection(c.P, delta.HypothesisSlate)
	if sec == nil {
		return
	}
	var killed []string
	for _, it := range alItems(c.P, delta.HypothesisSlate) {
		if alIsThirdAlt(c.P, it) {
			if !it.Killed {
				return
			}
			killed = append(killed, alKey(it))
		}
	}
	msg := "No active hypothesis is labeled \"Third Alternative\"."
	if len(killed) > 0 {
		msg = fmt.Sprintf("No active hypothesis is labeled \"Third Alternative\": %s, the third alternative, is killed.", alList(killed))
	}
	c.reportAt(sec.Pos, msg,
		"Add a hypothesis headed \"### Hn: Third Alternative\" (both/all others wrong, or the question misspecified) with **Claim** and **How this could be true**.",
		c.anchor("third alternative"))
}

func checkHypothesisClaim(c *Ctx) {
	for _, it := range alActive(c.P, delta.HypothesisSlate) {
		alRequire(c, it, "claim", "Claim", "Add \"**Claim**:\" with the hypothesis in one sentence.")
	}
}

func checkHypothesisAnchors(c *Ctx) {
	for _, it := range alActive(c.P, delta.HypothesisSlate) {
		alRequire(c, it, "anchors", "Anchors",
			"Add \"**Anchors**:\" with the transcript sections (§n) or evidence records (EV-nnn) behind the hypothesis, or \"inference\".")
	}
}

var alBareInference = regexp.MustCompile(`(?i)(^|,)\s*inference\s*(,|$)`)

const hintAnchorFormat = "Write a comma-separated list of §n, §n-§m, EV-nnn or EV-nnn#En, optionally followed by [inference], or the literal inference alone (artifact_schema_v0.1.md, Anchors Field Contract); put quotes and notes in the item's text."

func checkAnchorFormat(c *Ctx) {
	for _, it := range alActive(c.P, delta.HypothesisSlate) {
		f, alias := alFind(it, "anchors")
		if f == nil || alias {
			continue
		}
		v := alAnchorsValue(f)
		if alBlank(v) || alValidAnchors(v) {
			continue
		}
		hint := hintAnchorFormat
		if alBareInference.MatchString(v) && !strings.EqualFold(v, "inference") {
			hint = "The literal inference stands alone; after anchors write [inference] instead (\"§58, §127 [inference]\")."
		}
		c.reportAt(alFieldPos(it, f), fmt.Sprintf("%s anchors %q do not follow the anchor format.", alName(it), alClip(v, 60)), hint, c.anchor(alKey(it)))
	}
}

func checkInferenceLabel(c *Ctx) {
	for _, it := range alActive(c.P, delta.HypothesisSlate) {
		f, alias := alFind(it, "anchors")
		if f == nil || alias || !strings.EqualFold(alAnchorsValue(f), "inference") {
			continue
		}
		if strings.Contains(strings.ToLower(alBlock(c.P, it)), "[inference]") {
			continue
		}
		c.reportAt(alFieldPos(it, f), fmt.Sprintf("%s has anchors \"inference\" but its text is not labeled [inference].", alName(it)),
			"Mark the inferred statement with [inference] (e.g. \"**Claim**: [inference] …\") so readers do not take it for a Brenner quote.", c.anchor(alKey(it)))
	}
}

func checkHypothesisMechanism(c *Ctx) {
	for _, it := range alActive(c.P, delta.HypothesisSlate) {
		alRequire(c, it, "mechanism", "Mechanism",
			"Add \"**Mechanism**:\" saying how the hypothesis would work (a third alternative may use **How this could be true** instead).",
			"How this could be true")
	}
}
