package mailbox

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/jsonv"
)

// frontMatter locates the ---json block of an archive message file: the JSON
// text is data[js:je], the body starts at body (leading blank lines skipped).
// problem describes what is wrong when ok is false, at offset at.
func frontMatter(data []byte) (js, je, body int, ok bool, problem string, at int) {
	i := 0
	if bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) {
		i = 3
	}
	// the first non-blank line must be ---json
	for i < len(data) {
		e := lineEnd(data, i)
		if len(bytes.TrimSpace(data[i:e])) == 0 {
			i = next(data, e)
			continue
		}
		if string(bytes.TrimRight(data[i:e], " \t\r")) != "---json" {
			return 0, 0, 0, false, "the file does not start with a ---json line", i
		}
		i = next(data, e)
		break
	}
	js = i
	for i < len(data) {
		e := lineEnd(data, i)
		if string(bytes.TrimRight(data[i:e], " \t\r")) == "---" {
			je = i
			body = next(data, e)
			for body < len(data) {
				e := lineEnd(data, body)
				if len(bytes.Trim(data[body:e], " \t\r")) != 0 {
					break
				}
				body = next(data, e)
			}
			return js, je, body, true, "", 0
		}
		i = next(data, e)
	}
	return 0, 0, 0, false, "the ---json front matter has no closing --- line (truncated file?)", len(data)
}

func lineEnd(data []byte, i int) int {
	if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(data)
}

func next(data []byte, e int) int {
	if e < len(data) {
		return e + 1
	}
	return e
}

// archiveNameID returns the id encoded in an archive file name
// (…__<id>.md, or the older <id>.md), or "".
func archiveNameID(base string) string {
	name := strings.TrimSuffix(base, path.Ext(base))
	if i := strings.LastIndex(name, "__"); i >= 0 {
		name = name[i+2:]
	}
	if digits(name) {
		return name
	}
	return ""
}

func (s *scanner) archive(data []byte) {
	js, je, body, ok, problem, at := frontMatter(data)
	d := s.doc(data, 0, 1, 1)
	if !ok {
		s.fileIssue(d.span(at, at), "frontmatter", fmt.Sprintf("Archive message file %s is malformed: %s.", s.f.disp, problem),
			"An Agent Mail archive message is the line ---json, a JSON object, the line ---, a blank line and the body; restore the file from the archive.")
		return
	}
	root, err := s.p.parse(data, js, je)
	d = s.doc(data, 0, 1, 1)
	if err != nil {
		s.syntaxIssue(d, err.(*jsonv.SyntaxError), "The front matter of archive message file "+s.f.disp)
		return
	}
	if d.kind(root) != jObj {
		st := d.nodes[root].Start
		s.fileIssue(d.span(int(st), int(st)), "frontmatter", fmt.Sprintf("The front matter of archive message file %s is %s, not a JSON object.", s.f.disp, kindName(d.kind(root))),
			"Restore the file from the archive.")
		return
	}
	base := path.Base(s.f.disp)
	s.message(d, root, ctx{arch: &archInfo{stamp: archiveStamp(base), nameID: archiveNameID(base), body: data[body:], bodyOff: body, size: int64(len(data))}})
}

func (s *scanner) profile(data []byte) {
	root, err := s.p.parse(data, 0, len(data))
	d := s.doc(data, 0, 1, 1)
	if err != nil {
		s.syntaxIssue(d, err.(*jsonv.SyntaxError), "Agent profile "+s.f.disp)
		return
	}
	name, _ := d.str(d.get(root, "name"))
	if name == "" && d.kind(root) == jObj {
		name = s.f.agentDir
	}
	if name != "" {
		s.containerKeys(d, root, "name")
		s.res.agents = append(s.res.agents, name)
	}
}
