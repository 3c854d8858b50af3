package artifact

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// frontMatter reads the YAML front matter block, if any, and returns the
// offset where the markdown body starts.
func (ps *parseState) frontMatter() int {
	src := string(ps.src)
	fs, fe, bodyStart, ok := body.FrontMatter(src)
	if !ok {
		if t := strings.TrimPrefix(src, "\ufeff"); strings.HasPrefix(t, "---\n") || strings.HasPrefix(t, "---\r\n") {
			// An opening --- with no closing line: goldmark reads it as a
			// thematic break, the YAML as paragraphs.
			ps.finding(0, 3, "The front matter starting on line 1 is not closed by a \"---\" line, so it is read as markdown.",
				"End the YAML front matter block with a line holding only ---.", "front matter not closed")
		}
		return 0
	}
	p := ps.p
	p.HasFrontMatter = true
	blockStart := 0 // a byte order mark is part of the block
	closeEnd := bodyStart
	for closeEnd > fe && (src[closeEnd-1] == '\n' || src[closeEnd-1] == '\r') {
		closeEnd--
	}
	p.FrontPos = ps.li.Span(ps.file, blockStart, closeEnd)
	ps.decodeFront(fs, fe)
	return bodyStart
}

// decodeFront decodes the YAML text src[fs:fe] into Parsed.Front.
func (ps *parseState) decodeFront(fs, fe int) {
	yml := ps.src[fs:fe]
	var root yaml.Node
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("yaml: %v", r)
			}
		}()
		return yaml.Unmarshal(yml, &root)
	}()
	if err != nil {
		msg := strings.TrimSpace(err.Error())
		at := fs
		if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			fl := ps.doc0.lineAt(fs) + n - 1
			if fl >= 0 && fl < len(ps.doc0.lines) {
				at = ps.doc0.lines[fl].start
			}
			msg = m[2]
		} else {
			msg = strings.TrimPrefix(msg, "yaml: ")
		}
		line, _ := ps.li.LineCol(at)
		end := at
		if l := ps.doc0.lineAt(at); l < len(ps.doc0.lines) {
			end = ps.doc0.lines[l].end
		}
		ps.finding(at, end, fmt.Sprintf("The front matter is not valid YAML: %s (line %d).", msg, line),
			"Fix the YAML between the --- lines (strings with a colon or a leading special character need quotes).", "front matter yaml line "+strconv.Itoa(line))
		return
	}
	if root.Kind == 0 || len(root.Content) == 0 {
		return // empty front matter
	}
	m := root.Content[0]
	if m.Kind != yaml.MappingNode {
		ps.finding(fs, fe, "The front matter is not a YAML mapping of keys to values.",
			"Write the front matter as key: value lines (session_id, version, contributors, …).", "front matter not a mapping")
		return
	}
	if n := countAliases(m); n > 0 {
		ps.finding(fs, fe, fmt.Sprintf("The front matter uses YAML aliases (%d); brenner-ci does not expand them (an alias bomb could expand to gigabytes), so the aliased values are not read.", n),
			"Write every value out; front matter needs no anchors or aliases.", "front matter aliases")
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		ks := ps.yamlOff(fs, k)
		ke := ps.scalarEnd(ks, k)
		if seen[k.Value] {
			// A repeated key: a reader sees the first value, YAML tools may
			// take the last or fail. The first is used; the repeat is an error.
			ps.finding(ks, ke, fmt.Sprintf("Front matter key %q appears twice; the first value is used.", k.Value),
				"Keep one of the two entries.", "front matter duplicate "+k.Value)
			continue
		}
		seen[k.Value] = true
		vs := ps.yamlOff(fs, v)
		ve := ps.nodeEnd(fs, v)
		if ve < vs {
			ve = vs
		}
		if v.Kind == yaml.ScalarNode && v.Line == 0 {
			vs, ve = ke, ke
		}
		f := FrontField{Key: k.Value, KeyPos: ps.li.Span(ps.file, ks, ke), Pos: ps.li.Span(ps.file, vs, ve)}
		if v.Kind == yaml.ScalarNode || v.Kind == yaml.AliasNode {
			f.Raw = strings.TrimSpace(string(ps.src[vs:ve]))
		}
		f.Value = yamlValue(v, f.Raw)
		ps.p.Front = append(ps.p.Front, f)
	}
}

