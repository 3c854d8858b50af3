package mailbox

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

// json reads a file whose first non-space byte is '{' or '['. When its first
// non-blank line holds a complete JSON value on its own, the file is read as
// JSON Lines, one line at a time (a thread file of any size never sits in
// memory whole). Otherwise the file is one JSON document; if that document
// does not parse but other lines do parse on their own, it is JSON Lines
// whose first line is broken.
func (s *scanner) json(size int64) {
	consumed := s.fbuf[:0] // bytes read before the first non-blank line
	lineNo := 0
	var off int64
	for {
		line, err := s.readLine()
		if len(line) == 0 && err != nil {
			if err != io.EOF {
				s.fileIssue(diag.Pos{}, "read", fmt.Sprintf("Input file %s cannot be read: %v.", s.f.disp, PlainErr(err)), "")
			}
			return
		}
		lineNo++
		content := trimEOL(line)
		if len(bytes.TrimSpace(bytes.TrimPrefix(content, []byte("\xEF\xBB\xBF")))) == 0 {
			if s.tooLarge == 0 {
				consumed = append(consumed, line...)
			}
			off += s.lineLen
			continue
		}
		if s.longLine {
			s.fileTooLarge()
			return
		}
		if _, perr := s.p.parse(content, 0, len(content)); perr == nil {
			// JSON Lines (or a one-line document): stream the rest.
			jl := s.newJSONL()
			jl.line(content, lineNo, off)
			off += int64(len(line))
			for err == nil {
				line, err = s.readLine()
				if len(line) == 0 {
					break
				}
				lineNo++
				if s.longLine {
					s.lineTooLarge(lineNo)
				} else {
					jl.line(trimEOL(line), lineNo, off)
				}
				off += s.lineLen
			}
			if err != nil && err != io.EOF {
				s.fileIssue(diag.Pos{}, "read", fmt.Sprintf("Input file %s cannot be read: %v.", s.f.disp, PlainErr(err)), "")
			}
			jl.finish()
			return
		}
		if s.tooLarge > 0 {
			s.fileTooLarge() // one JSON document: it would have to be read whole
			return
		}
		consumed = append(consumed, line...)
		break
	}
	data, err := readRest(s.br, consumed, size)
	s.fbuf = data
	if err != nil {
		s.fileIssue(diag.Pos{}, "read", fmt.Sprintf("Input file %s cannot be read: %v.", s.f.disp, PlainErr(err)), "")
		return
	}
	root, perr := s.p.parse(data, 0, len(data))
	if perr == nil {
		d := s.doc(data, 0, 1, 1)
		if !s.shape(d, root, ctx{}) && s.f.explicit {
			s.unsupported(d, root)
		}
		return
	}
	if linesParse(&s.p, data) {
		jl := s.newJSONL()
		lineNo, start := 0, 0
		for start < len(data) {
			end := bytes.IndexByte(data[start:], '\n')
			if end < 0 {
				end = len(data)
			} else {
				end += start + 1
			}
			lineNo++
			jl.line(trimEOL(data[start:end]), lineNo, int64(start))
			start = end
		}
		jl.finish()
		return
	}
	// Re-parse to get the error for the whole document (linesParse reused the parser).
	_, perr = s.p.parse(data, 0, len(data))
	d := s.doc(data, 0, 1, 1)
	s.syntaxIssue(d, perr.(*jsonv.SyntaxError), "Input file")
}

// linesParse reports whether data looks like JSON Lines with a broken first
// line: the first non-blank line starts with '{' and holds more than the
// '{' that opens a pretty-printed document, and some later line parses on
// its own as a JSON object or array.
func linesParse(p *jparser, data []byte) bool {
	first := true
	for start := 0; start < len(data); {
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += start
		}
		line := bytes.TrimSpace(data[start:end])
		start = end + 1
		if first {
			line = bytes.TrimSpace(bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF")))
		}
		if len(line) == 0 {
			continue
		}
		if first {
			if line[0] != '{' || len(line) == 1 {
				return false
			}
			first = false
			continue
		}
		if line[0] != '{' && line[0] != '[' {
			continue
		}
		if _, err := p.parse(line, 0, len(line)); err == nil {
			return true
		}
	}
	return false
}

