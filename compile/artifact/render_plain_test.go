package artifact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
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

// scoreLinePlain is the score line as putScoreLine writes it, built as a
// string ("" when the test has no score).
func scoreLinePlain(it *Item) string {
	sc := it.Get("score")
	if sc == nil || sc.IsNull() {
		return ""
	}
	const label = "**Evidence-per-week score**: "
	if sc.Kind != jsonv.Object {
		return label + strike(sc.Text(), it.Killed)
	}
	var parts []string
	known := map[string]bool{}
	for _, p := range scoreParts {
		known[p.Key] = true
		v := sc.Get(p.Key)
		s := "0"
		switch {
		case v == nil || v.IsNull():
		case v.Kind == jsonv.Number:
			s = v.Num.String()
		default:
			s = v.Text()
		}
		parts = append(parts, p.Label+"="+s)
	}
	for _, k := range sc.Keys() {
		if !known[k] {
			parts = append(parts, diag.CollapseSpace(k)+"="+inlineValue(sc.Get(k)))
		}
	}
	return label + strike(strings.Join(parts, ", "), it.Killed)
}

// joinListPlain is a list (or a single value) joined with ", ", as putList
// writes it before striking it through.
func joinListPlain(v *jsonv.Value) string {
	var parts []string
	for _, e := range list(v) {
		if s := inlineValue(e); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

// randomJSON is a random JSON value of strings that text and oneLine change
// (spaces, line breaks), numbers, nulls and nesting; keys may be score
// parts, repeated, or need oneLine.
func randomJSON(r *rand.Rand, depth int) string {
	strs := []string{`""`, `" "`, `"a"`, `" a\n b "`, `"x|y"`, `"\r\n"`, `"é"`}
	keys := []string{"likelihood_ratio", "cost", "speed", "ambiguity", "extra", " two  words ", "cost"}
	switch k := r.Intn(8); {
	case k == 0:
		return "null"
	case k == 1:
		return []string{"0", "3", "-1.5", "1e2", "12"}[r.Intn(5)]
	case k == 2:
		return []string{"true", "false"}[r.Intn(2)]
	case k == 3 && depth < 2, k == 4 && depth < 2:
		var b strings.Builder
		open, close := "[", "]"
		if k == 4 {
			open, close = "{", "}"
		}
		b.WriteString(open)
		for i := range r.Intn(5) {
			if i > 0 {
				b.WriteString(",")
			}
			if k == 4 {
				fmt.Fprintf(&b, "%q:", keys[r.Intn(len(keys))])
			}
			b.WriteString(randomJSON(r, depth+1))
		}
		b.WriteString(close)
		return b.String()
	}
	return strs[r.Intn(len(strs))]
}

// TestRenderWritersMatchPlain: the writers that append to the rendering
// (putScoreLine, putList, putQuoted, putTime, allDigits) write what the
// plain forms build as strings, on random values, killed or not.
func TestRenderWritersMatchPlain(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	digits := regexp.MustCompile(`^[0-9]+$`)
	for range 20000 {
		src := randomJSON(r, 0)
		v, err := jsonv.ParseString(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		killed := r.Intn(2) == 0
		fields, _ := jsonv.ParseString(`{"score":` + src + `}`)
		it := &Item{ID: "T1", Fields: fields, Killed: killed}
		w := &lines{}
		got := ""
		if putScoreLine(w, "- ", it) {
			got = string(w.b)
		}
		want := ""
		if s := scoreLinePlain(it); s != "" {
			want = "- " + s + "\n"
		}
		if got != want {
			t.Fatalf("score %s, killed %v:\n got %q\nwant %q", src, killed, got, want)
		}
		w = &lines{b: []byte("x")}
		putList(w, v, killed)
		if got, want := string(w.b), "x"+strike(joinListPlain(v), killed); got != want {
			t.Fatalf("list %s, killed %v: got %q, want %q", src, killed, got, want)
		}
		s, _ := v.AsString()
		if s == "" {
			s = src
		}
		w = &lines{}
		w.putQuoted(s)
		if got, want := string(w.b), quote(s); got != want {
			t.Fatalf("putQuoted(%q) = %q, want %q", s, got, want)
		}
		n := fmt.Sprint(r.Intn(1000))
		for _, id := range []string{s, n, n + s, ""} {
			if allDigits(id) != digits.MatchString(id) {
				t.Fatalf("allDigits(%q) = %v", id, allDigits(id))
			}
		}
		at := time.Unix(r.Int63n(4e9), r.Int63n(3)*r.Int63n(1e9)).In(time.FixedZone("x", 3600*(r.Intn(5)-2)))
		w = &lines{}
		w.putTime(at)
		if got, want := string(w.b), FormatTime(at); got != want || quote(got) != `"`+got+`"` {
			t.Fatalf("putTime(%v) = %q, want %q, quoted as it is", at, got, want)
		}
	}
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
