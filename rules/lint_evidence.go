package rules

// EV-: evidence pack citations (artifact_schema_v0.1.md, Evidence Pack
// Anchors; evidence_pack_v0.1.md). An EV-nnn or EV-nnn#En citation anywhere
// in the artifact must resolve in the sibling evidence.json.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/brenner-ci/brenner-ci/diag"
)

var evidenceRules = []Rule{
	{ID: "EV-001", Name: "evidence-citation-unresolved", Code: "EVIDENCE_CITATION_UNRESOLVED", Family: "EV", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specEV + ", Anchor Scheme",
		Short: "Every EV-nnn / EV-nnn#En citation resolves in the sibling evidence pack.",
		Full: "An evidence citation anywhere in the artifact (anchors, text, tables) must name a record, and an " +
			"excerpt anchor of that record, in the session's evidence pack: artifacts/<id>/evidence.json beside " +
			"artifact.md, or artifacts/<id>/evidence.json for artifacts/<id>.md. Without a pack, no citation " +
			"resolves. The schema says what follows when one does not: \"If it doesn't, treat the statement as " +
			"[inference]\" — the statement is read as an inference and the artifact stays valid, so this is a " +
			"warning: add the record, or mark the statement [inference]. Each distinct citation is reported " +
			"once, at its first use." + divergeArt,
		Check: checkEvidenceCitations},
	{ID: "EV-002", Name: "evidence-pack-unreadable", Code: "EVIDENCE_PACK_UNREADABLE", Family: "EV", Severity: diag.Error, Scope: ScopeArtifact, Spec: specEV + ", Evidence Record Schema",
		Short: "The sibling evidence.json can be read: strict JSON with a records array.",
		Full:  "An evidence pack that cannot be read, is not strict JSON (reported at the line and column of the error), is not an object or has no records array cannot resolve any citation; its citations are then not reported by EV-001.",
		Check: checkEvidenceProblems("EV-002")},
	{ID: "EV-003", Name: "evidence-pack-invalid", Code: "EVIDENCE_PACK_INVALID", Family: "EV", Severity: diag.Error, Scope: ScopeArtifact, Spec: specEV + ", Validation Rules",
		Short: "The evidence pack follows its validation rules.",
		Full:  "The pack's error rules (evidence_pack_v0.1.md, Validation Rules): a version string; record ids EV-NNN, unique; excerpt anchors E<n>, unique within a record; every record has id, type, title, source, relevance, key_findings, verified and excerpts with their JSON types. The pack's thread_id must also be the artifact's session (a pack belongs to exactly one session).",
		Check: checkEvidenceProblems("EV-003")},
	{ID: "EV-004", Name: "evidence-unverified", Code: "EVIDENCE_UNVERIFIED", Family: "EV", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specEV + ", Validation Rules (Warnings)",
		Short: "Cited evidence records are verified.",
		Full:  "The pack's warning rule \"unverified evidence referenced in artifact\": a cited record whose \"verified\" is not true is reported once, at its first citation.",
		Check: checkUnverifiedEvidence},
}

// alCitation is one distinct EV citation of the artifact.
type alCitation struct {
	Ref, Record, Excerpt string
	First                alMatch
	Count                int
}

// alCitations returns the artifact's distinct EV citations in order.
func alCitations(c *Ctx) []*alCitation {
	var out []*alCitation
	by := map[string]*alCitation{}
	for _, m := range alScan(c.P, alEvidenceRE) {
		ref := string(c.P.Src[m.Start:m.End])
		if ci := by[ref]; ci != nil {
			ci.Count++
			continue
		}
		ci := &alCitation{Ref: ref, Record: "EV-" + m.Groups[0], Excerpt: m.Groups[1], First: m, Count: 1}
		by[ref] = ci
		out = append(out, ci)
	}
	return out
}

func alTimes(n int) string {
	if n == 1 {
		return ""
	}
	return fmt.Sprintf(" (cited %d times)", n)
}

