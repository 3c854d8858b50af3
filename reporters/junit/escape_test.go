package junit

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/diag"
)

// nasty are inputs XML 1.0 cannot carry as written, or that would end a
// construct early: NUL and other C0 controls, a lone surrogate (as it
// arrives in Go: invalid UTF-8), invalid UTF-8, U+FFFE/U+FFFF, "]]>",
// quotes, markup, white space an attribute would normalise, bidirectional
// controls.
var nasty = []string{
	"",
	"plain",
	"nul \x00 esc \x1b bell \x07 del \x7f",
	"lone surrogate \xed\xa0\x80 and \xed\xbf\xbf",
	"bad utf-8 \xff\xfe \xc3",
	"a real \uFFFD stays",
	"non-characters \uFFFE \uFFFF",
	"]]> ends a CDATA section, ]]",
	`"double" 'single' <tag attr="x"> & &amp; &#0;`,
	"tab\tline\nfeed\rcarriage\r\nreturn",
	"rlo \u202e lri \u2066 lrm \u200e ls \u2028 alm \u061c",
	"astral \U0001F600 and \U0010FFFF",
	"c1 \u0085 \u009b kept",
}

// clean is what a reader of the report must get back for s: s less what
// XML 1.0 cannot carry (invalid UTF-8, C0 controls but tab and line breaks,
// U+FFFE, U+FFFF), with invisible controls shown as \uXXXX.
func clean(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0xFFFE, r == 0xFFFF:
		case diag.Invisible(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// roundTrip writes s as an attribute value and as char data, and reads both
// back with encoding/xml's strict decoder.
func roundTrip(t testing.TB, s string) (attrVal, charData string) {
	t.Helper()
	doc := `<a v="` + attr(s) + `">` + text(s) + `</a>`
	if !utf8.ValidString(doc) {
		t.Fatalf("%q: output is not UTF-8: %q", s, doc)
	}
	d := xml.NewDecoder(strings.NewReader(doc))
	var cd strings.Builder
	seen := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%q: encoding/xml cannot read %q: %v", s, doc, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if len(tok.Attr) != 1 || tok.Attr[0].Name.Local != "v" {
				t.Fatalf("%q: attributes %v", s, tok.Attr)
			}
			attrVal, seen = tok.Attr[0].Value, true
		case xml.CharData:
			cd.Write(tok)
		}
	}
	if !seen {
		t.Fatalf("%q: no element read from %q", s, doc)
	}
	return attrVal, cd.String()
}

func checkEscape(t testing.TB, s string) {
	t.Helper()
	want := clean(s)
	a, c := roundTrip(t, s)
	if a != want {
		t.Errorf("attribute of %q reads back %q, want %q", s, a, want)
	}
	if c != want {
		t.Errorf("char data of %q reads back %q, want %q", s, c, want)
	}
	// Written as the project writes it: no raw markup, and in an attribute
	// no raw quote or white space that normalisation would turn into a
	// space; no raw invisible control anywhere.
	for _, out := range []string{attr(s), text(s)} {
		if strings.Contains(out, "]]>") || strings.ContainsAny(out, "<\u202e\u2066") {
			t.Errorf("%q written as %q", s, out)
		}
	}
	if a := attr(s); strings.ContainsAny(a, "\"\t\n\r") {
		t.Errorf("attribute %q written as %q", s, a)
	}
}

