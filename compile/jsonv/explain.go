package jsonv

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// SyntaxError is invalid JSON: the byte offset of the problem in the input,
// what the scanner found there, and the likely cause in words. Every caller
// (exports, delta blocks, evidence packs, JSON artifacts) words the same
// mistake the same way because they all get it from here.
type SyntaxError struct {
	Off   int    // byte offset of the offending byte (len(input) when it ends early)
	Msg   string // what the scanner found, e.g. "invalid character '}' looking for beginning of object key string"
	Cause string // likely cause, e.g. "trailing comma before a closing brace or bracket"; may be empty
	EOF   bool   // the input ends before the value is complete
}

// Error returns the explanation: the cause, then the scanner's finding in
// parentheses ("trailing comma before a closing brace or bracket (invalid
// character '}' looking for beginning of object key string)").
func (e *SyntaxError) Error() string {
	if e.Cause != "" {
		return e.Cause + " (" + e.Msg + ")"
	}
	return e.Msg
}

// errKind is where the scanner stopped.
type errKind uint8

const (
	errNone      errKind = iota
	errEOF               // input ends early
	errEOFString         // input ends inside a string
	errValue             // looking for beginning of value
	errKey               // looking for beginning of object key string
	errColon             // after object key
	errMember            // after object key:value pair
	errElem              // after array element
	errTop               // after top-level value
	errLiteral           // in literal true, false or null
	errNumber            // in numeric literal
	errFrac              // after decimal point
	errExp               // in exponent
	errControl           // control character in a string
	errEscape            // invalid escape
	errHex               // invalid \u escape
	errDepth             // nested deeper than MaxDepth
	errSize              // input of 2 GiB or more (offsets are 32-bit)
)

// newSyntaxError explains the error of kind k at off, found while scanning
// src[lo:end].
func newSyntaxError(src []byte, lo, end, off int, k errKind, depth int) *SyntaxError {
	e := &SyntaxError{Off: off}
	q := ""
	if off < end {
		q = quoteChar(src[off:end])
	}
	switch k {
	case errEOF, errEOFString:
		e.EOF = true
		e.Msg = "unexpected end of JSON input"
	case errValue:
		e.Msg = "invalid character " + q + " looking for beginning of value"
	case errKey:
		e.Msg = "invalid character " + q + " looking for beginning of object key string"
	case errColon:
		e.Msg = "invalid character " + q + " after object key"
	case errMember:
		e.Msg = "invalid character " + q + " after object key:value pair"
	case errElem:
		e.Msg = "invalid character " + q + " after array element"
	case errTop:
		e.Msg = "invalid character " + q + " after top-level value"
	case errLiteral:
		w := wordStart(src, lo, off)
		lit := map[byte]string{'t': "true", 'f': "false", 'n': "null"}[src[w]]
		if off-w < len(lit) {
			e.Msg = fmt.Sprintf("invalid character %s in literal %s (expecting %s)", q, lit, quoteChar([]byte{lit[off-w]}))
		} else {
			e.Msg = "invalid character " + q + " in literal"
		}
	case errNumber:
		e.Msg = "invalid character " + q + " in numeric literal"
	case errFrac:
		e.Msg = "invalid character " + q + " after decimal point in numeric literal"
	case errExp:
		e.Msg = "invalid character " + q + " in exponent of numeric literal"
	case errControl:
		e.Msg = "invalid character " + q + " in string literal"
	case errEscape:
		e.Msg = "invalid character " + q + " in string escape code"
	case errHex:
		e.Msg = "invalid character " + q + ` in \u hexadecimal character escape`
	case errDepth:
		e.Msg = fmt.Sprintf("arrays and objects nested more than %d levels deep", depth)
	case errSize:
		e.Msg = "JSON input of 2 GiB or more"
	}
	e.Cause = cause(src, lo, end, off, k, depth)
	return e
}

