package jsonv

import (
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// fastParse is a strict recursive-descent decoder for the common case. It
// returns ok=false on any syntax problem; Parse then re-decodes with the
// encoding/json based parser, which explains the error. Both accept exactly
// RFC 8259 JSON.
func fastParse(data []byte) (v *Value, ok bool) {
	p := fastParser{b: data}
	p.ws()
	v, ok = p.value(0)
	if !ok {
		return nil, false
	}
	p.ws()
	return v, p.i == len(p.b)
}

type fastParser struct {
	b []byte
	i int
}

const maxDepth = 10000

func (p *fastParser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *fastParser) value(depth int) (*Value, bool) {
	if p.i >= len(p.b) || depth > maxDepth {
		return nil, false
	}
	start := p.i
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, ok := p.str()
		if !ok {
			return nil, false
		}
		return &Value{Kind: String, Str: s, Off: start, End: p.i}, true
	case c == 't':
		return p.lit("true", &Value{Kind: Bool, Bool: true, Off: start})
	case c == 'f':
		return p.lit("false", &Value{Kind: Bool, Off: start})
	case c == 'n':
		return p.lit("null", &Value{Kind: Null, Off: start})
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, false
}

func (p *fastParser) lit(word string, v *Value) (*Value, bool) {
	if len(p.b)-p.i < len(word) || string(p.b[p.i:p.i+len(word)]) != word {
		return nil, false
	}
	p.i += len(word)
	v.End = p.i
	return v, true
}

func (p *fastParser) number() (*Value, bool) {
	start := p.i
	if p.b[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(p.b) && p.b[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, false
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, false
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	return &Value{Kind: Number, Num: json.Number(p.b[start:p.i]), Off: start, End: p.i}, true
}

// str decodes a string literal starting at p.i (the opening quote).
func (p *fastParser) str() (string, bool) {
	p.i++ // opening quote
	start := p.i
	// Fast path: no escapes, valid UTF-8, no control characters.
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c == '"' {
			s := p.b[start:p.i]
			p.i++
			if !utf8.Valid(s) {
				return string([]rune(string(s))), true // invalid bytes become U+FFFD, as encoding/json does
			}
			return string(s), true
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", false
		}
		p.i++
	}
	buf := append([]byte(nil), p.b[start:p.i]...)
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			if !utf8.Valid(buf) {
				return string([]rune(string(buf))), true
			}
			return string(buf), true
		case c < 0x20:
			return "", false
		case c == '\\':
			if p.i+1 >= len(p.b) {
				return "", false
			}
			e := p.b[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return "", false
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if p.i+1 < len(p.b) && p.b[p.i] == '\\' && p.b[p.i+1] == 'u' {
						save := p.i
						p.i += 2
						var ok2 bool
						r2, ok2 = p.hex4()
						if !ok2 {
							return "", false
						}
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							r, r2 = dec, -1
						} else {
							p.i = save
							r2 = -1
							r = utf8.RuneError
						}
					} else {
						r = utf8.RuneError
					}
					_ = r2
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return "", false
			}
		default:
			buf = append(buf, c)
			p.i++
		}
	}
	return "", false
}

func (p *fastParser) hex4() (rune, bool) {
	if p.i+4 > len(p.b) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.b[p.i:p.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(n), true
}

func (p *fastParser) array(depth int) (*Value, bool) {
	v := &Value{Kind: Array, Off: p.i, Arr: []*Value{}}
	p.i++
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		v.End = p.i
		return v, true
	}
	for {
		p.ws()
		e, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		v.Arr = append(v.Arr, e)
		p.ws()
		if p.i >= len(p.b) {
			return nil, false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			v.End = p.i
			return v, true
		default:
			return nil, false
		}
	}
}

func (p *fastParser) object(depth int) (*Value, bool) {
	v := &Value{Kind: Object, Off: p.i, Map: map[string]*Value{}, KeyOff: map[string]int{}}
	p.i++
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		v.End = p.i
		return v, true
	}
	for {
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, false
		}
		koff := p.i
		k, ok := p.str()
		if !ok {
			return nil, false
		}
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, false
		}
		p.i++
		p.ws()
		e, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		if _, dup := v.Map[k]; !dup {
			v.Keys = append(v.Keys, k)
		}
		v.Map[k] = e
		v.KeyOff[k] = koff
		p.ws()
		if p.i >= len(p.b) {
			return nil, false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			v.End = p.i
			return v, true
		default:
			return nil, false
		}
	}
}