func checkEvidenceCitations(c *Ctx) {
	if len(c.P.Src) == 0 || c.Evidence != nil && c.Evidence.Unusable {
		return
	}
	li := alLines(c.P)
	ev := c.Evidence
	for _, ci := range alCitations(c) {
		pos := li.Span(c.P.File, ci.First.Start, ci.First.End)
		if ev == nil {
			c.reportAt(pos, fmt.Sprintf("Citation %s cannot be resolved: the artifact has no evidence pack%s.", ci.Ref, alTimes(ci.Count)),
				fmt.Sprintf("Add the evidence pack %s with this record, or mark the statement [inference]: an unresolved EV citation is only an inference (artifact_schema_v0.1.md).", EvidencePath(c.P.File)),
				c.anchor(alWhere(c.P, ci.First.Start), ci.Ref))
			continue
		}
		excerpts, ok := ev.Records[ci.Record]
		if !ok {
			hint := fmt.Sprintf("Cite a record of %s, add the record to it, or mark the statement [inference].", ev.File)
			if alt := alSameNumber(ev, ci.Record); alt != "" {
				hint = fmt.Sprintf("Did you mean %s? Record ids are written exactly as in %s.", alt, ev.File)
			}
			c.reportAt(pos, fmt.Sprintf("Citation %s names no record of the evidence pack%s.", ci.Ref, alTimes(ci.Count)), hint, c.anchor(alWhere(c.P, ci.First.Start), ci.Ref))
			continue
		}
		if ci.Excerpt != "" && !excerpts[ci.Excerpt] {
			have := make([]string, 0, len(excerpts))
			for a := range excerpts {
				have = append(have, a)
			}
			hint := fmt.Sprintf("Record %s has no excerpts; cite the record alone (%s) or add the excerpt.", ci.Record, ci.Record)
			if len(have) > 0 {
				alSortIDs(have)
				hint = fmt.Sprintf("Cite one of its excerpts (%s), or add the excerpt to %s.", alList(have), ev.File)
			}
			c.reportAt(pos, fmt.Sprintf("Citation %s names no excerpt of record %s in the evidence pack%s.", ci.Ref, ci.Record, alTimes(ci.Count)), hint, c.anchor(alWhere(c.P, ci.First.Start), ci.Ref))
		}
	}
}

// alSameNumber finds a record with the same number written differently (EV-1 → EV-001).
func alSameNumber(ev *EvidencePack, rec string) string {
	n, err := strconv.Atoi(strings.TrimPrefix(rec, "EV-"))
	if err != nil {
		return ""
	}
	var best string
	for id := range ev.Records {
		if m, err := strconv.Atoi(strings.TrimPrefix(id, "EV-")); err == nil && m == n && id != rec && (best == "" || id < best) {
			best = id
		}
	}
	return best
}

// alSortIDs sorts ids by prefix and number (E2 before E10).
func alSortIDs(ids []string) {
	num := func(s string) int {
		i := len(s)
		for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
			i--
		}
		n, _ := strconv.Atoi(s[i:])
		return n
	}
	for i := 1; i < len(ids); i++ {
		for j := i; j > 0 && (num(ids[j]) < num(ids[j-1]) || num(ids[j]) == num(ids[j-1]) && ids[j] < ids[j-1]); j-- {
			ids[j], ids[j-1] = ids[j-1], ids[j]
		}
	}
}

func checkEvidenceProblems(rule string) func(*Ctx) {
	return func(c *Ctx) {
		if c.Evidence == nil {
			return
		}
		for _, pr := range c.Evidence.Problems {
			if pr.Rule == rule {
				c.reportAt(pr.Pos, pr.Message, pr.Hint, pr.Anchor)
			}
		}
		if rule != "EV-003" || c.Evidence.Unusable || c.Evidence.ThreadID == "" || c.Thread == "" || c.Evidence.ThreadID == c.Thread {
			return
		}
		c.reportAt(c.Evidence.ThreadPos, fmt.Sprintf("Evidence pack thread_id %q does not match the artifact's session %q.", c.Evidence.ThreadID, c.Thread),
			"An evidence pack belongs to exactly one session: set thread_id to the artifact's session id, or move the pack beside its own artifact.",
			c.anchor("thread_id", c.Evidence.ThreadID))
	}
}

func checkUnverifiedEvidence(c *Ctx) {
	ev := c.Evidence
	if len(c.P.Src) == 0 || ev == nil || ev.Unusable {
		return
	}
	li := alLines(c.P)
	seen := map[string]bool{}
	for _, ci := range alCitations(c) {
		if seen[ci.Record] || ev.Verified[ci.Record] {
			continue
		}
		if _, ok := ev.Records[ci.Record]; !ok {
			continue // EV-001
		}
		seen[ci.Record] = true
		c.reportAt(li.Span(c.P.File, ci.First.Start, ci.First.End), fmt.Sprintf("Citation %s rests on record %s, which the evidence pack does not mark verified.", ci.Ref, ci.Record),
			fmt.Sprintf("Verify the source and set \"verified\": true with verification_notes in %s, or mark the statements resting on it [inference].", ev.File),
			c.anchor(ci.Record))
	}
}
