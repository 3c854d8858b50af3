package rules

// MB-: message bodies and ack_required (message_body_schema_v0.1.md).

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/subject"
	"github.com/brenner-ci/brenner-ci/diag"
)

var mbRules = []Rule{
	{ID: "MB-001", Name: "invalid-subject-prefix", Code: "MB-001", Family: "MB", Severity: diag.Error, Scope: ScopeMessage, Spec: specMB + "; " + specTH + " (INVALID_SUBJECT_PREFIX)",
		Short: "Subject has a valid protocol prefix.",
		Full: "Every subject must start with one of KICKOFF:, DELTA[role]:, COMPILED:, CRITIQUE:, ACK:, CLAIM:, " +
			"HANDOFF:, BLOCKED:, QUESTION: or INFO:, written exactly (upper case, role in lower-case letters). " +
			"Orchestrators route messages by this prefix; a message with another prefix (\"Re: KICKOFF:\", " +
			"\"Delta:\", \"DELTA[GPT]:\") is not recognised. A DELTA role with digits or underscores " +
			"(DELTA[codex_cli]) is MB-013, a warning.",
		Check: checkSubjectPrefix},
	{ID: "MB-002", Name: "kickoff-missing-research-question", Code: "MB-002", Family: "MB", Severity: diag.Error, Scope: ScopeMessage, Spec: specMB,
		Short: "KICKOFF has a research question.",
		Full:  "A KICKOFF body needs a non-empty H1 title or a \"## Research Question\" section: it becomes the research thread (RT) of the session.",
		Check: checkKickoffQuestion},
	{ID: "MB-003", Name: "kickoff-missing-context", Code: "MB-003", Family: "MB", Severity: diag.Error, Scope: ScopeMessage, Spec: specMB,
		Short: "KICKOFF has a Context section.",
		Full:  "A KICKOFF body needs a \"## Context\" section with the essential background (2-4 sentences).",
		Check: checkKickoffContext},
	{ID: "MB-004", Name: "delta-without-blocks", Code: "MB-004", Family: "MB", Severity: diag.Error, Scope: ScopeMessage, By: ByCompiler, Spec: specMB + "; " + specDF + ", Failure Mode 1",
		Short: "A DELTA message carries at least one ```delta block.",
		Full: "A DELTA message must carry at least one fenced ```delta block; otherwise it contributes nothing to " +
			"the artifact. The finding says why no block was found: delta JSON pasted inline without a fence " +
			"(failure mode 1, which upstream silently drops), delta JSON in a ```json, untagged or ```Delta " +
			"fence, an empty ```delta fence, delta examples nested inside a ~~~markdown fence, or upstream's " +
			"inline DELTA[type]: lines. When it can, it offers a fix that fences the JSON.",
	},
	{ID: "MB-005", Name: "delta-invalid-json", Code: "MB-005", Family: "MB", Severity: diag.Error, Scope: ScopeMessage, By: ByCompiler, Spec: specMB + "; " + specDF + ", Parsing Rules",
		Short: "Delta blocks are strict JSON.",
		Full: "Each delta block must be strict JSON (RFC 8259): double quotes only, no trailing commas, no " +
			"comments, quoted keys. brenner-ci never repairs JSON (upstream silently strips comments and " +
			"trailing commas, which can corrupt strings); the finding gives the line and column inside the block " +
			"and the likely cause, and offers to delete a trailing comma. The invalid block is rejected alone; " +
			"the other blocks of the message still apply.",
	},
	{ID: "MB-006", Name: "critique-missing-target", Code: "MB-006", Family: "MB", Severity: diag.Error, Scope: ScopeMessage, Spec: specMB,
		Short: "CRITIQUE has a Target section.",
		Full:  "A CRITIQUE body needs a \"## Target\" section saying what is critiqued (artifact version, section, item).",
		Check: checkCritiqueTarget},
	{ID: "MB-007", Name: "critique-missing-attack", Code: "MB-007", Family: "MB", Severity: diag.Error, Scope: ScopeMessage, Spec: specMB,
		Short: "CRITIQUE has an Attack section.",
		Full:  "A CRITIQUE body needs a \"## Attack\" section with the substantive challenge.",
		Check: checkCritiqueAttack},
	{ID: "MB-008", Name: "handoff-missing-agents", Code: "MB-008", Family: "MB", Severity: diag.Error, Scope: ScopeMessage, Spec: specMB,
		Short: "HANDOFF names the From and To agents.",
		Full:  "A HANDOFF body needs non-empty \"## From\" and \"## To\" sections naming the releasing and the receiving agent.",
		Check: checkHandoffAgents},
	{ID: "MB-009", Name: "ack-requires-ack", Code: "MB-009", Family: "MB", Severity: diag.Warning, Scope: ScopeMessage, Spec: specMB + "; ACK Semantics",
		Short: "ACK messages do not set ack_required.",
		Full:  "Acknowledgements never need acknowledgement; an ACK with ack_required: true asks every recipient for a pointless reply.",
		Check: checkAckFlag("MB-009")},
	{ID: "MB-010", Name: "kickoff-without-ack-required", Code: "MB-010", Family: "MB", Severity: diag.Warning, Scope: ScopeMessage, Spec: specMB + "; ACK Semantics",
		Short: "KICKOFF sets ack_required: true.",
		Full:  "All agents must confirm a session start, so a KICKOFF is sent with ack_required: true.",
		Check: checkAckFlag("MB-010")},
	{ID: "MB-011", Name: "question-without-ack-required", Code: "MB-011", Family: "MB", Severity: diag.Warning, Scope: ScopeMessage, Spec: specMB + "; ACK Semantics",
		Short: "QUESTION sets ack_required: true.",
		Full:  "Questions need answers, so a QUESTION is sent with ack_required: true.",
		Check: checkAckFlag("MB-011")},
	{ID: "MB-012", Name: "blocked-without-ack-required", Code: "MB-012", Family: "MB", Severity: diag.Warning, Scope: ScopeMessage, Spec: specMB + "; ACK Semantics",
		Short: "BLOCKED sets ack_required: true.",
		Full:  "Blockers need resolution, so a BLOCKED message is sent with ack_required: true.",
		Check: checkAckFlag("MB-012")},
	{ID: "MB-013", Name: "delta-role-not-letters", Code: "MB-013", Family: "MB", Severity: diag.Warning, Scope: ScopeMessage, Spec: specMB + "; " + specTH + " (INVALID_SUBJECT_PREFIX)",
		Short: "A DELTA role is lower-case letters only.",
		Full:  "The spec's subject pattern is DELTA[role] with a role of lower-case letters. A role with digits, underscores or hyphens (DELTA[codex_cli], DELTA[gpt-5]) is common in real threads and orchestrators usually route it, so it is a warning of its own rather than MB-001's error. (Split from MB-001 so that each id has one severity.)",
		Check: checkDeltaRole},
}

