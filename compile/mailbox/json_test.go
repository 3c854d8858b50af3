package mailbox

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

var jsonSeeds = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1.5e+10`, `-12.0E-3`, `"x"`, `""`,
	`{"a":[1,2,{"b":null}],"c":"d\n\"e\"\\\/\b\f\r\t\u00e9\ud83d\ude00"}`,
	` { "a" : 1 , "b" : [ ] } `,
	"\xEF\xBB\xBF{\"bom\":1}",
	`"caf\u00e9 \ud83d\ude00 \ud83d lone \ude00 low"`,
	"\"invalid \xff utf8 \xc3\x28\"",
	`{"a":1,}`, `[1,]`, `{"a" 1}`, `{"a":1 "b":2}`, `[1 2]`, `{a:1}`, `{'a':1}`,
	`01`, `1.`, `.5`, `1e`, `-`, `+1`, `tru`, `nul`, `"abc`, `"\x"`, `"\u12"`, `"\u12g4"`,
	"\"Ά\"", "\"tab\there\"", "\"nl\nhere\"", `{"a":1}{"b":2}`, `[1] x`, ``, ` `, `{"a":{"b":{"c":[[[]]]}}}`,
}

func TestParserAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range jsonSeeds {
		checkAgainstEncodingJSON(t, []byte(s))
	}
}

// checkAgainstEncodingJSON: the scanner accepts exactly what encoding/json
// accepts (apart from a leading BOM, which it skips), and decodes every
// string as encoding/json does.
func checkAgainstEncodingJSON(t *testing.T, src []byte) {
	t.Helper()
	var p jparser
	root, err := p.parse(src, 0, len(src))
	std := strings.TrimPrefix(string(src), "\xEF\xBB\xBF")
	if se, ok := err.(*jsonv.SyntaxError); ok && strings.HasPrefix(se.Cause, "too deep") {
		return // encoding/json allows deeper nesting than our depth limit
	}
	if (err == nil) != json.Valid([]byte(std)) {
		t.Fatalf("%q: scanner error %v, encoding/json valid %v", src, err, json.Valid([]byte(std)))
	}
	if err != nil {
		se := err.(*jsonv.SyntaxError)
		if se.Off < 0 || se.Off > len(src) {
			t.Fatalf("%q: error offset %d out of range", src, se.Off)
		}
		return
	}
	if root != 0 {
		t.Fatalf("root %d", root)
	}
	var buf []byte
	d := &jdoc{src: src, nodes: p.Nodes, buf: &buf}
	for i, n := range p.Nodes {
		raw := src[n.Start:n.End]
		if !json.Valid(raw) {
			t.Fatalf("%q: node %d span %q is not a JSON value", src, i, raw)
		}
		if n.Kind != jStr {
			continue
		}
		var want string
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		if got := d.text(int32(i)); got != want {
			t.Fatalf("%q: text(%q) = %q, encoding/json %q", src, raw, got, want)
		}
		checkBodyMap(t, raw, want)
	}
}

// checkBodyMap: for every decoded offset that is not strictly inside an
// escape, the raw prefix up to the mapped offset decodes to exactly the
// decoded prefix; offsets inside an escape map to its ends.
func checkBodyMap(t *testing.T, lit []byte, body string) {
	t.Helper()
	bm := &bodyMap{lit: lit, line: 1, col: 1}
	bm.build()
	raw := lit[1 : len(lit)-1]
	inside := make([]bool, len(body)+1)
	for _, e := range bm.esc {
		for k := e.Dec + 1; k < e.Dec+e.DecN; k++ {
			inside[k] = true
		}
	}
	for dec := 0; dec <= len(body); dec++ {
		r := jsonv.RawOffset(bm.esc, dec, false)
		re := jsonv.RawOffset(bm.esc, dec, true)
		// The walk that BodyPos uses first finds the same offsets, for
		// two offsets of one walk too.
		if ws, we, ok := jsonv.RawOffsets(lit, dec, dec); ok != utf8.Valid(raw) || ok && (ws != r || we != re) {
			t.Fatalf("%q: RawOffsets(%d, %d) = %d, %d, %v; the table gives %d, %d", lit, dec, dec, ws, we, ok, r, re)
		}
		if ws, we, ok := jsonv.RawOffsets(lit, dec, len(body)); ok && (ws != r || we != jsonv.RawOffset(bm.esc, len(body), true)) {
			t.Fatalf("%q: RawOffsets(%d, %d) = %d, %d; the table disagrees", lit, dec, len(body), ws, we)
		}
		if r < 0 || r > len(raw) || re < r || re > len(raw) {
			t.Fatalf("%q: rawOff(%d) = %d, %d out of range", lit, dec, r, re)
		}
		if inside[dec] || dec < len(body) && !utf8.RuneStart(body[dec]) {
			continue // inside an escape, or inside a verbatim multi-byte character
		}
		if r != re {
			t.Fatalf("%q: rawOff(%d) start %d != end %d at a boundary", lit, dec, r, re)
		}
		got := string(decodeString(nil, append(append([]byte{'"'}, raw[:r]...), '"'), nil))
		if got != body[:dec] {
			t.Fatalf("%q: raw[:%d] decodes to %q, want %q", lit, r, got, body[:dec])
		}
	}
	if bm.ascii != (utf8.RuneCount(lit) == len(lit) && isASCII(lit)) {
		t.Fatalf("ascii flag wrong for %q", lit)
	}
}

