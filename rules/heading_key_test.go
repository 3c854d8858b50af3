package rules

import "testing"

// TestResearchQuestionHeadingAgrees: the rule that wants a research question
// in a KICKOFF (MB-002) and the compiler that seeds the research thread from
// it find the "## Research Question" section by the same heading key
// (body.HeadingKey). Before, MB-002 did not fold white space and the
// compiler did not strip a parenthesised suffix, so each said the other was
// wrong on one of these headings.
func TestResearchQuestionHeadingAgrees(t *testing.T) {
	const subj = "KICKOFF: Quorum switch timing"
	for _, heading := range []string{
		"## Research  Question",                 // two spaces: MB-002 fired, the compiler seeded
		"## Research Question (Discriminative)", // suffix: MB-002 silent, the compiler did not seed
		"## research question:",
		"## Research\tQuestion (optional)",
	} {
		t.Run(heading, func(t *testing.T) {
			body := heading + "\nWhat sets the switch density?\n\n## Context\nThe switch point varies.\n"
			if n := runMessageRule(t, "MB-002", subj, body); n != 0 {
				t.Errorf("MB-002 on a KICKOFF with %q: %d findings", heading, n)
			}
			th := oneMessageThread(t, subj, body)
			if th.Current.RT == nil {
				t.Fatalf("the compiler did not seed the research thread from %q", heading)
			}
			if got := th.Current.RT.Str("statement"); got != "What sets the switch density?" {
				t.Errorf("statement %q", got)
			}
		})
	}
}

// TestSectionPrefersTopLevel: a rule finds the heading the compiler reads.
// With an empty "## Research Question" quoted from an earlier message
// before the KICKOFF's own, the compiler seeds the research thread from the
// top-level one, so MB-002 must not say the question is missing.
func TestSectionPrefersTopLevel(t *testing.T) {
	const subj = "KICKOFF: Quorum switch timing"
	body := "> ## Research Question\n\n## Research Question\nWhat sets the switch density?\n\n## Context\nThe switch point varies.\n"
	if n := runMessageRule(t, "MB-002", subj, body); n != 0 {
		t.Errorf("MB-002 fired on the quoted empty heading: %d findings", n)
	}
	th := oneMessageThread(t, subj, body)
	if th.Current.RT == nil || th.Current.RT.Str("statement") != "What sets the switch density?" {
		t.Fatalf("the compiler did not seed the research thread from the top-level heading")
	}
}