// lenientRole is a DELTA role that breaks the spec's [a-z]+ only by digits,
// underscores or hyphens (DELTA[codex_cli]): common in real threads.
var lenientRole = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// lenientDeltaRole reports whether a subject breaks the spec only by a
// DELTA role with digits, underscores or hyphens (MB-013, not MB-001).
func lenientDeltaRole(s subject.Subject) bool {
	return s.Kind == subject.Delta && lenientRole.MatchString(s.Role) && strings.HasPrefix(s.Raw, "DELTA[")
}

func checkDeltaRole(c *Ctx) {
	m := c.M
	if m.Subject.Strict || !lenientDeltaRole(m.Subject) {
		return
	}
	c.report(m, m.Pos("subject"), fmt.Sprintf("Subject role DELTA[%s] does not match the spec's DELTA[role] pattern (lower-case letters only).", m.Subject.Role),
		"Use a role of lower-case letters, such as DELTA[gpt], DELTA[opus] or DELTA[gemini].", "role "+m.Subject.Role)
}

func checkSubjectPrefix(c *Ctx) {
	m := c.M
	s := m.Subject
	if s.Strict || lenientDeltaRole(s) {
		return
	}
	pos := m.Pos("subject")
	// Redacted before it is cut: a credential cut short no longer looks
	// like one, and the rest of it would be echoed.
	raw := diag.RedactSecrets(s.Raw)
	if len([]rune(raw)) > 60 {
		raw = string([]rune(raw)[:60]) + "…"
	}
	why := "it does not start with a protocol prefix"
	switch {
	case s.Kind != subject.Unknown:
		why = "its prefix is not written exactly as the spec requires (upper case, DELTA[role] with a lower-case role, colon directly after)"
	case strings.HasPrefix(strings.ToLower(strings.TrimSpace(s.Raw)), "re:"):
		why = "replies keep a \"Re:\" prefix, which orchestrators do not route"
	}
	c.report(m, pos, fmt.Sprintf("Subject %q has no valid protocol prefix: %s.", raw, why),
		"Start the subject with KICKOFF:, DELTA[role]:, COMPILED:, CRITIQUE:, ACK:, CLAIM:, HANDOFF:, BLOCKED:, QUESTION: or INFO:.",
		"subject "+s.Raw)
}

