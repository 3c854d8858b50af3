package mailbox

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path"
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
	nf := len(s.res.findings)
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
			// JSON Lines (or a one-line document): stream the rest,
			// packing the records as they are read. Unless the line is
			// the whole file (a minified export) and an early check
			// follows: its bytes are then kept whole, as a document's
			// are, and its records unpacked, so that its thread can be
			// checked early. Read either way, as JSON Lines.
			if s.hold && s.pos == size && size <= maxEarlyBytes && int64(len(consumed)) == off {
				data := append(consumed, line...)
				s.fbuf, s.whole = data, data
				line = data[len(consumed):]
				content = trimEOL(line)
			} else {
				s.packing()
			}
			jl := s.newJSONL(nf)
			jl.line(content, lineNo, off)
			off += int64(len(line))
			lastEnd, long := s.lastLineEnd(line, size), false
			for err == nil {
				line, err = s.readLine()
				if len(line) == 0 {
					break
				}
				lineNo++
				if s.longLine {
					s.lineTooLarge(lineNo)
					long = true
				} else {
					jl.line(trimEOL(line), lineNo, off)
					lastEnd = s.lastLineEnd(line, size)
				}
				off += s.lineLen
			}
			if err != nil && err != io.EOF {
				s.fileIssue(diag.Pos{}, "read", fmt.Sprintf("Input file %s cannot be read: %v.", s.f.disp, PlainErr(err)), "")
			} else if lastEnd > 0 && !long && s.pos == size {
				s.res.lines, s.res.counted = diag.Lines{N: lineNo, LastEnd: lastEnd}, true
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
		if s.hold {
			s.whole = data
		}
		d := s.doc(data, 0, 1, 1)
		if s.shape(d, root, ctx{}) {
			s.emptyExport(nf)
		} else {
			s.unknownShape(d, root)
		}
		// The positions asked for counted the lines up to the last one.
		s.res.lines, s.res.counted = diag.CountLinesAfter(data, d.cur.off, d.cur.breaks), true
		return
	}
	s.res.lines, s.res.counted = diag.CountLines(data), true
	if linesParse(&s.p, data) {
		jl := s.newJSONL(nf)
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

// lastLineEnd is diag.CountLines' LastEnd of the file when line, just
// read, is its last line (the file's size as stat gave it was reached);
// else 0. Only the last line's code points are counted: the line count of
// a streamed file is the number of lines read.
func (s *scanner) lastLineEnd(line []byte, size int64) int {
	if s.pos != size {
		return 0
	}
	line = bytes.TrimSuffix(line, []byte{'\n'})
	line = bytes.TrimSuffix(line, []byte{'\r'})
	return diag.RuneCount(line) + 1
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
	nf           int // the file's findings before its first line
	recognized   bool
	unrecognized []diag.Pos
	kind         jkind    // the value of the first line not recognized
	mail         string   // what mail a line not recognized holds, or ""
	mailAt       diag.Pos // where
}

func (s *scanner) newJSONL(nf int) *jsonlState { return &jsonlState{s: s, nf: nf} }

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
		return
	}
	if len(jl.unrecognized) == 0 {
		jl.kind = d.kind(root)
	}
	jl.unrecognized = append(jl.unrecognized, d.span(int(d.nodes[root].Start), int(d.nodes[root].Start)))
	if jl.mail == "" && !jl.recognized {
		if at, what := mailIn(d, root); at >= 0 {
			jl.mail, jl.mailAt = what, d.span(int(d.nodes[at].Start), int(d.nodes[at].Start))
		}
	}
}

func (jl *jsonlState) finish() {
	s := jl.s
	switch {
	case len(jl.unrecognized) == 0:
		if jl.recognized {
			s.emptyExport(jl.nf)
		}
	case jl.recognized:
		for _, p := range jl.unrecognized {
			s.fileIssue(p, fmt.Sprintf("line-shape %d", p.Line), fmt.Sprintf("Line %d of the JSON Lines file is not an Agent Mail message or thread.", p.Line),
				"Each line must be one message object (with id, subject, body_md, …) or one thread object with a messages array.")
		}
	case jl.mail != "":
		s.mailShape(jl.mailAt, jl.mail)
	case s.f.explicit:
		s.fileIssue(jl.unrecognized[0], "shape", fmt.Sprintf("Input file %s has an unsupported shape: no line is an Agent Mail message or thread.", s.f.disp), shapeHint)
	case s.readElsewhere(jl.kind):
	default:
		what := jsonKind(jl.kind)
		if len(jl.unrecognized) > 1 {
			what = "JSON Lines"
		}
		s.notMail(what)
	}
}

