package body

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

type wantHeading struct {
	level   int
	text    string
	span    string // Src[Start:End]
	section string // SectionText
	nested  bool
}

func TestHeadings(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []wantHeading
	}{
		{"atx and sections",
			"# Title\n\nintro\n\n## Context\nSome context.\n\n### Detail\nd\n\n## Research Question\nWhy?\n",
			[]wantHeading{
				{1, "Title", "# Title", "intro\n\n## Context\nSome context.\n\n### Detail\nd\n\n## Research Question\nWhy?", false},
				{2, "Context", "## Context", "Some context.\n\n### Detail\nd", false},
				{3, "Detail", "### Detail", "d", false},
				{2, "Research Question", "## Research Question", "Why?", false},
			}},
		{"closing hashes and inline markup",
			"## **Bold** `code` and [link](http://x) ##\ntext\n",
			[]wantHeading{{2, "Bold code and link", "## **Bold** `code` and [link](http://x) ##", "text", false}}},
		{"setext",
			"Title\n=====\n\nSub\n---\nbody\n",
			[]wantHeading{
				{1, "Title", "Title\n=====", "Sub\n---\nbody", false},
				{2, "Sub", "Sub\n---", "body", false},
			}},
		{"multi-line setext",
			"one\ntwo\n===\nx\n",
			[]wantHeading{{1, "one two", "one\ntwo\n===", "x", false}}},
		{"hash without space is not ATX",
			"#foo\n\n# bar\n",
			[]wantHeading{{1, "bar", "# bar", "", false}}},
		{"heading in code fence is not a heading",
			"```\n# not\n```\n# yes\n",
			[]wantHeading{{1, "yes", "# yes", "", false}}},
		{"nested heading does not end a top-level section",
			"## Attack\n\n> ## Quoted\n> q\n\nmore\n\n## Next\n",
			[]wantHeading{
				{2, "Attack", "## Attack", "> ## Quoted\n> q\n\nmore", false},
				{2, "Quoted", "## Quoted", "> q\n\nmore", true}, // raw source, container markers included
				{2, "Next", "## Next", "", false},
			}},
		{"CRLF",
			"# T\r\n\r\nbody\r\n## S\r\nx\r\n",
			[]wantHeading{
				{1, "T", "# T", "body\r\n## S\r\nx", false},
				{2, "S", "## S", "x", false},
			}},
		{"empty heading", "#\n", []wantHeading{{1, "", "#", "", false}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Parse(tc.src)
			if len(d.Headings) != len(tc.want) {
				t.Fatalf("got %d headings %+v, want %d", len(d.Headings), d.Headings, len(tc.want))
			}
			for i, w := range tc.want {
				h := d.Headings[i]
				if h.Level != w.level || h.Text != w.text || tc.src[h.Start:h.End] != w.span || h.Nested != w.nested {
					t.Errorf("heading %d = level %d %q span %q nested %v; want %d %q %q %v", i, h.Level, h.Text, tc.src[h.Start:h.End], h.Nested, w.level, w.text, w.span, w.nested)
				}
				if got := d.SectionText(&d.Headings[i]); got != w.section {
					t.Errorf("heading %d section = %q, want %q", i, got, w.section)
				}
			}
		})
	}
}

func TestFind(t *testing.T) {
	src := "# Kickoff\n\n> ## Context\n> quoted\n\n## research question:\nQ\n\n## Context (optional)\nC\n\n### Notes\nn\n"
	d := Parse(src)
	if h := d.Find(2, "Research Question"); h == nil || h.Text != "research question:" {
		t.Fatalf("Find research question = %+v", h)
	}
	if h := d.Find(2, "context"); h == nil || h.Nested || h.Text != "Context (optional)" || d.SectionText(h) != "C\n\n### Notes\nn" {
		t.Fatalf("Find context should prefer the top-level heading, got %+v", h)
	}
	if h := d.Find(0, "NOTES"); h == nil || h.Level != 3 {
		t.Fatalf("Find(0, NOTES) = %+v", h)
	}
	if h := d.Find(2, "Notes"); h != nil {
		t.Fatalf("Find(2, Notes) should miss an H3, got %+v", h)
	}
	if h := d.Find(0, "Missing", "Kickoff"); h == nil || h.Level != 1 {
		t.Fatalf("Find with several names = %+v", h)
	}
	if h := d.Title(); h == nil || h.Text != "Kickoff" {
		t.Fatalf("Title = %+v", h)
	}
	if Parse("## only h2\n").Title() != nil {
		t.Fatal("Title without an H1 should be nil")
	}
	if got := d.SectionText(nil); got != "" {
		t.Fatalf("SectionText(nil) = %q", got)
	}
}