// quoteChar renders the character at the start of b as encoding/json does.
func quoteChar(b []byte) string {
	r, _ := utf8.DecodeRune(b)
	switch r {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	return strconv.QuoteRune(r)
}

// Causes, worded once for every caller.
const (
	causeTruncated     = "truncated input: the text ends before every string, array and object is closed"
	causeEmpty         = "empty input: there is no JSON value"
	causeUnterminated  = "unterminated string: the input ends inside a string; it is truncated or a closing double quote is missing"
	causeTrailingComma = "trailing comma before a closing brace or bracket"
	causeSingleQuotes  = "single quotes: JSON strings and keys need double quotes"
	causeComment       = "comment: JSON does not allow comments"
	causeUnquotedKey   = "unquoted key: object keys need double quotes"
	causeUnquotedText  = "unquoted text: strings need double quotes"
	causeLineBreak     = `line break in a string: close the string on its line, or write the line break as \n`
	causeControl       = `control character in a string: write it as an escape such as \t or \u0001`
	causeEscape        = `invalid escape in a string: JSON knows only \" \\ \/ \b \f \n \r \t and \uXXXX`
	causeHex           = `invalid \u escape: it needs four hexadecimal digits`
	causeMissingComma  = "missing comma between "
)

// cause guesses why scanning src[lo:end] failed at off with kind k.
//
// It is long on purpose: one table-like switch of likely causes, most specific first; each case is independent.
func cause(src []byte, lo, end, off int, k errKind, depth int) string {
	switch k {
	case errDepth:
		return fmt.Sprintf("too deep: arrays and objects may nest at most %d levels", depth)
	case errSize:
		return "too large: one JSON value may be at most 2 GiB; split the export or write it as JSON Lines"
	case errEOFString:
		return causeUnterminated
	case errEOF:
		if skipWS(src, lo, end) >= end {
			return causeEmpty
		}
		return causeTruncated
	case errControl:
		if src[off] == '\n' || src[off] == '\r' {
			return causeLineBreak
		}
		return causeControl
	case errEscape:
		return causeEscape
	case errHex:
		return causeHex
	case errNumber:
		return "malformed number: a digit must follow the minus sign"
	case errFrac:
		return "malformed number: a digit must follow the decimal point"
	case errExp:
		return "malformed number: the exponent needs digits"
	case errLiteral:
		w := wordStart(src, lo, off)
		if c := wordCause(src, w, end); c != causeUnquotedText {
			return c
		}
		j := w
		for j < end && isIdentStart(src[j]) {
			j++
		}
		word := string(src[w:j])
		for _, lit := range []string{"true", "false", "null"} {
			if len(word) < len(lit) && lit[:len(word)] == word || len(word) > len(lit) && word[:len(lit)] == lit {
				return "misspelt literal: JSON literals are true, false and null"
			}
		}
		return causeUnquotedText
	}
	c := src[off]
	switch {
	case c == '\'':
		return causeSingleQuotes
	case c == '/' && off+1 < end && (src[off+1] == '/' || src[off+1] == '*'):
		return causeComment
	}
	prev := byte(0)
	if p := lastNonSpace(src, lo, off); p >= 0 {
		prev = src[p]
	}
	switch k {
	case errKey:
		switch {
		case c == '}' && prev == ',':
			return causeTrailingComma
		case isIdentStart(c):
			return causeUnquotedKey
		case c == ',':
			return "extra comma: a member is missing before this comma"
		}
	case errValue:
		switch {
		case (c == '}' || c == ']') && prev == ',':
			return causeTrailingComma
		case c == '}' || c == ']':
			return "missing value before the closing brace or bracket"
		case c == ',':
			return "missing value before this comma"
		case isIdentStart(c):
			return wordCause(src, off, end)
		case c == '.':
			return "malformed number: a digit must come before the decimal point"
		case c == '+':
			return "malformed number: JSON numbers have no plus sign"
		}
	case errColon:
		if c == '=' {
			return "a key and its value are separated by ':' in JSON"
		}
		return "missing colon after the object key"
	case errMember, errElem:
		what := "members"
		if k == errElem {
			what = "array elements"
		}
		switch {
		case c == '"' || c == '{' || c == '[' || c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n':
			return causeMissingComma + what
		case isIdentStart(c):
			if k == errMember {
				return causeMissingComma + what
			}
			return wordCause(src, off, end)
		case k == errMember && c == ']':
			return "mismatched bracket: an object closes with '}'"
		case k == errElem && c == '}':
			return "mismatched brace: an array closes with ']'"
		case k == errElem && c == ':':
			return "key: value inside an array: use an object {…} for members"
		}
	case errTop:
		switch {
		case c == '}' || c == ']':
			return "extra closing brace or bracket after the JSON value"
		default:
			return "extra text after the JSON value: the input must hold exactly one value"
		}
	}
	return ""
}

// wordCause explains a bare word starting at w.
func wordCause(src []byte, w, end int) string {
	j := w
	for j < end && (isIdentStart(src[j]) || src[j] >= '0' && src[j] <= '9') {
		j++
	}
	word := string(src[w:j])
	if n := skipWS(src, j, end); n < end && src[n] == ':' {
		return causeUnquotedKey
	}
	switch word {
	case "True", "TRUE", "False", "FALSE":
		return word + " is not a JSON literal (use true or false)"
	case "None", "NULL", "Null", "nil", "none", "undefined":
		return word + " is not a JSON literal (use null)"
	case "NaN", "Infinity", "inf", "nan":
		return word + " is not a JSON number (use null or a string)"
	}
	return causeUnquotedText
}

// wordStart returns the start of the identifier-like word that holds off.
func wordStart(src []byte, lo, off int) int {
	for off > lo && isIdentStart(src[off-1]) {
		off--
	}
	return off
}

func lastNonSpace(src []byte, lo, off int) int {
	i := off - 1
	for i >= lo && isSpace(src[i]) {
		i--
	}
	return i
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}
