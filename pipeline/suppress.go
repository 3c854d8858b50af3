package pipeline

// The suppress stage. Directives, in any markdown body or artifact, as
// HTML comments outside code:
//
//	<!-- brenner-ci-disable RULE-ID[, RULE-ID…]: reason -->       the next block
//	<!-- brenner-ci-disable-file RULE-ID[, RULE-ID…]: reason -->  the whole message or file
//
// and, for JSON exports (which cannot hold comments), config suppress:
// entries keyed by thread and message id. One implementation serves message
// bodies and artifacts; every registered id can be suppressed.

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/rules"
)

type suppression struct {
	rules  []string
	reason string
	thread string
	msgID  string // "" = every message of the thread
	file   string // artifacts: the file the directive is in
	whole  bool   // a -file directive (or a config entry): the whole message or file
	// from, to: a block directive covers findings positioned in [from, to].
	from, to diag.Pos
	where    diag.Pos // the comment or config entry, for SP findings
	used     bool
}

var (
	// directiveRE is a well-formed directive; its id list is checked
	// against the registry separately so that an unknown id is reported.
	directiveRE = regexp.MustCompile(`^brenner-ci-disable(-file)?\s+([A-Za-z0-9_-]+(?:\s*,\s*[A-Za-z0-9_-]+)*)\s*(?::\s*(.*))?$`)
	// lookalikeRE is anything that looks like it was meant as a directive
	// (brenner-ci, brenner_ci, brennerci, any case, then anything).
	lookalikeRE = regexp.MustCompile(`(?is)^brenner[-_ ]?ci\b`)
)

// directive is a parsed comment: ok false with problem set for a comment
// that looks like a directive but is not one.
type directive struct {
	ids     []string
	unknown []string
	reason  string
	file    bool
	problem string
}

func parseDirective(text string, known func(string) bool) (d directive, isDirective bool) {
	t := strings.TrimSpace(text)
	if !lookalikeRE.MatchString(t) {
		return d, false
	}
	m := directiveRE.FindStringSubmatch(t)
	if m == nil {
		d.problem = directiveProblem(t)
		return d, true
	}
	d.file, d.reason = m[1] != "", strings.TrimSpace(m[3])
	for _, id := range strings.Split(m[2], ",") {
		id = strings.TrimSpace(id)
		if known(strings.ToUpper(id)) {
			d.ids = append(d.ids, strings.ToUpper(id))
		} else {
			d.unknown = append(d.unknown, id)
		}
	}
	return d, true
}

// directiveProblem explains why t, which looks like a directive, is not one.
func directiveProblem(t string) string {
	word := strings.Fields(t)[0]
	switch {
	case word == "brenner-ci-disable" || word == "brenner-ci-disable-file":
		return "it names no rule id (write the ids after the keyword, then a colon and the reason)"
	case strings.EqualFold(word, "brenner-ci-disable") || strings.EqualFold(word, "brenner-ci-disable-file"):
		return fmt.Sprintf("the keyword %q must be written in lower case", word)
	}
	return fmt.Sprintf("%q is not a directive: the keywords are brenner-ci-disable and brenner-ci-disable-file", word)
}

// suppress applies directives and config entries, then adds the stage's
// own findings, which go through stamp, severity and ignore.
func suppress(fs []diag.Finding, comments []diag.Comment, cfg *config.Config, ran func(string) bool, reg *rules.Registry) []diag.Finding {
	supps, extra := fromComments(comments, reg.Known)
	supps = append(supps, fromConfig(cfg)...)
	if len(supps) > 0 {
		kept := fs[:0]
		for i := range fs {
			hit := false
			for _, s := range supps {
				if s.covers(&fs[i]) {
					s.used, hit = true, true
				}
			}
			if !hit {
				kept = append(kept, fs[i])
			}
		}
		fs = kept
	}
	for _, s := range supps {
		ids := strings.Join(s.rules, ", ")
		if s.reason == "" {
			extra = append(extra, diag.Finding{Rule: "SP-001", Message: fmt.Sprintf("Suppression of %s gives no reason.", ids),
				Hint: "Write the reason after a colon: <!-- brenner-ci-disable RULE-ID: why this is fine -->.",
				Pos:  s.where, Thread: s.thread, MsgID: s.msgID, Anchor: "suppress " + strings.Join(s.rules, ",")})
		}
		if !s.used && s.ran(ran) {
			extra = append(extra, diag.Finding{Rule: "SP-002", Message: fmt.Sprintf("Suppression of %s matched no finding.", ids),
				Hint: "Remove the stale suppression.", Pos: s.where, Thread: s.thread, MsgID: s.msgID,
				Anchor: "unused " + strings.Join(s.rules, ",") + " " + s.thread + " " + s.msgID})
		}
	}
	extra = ignore(severity(stamp(extra, reg), cfg), cfg)
	return append(fs, extra...)
}

