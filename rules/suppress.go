package rules

// SP-: suppressions. Inline comments in any markdown body or artifact:
//
//	<!-- brenner-ci-disable RULE-ID[, RULE-ID…]: reason -->       the next block
//	<!-- brenner-ci-disable-file RULE-ID[, RULE-ID…]: reason -->  the whole message or file
//
// and, for JSON exports, config entries keyed by thread and message id.

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/config"
)

type suppression struct {
	rules  []string
	reason string
	thread string
	msgID  string // "" = every message of the thread
	file   string // for file-wide artifact suppressions
	// region: findings positioned in [from, to] (inclusive) are covered;
	// a zero from means the whole message (or file).
	from, to diag.Pos
	where    diag.Pos // the comment or config entry, for SP findings
	used     bool
	config   bool
}

var disableRE = regexp.MustCompile(`^brenner-ci-disable(-file)?\s+([A-Za-z]{2}-\d{3}(?:\s*,\s*[A-Za-z]{2}-\d{3})*)\s*(?::\s*(.*))?$`)

// parseDirective parses the inner text of an HTML comment.
func parseDirective(text string) (rules []string, reason string, file, ok bool) {
	m := disableRE.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return nil, "", false, false
	}
	for _, r := range strings.Split(m[2], ",") {
		rules = append(rules, strings.ToUpper(strings.TrimSpace(r)))
	}
	return rules, strings.TrimSpace(m[3]), m[1] != "", true
}

func inlineSuppressions(t *compile.Thread) []*suppression {
	var out []*suppression
	for _, m := range t.Msgs {
		if m.Doc == nil {
			continue
		}
		for _, cm := range m.Doc.Comments {
			rules, reason, file, ok := parseDirective(cm.Text)
			if !ok {
				continue
			}
			s := &suppression{rules: rules, reason: reason, thread: t.Key, msgID: m.ID, where: m.BodyPos(cm.Start, cm.End).Normalize()}
			if !file {
				start, end := nextBlock(m.Body, cm.End, m)
				s.from, s.to = m.BodyPos(start, start), m.BodyPos(end, end)
			}
			out = append(out, s)
		}
	}
	return out
}

// nextBlock returns the byte range of the markdown block after offset off:
// a fenced block as a whole, otherwise up to the next blank line.
func nextBlock(src string, off int, m *compile.Msg) (int, int) {
	i := off
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	for _, f := range m.Doc.Fences {
		if f.Start >= off && f.Start <= i+1 {
			return f.Start, f.End
		}
	}
	if j := strings.Index(src[i:], "\n\n"); j >= 0 {
		return i, i + j
	}
	return i, len(src)
}

func configSuppressions(c *config.Config) []*suppression {
	if c == nil {
		return nil
	}
	var out []*suppression
	for i, s := range c.Suppress {
		line := 0
		if i < len(c.SuppressLine) {
			line = c.SuppressLine[i]
		}
		out = append(out, &suppression{rules: []string{s.Rule}, reason: s.Reason, thread: s.Thread, msgID: s.Message,
			where: diag.Pos{File: c.Path, Line: line, Col: 1}.Normalize(), config: true})
	}
	return out
}

func (s *suppression) covers(f *diag.Finding) bool {
	hit := false
	for _, r := range s.rules {
		if r == f.Rule {
			hit = true
			break
		}
	}
	if !hit {
		return false
	}
	if s.file != "" {
		return f.Pos.File == s.file
	}
	if s.thread != f.Thread || (s.msgID != "" && s.msgID != f.MsgID) {
		return false
	}
	if s.from.Line == 0 {
		return true
	}
	return f.Pos.File == s.from.File && posLE(s.from, f.Pos) && posLE(f.Pos, s.to)
}

func applySuppressions(fs []diag.Finding, supps []*suppression) []diag.Finding {
	if len(supps) == 0 {
		return fs
	}
	out := fs[:0]
	for i := range fs {
		f := &fs[i]
		suppressed := false
		for _, s := range supps {
			if s.covers(f) {
				s.used = true
				suppressed = true
			}
		}
		if !suppressed {
			out = append(out, *f)
		}
	}
	return out
}

func suppressionFindings(supps []*suppression, e *Engine) []diag.Finding {
	var out []diag.Finding
	for _, s := range supps {
		if s.reason == "" && e.on("SP-001") {
			out = append(out, diag.Finding{Rule: "SP-001", Code: "SUPPRESSION_WITHOUT_REASON", Severity: e.Config.Severity("SP-001", s.where.File, diag.Note),
				Message: fmt.Sprintf("Suppression of %s gives no reason.", strings.Join(s.rules, ", ")),
				Hint:    "Write the reason after a colon: <!-- brenner-ci-disable RULE-ID: why this is fine -->.",
				Pos:     s.where, Thread: s.thread, MsgID: s.msgID, Anchor: "suppress " + strings.Join(s.rules, ",")})
		}
		if !s.used && e.on("SP-002") {
			out = append(out, diag.Finding{Rule: "SP-002", Code: "UNUSED_SUPPRESSION", Severity: e.Config.Severity("SP-002", s.where.File, diag.Note),
				Message: fmt.Sprintf("Suppression of %s matched no finding.", strings.Join(s.rules, ", ")),
				Hint:    "Remove the stale suppression.", Pos: s.where, Thread: s.thread, MsgID: s.msgID,
				Anchor: "unused " + strings.Join(s.rules, ",") + " " + s.thread + " " + s.msgID})
		}
	}
	kept := out[:0]
	for _, f := range out {
		if f.Severity != diag.Off {
			kept = append(kept, f)
		}
	}
	return kept
}
