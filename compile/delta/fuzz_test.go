package delta

import (
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/diag"
)

// FuzzAnalyze checks that any body parses and analyzes without panicking and
// that every region and fix lies inside the body.
func FuzzAnalyze(f *testing.F) {
	f.Add("# Delta Contribution\n\n{\"operation\": \"ADD\", \"section\": \"hypothesis_slate\"}\n")
	f.Add("```delta\n{\"operation\": \"update\", \"section\": \"hypotheses\", \"target_id\": null, \"payload\": []}\n```\n")
	f.Add("> ```delta\n> {\"operation\": \"ADD\",\n>\t\"section\": 'x',}\n> ```\n")
	f.Add("- ```delta\n  {\"operation\": \"KILL\"}\n```\n:::delta\n{}\n")
	f.Add("<!-- a --> `\"operation\"` {\"operation\": \"x\", \"section\": 1 ~~~delta\n{")
	f.Fuzz(func(t *testing.T, src string) {
		doc := body.Parse(src)
		blocks, probs := Analyze(doc, limits.Parse{})
		check := func(p diag.Local) {
			if p.Start < 0 || p.End < p.Start || p.End > len(src) {
				t.Fatalf("%s region [%d,%d) outside a %d-byte body", p.Rule, p.Start, p.End, len(src))
			}
			if p.Fix != nil && (p.Fix.Start < 0 || p.Fix.End < p.Fix.Start || p.Fix.End > len(src)) {
				t.Fatalf("%s fix [%d,%d) outside the body", p.Rule, p.Fix.Start, p.Fix.End)
			}
			if p.Rule == "" || p.Message == "" || p.Hint == "" {
				t.Fatalf("incomplete problem %+v", p)
			}
		}
		for _, p := range probs {
			check(p)
		}
		for _, b := range blocks {
			if strings.TrimSpace(b.Raw) == "" {
				t.Fatal("empty block extracted")
			}
			for _, p := range b.Problems {
				check(p)
			}
		}
		for _, fe := range doc.Fences {
			if fe.Start < 0 || fe.Start > fe.End || fe.End > len(src) || fe.ContentStart > len(src) || fe.InfoStart > fe.InfoEnd || fe.InfoEnd > len(src) {
				t.Fatalf("bad fence %+v", fe)
			}
		}
		for _, h := range doc.Headings {
			if h.Start < 0 || h.Start > h.End || h.End > h.SectionEnd || h.SectionEnd > len(src) {
				t.Fatalf("bad heading %+v", h)
			}
		}
	})
}