func FuzzScanner(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkAgainstEncodingJSON(t, src)
	})
}

func TestParseErrorsPositions(t *testing.T) {
	cases := []struct {
		src string
		off int
		msg string
	}{
		{`{"a":1,}`, 7, "looking for beginning of object key string"},
		{`[1,2 3]`, 5, "after array element"},
		{`{"a" 1}`, 5, "after object key"},
		{`{"a":1 "b":2}`, 7, "after object key:value pair"},
		{`{"a":tru}`, 8, "in literal true"},
		{"\"a\tb\"", 2, "control character in a string"},
		{`{"a":"b`, 7, "unexpected end of JSON input"},
		{`{"a":1} x`, 8, "after top-level value"},
	}
	for _, c := range cases {
		var p jparser
		_, err := p.parse([]byte(c.src), 0, len(c.src))
		se, ok := err.(*jsonv.SyntaxError)
		if !ok || se.Off != c.off || !strings.Contains(se.Error(), c.msg) {
			t.Errorf("%q: %v (%#v), want offset %d %q", c.src, err, se, c.off, c.msg)
		}
	}
}

// FuzzScanLoad: any file content scans without panicking, and every thread
// found loads back with its bodies (the file did not change).
func FuzzScanLoad(f *testing.F) {
	root := testutil.ModuleRoot(f)
	for _, p := range []string{"thread/thread.json", "jsonl/mailbox.jsonl", "mcp/resources-read.json", "mcp/tools-call.json",
		"inbox/inbox.json", "mixed/thread.json", "bundle/deliveries.json", "format/toon.json",
		"archive/projects/data-projects-demo/messages/2026/03/2026-03-07T08-05-30Z__delta-gpt-crlf-file__1002.md"} {
		data, err := os.ReadFile(filepath.Join(root, "testdata", "ingest", p))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "in")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := Scan([]string{p}, ScanOptions{Jobs: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range b.Threads {
			th, err := r.Load()
			if err != nil {
				t.Fatalf("Load(%s): %v", r.Key, err)
			}
			for _, m := range th.Messages {
				bp := m.BodyPos(0, len(m.Body))
				if m.HasBody && (bp.Line < 1 || bp.EndLine < bp.Line) {
					t.Fatalf("BodyPos %+v", bp)
				}
			}
		}
	})
}

// TestProjectSlugFastPath: a project that is already a slug is returned as
// it is, and every other goes through the full conversion — the fast path
// changes no result.
func TestProjectSlugFastPath(t *testing.T) {
	for _, p := range []string{"brenner-bot", "a", "a1-b2-c3", "-a", "a-", "a--b", "A-b", "a_b", "a b", "", "é", " a ", "[project path redacted: /x/My Proj]", "abc-", "1", "a-1"} {
		var b strings.Builder
		dash := false
		q := strings.TrimSpace(p)
		if rest, ok := strings.CutPrefix(q, "[project path redacted:"); ok {
			q = strings.TrimSuffix(strings.TrimSpace(rest), "]")
		}
		for _, r := range strings.ToLower(q) {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				if dash && b.Len() > 0 {
					b.WriteByte('-')
				}
				dash = false
				b.WriteRune(r)
			} else {
				dash = true
			}
		}
		if got, want := projectSlug(p), b.String(); got != want {
			t.Errorf("projectSlug(%q) = %q, want %q", p, got, want)
		}
	}
}
