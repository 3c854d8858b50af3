package rules

// EH-/WH-/IH-: the hypothesis slate (artifact_linter_spec_v0.1.md,
// Hypothesis Slate; artifact_schema_v0.1.md §2). Counts and per-item checks
// cover active (non-killed) hypotheses; a missing section is ES-001's.

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/delta"
)

func alHypCount(c *ACtx) (active, killed int, ok bool) {
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

// alMinimum reports a section with fewer than min active items (killed
// items are counted in the message but not toward the minimum).
func alMinimum(c *ACtx, section string, min int, phrase, one, many, hint string) {
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
	c.report(sec.Pos, fmt.Sprintf("%s %d active %s%s; the minimum is %d.", phrase, n, alPlural(n, one, many), alKilledNote(killed), min),
		hint, c.anchor("count"))
}

func alKilledNote(killed int) string {
	if killed == 0 {
		return ""
	}
	return fmt.Sprintf(" (and %d killed)", killed)
}

func checkMinHypotheses(c *ACtx) {
	n, killed, ok := alHypCount(c)
	if !ok || n >= 3 {
		return
	}
	c.report(alSectionPos(alSection(c.P, delta.HypothesisSlate)),
		fmt.Sprintf("The hypothesis slate has %d active %s%s; the minimum is 3.", n, alPlural(n, "hypothesis", "hypotheses"), alKilledNote(killed)),
		"Add candidate explanations until there are at least two plus a third alternative (artifact_schema_v0.1.md §2).", c.anchor("count"))
}

func checkMaxHypotheses(c *ACtx) {
	n, _, ok := alHypCount(c)
	if !ok || n <= 6 {
		return
	}
	c.report(alSectionPos(alSection(c.P, delta.HypothesisSlate)),
		fmt.Sprintf("The hypothesis slate has %d active hypotheses; the maximum is 6.", n),
		"Kill the weakest hypotheses (strike them through with a reason) until at most five remain beside the third alternative.", c.anchor("count"))
}

func checkThirdAlternative(c *ACtx) {
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
	c.report(sec.Pos, msg,
		"Add a hypothesis headed \"### Hn: Third Alternative\" (both/all others wrong, or the question misspecified) with **Claim** and **How this could be true**.",
		c.anchor("third alternative"))
}

func checkHypothesisClaim(c *ACtx) {
	for _, it := range alActive(c.P, delta.HypothesisSlate) {
		alRequire(c, it, "claim", "Claim", "Add \"**Claim**:\" with the hypothesis in one sentence.")
	}
}

func checkHypothesisAnchors(c *ACtx) {
	for _, it := range alActive(c.P, delta.HypothesisSlate) {
		alRequire(c, it, "anchors", "Anchors",
			"Add \"**Anchors**:\" with the transcript sections (§n) or evidence records (EV-nnn) behind the hypothesis, or \"inference\".")
	}
}

var alBareInference = regexp.MustCompile(`(?i)(^|,)\s*inference\s*(,|$)`)

const hintAnchorFormat = "Write a comma-separated list of §n, §n-§m, EV-nnn or EV-nnn#En, optionally followed by [inference], or the literal inference alone (artifact_schema_v0.1.md, Anchors Field Contract); put quotes and notes in the item's text."

func checkAnchorFormat(c *ACtx) {
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
		c.report(alFieldPos(it, f), fmt.Sprintf("%s anchors %q do not follow the anchor format.", alName(it), alClip(v, 60)), hint, c.anchor(alKey(it)))
	}
}

func checkInferenceLabel(c *ACtx) {
	for _, it := range alActive(c.P, delta.HypothesisSlate) {
		f, alias := alFind(it, "anchors")
		if f == nil || alias || !strings.EqualFold(alAnchorsValue(f), "inference") {
			continue
		}
		if strings.Contains(strings.ToLower(alBlock(c.P, it)), "[inference]") {
			continue
		}
		c.report(alFieldPos(it, f), fmt.Sprintf("%s has anchors \"inference\" but its text is not labeled [inference].", alName(it)),
			"Mark the inferred statement with [inference] (e.g. \"**Claim**: [inference] …\") so readers do not take it for a Brenner quote.", c.anchor(alKey(it)))
	}
}

func checkHypothesisMechanism(c *ACtx) {
	for _, it := range alActive(c.P, delta.HypothesisSlate) {
		alRequire(c, it, "mechanism", "Mechanism",
			"Add \"**Mechanism**:\" saying how the hypothesis would work (a third alternative may use **How this could be true** instead).",
			"How this could be true")
	}
}
