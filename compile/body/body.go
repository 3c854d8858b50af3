// Package body parses a message body or artifact once with goldmark
// (CommonMark) and keeps what compile and the rules need: headings with their
// sections, fenced code blocks (and upstream's :::delta blocks) and HTML
// comments, all positioned by byte offsets into the body.
package body

// Doc is a parsed markdown body.
type Doc struct {
	Src      string
	Headings []Heading // in document order
	Fences   []Fence   // fenced code blocks (any container depth) and :::delta blocks, in document order
	Comments []Comment // HTML comments (block or inline), in document order
}

// Heading is an ATX or setext heading.
type Heading struct {
	Level      int
	Text       string // plain text, trimmed
	Start, End int    // byte range of the heading line(s)
	// SectionEnd is the offset where the heading's section ends: the start of
	// the next heading of the same or a higher level, or len(Src).
	SectionEnd int
}

// Fence is a fenced block.
type Fence struct {
	Char         byte   // '`', '~', or ':' for a :::delta block
	Info         string // info string as written, trimmed
	Lang         string // first word of Info
	Content      string // the block's content (without the fence lines)
	Start, End   int    // byte range of the whole block, fences included
	ContentStart int    // byte offset where Content starts
	Closed       bool   // false when the block runs to the end of its container
}

// Comment is an HTML comment <!-- … -->.
type Comment struct {
	Text       string // inner text, trimmed
	Start, End int
}
