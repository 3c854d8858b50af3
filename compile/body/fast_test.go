package body

import (
	"reflect"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/limits"
)

// fastCases are bodies fastOutline answers for; each Doc must be the
// parser's (lean outline and full).
var fastCases = []string{
	"",
	"plain text\n",
	"# Title\n\n## Research Question\nWhat?\n\n## Context\ntext `code` and <b>x</b> ~~y~~\n",
	"# Critique: T2 (x)\n\n## Target\n- **Artifact Version**: v1\n- **Item**: T2\n\n## Attack\nBoth.\n",
	"## Excerpt\n> **§113**: \"Measure.\"\n> text\n>\n# After the quote\n",
	"1. one\n2) two\n   continued\n10. ten\n# Top\n",
	"- item\n# Heading after a list is top-level\n",
	"### ~~H2: Runner contention~~ (KILLED: x)\n#### H1 `code` and *em* and <i>t</i> & \\* done\n",
	"# ~~a~~\n# ~~b c~~ d\n# ~~(x)~~ y\n# ~~ e~~\n# ~~f ~~\n# ~~g~~h\n# ~~i~~~\n# ~~~j~~\n# x ~~k~~\n",
	"| Agent | Count |\n|-------|-------|\n| a | 1 |\n\n## Stats\n- a: 1\n",
	"2026-01-14 is a date, 3.5 is a number\n",
	"# Hash #2 inside\n##   spaced   \n",
	"**Label**: value\n",
	"# Delta\n\nFirst pass.\n\n```delta\n{\"operation\": \"ADD\"}\n```\n\n```delta\n{}\n```",
	"text\n```\n# not a heading\n- not an item\n```\n## After\n",
	"- item\n```json\n{}\n   ```\n> quote\n~~~~ delta  more  \n~~~\n```\n~~~~~\n",
	"````\n```\nstill code\n````\n",
	"```\n```\n",
	"```   \n\n\n```   \n",
	"``` delta\ntext with `ticks` inside\n```\n",
}

// notFastCases are bodies it leaves to goldmark.
var notFastCases = []string{
	"```delta\n{}\n", "```delta\n{}\n  ``\n", "~~~\nx\n```\n", " ```\nx\n```\n", "```a`b\nx\n```\n", "```\n\tx\n```\n",
	"```\n", "    code\n", "\tcode\n", "a\r\nb\n",
	"Title\n===\n", "Title\n---\n", "Title\n- \n", "- # nested\n", "- item\n  # nested\n",
	"> # quoted\n", "> > nested\n", "  # indented\n", "# closed #\n", "#\n", "# \n",
	"# [ref]\n\n[ref]: /u\n", "***\n", "* * *\n", "___\n", "_x_ y\n", "<div>\n", "-x\n", "+\n",
	"1.\n", "1.x\n", "-     code in an item\n", ">     code in a quote\n", ":: x\n", "a\x00b\n", "=\n",
	"####### seven\n", "***Bold italic*** text\n",
}

func TestFastOutline(t *testing.T) {
	for _, src := range fastCases {
		d, ok := fastOutline(src)
		if !ok {
			t.Errorf("fastOutline(%q) declined", src)
			continue
		}
		if w := parseWith(outline, src, 0); !sameOutline(d, w) {
			t.Errorf("fastOutline(%q):\n %+v\nwant %+v", src, d.Headings, w.Headings)
		}
		if w := parseWith(md.Parser(), src, 0); !reflect.DeepEqual(d.Headings, w.Headings) {
			t.Errorf("fastOutline(%q) headings:\n %+v\nfull %+v", src, d.Headings, w.Headings)
		}
		if len(d.Comments) != 0 {
			t.Errorf("fastOutline(%q) found comments", src)
		}
		// With code spans (Parse): the whole Doc is the lean parser's.
		if d, ok := fastDoc(src, true); ok {
			if w := parseWith(lean, src, 0); !reflect.DeepEqual(d, w) {
				t.Errorf("fastDoc(%q):\n %+v\nwant %+v", src, d, w)
			}
		} else if !strings.Contains(src, "`code`") { // a code span is goldmark's to find
			t.Errorf("fastDoc(%q) declined", src)
		}
	}
	for _, src := range notFastCases {
		if _, ok := fastOutline(src); ok {
			t.Errorf("fastOutline(%q) answered; it should leave it to goldmark", src)
		}
		if _, ok := fastDoc(src, true); ok {
			t.Errorf("fastDoc(%q) answered; it should leave it to goldmark", src)
		}
		if o, w := ParseOutline(src), parseWith(lean, src, 0); !sameOutline(o, w) {
			t.Errorf("ParseOutline(%q):\n %+v\nwant %+v", src, o, w)
		}
		if p, w := Parse(src), parseWith(lean, src, 0); !reflect.DeepEqual(p, w) {
			t.Errorf("Parse(%q):\n %+v\nwant %+v", src, p, w)
		}
	}
}

