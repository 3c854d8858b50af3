package rules

import (
	"regexp"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/diag"
)

// Ctx is what a thread check sees: the compiled thread and a way to report.
type Ctx struct {
	T    *compile.Thread
	meta *Meta
	out  []diag.Finding
}

// report adds a finding of the current rule about message m at pos.
func (c *Ctx) report(m *compile.Msg, pos diag.Pos, msg, hint, anchor string) *diag.Finding {
	f := diag.Finding{Rule: c.meta.ID, Code: c.meta.Code, Severity: c.meta.Severity, Message: msg, Hint: hint,
		Pos: pos.Normalize(), Thread: c.T.Key, Anchor: anchor}
	if m != nil {
		f.MsgID = m.ID
	}
	c.out = append(c.out, f)
	return &c.out[len(c.out)-1]
}

// section finds a heading by name: case-insensitive, ignoring a trailing
// colon and a parenthesised suffix ("Research Question (Discriminative)").
// level 0 matches any level.
func section(d *body.Doc, level int, names ...string) *body.Heading {
	if d == nil {
		return nil
	}
	for i := range d.Headings {
		h := &d.Headings[i]
		if level != 0 && h.Level != level {
			continue
		}
		t := normHeading(h.Text)
		for _, n := range names {
			if t == n {
				return h
			}
		}
	}
	return nil
}

var parenSuffix = regexp.MustCompile(`\s*\([^)]*\)\s*$`)

func normHeading(s string) string {
	s = strings.TrimSpace(s)
	s = parenSuffix.ReplaceAllString(s, "")
	s = strings.TrimRight(s, ": ")
	return strings.ToLower(s)
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