const shapeHint = "Give brenner-ci a thread export {project, thread_id, messages}, a message array, JSON Lines of messages, an MCP/JSON-RPC response holding one of these, or an Agent Mail archive folder."

// jsonKind names the kind of a JSON value: "a JSON object".
func jsonKind(k jkind) string {
	return "a JSON " + strings.TrimPrefix(strings.TrimPrefix(kindName(k), "an "), "a ")
}

// unknownShape reports a JSON document no export shape recognised. Agent
// Mail content in it (a message, an MCP response) cannot be checked: that
// is an IN-001 error at that content, in a walk as when the file is named.
// JSON with no mail in it at all is an IN-001 error when named (it is not
// what was asked for) and, found by a walk, an IN-006 note naming it (a
// manifest, package metadata, a tool's output: it can hide no message).
func (s *scanner) unknownShape(d *jdoc, root int32) {
	if at, what := mailIn(d, root); at >= 0 {
		st := int(d.nodes[at].Start)
		s.mailShape(d.span(st, st), what)
		return
	}
	switch {
	case s.f.explicit:
		st := int(d.nodes[root].Start)
		s.fileIssue(d.span(st, st), "shape",
			fmt.Sprintf("Input file %s has an unsupported shape: %s with no Agent Mail messages.", s.f.disp, jsonKind(d.kind(root))), shapeHint)
	case s.readElsewhere(d.kind(root)):
	default:
		s.notMail(jsonKind(d.kind(root)))
	}
}

// mailShape is the IN-001 error of mail in a shape brenner-ci cannot read.
func (s *scanner) mailShape(at diag.Pos, what string) {
	s.fileIssue(at, "shape", fmt.Sprintf("Input file has an unsupported shape: %s; it is not checked.", what), shapeHint)
}

// readElsewhere reports whether JSON of no export shape, with no mail in
// it, is a file another part of brenner-ci reads, so that a walk passes it
// over: an evidence pack beside an artifact (the artifact linter reads it)
// or an archive project's project.json.
func (s *scanner) readElsewhere(k jkind) bool {
	return k == jObj && (isEvidencePath(s.f.disp) || s.f.role == roleProject)
}

// notMail names JSON with no mail in it that a walk found (IN-006).
func (s *scanner) notMail(what string) {
	s.note(fmt.Sprintf("This file is JSON with no Agent Mail message in it (%s); it is not checked.", what),
		"Nothing to do if it is not a thread export (a manifest, package metadata, a tool's output). If it is one, export it again in a shape brenner-ci reads: a thread {project, thread_id, messages}, a message array, JSON Lines of messages, or an MCP response holding one.",
		"skipped")
}

// emptyExport names a file read as an export that holds no message at all
// (IN-006), unless it is something else (an artifact, agent profiles) or
// its problems are reported already: an empty thread or inbox is never
// taken for "nothing found".
func (s *scanner) emptyExport(nf int) {
	r := s.res
	if len(r.recs) > 0 || len(r.refs) > 0 || len(r.findings) > nf || r.artifact || len(r.agents) > 0 {
		return
	}
	s.note("This file is an Agent Mail export with no messages in it; there is nothing in it to check.",
		"Export the thread again with its messages, or remove the file.", "empty export")
}

// isEvidencePath reports whether p (slash separated) is where an
// artifact's evidence pack lives: artifacts/<id>/evidence.json (see
// rules.EvidencePath).
func isEvidencePath(p string) bool {
	return path.Base(p) == "evidence.json" && path.Base(path.Dir(path.Dir(p))) == "artifacts"
}

// doc wraps the parser's current tree: src[0] is at file offset off and at
// file position line:col.
func (s *scanner) doc(src []byte, off int64, line, col int) *jdoc {
	s.lm.Reset(src)
	return &jdoc{src: src, nodes: s.p.Nodes, buf: &s.dec, fileOff: off, line0: line, col0: col, lm: &s.lm, file: s.f.disp}
}