func checkKickoffQuestion(c *Ctx) {
	m := c.M
	if m.Subject.Kind != subject.Kickoff || m.Doc == nil {
		return
	}
	if h := section(m.Doc, 2, "research question"); h != nil && sectionText(m.Doc, h) != "" {
		return
	}
	if h := firstH1(m); h != "" {
		return
	}
	c.report(m, bodyStart(m), "KICKOFF body has no research question: no H1 title and no \"## Research Question\" section.",
		"Add \"## Research Question\" with a one-sentence problem statement; it becomes the research thread.", "kickoff question")
}

func firstH1(m *compile.Msg) string {
	for i := range m.Doc.Headings {
		if h := &m.Doc.Headings[i]; h.Level == 1 {
			return strings.TrimSpace(h.Text)
		}
	}
	return ""
}

func checkKickoffContext(c *Ctx) {
	m := c.M
	if m.Subject.Kind != subject.Kickoff || m.Doc == nil {
		return
	}
	if section(m.Doc, 2, "context") != nil {
		return
	}
	c.report(m, bodyStart(m), "KICKOFF body has no \"## Context\" section.",
		"Add \"## Context\" with 2-4 sentences of essential background.", "kickoff context")
}

func checkCritiqueTarget(c *Ctx) {
	requireSection(c, subject.Critique, "target", "CRITIQUE", "Target", "Say what is critiqued: artifact version, section, item.")
}
func checkCritiqueAttack(c *Ctx) {
	requireSection(c, subject.Critique, "attack", "CRITIQUE", "Attack", "State the substantive challenge.")
}

func requireSection(c *Ctx, kind subject.Kind, name, kindName, title, hint string) {
	m := c.M
	if m.Subject.Kind != kind || m.Doc == nil {
		return
	}
	if section(m.Doc, 2, name) != nil {
		return
	}
	c.report(m, bodyStart(m), fmt.Sprintf("%s body has no \"## %s\" section.", kindName, title),
		fmt.Sprintf("Add \"## %s\". %s", title, hint), strings.ToLower(kindName)+" "+name)
}

func checkHandoffAgents(c *Ctx) {
	m := c.M
	if m.Subject.Kind != subject.Handoff || m.Doc == nil {
		return
	}
	var missing []string
	for _, n := range []string{"From", "To"} {
		h := section(m.Doc, 2, strings.ToLower(n))
		if h == nil || sectionText(m.Doc, h) == "" {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return
	}
	c.report(m, bodyStart(m), fmt.Sprintf("HANDOFF body does not name the %s agent%s.", strings.Join(missing, " and "), diag.Plural(len(missing), "", "s")),
		"Fill \"## From\" with the releasing agent and \"## To\" with the receiving agent.", "handoff "+strings.Join(missing, ","))
}

// ackRule says which kind each ack rule covers and what the flag must be.
var ackRule = map[string]struct {
	kinds []subject.Kind
	want  bool
}{
	"MB-009": {[]subject.Kind{subject.Ack}, false},
	"MB-010": {[]subject.Kind{subject.Kickoff}, true},
	"MB-011": {[]subject.Kind{subject.Question}, true},
	"MB-012": {[]subject.Kind{subject.Blocked}, true},
	"MB-025": {[]subject.Kind{subject.Critique, subject.Handoff}, true},
	"MB-026": {[]subject.Kind{subject.Delta, subject.Compiled, subject.Claim, subject.Info}, false},
}

func checkAckFlag(id string) func(*Ctx) {
	r := ackRule[id]
	return func(c *Ctx) {
		m := c.M
		if !slices.Contains(r.kinds, m.Subject.Kind) || !m.AckSet || m.AckRequired == r.want {
			return
		}
		k := m.Subject.Kind.String()
		var msg, hint string
		switch {
		case r.want:
			msg = fmt.Sprintf("%s message is sent with ack_required false; %s messages need acknowledgement.", k, k)
			hint = "Send it with ack_required: true."
		case m.Subject.Kind == subject.Ack:
			msg = "ACK message sets ack_required true; acknowledgements do not need acknowledgement."
			hint = "Send ACK messages with ack_required: false."
		default:
			msg = fmt.Sprintf("%s message sets ack_required true; %s messages need no acknowledgement.", k, k)
			hint = "Send it with ack_required: false."
		}
		c.report(m, m.Pos("ack_required"), msg, hint, fmt.Sprintf("ack_required=%v", m.AckRequired))
	}
}
