package mailbox

import (
	"fmt"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
)

// ctx is what an enclosing object says about the messages inside it.
type ctx struct {
	project  string
	threadID string
	arch     *archInfo
}

type archInfo struct {
	stamp   string // file-name stamp YYYY-MM-DDTHH-MM-SSZ, or ""
	nameID  string // id from the file name (…__418.md or 418.md), or ""
	body    []byte
	bodyOff int
	size    int64
}

// shape classifies value n and ingests the messages it holds. It reports
// whether n had a recognizable shape (problems inside a recognized shape
// are reported as findings). A key repeated in an object around messages
// keeps its first value and is IN-007, as a repeated message field is.
func (s *scanner) shape(d *jdoc, n int32, c ctx) bool {
	switch d.kind(n) {
	case jArr:
		return s.array(d, n, c)
	case jObj:
	default:
		return false
	}
	ok, container := s.object(d, n, c)
	if container {
		s.containerKeys(d, n, shapeKeys...)
	}
	return ok
}

// shapeKeys are the keys object reads of an object around messages.
var shapeKeys = []string{"isError", "content", "error", "jsonrpc", "format", "data", "metadata", "sections",
	"messages", "project", "thread_id", "threads", "deliveries", "structuredContent", "result", "contents", "agents"}

// object is shape for object n. container reports that n was recognized as
// an object around messages (not a message, whose fields message reads, nor
// a JSON artifact, which the artifact linter reads).
//
// It is long on purpose: one switch over every export shape the research notes list, in the order they are tried; each case is a few lines.
func (s *scanner) object(d *jdoc, n int32, c ctx) (ok, container bool) {
	get := func(name string) int32 { return d.get(n, name) }
	if v := get("isError"); v >= 0 && d.kind(v) == jTrue {
		s.fileIssue(d.span(int(d.nodes[v].Start), int(d.nodes[v].End)), "isError",
			"The MCP response is an error (isError: true), not mail"+errText(d, get("content"))+".",
			"Fix the failing tool call or resource read and save its successful result.")
		return true, true
	}
	if v := get("error"); v >= 0 && d.kind(v) == jObj && get("jsonrpc") >= 0 {
		code := ""
		if cn := d.get(v, "code"); cn >= 0 && d.kind(cn) == jNum {
			code = " " + string(d.raw(cn))
		}
		msg := ""
		if m, ok := d.str(d.get(v, "message")); ok {
			msg = ": " + redact(m)
		}
		s.fileIssue(d.span(int(d.nodes[v].Start), int(d.nodes[v].Start)), "jsonrpc-error",
			fmt.Sprintf("The JSON-RPC response is an error%s%s, not mail.", code, msg),
			"Fix the failing request and save its successful result.")
		s.containerKeys(d, v, "code", "message")
		return true, true
	}
	if v := get("format"); v >= 0 {
		if f, ok := d.str(v); ok {
			switch strings.ToLower(f) {
			case "toon":
				s.fileIssue(d.span(int(d.nodes[v].Start), int(d.nodes[v].End)), "toon",
					"The export is in TOON format, which brenner-ci does not read; export with format=json.",
					"Re-run the Agent Mail tool or resource read with format=json (or set the server's default output format to json).")
				return true, true
			case "json":
				if data := get("data"); data >= 0 {
					ok := s.shape(d, data, c)
					return ok, ok
				}
			}
		}
	}
	if m, sec := get("metadata"), get("sections"); m >= 0 && sec >= 0 && d.kind(m) == jObj && d.kind(sec) == jObj {
		// A JSON artifact object (upstream's lint input), not mail: the
		// artifact linter reads it.
		s.res.artifact = true
		return true, false
	}
	if v := get("messages"); v >= 0 && d.kind(v) == jArr {
		c2 := c
		if p, ok := d.str(get("project")); ok && p != "" {
			c2.project = p
		}
		if t := scalarText(d, get("thread_id")); t != "" {
			c2.threadID = t
		}
		s.messages(d, v, c2)
		return true, true
	}
	if v := get("messages"); v >= 0 && (get("thread_id") >= 0 || get("project") >= 0) {
		s.messagesNotList(d, v)
		return true, true
	}
	if v := get("threads"); v >= 0 && d.kind(v) == jArr {
		found := false
		for e := d.nodes[v].Child; e >= 0; e = d.nodes[e].Next {
			switch m := d.get(e, "messages"); {
			case m < 0:
				continue
			case d.kind(m) == jArr:
				s.shape(d, e, c)
			default:
				s.messagesNotList(d, m)
			}
			found = true
		}
		if found {
			return true, true
		}
	}
	if v := get("deliveries"); v >= 0 && d.kind(v) == jArr {
		found := false
		for e := d.nodes[v].Child; e >= 0; e = d.nodes[e].Next {
			pl := d.get(e, "payload")
			if pl < 0 || d.kind(pl) != jObj {
				continue
			}
			found = true
			c2 := c
			if p, ok := d.str(d.get(e, "project")); ok && p != "" {
				c2.project = p
			}
			s.containerKeys(d, e, "payload", "project")
			s.message(d, pl, c2)
		}
		if found {
			return true, true
		}
	}
	if v := get("structuredContent"); v >= 0 && (d.kind(v) == jObj || d.kind(v) == jArr) {
		if s.shape(d, v, c) {
			return true, true
		}
	}
	if v := get("result"); v >= 0 && (d.kind(v) == jObj || d.kind(v) == jArr) {
		if s.shape(d, v, c) {
			return true, true
		}
	}
	for _, name := range []string{"contents", "content"} {
		v := get(name)
		if v < 0 || d.kind(v) != jArr {
			continue
		}
		found := false
		for e := d.nodes[v].Child; e >= 0; e = d.nodes[e].Next {
			if t := d.get(e, "text"); t >= 0 && d.kind(t) == jStr {
				if s.embedded(d, t, c) {
					s.containerKeys(d, e, "text")
					found = true
				}
			}
		}
		if found {
			return true, true
		}
	}
	if looksLikeMessage(d, n) {
		s.message(d, n, c)
		return true, false
	}
	if v := get("agents"); v >= 0 && d.kind(v) == jArr {
		found := false
		for e := d.nodes[v].Child; e >= 0; e = d.nodes[e].Next {
			if name, ok := d.str(d.get(e, "name")); ok && name != "" {
				s.containerKeys(d, e, "name")
				s.res.agents = append(s.res.agents, name)
				found = true
			}
		}
		return found, found
	}
	return false, false
}