// yamlOff converts a node's line and column (1-based, in characters, within
// the YAML text starting at fs) into a byte offset in src.
func (ps *parseState) yamlOff(fs int, n *yaml.Node) int {
	if n == nil || n.Line <= 0 {
		return fs
	}
	li := ps.doc0.lineAt(fs) + n.Line - 1
	if li >= len(ps.doc0.lines) {
		return len(ps.src)
	}
	ln := ps.doc0.lines[li]
	off := ln.start
	for c := 1; c < n.Column && off < ln.end; c++ {
		_, w := utf8.DecodeRune(ps.src[off:ln.end])
		off += w
	}
	return off
}

// scalarEnd returns the end of the scalar written at off.
//
// It is long on purpose: one switch over YAML scalar styles (plain, quoted, block), each scanning to its end.
func (ps *parseState) scalarEnd(off int, n *yaml.Node) int {
	src := ps.src
	if off >= len(src) {
		return len(src)
	}
	lineEnd := func(i int) int {
		for i < len(src) && src[i] != '\n' {
			i++
		}
		if i > 0 && src[i-1] == '\r' {
			i--
		}
		return i
	}
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0 && src[off] == '"':
		for i := off + 1; i < len(src); i++ {
			if src[i] == '\\' {
				i++
				continue
			}
			if src[i] == '"' {
				return i + 1
			}
		}
		return lineEnd(off)
	case n.Style&yaml.SingleQuotedStyle != 0 && src[off] == '\'':
		for i := off + 1; i < len(src); i++ {
			if src[i] == '\'' {
				if i+1 < len(src) && src[i+1] == '\'' {
					i++
					continue
				}
				return i + 1
			}
		}
		return lineEnd(off)
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		// The indicator line and the indented lines after it.
		e := lineEnd(off)
		ind := -1
		for i := e + 1; i < len(src); {
			le := lineEnd(i)
			ln := src[i:le]
			if isBlank(ln) {
				i = le + 1
				continue
			}
			k := 0
			for k < len(ln) && ln[k] == ' ' {
				k++
			}
			if ind < 0 {
				ind = k
			}
			if k < ind || k == 0 || (len(ln) >= 3 && (string(ln[:3]) == "---" || string(ln[:3]) == "...")) {
				break
			}
			e = le
			i = le + 1
		}
		return e
	}
	// Plain (or an alias): to the end of the line, less a comment.
	e := lineEnd(off)
	if n.Kind == yaml.ScalarNode && !strings.Contains(n.Value, "\n") && len(n.Value) > 0 && off+len(n.Value) <= e && string(src[off:off+len(n.Value)]) == n.Value {
		return off + len(n.Value)
	}
	for i := off; i < e; i++ {
		if src[i] == '#' && i > off && (src[i-1] == ' ' || src[i-1] == '\t') {
			e = i
			break
		}
		if (src[i] == ',' || src[i] == ']' || src[i] == '}') && n.Kind == yaml.ScalarNode && ps.inFlow {
			e = i
			break
		}
	}
	for e > off && (src[e-1] == ' ' || src[e-1] == '\t') {
		e--
	}
	return e
}

// nodeEnd returns the end of any node: a scalar's end, or the end of a
// collection's last descendant (and its closing bracket when it is a flow
// collection).
func (ps *parseState) nodeEnd(fs int, n *yaml.Node) int {
	switch n.Kind {
	case yaml.ScalarNode, yaml.AliasNode:
		return ps.scalarEnd(ps.yamlOff(fs, n), n)
	case yaml.SequenceNode, yaml.MappingNode:
		flow := n.Style&yaml.FlowStyle != 0
		saved := ps.inFlow
		ps.inFlow = saved || flow
		e := ps.yamlOff(fs, n)
		for _, c := range n.Content {
			if ce := ps.nodeEnd(fs, c); ce > e {
				e = ce
			}
		}
		ps.inFlow = saved
		if flow {
			i := e
			for i < len(ps.src) && (ps.src[i] == ' ' || ps.src[i] == '\t' || ps.src[i] == ',' || ps.src[i] == '\n' || ps.src[i] == '\r') {
				i++
			}
			if i < len(ps.src) && (ps.src[i] == ']' || ps.src[i] == '}') {
				e = i + 1
			} else if len(n.Content) == 0 && e < len(ps.src) && (ps.src[e] == '[' || ps.src[e] == '{') {
				if j := strings.IndexAny(string(ps.src[e:min(len(ps.src), e+200)]), "]}"); j >= 0 {
					e += j + 1
				}
			}
		}
		return e
	}
	return ps.yamlOff(fs, n)
}

// yamlValue decodes a node to string, int, float64, bool, []any,
// map[string]any or nil. Timestamps stay strings (as written).
func yamlValue(n *yaml.Node, raw string) any {
	var v any
	if err := n.Decode(&v); err != nil {
		if n.Kind == yaml.ScalarNode {
			return n.Value
		}
		return nil
	}
	return plainValue(v, n, raw)
}

