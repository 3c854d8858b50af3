package diag

import (
	"fmt"
	"strings"
)

// Severity of a finding. The zero value is Error so that a forgotten severity
// never hides a problem.
type Severity int

const (
	Error Severity = iota
	Warning
	Note
	// Off disables a rule (configuration only; never on a finding).
	Off
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Note:
		return "note"
	case Off:
		return "off"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity accepts error, warning, note (and info as a synonym of note), off, none.
func ParseSeverity(s string) (Severity, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "error":
		return Error, true
	case "warning", "warn":
		return Warning, true
	case "note", "info":
		return Note, true
	case "off", "none":
		return Off, true
	}
	return Error, false
}

// AtLeast reports whether s is as severe as or more severe than t.
func (s Severity) AtLeast(t Severity) bool { return s <= t }

// Fix is a machine-applicable replacement of the text in Pos by Text.
type Fix struct {
	Description string `json:"description"`
	Pos         Pos    `json:"region"`
	Text        string `json:"replacement"`
}

// Finding is one diagnostic: what is wrong, where, and how to fix it.
type Finding struct {
	Rule     string   // rule id, e.g. "MG-001"
	Code     string   // the spec's error name, e.g. "INVALID_TARGET" (may equal Rule); set by the findings pipeline from the rule
	Severity Severity // effective severity
	Message  string   // first sentence says what is wrong
	Pos      Pos      // where; Pos.File is the input path as given (slash separated)
	Thread   string   // thread key, when the finding belongs to a thread
	MsgID    string   // message id, when it belongs to a message
	Hint     string   // how to fix it (one sentence)
	Fix      *Fix     // optional machine-applicable fix
	// Anchor is the matched text the finding is about (a subject, a block's
	// raw JSON, an item id). Fingerprints hash it instead of line numbers.
	Anchor string
}

// Detach copies the finding's texts that may be substrings of a thread's
// message bodies or packed records (the message, hint, anchor, message id
// and fix): a finding outlives its thread, whose bodies' memory is reused
// for the next thread once it is checked.
func (f *Finding) Detach() {
	f.Message, f.Hint, f.Anchor, f.MsgID = strings.Clone(f.Message), strings.Clone(f.Hint), strings.Clone(f.Anchor), strings.Clone(f.MsgID)
	if f.Fix != nil {
		fx := *f.Fix
		fx.Description, fx.Text = strings.Clone(fx.Description), strings.Clone(fx.Text)
		f.Fix = &fx
	}
}

// String renders the finding in the text format path:line:col: severity:
// message [ID], the path with its credentials redacted (a file or folder
// name can hold one; the message and hint are redacted by the findings
// pipeline).
func (f *Finding) String() string {
	p := f.Pos
	p.File = RedactSecrets(p.File)
	if p.File == "" {
		p.File = "<input>"
	}
	loc := p.Where()
	return fmt.Sprintf("%s: %s: %s [%s]", loc, f.Severity, f.Message, f.Rule)
}

// Less orders findings by path, line, column, rule id, then message, thread
// and message id, so output never depends on scheduling.
func Less(a, b *Finding) bool {
	if a.Pos.File != b.Pos.File {
		return a.Pos.File < b.Pos.File
	}
	if a.Pos.Line != b.Pos.Line {
		return a.Pos.Line < b.Pos.Line
	}
	if a.Pos.Col != b.Pos.Col {
		return a.Pos.Col < b.Pos.Col
	}
	if a.Rule != b.Rule {
		return a.Rule < b.Rule
	}
	if a.Message != b.Message {
		return a.Message < b.Message
	}
	if a.Thread != b.Thread {
		return a.Thread < b.Thread
	}
	return a.MsgID < b.MsgID
}

// Local is a problem found inside one message body, positioned by byte
// offsets into that body. The compiler turns it into a Finding with the
// message's file position.
type Local struct {
	Rule     string
	Severity Severity
	Message  string
	Hint     string
	Anchor   string
	Start    int // byte offset in the body
	End      int // byte offset just after the region (== Start for a point)
	Fix      *LocalFix
}

// LocalFix is a replacement of body bytes [Start, End) by Text.
type LocalFix struct {
	Description string
	Start, End  int
	Text        string
}