type wantFence struct {
	char    byte
	info    string
	lang    string
	content string
	span    string // Src[Start:End]
	closed  bool
	nested  bool
}

func TestFences(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []wantFence
	}{
		{"backtick delta", "text\n\n```delta\n{\"a\": 1}\n```\n\nafter\n",
			[]wantFence{{'`', "delta", "delta", "{\"a\": 1}\n", "```delta\n{\"a\": 1}\n```", true, false}}},
		{"tilde with info string", "~~~delta json extra\n{}\n~~~\n",
			[]wantFence{{'~', "delta json extra", "delta", "{}\n", "~~~delta json extra\n{}\n~~~", true, false}}},
		{"four backticks keep inner backticks", "````delta\n{\"s\": \"```\"}\n````\n",
			[]wantFence{{'`', "delta", "delta", "{\"s\": \"```\"}\n", "````delta\n{\"s\": \"```\"}\n````", true, false}}},
		{"in block quote", "> ```delta\n> {\n>   \"a\": 1\n> }\n> ```\n",
			[]wantFence{{'`', "delta", "delta", "{\n  \"a\": 1\n}\n", "```delta\n> {\n>   \"a\": 1\n> }\n> ```", true, true}}},
		{"in list item", "- first\n\n  ```delta\n  {}\n  ```\n- second\n",
			[]wantFence{{'`', "delta", "delta", "{}\n", "```delta\n  {}\n  ```", true, true}}},
		{"nested example inside ~~~markdown is content",
			"~~~markdown\n```delta\n{\"operation\": \"ADD\"}\n```\n~~~\n",
			[]wantFence{{'~', "markdown", "markdown", "```delta\n{\"operation\": \"ADD\"}\n```\n", "~~~markdown\n```delta\n{\"operation\": \"ADD\"}\n```\n~~~", true, false}}},
		{"nested example inside ````markdown is content",
			"````markdown\n```delta\n{}\n```\n````\n",
			[]wantFence{{'`', "markdown", "markdown", "```delta\n{}\n```\n", "````markdown\n```delta\n{}\n```\n````", true, false}}},
		{"unclosed runs to the end", "```delta\n{}\nmore\n",
			[]wantFence{{'`', "delta", "delta", "{}\nmore\n", "```delta\n{}\nmore", false, false}}},
		{"unclosed in list item ends with the item",
			"- ```\n  a\n```\nb\n",
			[]wantFence{
				{'`', "", "", "a\n", "```\n  a", false, true},
				{'`', "", "", "b\n", "```\nb", false, false},
			}},
		{"empty fence", "```delta\n```\n",
			[]wantFence{{'`', "delta", "delta", "", "```delta\n```", true, false}}},
		{"closing fence longer than opening", "```delta\n{}\n`````\n",
			[]wantFence{{'`', "delta", "delta", "{}\n", "```delta\n{}\n`````", true, false}}},
		{"CRLF", "```delta\r\n{}\r\n```\r\n",
			[]wantFence{{'`', "delta", "delta", "{}\r\n", "```delta\r\n{}\r\n```", true, false}}},
		{"colon delta", "intro\n\n:::delta\n{\"a\": 1}\n:::\n\nafter\n",
			[]wantFence{{':', "delta", "delta", "{\"a\": 1}\n", ":::delta\n{\"a\": 1}\n:::", true, false}}},
		{"colon delta with info and longer close", "::::delta v1\n{}\n:::::\n",
			[]wantFence{{':', "delta v1", "delta", "{}\n", "::::delta v1\n{}\n:::::", true, false}}},
		{"unclosed colon delta", ":::delta\n{}\n",
			[]wantFence{{':', "delta", "delta", "{}\n", ":::delta\n{}", false, false}}},
		{"colon delta inside a code fence is content",
			"```\n:::delta\n{}\n:::\n```\n",
			[]wantFence{{'`', "", "", ":::delta\n{}\n:::\n", "```\n:::delta\n{}\n:::\n```", true, false}}},
		{"colon delta inside an indented code block is ignored", "    :::delta\n    {}\n    :::\n", nil},
		{"colon delta inside a comment is ignored", "<!--\n:::delta\n{}\n:::\n-->\n", nil},
		{"other colon blocks are not fences", ":::note\nhi\n:::\n", nil},
		{"mixed order", ":::delta\n{}\n:::\n\n```delta\n[]\n```\n",
			[]wantFence{
				{':', "delta", "delta", "{}\n", ":::delta\n{}\n:::", true, false},
				{'`', "delta", "delta", "[]\n", "```delta\n[]\n```", true, false},
			}},
		{"indented fence (3 spaces)", "   ```delta\n   {}\n   ```\n",
			[]wantFence{{'`', "delta", "delta", "{}\n", "```delta\n   {}\n   ```", true, false}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Parse(tc.src)
			if len(d.Fences) != len(tc.want) {
				t.Fatalf("got %d fences %+v, want %d", len(d.Fences), d.Fences, len(tc.want))
			}
			for i, w := range tc.want {
				f := d.Fences[i]
				if f.Char != w.char || f.Info != w.info || f.Lang != w.lang || f.Content != w.content ||
					tc.src[f.Start:f.End] != w.span || f.Closed != w.closed || f.Nested != w.nested {
					t.Errorf("fence %d = %q info %q lang %q content %q span %q closed %v nested %v;\n want %q %q %q %q %q %v %v",
						i, f.Char, f.Info, f.Lang, f.Content, tc.src[f.Start:f.End], f.Closed, f.Nested,
						w.char, w.info, w.lang, w.content, w.span, w.closed, w.nested)
				}
				if f.Info != "" && tc.src[f.InfoStart:f.InfoEnd] != f.Info {
					t.Errorf("fence %d info range %q, want %q", i, tc.src[f.InfoStart:f.InfoEnd], f.Info)
				}
				// Every content byte that is not an expanded tab maps back to itself.
				for k := 0; k < len(f.Content); k++ {
					o := f.BodyOffset(k)
					if f.Content[k] != ' ' && tc.src[o] != f.Content[k] {
						t.Errorf("fence %d: content byte %d %q maps to body %d %q", i, k, f.Content[k], o, tc.src[o])
						break
					}
				}
				if f.Segs == nil && len(f.Content) > 0 && tc.src[f.ContentStart:f.ContentStart+len(f.Content)] != f.Content {
					t.Errorf("fence %d: contiguous content not at ContentStart", i)
				}
			}
		})
	}
}

