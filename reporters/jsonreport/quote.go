package jsonreport

import (
	"strconv"
	"unicode/utf8"
)

// appendQuoted appends s as a JSON string, byte for byte as encoding/json
// writes it with SetEscapeHTML(false): '"' and '\\' escaped with a
// backslash; \b, \f, \n, \r and \t by name; other bytes below 0x20 as
// \u00XX; each byte that is not UTF-8 as \ufffd; U+2028 and U+2029 as
// \u2028 and \u2029; everything else as it is. FuzzAppendQuoted holds it
// to the encoder.
func appendQuoted(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	from := 0 // s[from:i] is still to be copied
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\' {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[from:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			from = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[from:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[from:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		from = i
	}
	b = append(b, s[from:]...)
	return append(b, '"')
}

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
	o.b = appendQuoted(o.b, v)
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