// plainLineEnd is scanLineEnd as a byte loop.
func plainLineEnd(s string, p int) (end int, ctl, tick bool) {
	for i := p; i < len(s); i++ {
		switch x := s[i]; {
		case x == '\n':
			return i, false, tick
		case x < ' ' || x == 0x7f:
			return i, true, tick
		case x == '`':
			tick = true
		}
	}
	return len(s), false, tick
}

// TestScanLineEnd compares the word-at-a-time pass with the byte loop for every
// byte value at every place of a 17-byte line, with and without a backtick
// elsewhere, a line break after it and a line before it.
func TestScanLineEnd(t *testing.T) {
	for c := 0; c < 256; c++ {
		for at := 0; at < 17; at++ {
			for _, base := range []string{"abcdefghijklmnopq", "abcdefghijklmnop`", "a`cdefghijklmnopq\nrest`", "`"} {
				for _, before := range []string{"", "x\n", "before\n"} {
					b := []byte(base)
					if at < len(b) {
						b[at] = byte(c)
					}
					s := before + string(b)
					e, ctl, tick := scanLineEnd(s, len(before))
					we, wctl, wtick := plainLineEnd(s, len(before))
					if e != we || ctl != wctl || tick != wtick {
						t.Fatalf("scanLineEnd(%q, %d) = %d, %t, %t; want %d, %t, %t", s, len(before), e, ctl, tick, we, wctl, wtick)
					}
				}
			}
		}
	}
}

// FuzzScanLineEnd holds scanLineEnd to the byte loop at every line start,
// and lineEnds, vectorised and not, to scanLineEnd (checkLineEnds).
func FuzzScanLineEnd(f *testing.F) {
	f.Add("# H\n\ntext `x` more\n```go\ncode\n```\n")
	f.Add("a\rb\n\x7f\t`\n")
	f.Add(strings.Repeat("line `with` ticks\n", 9) + "\x01")
	f.Fuzz(func(t *testing.T, s string) {
		checkLineEnds(t, s)
		for p := 0; p <= len(s); p++ {
			e, ctl, tick := scanLineEnd(s, p)
			we, wctl, wtick := plainLineEnd(s, p)
			if e != we || ctl != wctl || tick != wtick {
				t.Fatalf("scanLineEnd(%q, %d) = %d, %t, %t; want %d, %t, %t", s, p, e, ctl, tick, we, wctl, wtick)
			}
		}
	})
}

// outlineLines are the kinds of line FuzzOutlineLines builds bodies from:
// the lines fastOutline answers for, next to the ones that change the block
// structure around them.
var outlineLines = []string{
	"", "text", "  text", "# Heading", "## Two", "### ~~H2: killed~~ (KILLED)", "# ~~(x)~~ y",
	"# *em* and `code` <b>", "# < # #", "# closed #", "- item", "- **Label**: v", "* star",
	"+ plus", "1. one", "2) two", "> quote", ">", "**Bold**: x", "| a | b |", "|---|---|",
	"[r]: /url", "# [r]", "    code", "\tcode", "```", "```delta", "~~~", "---", "===", "***",
	"- # nested", "  # indented", "> # quoted", "-", "1.", "<div>", "<!-- c -->", ":::delta",
	"2026-01-14 date", "#hashtag", "####### seven", "- ", "> > deep", "# a\r", "é unicode",
	"````", "   ```", "    ```", " ~~~", "```x`", "~~~~ delta x", "```  json  ", "`span` text", "text `span`",
	"``", "~~strike~~", "{\"operation\": \"ADD\"}", "```\t", "\t```", "- ```", "> ```", "## `c`",
}

// FuzzOutlineLines builds bodies line by line from outlineLines (each input
// byte picks a line) and holds every Doc fastOutline gives to the lean,
// outline and full parsers' — a byte-level fuzzer seldom builds the block
// structures where an outline could go wrong.
func FuzzOutlineLines(f *testing.F) {
	for _, s := range []string{"\x03\x05\x0a\x00\x04", "\x0a\x03\x1f", "\x11\x03\x00\x12\x04", "\x0d\x05\x13"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, picks []byte) {
		var b strings.Builder
		for _, p := range picks {
			b.WriteString(outlineLines[int(p)%len(outlineLines)])
			b.WriteByte('\n')
		}
		src := b.String()
		if Guard(src, limits.DefaultBodyBytes) != "" {
			return
		}
		if d, ok := fastDoc(src, true); ok {
			if w := parseWith(lean, src, 0); !reflect.DeepEqual(d, w) {
				t.Fatalf("fastDoc(%q):\n %+v\nlean %+v", src, d, w)
			}
		}
		d, ok := fastOutline(src)
		if !ok {
			return
		}
		if w := parseWith(outline, src, 0); !sameOutline(d, w) {
			t.Fatalf("fastOutline(%q):\n %+v\noutline %+v", src, d, w)
		}
		if w := parseWith(md.Parser(), src, 0); !reflect.DeepEqual(d.Headings, w.Headings) {
			t.Fatalf("fastOutline(%q):\n %+v\nfull %+v", src, d.Headings, w.Headings)
		}
	})
}
