package rules

// MB-014…MB-026: the validation tables of message_body_schema_v0.1.md that
// its Machine-Checkable Rules table does not number, and its ACK Semantics
// Summary. Severities follow the tables: "Required" is an error,
// "Recommended" a warning. MB-001…MB-013 are in mb.go.

import (
	"fmt"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/relit"
	"github.com/brenner-ci/brenner-ci/compile/subject"
	"github.com/brenner-ci/brenner-ci/diag"
)

const specMBTable = "message_body_schema_v0.1.md, Message Types and Body Schemas"

var mbTableRules = []Rule{
	{ID: "MB-014", Name: "kickoff-without-excerpt", Code: "MB-014", Family: "MB", Severity: diag.Warning, Scope: ScopeMessage, Spec: specMBTable + ", KICKOFF Validation (Excerpt: Recommended)",
		Short: "KICKOFF has an Excerpt with §n citations.",
		Full:  "A KICKOFF should carry a \"## Excerpt\" section citing the transcript by section number (§n), so every agent reasons from the same passages.",
		Check: checkKickoffExcerpt},
	{ID: "MB-015", Name: "critique-severity", Code: "MB-015", Family: "MB", Severity: diag.Warning, Scope: ScopeMessage, Spec: specMBTable + ", CRITIQUE Validation (Severity: Recommended)",
		Short: "CRITIQUE states its Severity: Critical, Major or Minor.",
		Full:  "A CRITIQUE should end with a \"## Severity\" section whose value is Critical, Major or Minor, so the orchestrator can triage it.",
		Check: enumSection(subject.Critique, "MB-015", "Severity", []string{"Critical", "Major", "Minor"})},
	{ID: "MB-016", Name: "ack-status", Code: "MB-016", Family: "MB", Severity: diag.Error, Scope: ScopeMessage, Spec: specMBTable + ", ACK Validation (Status: Required)",
		Short: "ACK states its Status: Received, Understood, Will Action or Completed.",
		Full:  "An ACK body needs a \"## Status\" section whose value is one of Received, Understood, Will Action, Completed.",
		Check: enumSection(subject.Ack, "MB-016", "Status", []string{"Received", "Understood", "Will Action", "Completed"})},
	{ID: "MB-017", Name: "ack-without-message-id", Code: "MB-017", Family: "MB", Severity: diag.Warning, Scope: ScopeMessage, Spec: specMBTable + ", ACK Validation (Message ID: Recommended)",
		Short: "ACK names the message it acknowledges.",
		Full:  "An ACK should carry a non-empty \"## Message ID\" section referring to the acknowledged message.",
		Check: requireFilled(subject.Ack, "Recommended", "Message ID")},
	{ID: "MB-018", Name: "claim-without-item-or-agent", Code: "MB-018", Family: "MB", Severity: diag.Error, Scope: ScopeMessage, Spec: specMBTable + ", CLAIM Validation (Item, Agent: Required)",
		Short: "CLAIM names the Item and the Agent.",
		Full:  "A CLAIM body needs a non-empty \"## Item\" (bead id or description) and \"## Agent\" (the claiming agent).",
		Check: requireFilled(subject.Claim, "Required", "Item", "Agent")},
	{ID: "MB-019", Name: "handoff-without-item", Code: "MB-019", Family: "MB", Severity: diag.Error, Scope: ScopeMessage, Spec: specMBTable + ", HANDOFF Validation (Item: Required)",
		Short: "HANDOFF names the Item handed off.",
		Full:  "A HANDOFF body needs a non-empty \"## Item\" section. (Its From and To agents are MB-008.)",
		Check: requireFilled(subject.Handoff, "Required", "Item")},
	{ID: "MB-020", Name: "handoff-without-state", Code: "MB-020", Family: "MB", Severity: diag.Warning, Scope: ScopeMessage, Spec: specMBTable + ", HANDOFF Validation (State: Recommended)",
		Short: "HANDOFF describes the State of the work.",
		Full:  "A HANDOFF should carry a non-empty \"## State\" section describing the progress so far.",
		Check: requireFilled(subject.Handoff, "Recommended", "State")},
	{ID: "MB-021", Name: "blocked-without-item-or-blocker", Code: "MB-021", Family: "MB", Severity: diag.Error, Scope: ScopeMessage, Spec: specMBTable + ", BLOCKED Validation (Item, Blocker: Required)",
		Short: "BLOCKED names the Item and the Blocker.",
		Full:  "A BLOCKED body needs a non-empty \"## Item\" and \"## Blocker\" (what blocks progress).",
		Check: requireFilled(subject.Blocked, "Required", "Item", "Blocker")},
	{ID: "MB-022", Name: "blocked-type", Code: "MB-022", Family: "MB", Severity: diag.Warning, Scope: ScopeMessage, Spec: specMBTable + ", BLOCKED Validation (Type: Recommended)",
		Short: "BLOCKED states its Type: Dependency, Question, Resource or External.",
		Full:  "A BLOCKED body should carry a \"## Type\" section whose value is Dependency, Question, Resource or External.",
		Check: enumSection(subject.Blocked, "MB-022", "Type", []string{"Dependency", "Question", "Resource", "External"})},
	{ID: "MB-023", Name: "question-without-question", Code: "MB-023", Family: "MB", Severity: diag.Error, Scope: ScopeMessage, Spec: specMBTable + ", QUESTION Validation (Question: Required)",
		Short: "QUESTION has a Question section.",
		Full:  "A QUESTION body needs a \"## Question\" section with the specific question asked.",
		Check: requireFilled(subject.Question, "Required", "Question")},
	{ID: "MB-024", Name: "question-urgency", Code: "MB-024", Family: "MB", Severity: diag.Warning, Scope: ScopeMessage, Spec: specMBTable + ", QUESTION Validation (Urgency: Recommended)",
		Short: "QUESTION states its Urgency: Blocking, Soon or Whenever.",
		Full:  "A QUESTION body should carry an \"## Urgency\" section whose value is Blocking, Soon or Whenever.",
		Check: enumSection(subject.Question, "MB-024", "Urgency", []string{"Blocking", "Soon", "Whenever"})},
	{ID: "MB-025", Name: "ack-required-not-set", Code: "MB-025", Family: "MB", Severity: diag.Warning, Scope: ScopeMessage, Spec: specMB + "; ACK Semantics Summary (CRITIQUE, HANDOFF: Yes)",
		Short: "CRITIQUE and HANDOFF messages set ack_required: true.",
		Full:  "The ACK Semantics Summary requires acknowledgement of CRITIQUE (challenges need attention) and HANDOFF (transfer must be confirmed) messages, as MB-010…MB-012 do for KICKOFF, QUESTION and BLOCKED. Reported only when the export carries ack_required.",
		Check: checkAckFlag("MB-025")},
	{ID: "MB-026", Name: "ack-required-needlessly", Code: "MB-026", Family: "MB", Severity: diag.Note, Scope: ScopeMessage, Spec: specMB + "; ACK Semantics Summary (DELTA, COMPILED, CLAIM, INFO: No)",
		Short: "DELTA, COMPILED, CLAIM and INFO messages do not ask for acknowledgement.",
		Full:  "The ACK Semantics Summary says DELTA (merged without individual confirmation), COMPILED (informational broadcast), CLAIM and INFO messages need no acknowledgement; asking for one makes every recipient answer for nothing. (ACK messages are MB-009.)",
		Check: checkAckFlag("MB-026")},
}