func TestFenceBodyOffsetInQuote(t *testing.T) {
	src := "> ```delta\n> {\n>   \"a\": 1,\n> }\n> ```\n"
	d := Parse(src)
	if len(d.Fences) != 1 {
		t.Fatalf("fences: %+v", d.Fences)
	}
	f := d.Fences[0]
	if f.Segs == nil {
		t.Fatal("a multi-line fence in a block quote must carry Segs")
	}
	comma := strings.IndexByte(f.Content, ',')
	if got, want := f.BodyOffset(comma), strings.IndexByte(src, ','); got != want {
		t.Fatalf("BodyOffset(comma) = %d, want %d", got, want)
	}
	if got := f.BodyOffset(len(f.Content)); got != strings.LastIndex(src, "}\n")+2 {
		t.Fatalf("BodyOffset(end) = %d", got)
	}
}

func TestTabExpansionInQuote(t *testing.T) {
	src := "> ```\n>\tx\n> ```\n"
	f := Parse(src).Fences[0]
	if f.Content != "  x\n" {
		t.Fatalf("content %q", f.Content)
	}
	if o := f.BodyOffset(0); src[o] != 'x' {
		t.Fatalf("padding maps to %d %q", o, src[o])
	}
	if o := f.BodyOffset(2); src[o] != 'x' {
		t.Fatalf("x maps to %d", o)
	}
}

