package rules

// EX-/WX-/IX-: the anomaly register (artifact_linter_spec_v0.1.md, Anomaly
// Register; artifact_schema_v0.1.md §6). Active anomalies only.

import (
	"fmt"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/diag"
)

var anomalyRules = []Rule{
	{ID: "EX-001", Name: "anomaly-register-missing", Code: "ANOMALY_REGISTER_MISSING", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Anomaly Register (X)",
		Short: "The anomaly register section is present, even when empty.",
		Full:  "Section 6 must exist even with no anomalies, so that \"nothing conflicts\" is a visible statement. (ES-001 leaves this section to this rule.)",
		Check: checkAnomalySection},
	{ID: "EX-002", Name: "anomaly-empty-state-implicit", Code: "ANOMALY_EMPTY_STATE_IMPLICIT", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Anomaly Register (X)",
		Short: "An anomaly register without active anomalies says \"None registered\".",
		Full:  "With no active anomaly the section must say \"None registered\" explicitly (the schema's \"**None registered**: …\" line, or upstream's \"None registered.\"); other wording (\"*No anomalies registered in this pilot.*\") or an empty section is reported.",
		Check: checkAnomalyEmptyState},
	{ID: "WX-001", Name: "anomaly-observation-missing", Code: "ANOMALY_OBSERVATION_MISSING", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Anomaly Register (X)",
		Short: "Every active anomaly has an **Observation**.",
		Full:  "Each anomaly states the specific observation that does not fit, as \"**Observation**: …\".",
		Check: checkAnomalyObservation},
	{ID: "WX-002", Name: "anomaly-conflicts-missing", Code: "ANOMALY_CONFLICTS_MISSING", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Anomaly Register (X)",
		Short: "Every active anomaly says what it conflicts with.",
		Full:  "\"**Conflicts with**:\" names the hypotheses or assumptions the anomaly challenges.",
		Check: checkAnomalyConflicts},
	{ID: "IX-001", Name: "anomaly-quarantine-status-missing", Code: "ANOMALY_QUARANTINE_STATUS_MISSING", Family: "AL", Severity: diag.Note, Scope: ScopeArtifact, Spec: specAL + "Anomaly Register (X)",
		Short: "Every active anomaly has a quarantine status: active, resolved or deferred.",
		Full:  "\"**Quarantine status**:\" starts with active, resolved or deferred.",
		Check: checkAnomalyQuarantine},
}

func checkAnomalySection(c *Ctx) {
	if alSection(c.P, delta.AnomalyRegister) != nil {
		return
	}
	c.reportAt(alMissingPos(c.P, delta.AnomalyRegister), "The artifact has no \"6. Anomaly Register\" section.",
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

func checkAnomalyEmptyState(c *Ctx) {
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
	c.reportAt(sec.Pos, msg, hint, c.anchor("none registered"))
}

func checkAnomalyObservation(c *Ctx) {
	for _, it := range alActive(c.P, delta.AnomalyRegister) {
		alRequire(c, it, "observation", "Observation", "Add \"**Observation**:\" with the specific observation that does not fit the framing.")
	}
}

func checkAnomalyConflicts(c *Ctx) {
	for _, it := range alActive(c.P, delta.AnomalyRegister) {
		alRequire(c, it, "conflicts_with", "Conflicts with", "Add \"**Conflicts with**:\" naming the hypotheses or assumptions (H1, A2 …) the anomaly challenges.")
	}
}

var alQuarantine = map[string]bool{"active": true, "resolved": true, "deferred": true}

func checkAnomalyQuarantine(c *Ctx) {
	for _, it := range alActive(c.P, delta.AnomalyRegister) {
		f := alRequire(c, it, "status", "Quarantine status", "Add \"**Quarantine status**:\" active, resolved or deferred.", "Quarantine status")
		if f == nil {
			continue
		}
		if v := alText(f); !alQuarantine[alFirstWord(v)] {
			c.reportAt(alFieldPos(it, f), fmt.Sprintf("%s's quarantine status %q is not active, resolved or deferred.", alName(it), alClip(v, 40)),
				"Start the quarantine status with active, resolved or deferred.", c.anchor(alKey(it), "value"))
		}
	}
}
