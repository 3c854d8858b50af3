package body

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// leanCases are bodies where the inline constructs the lean parser leaves
// out meet the ones a Doc records.
var leanCases = []string{
	"# **Hypothesis** slate\n\n## _Context_ and [the link][ref]\n\n[ref]: https://example.com\n",
	"Title *with* ~~strike~~ and ![img](x.png)\n===\n\nbody\n",
	"multi *line\nsetext* heading\n---\n",
	"- # *nested* heading in a list\n  > ## [quoted](u) __heading__\n",
	"# * starred *\n# *a* # \n## \\*escaped\\* and `code *in* span`\n",
	"| a | `b` |\n|---|---|\n| <!-- c --> | x |\n\n# After the table\n",
	"<!-- brenner-ci-disable MB-001: reason -->\n\n## Heading [x]\n\n```delta\n{\"a\": \"*\"}\n```\n",
	"Para with <!-- inline comment --> and `span` and <http://auto.link/`x`>.\n",
	"# [unresolved] and [resolved]\n\n[resolved]: /url \"title\"\n",
	":::delta\n{}\n:::\n\n## *end*\n",
	"   ## indented *h* ##\n\n#\tTab *h*\n",
	"# `code` in a title\n\n## <http://auto.link> and <b>tag</b>\n\ntext `span` and <i>x</i>\n",
	"Setext with `code`\n---\n\n> ## quoted `x` heading\n",
	// A heading parsed again must keep a "#" that ends its content.
	"# < # #\n## `c` # #\n### <x> # #\n- #### *a* b # #\n",
}

// TestLeanParseMatchesFull: message bodies are parsed with the lean
// parser; its headings (text included), fences and comments must be the
// full parser's, for the cases above, every markdown file of testdata and,
// when present, every body and artifact of the shared corpus.
func TestLeanParseMatchesFull(t *testing.T) {
	root := testutil.ModuleRoot(t)
	inputs := append([]string(nil), leanCases...)
	dirs := []string{filepath.Join(root, "testdata")}
	if sh := filepath.Join(root, "..", "shared", "corpus"); dirExists(sh) {
		dirs = append(dirs, sh)
	} else {
		t.Log("../shared/corpus is absent: testdata and the cases only")
	}
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil || len(data) > 4<<20 {
				return nil
			}
			switch {
			case strings.HasSuffix(p, ".md"):
				inputs = append(inputs, string(data))
			case strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".jsonl"):
				inputs = append(inputs, bodiesIn(string(data))...)
			}
			return nil
		})
	}
	if len(inputs) < 100 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	for _, src := range inputs {
		if Guard(src, limits.DefaultBodyBytes) != "" {
			continue
		}
		got, want := parseWith(lean, src, 0), parseWith(md.Parser(), src, 0)
		if all := parseWith(leanInline, src, 0); !reflect.DeepEqual(got, all) {
			t.Errorf("plain paragraphs change the Doc of %.80q:\n with %+v\n without %+v", src, got, all)
		}
		if p := Parse(src); !reflect.DeepEqual(p, got) {
			t.Errorf("Parse of %.80q is not the lean parser's:\n %+v\nwant %+v", src, p, got)
		}
		if o := ParseOutline(src); !sameOutline(o, got) {
			t.Errorf("outline of %.80q:\n %+v\nwant %+v", src, o, got)
		}
		if !reflect.DeepEqual(got.Headings, want.Headings) {
			t.Errorf("headings differ for %.80q:\n lean %+v\n full %+v", src, got.Headings, want.Headings)
		}
		if !reflect.DeepEqual(got.Fences, want.Fences) {
			t.Errorf("fences differ for %.80q", src)
		}
		if !reflect.DeepEqual(got.Comments, want.Comments) {
			t.Errorf("comments differ for %.80q:\n lean %+v\n full %+v", src, got.Comments, want.Comments)
		}
	}
	t.Logf("%d bodies compared", len(inputs))
}

// leanInline is lean without plainParagraphs: every paragraph parsed.
var leanInline = newLean(false, true)

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// bodiesIn returns the body_md strings of a JSON export (a rough scan:
// enough to collect real bodies).
func bodiesIn(data string) []string {
	var out []string
	for {
		i := strings.Index(data, `"body_md": "`)
		if i < 0 {
			i = strings.Index(data, `"body_md":"`)
		}
		if i < 0 {
			return out
		}
		data = data[i:]
		start := strings.IndexByte(data, ':') + 1
		for start < len(data) && data[start] == ' ' {
			start++
		}
		end := start + 1
		for end < len(data) && data[end] != '"' {
			if data[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(data) {
			return out
		}
		var s string
		if err := json.Unmarshal([]byte(data[start:end+1]), &s); err == nil {
			out = append(out, s)
		}
		data = data[end:]
	}
}

// sameOutline: an outline Doc is a lean Doc without code spans.
func sameOutline(o, d *Doc) bool {
	return o.Src == d.Src && reflect.DeepEqual(o.Headings, d.Headings) && reflect.DeepEqual(o.Fences, d.Fences) &&
		reflect.DeepEqual(o.Comments, d.Comments)
}