// readLine returns the next line including its newline; the slice is valid
// until the next call. A line longer than the file limit is not kept:
// readLine then sets longLine and returns only its start. lineLen is the
// line's length in the file either way. Memory stays bounded by the line's
// length even for a file that is one line of gigabytes: past lineHold bytes
// the line is only measured, then read again from the file if it is within
// the limit.
func (s *scanner) readLine() ([]byte, error) {
	start := s.pos
	frag, err := s.br.ReadSlice('\n')
	s.lineLen = int64(len(frag))
	s.pos += s.lineLen
	s.longLine = s.f.maxBytes > 0 && s.lineLen > s.f.maxBytes
	if err != bufio.ErrBufferFull {
		return frag, err
	}
	s.line = append(s.line[:0], frag...)
	spilled := false
	for err == bufio.ErrBufferFull {
		frag, err = s.br.ReadSlice('\n')
		s.lineLen += int64(len(frag))
		s.pos += int64(len(frag))
		if len(s.line)+len(frag) > lineHold {
			spilled = true // measure only
			continue
		}
		s.line = append(s.line, frag...)
	}
	s.longLine = s.f.maxBytes > 0 && s.lineLen > s.f.maxBytes
	if spilled && !s.longLine {
		// Within the limit after all: read it again, whole.
		if int64(cap(s.line)) < s.lineLen {
			s.line = make([]byte, s.lineLen)
		}
		s.line = s.line[:s.lineLen]
		if n, rerr := s.fh.ReadAt(s.line, start); int64(n) < s.lineLen {
			if rerr == nil {
				rerr = io.ErrUnexpectedEOF
			}
			return nil, rerr
		}
	}
	return s.line, err
}

// lineHold is how much of a line readLine keeps while reading it.
var lineHold = 16 << 20

// lineTooLarge reports a JSON Lines line over the limit, which is not read
// (IN-009); the other lines are.
func (s *scanner) lineTooLarge(lineNo int) {
	f := s.f
	s.res.findings = append(s.res.findings, diag.Finding{Rule: ruleid.IN009, Code: "INPUT_TOO_LARGE", Severity: diag.Error,
		Message: fmt.Sprintf("Line %d is %d bytes, over the limit of %d; it is not read (the other lines are).", lineNo, s.lineLen, f.maxBytes),
		Hint:    "Split the value over several lines, or raise limits: file-bytes in .brenner-ci.yaml.",
		Pos:     diag.Pos{File: f.disp, Line: lineNo, Col: 1}.Normalize(), Anchor: fmt.Sprintf("%s line %d too large", f.disp, lineNo)})
}

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	return b
}

type jsonlState struct {
	s            *scanner
	recognized   bool
	unrecognized []diag.Pos
}

func (s *scanner) newJSONL() *jsonlState { return &jsonlState{s: s} }

// line ingests one JSON Lines line (without its newline) that starts at
// file offset off.
func (jl *jsonlState) line(content []byte, lineNo int, off int64) {
	s := jl.s
	col := 1
	if lineNo == 1 {
		if t := bytes.TrimPrefix(content, []byte("\xEF\xBB\xBF")); len(t) != len(content) {
			off += int64(len(content) - len(t))
			content = t
			col = 2 // the byte order mark is a code point of its own
		}
	}
	if len(bytes.TrimSpace(content)) == 0 {
		return
	}
	root, err := s.p.parse(content, 0, len(content))
	d := s.doc(content, off, lineNo, col)
	if err != nil {
		s.syntaxIssue(d, err.(*jsonv.SyntaxError), fmt.Sprintf("Line %d of the JSON Lines file", lineNo))
		return
	}
	if s.shape(d, root, ctx{}) {
		jl.recognized = true
	} else {
		jl.unrecognized = append(jl.unrecognized, d.span(int(d.nodes[root].Start), int(d.nodes[root].Start)))
	}
}

func (jl *jsonlState) finish() {
	s := jl.s
	if len(jl.unrecognized) == 0 {
		return
	}
	if jl.recognized {
		for _, p := range jl.unrecognized {
			s.fileIssue(p, fmt.Sprintf("line-shape %d", p.Line), fmt.Sprintf("Line %d of the JSON Lines file is not an Agent Mail message or thread.", p.Line),
				"Each line must be one message object (with id, subject, body_md, …) or one thread object with a messages array.")
		}
		return
	}
	if s.f.explicit {
		s.fileIssue(jl.unrecognized[0], "shape", fmt.Sprintf("Input file %s has an unsupported shape: no line is an Agent Mail message or thread.", s.f.disp), shapeHint)
	}
}

const shapeHint = "Give brenner-ci a thread export {project, thread_id, messages}, a message array, JSON Lines of messages, an MCP/JSON-RPC response holding one of these, or an Agent Mail archive folder."

func (s *scanner) unsupported(d *jdoc, root int32) {
	what := "a JSON " + strings.TrimPrefix(strings.TrimPrefix(kindName(d.nodes[root].Kind), "an "), "a ")
	s.fileIssue(d.span(int(d.nodes[root].Start), int(d.nodes[root].Start)), "shape",
		fmt.Sprintf("Input file %s has an unsupported shape: %s with no Agent Mail messages.", s.f.disp, what), shapeHint)
}

// doc wraps the parser's current tree: src[0] is at file offset off and at
// file position line:col.
func (s *scanner) doc(src []byte, off int64, line, col int) *jdoc {
	s.lm.Reset(src)
	return &jdoc{src: src, nodes: s.p.Nodes, buf: &s.dec, fileOff: off, line0: line, col0: col, lm: &s.lm, file: s.f.disp}
}