// fromComments turns directive comments into suppressions, and malformed
// ones into SP-003/SP-004 findings.
func fromComments(cs []diag.Comment, known func(string) bool) ([]*suppression, []diag.Finding) {
	var out []*suppression
	var bad []diag.Finding
	for i := range cs {
		c := &cs[i]
		d, ok := parseDirective(c.Text, known)
		if !ok {
			continue
		}
		if d.problem != "" {
			bad = append(bad, diag.Finding{Rule: "SP-003", Message: "Comment looks like a brenner-ci suppression but is not one: " + d.problem + "; it suppresses nothing.",
				Hint: "Write <!-- brenner-ci-disable RULE-ID: reason --> or <!-- brenner-ci-disable-file RULE-ID: reason -->.",
				Pos:  c.Pos, Thread: c.Thread, MsgID: c.MsgID, Anchor: "directive " + diag.CollapseSpace(c.Text)})
			continue
		}
		if len(d.unknown) > 0 {
			bad = append(bad, diag.Finding{Rule: "SP-004", Message: fmt.Sprintf("Suppression names unknown rule id%s %s; it suppresses nothing for %s.", diag.Plural(len(d.unknown), "", "s"), strings.Join(d.unknown, ", "), them(len(d.unknown))),
				Hint: "Use the ids listed by brenner-ci rules (docs/rules.md).",
				Pos:  c.Pos, Thread: c.Thread, MsgID: c.MsgID, Anchor: "unknown " + strings.Join(d.unknown, ",")})
		}
		if len(d.ids) == 0 {
			continue
		}
		s := &suppression{rules: d.ids, reason: d.reason, thread: c.Thread, msgID: c.MsgID, file: c.File, whole: d.file, where: c.Pos}
		if !d.file {
			s.from, s.to = c.From, c.To
		}
		out = append(out, s)
	}
	return out, bad
}

func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

func fromConfig(c *config.Config) []*suppression {
	if c == nil {
		return nil
	}
	var out []*suppression
	for i, s := range c.Suppress {
		line := 0
		if i < len(c.SuppressLine) {
			line = c.SuppressLine[i]
		}
		out = append(out, &suppression{rules: []string{s.Rule}, reason: s.Reason, thread: s.Thread, msgID: s.Message, whole: true,
			where: diag.Pos{File: c.Path, Line: line, Col: 1}.Normalize()})
	}
	return out
}

// ran reports whether any of s's rules ran (ran nil: all did).
func (s *suppression) ran(ran func(string) bool) bool {
	if ran == nil {
		return true
	}
	for _, id := range s.rules {
		if ran(id) {
			return true
		}
	}
	return false
}

// covers reports whether s silences f.
func (s *suppression) covers(f *diag.Finding) bool {
	hit := false
	for _, r := range s.rules {
		if r == f.Rule {
			hit = true
			break
		}
	}
	switch {
	case !hit:
		return false
	case s.file != "": // an artifact's directive: its file
		if f.Pos.File != s.file {
			return false
		}
	case s.thread != f.Thread || (s.msgID != "" && s.msgID != f.MsgID): // a message's or config entry's
		return false
	}
	if s.whole {
		return true
	}
	return f.Pos.File == s.from.File && posLE(s.from, f.Pos) && posLE(f.Pos, s.to)
}

func posLE(a, b diag.Pos) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col <= b.Col
}