var excerptCite = relit.MustCompile(`§\s*\d`) // most sections hold no "§" (compile/relit)

// checkKickoffExcerpt (MB-014): an "## Excerpt" section with §n citations.
func checkKickoffExcerpt(c *Ctx) {
	m := c.M
	if m.Subject.Kind != subject.Kickoff || m.Doc == nil {
		return
	}
	h := section(m.Doc, 2, "excerpt")
	switch {
	case h == nil:
		c.report(m, bodyStart(m), "KICKOFF body has no \"## Excerpt\" section.",
			"Add \"## Excerpt\" with the transcript passages the session starts from, cited by section (§n).", "kickoff excerpt")
	case !excerptCite.MatchString(sectionText(m.Doc, h)):
		c.report(m, headingPos(m, h), "The KICKOFF's \"## Excerpt\" cites no transcript section (§n).",
			"Cite the passages by section number, e.g. §42 or §45-47.", "kickoff excerpt citations")
	}
}

// requireFilled reports a message of kind whose "## <title>" sections are
// missing or empty.
func requireFilled(kind subject.Kind, level string, titles ...string) func(*Ctx) {
	return func(c *Ctx) {
		m := c.M
		if m.Subject.Kind != kind || m.Doc == nil {
			return
		}
		var missing []string
		for _, t := range titles {
			if h := section(m.Doc, 2, strings.ToLower(t)); h == nil || sectionText(m.Doc, h) == "" {
				missing = append(missing, "\"## "+t+"\"")
			}
		}
		if len(missing) == 0 {
			return
		}
		k := kind.String()
		need := "needs"
		if level == "Recommended" {
			need = "should have"
		}
		c.report(m, bodyStart(m), fmt.Sprintf("%s body %s %s, missing or empty.", k, need, strings.Join(missing, " and ")),
			fmt.Sprintf("Add %s as the %s schema shows.", strings.Join(missing, " and "), k),
			strings.ToLower(k)+" "+strings.Join(titles, ","))
	}
}

// enumSection reports a message of kind whose "## <title>" section is
// missing or does not start with one of values (any case).
func enumSection(kind subject.Kind, id, title string, values []string) func(*Ctx) {
	// Built once, not once per message.
	list, lowTitle := strings.Join(values, ", "), strings.ToLower(title)
	lowValues := make([]string, len(values))
	for i, v := range values {
		lowValues[i] = strings.ToLower(v)
	}
	return func(c *Ctx) {
		m := c.M
		if m.Subject.Kind != kind || m.Doc == nil {
			return
		}
		h := section(m.Doc, 2, lowTitle)
		if h == nil {
			c.report(m, bodyStart(m), fmt.Sprintf("%s body has no \"## %s\" section.", kind, title),
				fmt.Sprintf("Add \"## %s\" with one of %s.", title, list), id+" missing")
			return
		}
		text := strings.ToLower(strings.Trim(sectionText(m.Doc, h), "*_` \t"))
		for _, v := range lowValues {
			if rest, ok := strings.CutPrefix(text, v); ok && (rest == "" || !isWordByte(rest[0])) {
				return
			}
		}
		c.report(m, headingPos(m, h), fmt.Sprintf("%s %q is not one of %s.", title, firstLineOf(sectionText(m.Doc, h)), list),
			fmt.Sprintf("Write one of %s first in the section.", list), id+" value")
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_'
}

func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}
