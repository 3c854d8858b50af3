package body

import (
	"regexp"
	"strings"
	"testing"
)

// headingKeyRef is HeadingKey spelled with the standard library and the
// regular expression the rules used for a parenthesised suffix.
func headingKeyRef(s string) string {
	paren := regexp.MustCompile(`\s*\([^)]*\)\s*$`)
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	for {
		t := paren.ReplaceAllString(strings.TrimRight(s, ": "), "")
		if t == s {
			return s
		}
		s = t
	}
}

// TestHeadingKeyIsTheReference: HeadingKey folds white space, lower-cases
// and removes trailing colons and parenthesised suffixes repeatedly, for
// every short string over an alphabet of the characters that matter; a key
// is its own key (the fast path returns it unchanged).
func TestHeadingKeyIsTheReference(t *testing.T) {
	cases := []string{"", "Research Question", "Research  Question", "Research Question (Discriminative)",
		"research question:", "Research\tQuestion (optional)", "Hypotheses (ranked) (optional):", "a (b(c)", "a (b)) ",
		"é (Ü)", " (a) (b(c) ", "x\t(y)\n", "a (b) c", "Contributors", "CONTRIBUTORS", "Contributorſ", "Ǆ", "İ", "K",
		"Stra\u00dfe", "\xff", "a\xffb", "ΣΑΣ", "Full\u00a0Artifact", "a\u2003b", "(optional)", "Context::  "}
	alphabet := []string{"a", "B", " ", "(", ")", "\t", "é", ":"}
	var gen func(prefix string, k int)
	gen = func(prefix string, k int) {
		cases = append(cases, prefix)
		if k == 0 {
			return
		}
		for _, c := range alphabet {
			gen(prefix+c, k-1)
		}
	}
	gen("", 5)
	for _, c := range cases {
		got, want := HeadingKey(c), headingKeyRef(c)
		if got != want {
			t.Errorf("HeadingKey(%q) = %q, want %q", c, got, want)
		}
		if again := HeadingKey(got); again != got {
			t.Errorf("HeadingKey(%q) = %q, but HeadingKey(%q) = %q", c, got, got, again)
		}
		if slow := string(AppendHeadingKey(nil, c)); slow != got {
			t.Errorf("AppendHeadingKey(%q) = %q, HeadingKey %q", c, slow, got)
		}
	}
}

// TestFindByHeadingKey: Doc.Find compares keys, so a heading matches a name
// whatever its spacing, case, colons or parenthesised suffix.
func TestFindByHeadingKey(t *testing.T) {
	d := Parse("# T\n\n## Research  Question (Discriminative):\nq\n\n## Context (optional)\nc\n")
	if h := d.Find(2, "research question"); h == nil || d.SectionText(h) != "q" {
		t.Errorf("research question: %+v", h)
	}
	if h := d.Find(2, "Context"); h == nil || d.SectionText(h) != "c" {
		t.Errorf("context: %+v", h)
	}
	if h := d.Find(2, "research"); h != nil {
		t.Errorf("research matched %q", h.Text)
	}
}

// TestFindPrefilter: Find answers the same with and without its first-byte
// test (mayBe) for every heading text and every name over alphabets of the
// characters that matter: letters of both cases, white space, brackets,
// colons, and characters whose lower case is ASCII ('K', U+212A) or not
// ('İ', 'É').
func TestFindPrefilter(t *testing.T) {
	var gen func(alphabet []string, prefix string, k int, out *[]string)
	gen = func(alphabet []string, prefix string, k int, out *[]string) {
		*out = append(*out, prefix)
		if k == 0 {
			return
		}
		for _, c := range alphabet {
			gen(alphabet, prefix+c, k-1, out)
		}
	}
	var texts, names []string
	gen([]string{"k", "K", "\u212a", "İ", "É", "é", " ", "(", ")", ":", "\t"}, "", 4, &texts)
	gen([]string{"k", "K", "é", "(", ")", " ", ":"}, "", 3, &names)
	defer func() { findPrefilter = true }()
	checked, found := 0, 0
	for _, text := range texts {
		d := Parse("# x\n\n## " + text + "\nbody\n\n## K\n")
		for _, n := range names {
			findPrefilter = true
			with := d.Find(2, n, "x")
			findPrefilter = false
			without := d.Find(2, n, "x")
			if with != without {
				t.Fatalf("heading %q, name %q: with the prefilter %+v, without %+v", text, n, with, without)
			}
			checked++
			if with != nil {
				found++
			}
		}
	}
	if found == 0 || found == checked {
		t.Errorf("%d of %d lookups found a heading: the cases do not test both answers", found, checked)
	}
}
