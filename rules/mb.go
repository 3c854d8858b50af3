package rules

// MB-: message bodies and ack_required (message_body_schema_v0.1.md).

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/subject"
	"github.com/brenner-ci/brenner-ci/diag"
)

// lenientRole is a DELTA role that breaks the spec's [a-z]+ only by digits,
// underscores or hyphens (DELTA[codex_cli]): common in real threads.
var lenientRole = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

func checkSubjectPrefix(c *Ctx) {
	for _, m := range c.T.Msgs {
		s := m.Subject
		if s.Strict {
			continue
		}
		pos := m.Pos("subject")
		if s.Kind == subject.Delta && lenientRole.MatchString(s.Role) && strings.HasPrefix(s.Raw, "DELTA[") {
			f := c.report(m, pos, fmt.Sprintf("Subject role DELTA[%s] does not match the spec's DELTA[role] pattern (lower-case letters only).", s.Role),
				"Use a role of lower-case letters, such as DELTA[gpt], DELTA[opus] or DELTA[gemini].", "role "+s.Role)
			f.Severity = diag.Warning
			continue
		}
		raw := s.Raw
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
}

func checkKickoffQuestion(c *Ctx) {
	for _, m := range c.T.Msgs {
		if m.Subject.Kind != subject.Kickoff || m.Doc == nil {
			continue
		}
		if h := section(m.Doc, 2, "research question"); h != nil && sectionText(m.Doc, h) != "" {
			continue
		}
		if h := firstH1(m); h != "" {
			continue
		}
		c.report(m, bodyStart(m), "KICKOFF body has no research question: no H1 title and no \"## Research Question\" section.",
			"Add \"## Research Question\" with a one-sentence problem statement; it becomes the research thread.", "kickoff question")
	}
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
	for _, m := range c.T.Msgs {
		if m.Subject.Kind != subject.Kickoff || m.Doc == nil {
			continue
		}
		if section(m.Doc, 2, "context") != nil {
			continue
		}
		c.report(m, bodyStart(m), "KICKOFF body has no \"## Context\" section.",
			"Add \"## Context\" with 2-4 sentences of essential background.", "kickoff context")
	}
}

func checkCritiqueTarget(c *Ctx) {
	requireSection(c, subject.Critique, "target", "CRITIQUE", "Target", "Say what is critiqued: artifact version, section, item.")
}
func checkCritiqueAttack(c *Ctx) {
	requireSection(c, subject.Critique, "attack", "CRITIQUE", "Attack", "State the substantive challenge.")
}

func requireSection(c *Ctx, kind subject.Kind, name, kindName, title, hint string) {
	for _, m := range c.T.Msgs {
		if m.Subject.Kind != kind || m.Doc == nil {
			continue
		}
		if section(m.Doc, 2, name) != nil {
			continue
		}
		c.report(m, bodyStart(m), fmt.Sprintf("%s body has no \"## %s\" section.", kindName, title),
			fmt.Sprintf("Add \"## %s\". %s", title, hint), strings.ToLower(kindName)+" "+name)
	}
}

func checkHandoffAgents(c *Ctx) {
	for _, m := range c.T.Msgs {
		if m.Subject.Kind != subject.Handoff || m.Doc == nil {
			continue
		}
		var missing []string
		for _, n := range []string{"From", "To"} {
			h := section(m.Doc, 2, strings.ToLower(n))
			if h == nil || sectionText(m.Doc, h) == "" {
				missing = append(missing, n)
			}
		}
		if len(missing) == 0 {
			continue
		}
		c.report(m, bodyStart(m), fmt.Sprintf("HANDOFF body does not name the %s agent%s.", strings.Join(missing, " and "), plural(len(missing))),
			"Fill \"## From\" with the releasing agent and \"## To\" with the receiving agent.", "handoff "+strings.Join(missing, ","))
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ackRule says which kind each ack rule covers and what the flag must be.
var ackRule = map[string]struct {
	kind subject.Kind
	want bool
}{
	"MB-009": {subject.Ack, false},
	"MB-010": {subject.Kickoff, true},
	"MB-011": {subject.Question, true},
	"MB-012": {subject.Blocked, true},
}

func checkAckFlag(id string) threadCheck {
	r := ackRule[id]
	return func(c *Ctx) {
		for _, m := range c.T.Msgs {
			if m.Subject.Kind != r.kind || !m.AckSet || m.AckRequired == r.want {
				continue
			}
			k := r.kind.String()
			var msg, hint string
			if r.want {
				msg = fmt.Sprintf("%s message is sent with ack_required false; %s messages need acknowledgement.", k, k)
				hint = "Send it with ack_required: true."
			} else {
				msg = "ACK message sets ack_required true; acknowledgements do not need acknowledgement."
				hint = "Send ACK messages with ack_required: false."
			}
			c.report(m, m.Pos("ack_required"), msg, hint, fmt.Sprintf("ack_required=%v", m.AckRequired))
		}
	}
}
