package body

import (
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/compile/limits"
)

// FuzzParse: the guard never panics, and every body it lets through parses
// without panicking into regions that lie inside the body.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"# T\n\n## Context\ntext\n", "## A\n- **L**: v\n> q\n1. x\n### ~~H2: y~~ (KILLED)\n", "# ~~a (b)~~ c\n", "- a\n  # b\n# c `d` <e>\n", "# *a* [b][c]\n\n[c]: /u\n", "x *y\nz*\n---\n", "```delta\n{}\n```\n", "> > - 1. x\n", "[a](", "<!-- brenner-ci-disable MB-001: x -->\n", ":::delta\n{}\n:::\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if Guard(src, limits.DefaultBodyBytes) != "" {
			return
		}
		d := Parse(src)
		for _, h := range d.Headings {
			if h.Start < 0 || h.End > len(src) || h.Start > h.End {
				t.Fatalf("heading [%d,%d) outside the body of %d bytes", h.Start, h.End, len(src))
			}
		}
		for _, c := range d.Comments {
			if c.Start < 0 || c.End > len(src) || c.Start > c.End {
				t.Fatalf("comment [%d,%d) outside the body", c.Start, c.End)
			}
		}
		for _, fe := range d.Fences {
			if fe.Start < 0 || fe.End > len(src) || fe.Start > fe.End {
				t.Fatalf("fence [%d,%d) outside the body", fe.Start, fe.End)
			}
		}
		// The lean parser finds what the full one finds (lean_test.go).
		full := parseWith(md.Parser(), src, 0)
		if !reflect.DeepEqual(d.Headings, full.Headings) || !reflect.DeepEqual(d.Fences, full.Fences) || !reflect.DeepEqual(d.Comments, full.Comments) {
			t.Fatalf("lean and full parses differ:\n lean %+v %+v %+v\n full %+v %+v %+v", d.Headings, d.Fences, d.Comments, full.Headings, full.Fences, full.Comments)
		}
		if o := ParseOutline(src); !sameOutline(o, d) {
			t.Fatalf("outline differs:\n %+v\nwant %+v", o, d)
		}
		// Where Parse reads a body in one pass, its Doc is the lean parser's.
		if l := parseWith(lean, src, 0); !reflect.DeepEqual(d, l) {
			t.Fatalf("Parse and the lean parser differ:\n %+v\nlean %+v", d, l)
		}
		// Leaving plain paragraphs unparsed changes nothing a Doc records.
		if all := parseWith(leanInline, src, 0); !reflect.DeepEqual(d, all) {
			t.Fatalf("plain paragraphs change the Doc:\n with %+v\n without %+v", d, all)
		}
		_ = utf8.ValidString(src)
	})
}
