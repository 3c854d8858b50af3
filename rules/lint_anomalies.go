package rules

// EX-/WX-/IX-: the anomaly register (artifact_linter_spec_v0.1.md, Anomaly
// Register; artifact_schema_v0.1.md §6). Active anomalies only.

import (
	"fmt"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/delta"
)

func checkAnomalySection(c *ACtx) {
	if alSection(c.P, delta.AnomalyRegister) != nil {
		return
	}
	c.report(alMissingPos(c.P, delta.AnomalyRegister), "The artifact has no \"6. Anomaly Register\" section.",
		"Add \"## 6. Anomaly Register\"; when nothing conflicts with the framing, write \"**None registered**: No observations currently conflict with the framing.\"",
		c.anchor(delta.AnomalyRegister))
}

// alSectionBody is a section's text after its heading line.
func alSectionBody(p *artifact.Parsed, sec *artifact.ParsedSection) string {
	if sec.End <= sec.Start || sec.Start < 0 || sec.End > len(p.Src) {
		return ""
	}
	s := string(p.Src[sec.Start:sec.End])
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return ""
}

func checkAnomalyEmptyState(c *ACtx) {
	sec := alSection(c.P, delta.AnomalyRegister)
	if sec == nil {
		return
	}
	items := alItems(c.P, delta.AnomalyRegister)
	for _, it := range items {
		if !it.Killed {
			return
		}
	}
	says := sec.Empty
	if says == "" {
		says = strings.TrimSpace(alSectionBody(c.P, sec))
	}
	if strings.Contains(strings.ToLower(says), "none registered") {
		return
	}
	hint := "Write \"**None registered**: No observations currently conflict with the framing.\" so that an empty register is visibly deliberate (artifact_schema_v0.1.md §6)."
	var msg string
	switch {
	case len(items) > 0:
		msg = "Every anomaly is killed, and the register does not say \"None registered\"."
	case sec.Empty != "":
		msg = fmt.Sprintf("The anomaly register is empty but says %q instead of \"None registered\".", alClip(strings.Trim(sec.Empty, "*_ "), 60))
	default:
		msg = "The anomaly register is empty and does not say \"None registered\"."
	}
	c.report(sec.Pos, msg, hint, c.anchor("none registered"))
}

func checkAnomalyObservation(c *ACtx) {
	for _, it := range alActive(c.P, delta.AnomalyRegister) {
		alRequire(c, it, "observation", "Observation", "Add \"**Observation**:\" with the specific observation that does not fit the framing.")
	}
}

func checkAnomalyConflicts(c *ACtx) {
	for _, it := range alActive(c.P, delta.AnomalyRegister) {
		alRequire(c, it, "conflicts_with", "Conflicts with", "Add \"**Conflicts with**:\" naming the hypotheses or assumptions (H1, A2 …) the anomaly challenges.")
	}
}

var alQuarantine = map[string]bool{"active": true, "resolved": true, "deferred": true}

func checkAnomalyQuarantine(c *ACtx) {
	for _, it := range alActive(c.P, delta.AnomalyRegister) {
		f := alRequire(c, it, "status", "Quarantine status", "Add \"**Quarantine status**:\" active, resolved or deferred.", "Quarantine status")
		if f == nil {
			continue
		}
		if v := alText(f); !alQuarantine[alFirstWord(v)] {
			c.report(alFieldPos(it, f), fmt.Sprintf("%s's quarantine status %q is not active, resolved or deferred.", alName(it), alClip(v, 40)),
				"Start the quarantine status with active, resolved or deferred.", c.anchor(alKey(it), "value"))
		}
	}
}
