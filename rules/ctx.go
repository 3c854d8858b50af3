package rules

import (
	"strings"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/diag"
)

// Ctx is what every check sees, whatever its scope, and how it reports.
// What is reachable from T and M is valid during the check only (the
// thread's JSON values are then reused for another thread): keep strings,
// numbers or a Value's Clone, never the thread's Values themselves. The
// engine sets the fields the rule's scope needs:
//
//	message:  T and M (called once per message)
//	thread:   T, and Persisted (the thread's persisted artifacts, for DR-001)
//	artifact: P, Evidence
//	batch:    Batch
type Ctx struct {
	T         *compile.Thread
	M         *compile.Msg
	P         *artifact.Parsed
	Evidence  *EvidencePack
	Persisted []*artifact.Parsed
	Batch     *Batch
	// Thread is the thread key the findings belong to (the session id for
	// an artifact).
	Thread string
	rule   *Rule
	out    []diag.Finding
	// cost is what rules with a Budget spent here, by rule id (Facts.Cost),
	// with what the rule being checked spent so far in spent (added to cost
	// when its check ends: a map update per evaluation was a tenth of a
	// custom rule's cost); incomplete is set when one of them stopped for
	// its budget.
	cost       map[string]uint64
	spent      uint64
	spending   bool // Spend was called in the check of the rule
	incomplete bool
	// deferred: the run's budgets are not charged here (a check during
	// the scan, whose result the run may not take); the costs are charged
	// when the result is taken (threadRun.reuse). The check stops when the
	// scan's checks together spend more than a rule's limit (Budget.early).
	deferred bool
	memo     map[any]any
}

// Memo returns what make returned the first time it was called with key
// for this thread (or artifact): rules that read one derived view of it
// (custom rules' CEL model) build it once. key should be a value of a type
// of the caller's own, as for context.Context keys.
func (c *Ctx) Memo(key any, make func() any) any {
	if v, ok := c.memo[key]; ok {
		return v
	}
	if c.memo == nil {
		c.memo = map[any]any{}
	}
	v := make()
	c.memo[key] = v
	return v
}

// report adds a finding of the current rule about message m (nil: the
// thread) at pos.
func (c *Ctx) report(m *compile.Msg, pos diag.Pos, msg, hint, anchor string) *diag.Finding {
	f := c.reportAt(pos, msg, hint, anchor)
	if m != nil {
		f.MsgID = m.ID
	}
	return f
}

// reportAt adds a finding of the current rule at pos; an artifact rule's
// finding without a file or line is placed at the artifact's first line.
func (c *Ctx) reportAt(pos diag.Pos, msg, hint, anchor string) *diag.Finding {
	if c.P != nil {
		if pos.File == "" {
			pos.File = c.P.File
		}
		if pos.Line == 0 {
			pos.Line = 1
		}
	}
	c.out = append(c.out, diag.Finding{Rule: c.rule.ID, Code: c.rule.Code, Severity: c.rule.Severity, Message: msg,
		Hint: hint, Pos: pos.Normalize(), Thread: c.Thread, Anchor: anchor})
	return &c.out[len(c.out)-1]
}

// emit adds a finding built by a batch check; the rule id, code and
// severity are the current rule's.
func (c *Ctx) emit(f diag.Finding) {
	f.Rule, f.Code, f.Severity = c.rule.ID, c.rule.Code, c.rule.Severity
	f.Pos = f.Pos.Normalize()
	c.out = append(c.out, f)
}

// section finds a heading by name as the compiler does (body.Doc.Find:
// keys compared by body.HeadingKey, top-level headings preferred); level 0
// matches any level.
func section(d *body.Doc, level int, names ...string) *body.Heading {
	if d == nil {
		return nil
	}
	return d.Find(level, names...)
}

// sectionText is the text of a heading's section, trimmed.
func sectionText(d *body.Doc, h *body.Heading) string {
	if h == nil || h.End > h.SectionEnd || h.SectionEnd > len(d.Src) {
		return ""
	}
	return strings.TrimSpace(d.Src[h.End:h.SectionEnd])
}

// bodyStart is the position of a message body's first byte (or the message).
func bodyStart(m *compile.Msg) diag.Pos {
	if m.Doc == nil {
		return m.Pos("body_md")
	}
	end := strings.IndexByte(m.Body, '\n')
	if end < 0 {
		end = len(m.Body)
	}
	return m.BodyPos(0, end)
}

// headingPos is the position of a heading line.
func headingPos(m *compile.Msg, h *body.Heading) diag.Pos {
	end := h.End
	for end > h.Start && end <= len(m.Body) && (m.Body[end-1] == '\n' || m.Body[end-1] == '\r') {
		end--
	}
	return m.BodyPos(h.Start, end)
}