func TestComments(t *testing.T) {
	tests := []struct {
		src  string
		want []string // Text, then span, alternating
	}{
		{"para <!-- inline c --> x\n", []string{"inline c", "<!-- inline c -->"}},
		{"<!-- block\nc -->\n\ntext\n", []string{"block\nc", "<!-- block\nc -->"}},
		{"<!-- a --> b <!-- c -->\n", []string{"a", "<!-- a -->", "c", "<!-- c -->"}},
		{"```\n<!-- in code -->\n```\n", nil},
		{"`<!-- in span -->`\n", nil},
		{"> <!-- quoted -->\n", []string{"quoted", "<!-- quoted -->"}},
		{"<!--\nunterminated\n", []string{"unterminated", "<!--\nunterminated"}},
		{"# Head <!-- h -->\n", []string{"h", "<!-- h -->"}},
	}
	for _, tc := range tests {
		d := Parse(tc.src)
		if len(d.Comments)*2 != len(tc.want) {
			t.Errorf("%q: comments %+v, want %q", tc.src, d.Comments, tc.want)
			continue
		}
		for i, c := range d.Comments {
			if c.Text != tc.want[2*i] || tc.src[c.Start:c.End] != tc.want[2*i+1] {
				t.Errorf("%q: comment %d = %q %q, want %q %q", tc.src, i, c.Text, tc.src[c.Start:c.End], tc.want[2*i], tc.want[2*i+1])
			}
		}
	}
	if d := Parse("# Head <!-- h -->\n"); d.Headings[0].Text != "Head" {
		t.Errorf("heading text with a comment = %q", d.Headings[0].Text)
	}
}

func TestInCode(t *testing.T) {
	src := "a\n\n```\ncode\n```\n\n    indented\n\nb `span` after\n"
	d := Parse(src)
	for _, c := range []struct {
		sub  string
		want bool
	}{{"a", false}, {"code", true}, {"```\n\n", true}, {"indented", true}, {"b `", false}, {"`span`", true}, {"span", true}, {"after", false}} {
		i := strings.Index(src, c.sub)
		if i < 0 {
			t.Fatalf("%q not in the source", c.sub)
		}
		if got := d.InCode(i); got != c.want {
			t.Errorf("InCode(%q) = %v, want %v", c.sub, got, c.want)
		}
	}
}

