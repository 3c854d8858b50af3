package jsonreport

import (
	"strconv"

	"github.com/brenner-ci/brenner-ci/reporters"
)

// appendThread appends t as the encoder writes an element of the threads
// array (at depth 2), its fields in Thread's order. TestWriteMatchesEncoder
// holds it to the encoder.
func appendThread(b []byte, t *Thread) []byte {
	o := object{b: b, indent: "      "}
	o.str("key", t.Key)
	o.str("kind", t.Kind)
	o.str("file", t.File)
	o.num("messages", t.Messages)
	o.num("blocks", t.Blocks)
	o.num("valid", t.Valid)
	o.num("invalid", t.Invalid)
	o.num("applied", t.Applied)
	o.num("version", t.Version)
	o.num("rule_set", t.RuleSet)
	return o.end()
}

// appendFinding appends f as the encoder writes an element of the
// findings array (at depth 2, two spaces an indentation level), its fields
// in Finding's order. TestWriteMatchesEncoder holds it to the encoder.
func appendFinding(b []byte, f *Finding) []byte {
	o := object{b: b, indent: "      "}
	o.str("rule", f.Rule)
	o.str("code", f.Code)
	o.str("severity", f.Severity)
	o.str("message", f.Message)
	o.str("hint", f.Hint)
	o.str("path", f.Path)
	o.num("line", f.Line)
	o.num("column", f.Column)
	o.num("end_line", f.EndLine)
	o.num("end_column", f.EndColumn)
	o.str("thread", f.Thread)
	o.str("message_id", f.MessageID)
	o.str("fingerprint", f.Fingerprint)
	o.str("baseline_state", f.BaselineState)
	o.key("fix")
	if fx := f.Fix; fx == nil {
		o.b = append(o.b, "null"...)
	} else {
		x := object{b: o.b, indent: "        "}
		x.str("description", fx.Description)
		x.str("path", fx.Path)
		x.num("line", fx.Line)
		x.num("column", fx.Column)
		x.num("end_line", fx.EndLine)
		x.num("end_column", fx.EndColumn)
		x.str("replacement", fx.Replacement)
		o.b = x.end()
	}
	return o.end()
}

// object appends a JSON object's fields one by one, each on its own line
// at indent, as the encoder indents them.
type object struct {
	b      []byte
	indent string // of a field; the closing brace goes two spaces less
	n      int    // fields written
}

func (o *object) key(name string) {
	if o.n == 0 {
		o.b = append(o.b, "{\n"...)
	} else {
		o.b = append(o.b, ",\n"...)
	}
	o.n++
	o.b = append(o.b, o.indent...)
	o.b = append(o.b, '"')
	o.b = append(o.b, name...)
	o.b = append(o.b, `": `...)
}

func (o *object) str(name, v string) {
	o.key(name)
	o.b = reporters.AppendJSONString(o.b, v)
}

func (o *object) num(name string, v int) {
	o.key(name)
	o.b = strconv.AppendInt(o.b, int64(v), 10)
}

// end closes the object and returns the bytes.
func (o *object) end() []byte {
	if o.n == 0 {
		return append(o.b, "{}"...)
	}
	o.b = append(o.b, '\n')
	o.b = append(o.b, o.indent[:len(o.indent)-2]...)
	return append(o.b, '}')
}
