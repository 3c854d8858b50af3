package diag

import "strings"

// Comment is an HTML comment (<!-- … -->) in a message body or an artifact,
// outside code: where suppression directives live. The engine collects them;
// the findings pipeline interprets them.
type Comment struct {
	Text string // the text between <!-- and -->
	Pos  Pos    // the comment itself
	// From and To bound the markdown block after the comment, which a block
	// directive covers.
	From, To Pos
	// File is set for artifacts: a file directive covers the whole file.
	// For message bodies it is empty and a file directive covers the message.
	File   string
	Thread string
	MsgID  string
}

// Detach copies the comment's texts that are substrings of a message body
// (see Finding.Detach).
func (c *Comment) Detach() { c.Text, c.MsgID = strings.Clone(c.Text), strings.Clone(c.MsgID) }