func TestParseFile(t *testing.T) {
	src := "---\nsession_id: \"RS-1\"\nversion: 2\n---\n# Brenner Protocol Artifact: RS-1\n\n## 1. Research Thread\n\n```delta\n{}\n```\n"
	front, fs, fe, d := ParseFile(src)
	if front != "session_id: \"RS-1\"\nversion: 2\n" || src[fs:fe] != front {
		t.Fatalf("front = %q [%d,%d]", front, fs, fe)
	}
	if len(d.Headings) != 2 || d.Headings[0].Level != 1 || d.Headings[0].Text != "Brenner Protocol Artifact: RS-1" {
		t.Fatalf("headings: %+v", d.Headings)
	}
	h := d.Headings[0]
	if src[h.Start:h.End] != "# Brenner Protocol Artifact: RS-1" || h.SectionEnd != len(src) {
		t.Fatalf("heading offsets must be relative to the whole file: %+v", h)
	}
	f := d.Fences[0]
	if src[f.Start:f.End] != "```delta\n{}\n```" || src[f.ContentStart:f.ContentStart+2] != "{}" {
		t.Fatalf("fence offsets: %+v", f)
	}
	if d.Src != src {
		t.Fatal("Doc.Src must be the whole file")
	}
	// Without front matter: everything is markdown.
	front, fs, fe, d = ParseFile("# T\n")
	if front != "" || fs != -1 || fe != -1 || len(d.Headings) != 1 {
		t.Fatalf("no front matter: %q %d %d %+v", front, fs, fe, d.Headings)
	}
	// An unterminated block is not front matter.
	if _, fs, _, _ = ParseFile("---\na: 1\n# T\n"); fs != -1 {
		t.Fatal("unterminated front matter accepted")
	}
	// Body parsing without ParseFile reads front matter as a setext H2 (the gotcha).
	if d := Parse("---\na: 1\n---\n"); len(d.Headings) != 1 || d.Headings[0].Level != 2 {
		t.Fatalf("Parse of front matter: %+v", d.Headings)
	}
	// BOM, CRLF and "..." terminator.
	src = "\ufeff---\r\na: 1\r\n...\r\n# T\r\n"
	front, _, _, d = ParseFile(src)
	if front != "a: 1\r\n" || len(d.Headings) != 1 || d.Headings[0].Text != "T" {
		t.Fatalf("BOM/CRLF front matter: %q %+v", front, d.Headings)
	}
	// Empty front matter.
	if front, fs, fe, _ := ParseFile("---\n---\nx\n"); front != "" || fs != 4 || fe != 4 {
		t.Fatalf("empty front matter: %q %d %d", front, fs, fe)
	}
}

// TestTabInContainerPrefix: goldmark's Pos is off when a block quote or list
// prefix holds a tab; headings and fences are re-read from the source.
func TestTabInContainerPrefix(t *testing.T) {
	d := Parse(">\t# x\n")
	if len(d.Headings) != 1 || d.Headings[0].Start != 2 || d.Headings[0].End != 5 || d.Headings[0].Setext {
		t.Errorf("heading in '>\\t' quote: %+v", d.Headings)
	}
	d = Parse(">\t```delta\n>\t{}\n>\t```\n")
	if len(d.Fences) != 1 || d.Fences[0].Start != 2 || d.Fences[0].FenceLen != 3 || d.Fences[0].Lang != "delta" || !d.Fences[0].Closed {
		t.Errorf("fence in '>\\t' quote: %+v", d.Fences)
	}
	src := "*\n\t#\n#"
	d = Parse(src)
	if len(d.Headings) != 2 || d.Headings[0].Start != 3 || d.Headings[1].Start != 5 || d.Headings[0].SectionEnd != 5 {
		t.Errorf("empty headings after a tab: %+v", d.Headings)
	}
	d = Parse("    #\n#\n")
	if len(d.Headings) != 1 || d.Headings[0].Start != 6 {
		t.Errorf("heading after an indented code line: %+v", d.Headings)
	}
}

func TestEmptyAndOddInputs(t *testing.T) {
	for _, s := range []string{"", "\n", "   ", "```", "~~~", ":::", ":::delta", "> ```", "- ```", "\x00\xff", "#"} {
		d := Parse(s)
		for _, f := range d.Fences {
			if f.Start < 0 || f.End > len(s) || f.Start > f.End || f.ContentStart > len(s) {
				t.Errorf("%q: bad fence %+v", s, f)
			}
		}
	}
}

// TestConcurrentParse runs Parse from many goroutines (run with -race).
func TestConcurrentParse(t *testing.T) {
	src := benchBody()
	want := Parse(src)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				d := Parse(src)
				if len(d.Fences) != len(want.Fences) || len(d.Headings) != len(want.Headings) {
					t.Error("concurrent parse differs")
					return
				}
			}
		}()
	}
	wg.Wait()
}