// messagesNotList reports a thread's messages field that is not an array
// (IN-001 at the value): none of its messages can be read.
func (s *scanner) messagesNotList(d *jdoc, v int32) {
	st := int(d.nodes[v].Start)
	s.fileIssue(d.span(st, st), "messages-not-list",
		fmt.Sprintf("The messages field of this thread export is %s, not a list of messages; no message in it is read.", kindName(d.kind(v))),
		"A thread export's messages field is a JSON array of message objects; export the thread again.")
}

// mailIn finds Agent Mail content in a JSON value that no export shape
// recognised: root itself when it is an MCP or JSON-RPC response (at the
// top, or as a JSON-RPC result), else the first object in it, in document
// order, that looks like a message. It returns -1 when there is none, and
// what it found, for a message. It runs once per file that no shape
// recognised, never on an export.
func mailIn(d *jdoc, root int32) (at int32, what string) {
	if mcpResponse(d, root) || mcpResponse(d, d.get(root, "result")) {
		return root, "an MCP or JSON-RPC response that holds no thread export (no contents, or contents whose text is not a JSON export)"
	}
	end := d.nodes[root].End
	for n := root; int(n) < len(d.nodes) && d.nodes[n].Start < end; n++ {
		if d.nodes[n].Kind == jObj && looksLikeMessage(d, n) {
			return n, "it holds a message (an object with a subject, a body_md, or an id and a sender, thread or time) outside any export shape brenner-ci reads"
		}
	}
	return -1, ""
}

// mcpResponse reports whether n is an object that only an MCP or JSON-RPC
// response has: jsonrpc, isError or structuredContent, or contents/content
// entries that carry a text or a resource uri.
func mcpResponse(d *jdoc, n int32) bool {
	if n < 0 || d.kind(n) != jObj {
		return false
	}
	for _, k := range []string{"jsonrpc", "isError", "structuredContent"} {
		if d.get(n, k) >= 0 {
			return true
		}
	}
	for _, k := range []string{"contents", "content"} {
		v := d.get(n, k)
		if v < 0 || d.kind(v) != jArr {
			continue
		}
		for e := d.nodes[v].Child; e >= 0; e = d.nodes[e].Next {
			if d.get(e, "text") >= 0 || d.get(e, "uri") >= 0 {
				return true
			}
		}
	}
	return false
}

// errText returns ": <text>" from an MCP error's content, unless it looks
// like it mentions credentials.
func errText(d *jdoc, content int32) string {
	if content < 0 || d.kind(content) != jArr {
		return ""
	}
	for e := d.nodes[content].Child; e >= 0; e = d.nodes[e].Next {
		if t, ok := d.str(d.get(e, "text")); ok && strings.TrimSpace(t) != "" {
			return ": " + redact(t)
		}
	}
	return ""
}