// TestEscapeRoundTrip: encoding/xml is the oracle of the hand-written
// escape (see escape for why it is not the writer): every nasty input is
// read back by its strict decoder, in an attribute and in char data, as the
// input less what XML 1.0 cannot carry.
func TestEscapeRoundTrip(t *testing.T) {
	for _, s := range nasty {
		checkEscape(t, s)
	}
	// The bytes the goldens hold: a named entity for a quote in an
	// attribute, quotes and line breaks as they are in char data.
	if got := attr(`say "hi"` + "\n"); got != `say &quot;hi&quot;&#xA;` {
		t.Errorf("attr: %s", got)
	}
	if got := text(`say "hi" 'there' ]]>` + "\n\r"); got != `say "hi" 'there' ]]&gt;`+"\n&#xD;" {
		t.Errorf("text: %s", got)
	}
	// xs:token: white space collapsed, then escaped.
	// What XML cannot hold is dropped before collapsing: no double or
	// trailing space is left where it was (before: "a  b", "a b ").
	for in, want := range map[string]string{" a\t\n b ": "a b", "a \x00 b": "a b", " a\t\n b \x00 ": "a b", "a \xff\x1b b \u202e": `a b \u202e`, " \x02 ": ""} {
		if got := token(in); got != want {
			t.Errorf("token(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzEscape(f *testing.F) {
	for _, s := range nasty {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkEscape(t, s) })
}

// TestAsIsEscapesNothing: texts escape returns without a copy (asIs) are
// the ones the character-by-character escape leaves as they are; checked
// on every pair of bytes and on the characters around them.
func TestAsIsEscapesNothing(t *testing.T) {
	var ins []string
	for a := 0; a < 256; a++ {
		for b := 0; b < 256; b += 3 {
			ins = append(ins, string([]byte{byte(a), byte(b)}))
		}
	}
	ins = append(ins, "", "plain text", "é", "\u2028", "a\tb", "x\x7fy", "<&>\"'")
	fast := 0
	for _, s := range ins {
		for _, inAttr := range []bool{false, true} {
			if got, want := escape(s, inAttr), escapeAll(s, inAttr); got != want {
				t.Fatalf("escape(%q, %v) = %q, want %q", s, inAttr, got, want)
			}
		}
		if got, want := xmlChars(s), xmlCharsAll(s); got != want {
			t.Fatalf("xmlChars(%q) = %q, want %q", s, got, want)
		}
		if asIs(s) {
			fast++
		}
	}
	if fast == 0 {
		t.Fatal("asIs took no input")
	}
}

// TestTokenShortcut holds token's shortcut for printable ASCII to the
// plain collapse-then-escape (tokenAll), on every string of up to three
// characters from an alphabet of spaces, escaped and plain characters, and
// on the names a report writes most.
func TestTokenShortcut(t *testing.T) {
	alphabet := []string{"", " ", "  ", "a", "&", "\"", "\t", "\u00a0", "\x00", "é"}
	var ins []string
	for _, a := range alphabet {
		for _, b := range alphabet {
			for _, c := range alphabet {
				ins = append(ins, a+b+c)
			}
		}
	}
	ins = append(ins, "all rules", "MB-001 subject-format", "RS-20260102-round2-nanochat", " x", "x ", "a  b", "a b")
	short := 0
	for _, s := range ins {
		if got, want := token(s), tokenAll(s); got != want {
			t.Fatalf("token(%q) = %q, want %q", s, got, want)
		}
		if asIs(s) && !collapses(s) {
			short++
		}
	}
	if short == 0 {
		t.Fatal("the shortcut took no input")
	}
}

// checkWriteText holds writeText to the plain form it replaces: the lines
// joined by line breaks, escaped as one text.
func checkWriteText(t testing.TB, lines []string) {
	t.Helper()
	var b strings.Builder
	w := bufio.NewWriter(&b)
	writeText(w, len(lines), func(k int) string { return lines[k] })
	w.Flush()
	if got, want := b.String(), text(strings.Join(lines, "\n")); got != want {
		t.Errorf("writeText(%q) = %q, want %q", lines, got, want)
	}
}

// TestWriteText: line by line, a text is escaped as it is whole — also
// where a line ends inside a UTF-8 sequence or in a carriage return, or is
// empty, and for no lines at all.
func TestWriteText(t *testing.T) {
	checkWriteText(t, nil)
	checkWriteText(t, []string{""})
	checkWriteText(t, []string{"", ""})
	checkWriteText(t, nasty)
	checkWriteText(t, []string{"cut \xe2\x80", "\xaeafter", "cr\r", "\n", "é"})
	for _, a := range nasty {
		for _, b := range nasty {
			checkWriteText(t, []string{a, b})
		}
	}
}

// FuzzWriteText splits a text at its NUL bytes into lines and holds
// writeText to the joined, escaped text.
func FuzzWriteText(f *testing.F) {
	for _, s := range nasty {
		f.Add(s + "\x00" + s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkWriteText(t, strings.Split(s, "\x00")) })
}