// benchBody is a ~4 KB DELTA body shaped like the real ones.
func benchBody() string {
	var b strings.Builder
	b.WriteString("# Delta Contribution\n\nAdding hypotheses and a test after reading §42 and §57. See the *kickoff* for context; <!-- agent: BlueLake --> this round focuses on **discriminative** power.\n\n**Base Version**: v1\n\n## Deltas\n\n")
	block := "```delta\n{\n  \"operation\": \"ADD\",\n  \"section\": \"hypothesis_slate\",\n  \"target_id\": null,\n  \"payload\": {\n    \"name\": \"Epigenetic memory\",\n    \"claim\": \"Cells use chromatin state inheritance for fate determination\",\n    \"mechanism\": \"Histone modifications inherited through division encode positional memory\",\n    \"anchors\": [\"§42\", \"inference\"]\n  },\n  \"rationale\": \"Adding alternative mechanism that doesn't fit the lineage/gradient dichotomy\"\n}\n```\n\n"
	for b.Len() < 4000 {
		b.WriteString(block)
	}
	b.WriteString("## Notes\n\n- one\n- two\n")
	return b.String()
}

func BenchmarkParse(b *testing.B) {
	src := benchBody()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Parse(src)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

// compiledBody is a COMPILED message's body as agents post it: metadata
// lists, a contributors table, then the whole artifact (headings, bold
// labels, list items) — most of a thread's bytes, read by ParseOutline.
func compiledBody() string {
	var b strings.Builder
	b.WriteString("# Compiled Artifact v3\n\n## Metadata\n- **Thread ID**: RS-20260122-age-protein-aggregation-2\n- **Version**: v3\n- **Compiled At**: 2026-01-22T12:07:07Z\n\n## Contributors\n| Agent | Delta Count | Items |\n|-------|-------------|-------|\n| ScarletCliff | 8 | RT, H1, H2 |\n| SunnyPond | 4 | H4, C1 |\n\n## Full Artifact\n# Brenner Protocol Artifact: RS-20260122-age-protein-aggregation-2\n\n## 1. Research Thread\n\n**RT**: Is age-dependent aggregation of a soluble protein driven by chaperone decline, proteasome saturation, or something else?\n\n## 2. Hypothesis Slate\n\n")
	for i := 1; b.Len() < 12000; i++ {
		fmt.Fprintf(&b, "### H%d: Chaperone decline\n**Claim**: Variation in aggregate count reflects that falling chaperone capacity lets misfolded protein accumulate.\n**Mechanism**: Falling chaperone capacity lets misfolded protein accumulate, integrated over time so that brief perturbations are buffered.\n**Anchors**: §177, §183\n\n", i)
	}
	return b.String()
}

func BenchmarkParseOutline(b *testing.B) {
	src := compiledBody()
	if _, ok := fastOutline(src); !ok {
		b.Fatal("the one-pass outline declined the body")
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		ParseOutline(src)
	}
}

// TestCodeEnd: CodeEnd answers as InCode at every offset of bodies with
// fences, indented code and code spans (nested and adjacent), and every
// offset from one inside code up to the end it gives is inside code.
func TestCodeEnd(t *testing.T) {
	for _, src := range []string{
		"text `a` and ``b`` then\n\n```go\nx := `y`\n```\n\n    indented\n    more\n\n- `in list` ```\n",
		"> ```\n> quoted `fence`\n> ```\n\n`x``y` `z`\n~~~\n~~~\n",
		"no code at all\n", "",
	} {
		d := Parse(src)
		inPlain := func(off int) bool { // every range looked at
			for _, c := range d.code {
				if c.start <= off && off < c.end {
					return true
				}
			}
			return false
		}
		for off := 0; off <= len(src); off++ {
			end, in := d.CodeEnd(off)
			if in != inPlain(off) || d.InCode(off) != in {
				t.Fatalf("%q at %d: CodeEnd says %t, the ranges %t", src, off, in, inPlain(off))
			}
			if !in {
				continue
			}
			if end <= off {
				t.Fatalf("%q at %d: code ends at %d", src, off, end)
			}
			for o := off; o < end; o++ {
				if !inPlain(o) {
					t.Fatalf("%q: CodeEnd(%d) = %d, but %d is not in code", src, off, end, o)
				}
			}
		}
	}
}
