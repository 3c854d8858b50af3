package reporters

import "unicode/utf8"

// AppendJSONString appends s as a JSON string, byte for byte as encoding/json
// writes it with SetEscapeHTML(false): '"' and '\\' escaped with a
// backslash; \b, \f, \n, \r and \t by name; other bytes below 0x20 as
// \u00XX; each byte that is not UTF-8 as \ufffd; U+2028 and U+2029 as
// \u2028 and \u2029; everything else as it is. FuzzAppendJSONString holds
// it to the encoder. The JSON and SARIF reports write their strings with it.
func AppendJSONString(b []byte, s string) []byte {
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