func plainValue(v any, n *yaml.Node, raw string) any {
	switch x := v.(type) {
	case nil, string, bool, float64:
		return x
	case int:
		return x
	case int64:
		if x >= math.MinInt && x <= math.MaxInt {
			return int(x)
		}
		return float64(x)
	case uint64:
		if x <= math.MaxInt {
			return int(x)
		}
		return float64(x)
	case time.Time:
		if n != nil && n.Kind == yaml.ScalarNode {
			return n.Value
		}
		if raw != "" {
			return raw
		}
		return x.Format(time.RFC3339Nano)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var c *yaml.Node
			if n != nil && n.Kind == yaml.SequenceNode && i < len(n.Content) {
				c = n.Content[i]
			}
			out[i] = plainValue(e, c, "")
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = plainValue(e, childNode(n, k), "")
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			ks := fmt.Sprint(k)
			out[ks] = plainValue(e, childNode(n, ks), "")
		}
		return out
	}
	return fmt.Sprint(v)
}

func childNode(n *yaml.Node, k string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == k {
			return n.Content[i+1]
		}
	}
	return nil
}

// frontArt fills the artifact's metadata from the front matter.
func (ps *parseState) frontArt() {
	a := ps.p.Art
	for _, f := range ps.p.Front {
		switch f.Key {
		case "session_id":
			a.SessionID = scalarString(f.Value)
		case "version":
			if n, ok := intValue(f.Value); ok {
				a.Version = n
			}
		case "compiled_at":
			a.CompiledAt = timeValue(f.Value)
		case "created_at":
			a.CreatedAt = timeValue(f.Value)
		case "updated_at":
			a.UpdatedAt = timeValue(f.Value)
		case "compiled_by":
			a.CompiledBy = scalarString(f.Value)
		case "agent_mail_message_id":
			// As written: yaml.v3 reads 0123 as an octal number.
			if s, ok := f.Value.(string); ok {
				a.MessageID = s
			} else if f.Raw != "" {
				a.MessageID = f.Raw
			} else {
				a.MessageID = scalarString(f.Value)
			}
		case "status":
			a.Status = scalarString(f.Value)
		case "contributors":
			a.Contributors = contributors(f.Value)
		}
	}
}

func scalarString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int, bool:
		return fmt.Sprint(x)
	}
	return ""
}

func intValue(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return int(x), true
		}
	case string:
		if n, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
			return n, true
		}
	}
	return 0, false
}

// timeValue parses an RFC 3339 instant (or a bare date); zero when it is not one.
func timeValue(v any) time.Time {
	s, ok := v.(string)
	if !ok {
		return time.Time{}
	}
	return parseInstant(s)
}

func parseInstant(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// contributors reads a list of names or of {agent: …} maps (names as
// written, empty ones included), or a comma-separated string.
func contributors(v any) []*Contributor {
	var out []*Contributor
	add := func(name string, at any) {
		c := &Contributor{Agent: name}
		if t := timeValue(at); !t.IsZero() {
			c.LastAt = t
		}
		out = append(out, c)
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			switch y := e.(type) {
			case map[string]any:
				name := scalarString(y["agent"])
				if name == "" {
					name = scalarString(y["name"])
				}
				add(name, y["contributed_at"])
			default:
				add(scalarString(y), nil)
			}
		}
	case string:
		for _, s := range strings.Split(x, ",") {
			if s = strings.TrimSpace(s); s != "" {
				add(s, nil)
			}
		}
	}
	return out
}

// finding adds an IN-001 parse finding over src[start:end].
func (ps *parseState) finding(start, end int, msg, hint, anchor string) {
	ps.p.Findings = append(ps.p.Findings, diag.Finding{Rule: ruleid.IN001, Code: "UNREADABLE_INPUT", Severity: diag.Error,
		Message: msg, Hint: hint, Pos: ps.li.Span(ps.file, start, end), Anchor: anchor})
}

// countAliases counts the alias nodes under n, without expanding them.
func countAliases(n *yaml.Node) int {
	count := 0
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.Kind == yaml.AliasNode {
			count++
			continue // never follow an alias
		}
		stack = append(stack, x.Content...)
	}
	return count
}

// Field returns the front matter field key, or nil.
func (p *Parsed) Field(key string) *FrontField {
	for i := range p.Front {
		if p.Front[i].Key == key {
			return &p.Front[i]
		}
	}
	return nil
}