// redact shortens an error text for a message and withholds it entirely
// when it mentions anything credential-like. Credentials are redacted
// (diag.RedactSecrets) before the text is cut or its spacing changed: cut
// short, a credential no longer looks like one.
func redact(t string) string {
	low := strings.ToLower(t)
	for _, w := range []string{"token", "authorization", "bearer", "secret", "password", "signed_url", "api_key", "apikey"} {
		if strings.Contains(low, w) {
			return "(text withheld: it mentions credentials)"
		}
	}
	t = diag.CollapseSpace(diag.RedactSecrets(t))
	if r := []rune(t); len(r) > 160 {
		t = string(r[:160]) + "…"
	}
	return fmt.Sprintf("%q", t)
}

// scalarText renders a string or number value as text ("" otherwise).
func scalarText(d *jdoc, n int32) string {
	if n < 0 {
		return ""
	}
	switch d.kind(n) {
	case jStr:
		return d.text(n)
	case jNum:
		return numberText(d.raw(n))
	}
	return ""
}

// looksLikeMessage: an object with a subject or body_md, or with an id and
// one other message field.
func looksLikeMessage(d *jdoc, n int32) bool {
	hasID, other := false, false
	for k := d.nodes[n].Child; k >= 0; k = d.nodes[d.nodes[k].Next].Next {
		nd := &d.nodes[k]
		var key string
		if nd.Esc {
			key = d.text(k)
		} else {
			key = bytesKey(d.src[nd.Start+1 : nd.End-1])
		}
		switch key {
		case "subject", "body_md":
			return true
		case "id":
			hasID = true
		case "thread_id", "from", "sender_name", "sender", "from_agent", "created_ts", "created":
			other = true
		}
	}
	return hasID && other
}

// array ingests an array of messages (or of thread objects).
func (s *scanner) array(d *jdoc, n int32, c ctx) bool {
	first := d.nodes[n].Child
	if first < 0 {
		return true // an empty list of messages
	}
	ok := false
	for e := first; e >= 0; e = d.nodes[e].Next {
		if d.kind(e) == jObj && (looksLikeMessage(d, e) || d.get(e, "messages") >= 0) {
			ok = true
			break
		}
	}
	if !ok {
		return false
	}
	s.messages(d, n, c)
	return true
}

// messages ingests the elements of a messages array.
func (s *scanner) messages(d *jdoc, n int32, c ctx) {
	if s.res.pk == nil {
		// Kept unpacked until the early check (Early): room for them all.
		k := 0
		for e := d.nodes[n].Child; e >= 0; e = d.nodes[e].Next {
			k++
		}
		s.res.reserve(k)
	}
	i := 0
	for e := d.nodes[n].Child; e >= 0; e = d.nodes[e].Next {
		i++
		if d.kind(e) == jObj {
			if m := d.get(e, "messages"); m >= 0 && d.kind(m) == jArr {
				s.shape(d, e, c)
				continue
			}
			if looksLikeMessage(d, e) {
				s.message(d, e, c)
				continue
			}
		}
		what := kindName(d.kind(e))
		if d.kind(e) == jObj {
			what = "an object with no subject or body_md"
		}
		st := d.nodes[e].Start
		s.fileIssue(d.span(int(st), int(st)), fmt.Sprintf("element %d", i),
			fmt.Sprintf("Element %d of the messages array is %s, not a message.", i, what),
			"Each element of a messages array must be a message object (id, subject, body_md, …).")
	}
}

// embedded ingests JSON held as text in string node t (MCP resources/read
// contents[].text, tools/call content[].text). Positions inside it are
// approximated by the position of the string.
func (s *scanner) embedded(d *jdoc, t int32, c ctx) bool {
	text := decodeString(nil, d.raw(t), nil)
	i := 0
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n') {
		i++
	}
	if i == len(text) || (text[i] != '{' && text[i] != '[') {
		return false
	}
	approx := d.span(int(d.nodes[t].Start), int(d.nodes[t].End))
	if d.mem != nil {
		approx = d.approx
	}
	p := jparser{jsonv.Scanner{MaxDepth: s.f.maxDepth}}
	root, err := p.parse(text, 0, len(text))
	if err != nil {
		se := err.(*jsonv.SyntaxError)
		msg := fmt.Sprintf("The JSON text in this string field is not valid JSON at byte %d of the text: %s.", se.Off, se.Error())
		s.fileIssue(approx, "embedded-syntax "+se.Msg, msg, "Save the MCP response again; the text field must hold the complete JSON payload.")
		return true
	}
	inner := &jdoc{src: text, nodes: p.Nodes, buf: &s.dec, mem: text, approx: approx, file: s.f.disp}
	return s.shape(inner, root, c)
}
