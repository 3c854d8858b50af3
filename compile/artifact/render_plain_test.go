package artifact

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"strings"
	"testing"
)

// The plain forms of text, quote and lines.bytes, which the rendering's
// speed paths must equal (TestRenderHelpersMatchPlain, FuzzQuote).
func textPlain(s string) string {
	s = strings.TrimSpace(lineBreaks.Replace(s))
	return strings.ReplaceAll(s, "\n", "<br>")
}

func quotePlain(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimRight(buf.String(), "\n")
}

func bytesPlain(l []string) []byte {
	for len(l) > 0 && l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return []byte(strings.Join(l, "\n") + "\n")
}

// TestRenderHelpersMatchPlain: text's one-line path, quote's plain path and
// the lines buffer give what the plain forms give, on random strings of the
// characters that matter (line breaks, spaces, pipes, quotes, bytes JSON
// escapes) and on random line lists with empty lines anywhere.
func TestRenderHelpersMatchPlain(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	alphabet := []string{"a", "é", " ", "\t", "\n", "\r", "\r\n", "|", "<br>", "\u2028", "\x00", `"`, `\`, "\x7f", "<&>", "\xff"}
	for i := range 20000 {
		var b strings.Builder
		for range r.Intn(12) {
			b.WriteString(alphabet[r.Intn(len(alphabet))])
		}
		s := b.String()
		if got, want := text(s), textPlain(s); got != want {
			t.Fatalf("text(%q) = %q, want %q", s, got, want)
		}
		if got, want := quote(s), quotePlain(s); got != want {
			t.Fatalf("quote(%q) = %q, want %q", s, got, want)
		}
		ls := make([]string, r.Intn(6))
		for j := range ls {
			if r.Intn(3) > 0 {
				ls[j] = s[:r.Intn(len(s)+1)]
			}
		}
		w := &lines{}
		w.add(ls...)
		if got, want := w.bytes(), bytesPlain(ls); string(got) != string(want) {
			t.Fatalf("try %d: lines %q: bytes %q, want %q", i, ls, got, want)
		}
	}
}

// FuzzQuote holds quote's shortcut for plain ASCII to the JSON encoder.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "RS-20260101-x", "a\"b", `a\b`, "\x7f", "<&>", "é", "\u2028", "\x00", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := quote(s), quotePlain(s); got != want {
			t.Fatalf("quote(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestOneLine holds oneLine's shortcut (a string already on one line comes
// back as it is) to the fields joined by single spaces.
func TestOneLine(t *testing.T) {
	for _, s := range []string{"", " ", "a", "a b", "a  b", " a", "a ", "a\tb", "a\nb", "a\r\n", "a\u00a0b", "a\u0085b", "é b", "H1: x — y", "\v", "x\fy"} {
		checkOneLine(t, s)
	}
}

func checkOneLine(t *testing.T, s string) {
	t.Helper()
	if got, want := oneLine(s), strings.Join(strings.Fields(s), " "); got != want {
		t.Errorf("oneLine(%q) = %q, want %q", s, got, want)
	}
}

func FuzzOneLine(f *testing.F) {
	for _, s := range []string{"a b", " a  b ", "a\u2003b", "x\ty"} {
		f.Add(s)
	}
	f.Fuzz(checkOneLine)
}
