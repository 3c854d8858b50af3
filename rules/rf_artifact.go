package rules

// The RF- rules on persisted artifacts (markdown, and JSON artifact
// objects): an item's "references" are checked as a delta payload's are.
// RF-003 is checked on each file (artifactReferenceFindings); the
// cross-session rules read the artifact's facts with the threads' in the
// batch (artifactFacts, rf.go).

import (
	"fmt"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
)

const (
	hintArtifactRefs = "Write each reference as session/item (relation), separated by commas, with relation one of " +
		"extends, refines, refutes, informed_by, supersedes, replicates (delta_output_format_v0.1.md, Reference Format and Reference Relation Types)."
	hintArtifactRefsJSON = `Make "references" an array of objects such as {"session": "RS-…", "item": "H2", "relation": "extends"}, with relation one of ` +
		"extends, refines, refutes, informed_by, supersedes, replicates (delta_output_format_v0.1.md, Reference Format and Reference Relation Types)."
)

// refProblem is one malformed part of a references value: the part and
// what is wrong with it. The message's subject ("payload.references" for a
// delta) is left to the caller.
type refProblem struct {
	at   *jsonv.Value
	what string // the message after the subject, e.g. "[0] has no session."
}

// referenceProblems checks a references value as delta validation checks
// payload.references (compile/delta): an array of {session, item,
// relation} objects with a relation of the spec's list. A missing or null
// value is fine.
func referenceProblems(rv *jsonv.Value) []refProblem {
	if rv.IsNull() {
		return nil
	}
	relations := strings.Join(delta.Relations, ", ")
	if rv.Kind != jsonv.Array {
		return []refProblem{{rv, fmt.Sprintf(" is %s, not an array of {session, item, relation} objects; it is ignored.", rv.Kind.Phrase())}}
	}
	var out []refProblem
	for i, e := range rv.Arr() {
		if e.Kind != jsonv.Object {
			out = append(out, refProblem{e, fmt.Sprintf("[%d] is %s, not a {session, item, relation} object.", i, e.Kind.Phrase())})
			continue
		}
		var miss []string
		for _, k := range []string{"session", "item"} {
			if s, ok := e.Get(k).AsString(); !ok || strings.TrimSpace(s) == "" {
				miss = append(miss, k)
			}
		}
		if len(miss) > 0 {
			out = append(out, refProblem{e, fmt.Sprintf("[%d] has no %s.", i, strings.Join(miss, " or "))})
		}
		switch r := e.Get("relation"); {
		case r.IsNull():
			out = append(out, refProblem{e, fmt.Sprintf("[%d] has no relation; it must be one of %s.", i, relations)})
		case r.Kind != jsonv.String:
			out = append(out, refProblem{r, fmt.Sprintf("[%d].relation is %s, not one of %s.", i, r.Kind.Phrase(), relations)})
		case !isRelation(r.Str):
			what := fmt.Sprintf("[%d] has relation %q, which is not one of %s.", i, r.Str, relations)
			if s := closeRelation(r.Str); s != "" {
				what = fmt.Sprintf("[%d] has relation %q, which is not one of %s; did you mean %q?", i, r.Str, relations, s)
			}
			out = append(out, refProblem{r, what})
		}
	}
	return out
}

func isRelation(s string) bool {
	for _, r := range delta.Relations {
		if r == s {
			return true
		}
	}
	return false
}

// closeRelation is the relation s was probably meant to be: equal but for
// case, "_", "-" and spaces, a plural, or one edit away; "" when none is.
// It suggests what delta validation suggests for the same text.
func closeRelation(s string) string {
	squash := func(s string) string {
		var b strings.Builder
		for _, r := range strings.ToLower(s) {
			if r != '_' && r != '-' && r != ' ' {
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	n := squash(s)
	for _, r := range delta.Relations {
		m := squash(r)
		if n == m || n+"s" == m || editDistance(n, m) <= 1 {
			return r
		}
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, byte by byte.
func editDistance(a, b string) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev
			if a[i-1] != b[j-1] {
				sub++
			}
			prev = row[j]
			row[j] = min(row[j]+1, row[j-1]+1, sub)
		}
	}
	return row[len(b)]
}

// itemRefSubject names an item's references in a message: "H1.references",
// or, for an item without an id, its place in its section.
func itemRefSubject(s *artifact.ItemSource, nth int) string {
	if s.ID != "" {
		return s.ID + ".references"
	}
	return fmt.Sprintf("%s[%d].references", s.Section, nth)
}

// artifactReferenceFindings is RF-003 on a persisted artifact: every
// item's references, checked as a delta payload's, at the item's
// References line (markdown) or at the value (JSON). session is the
// artifact's session (the findings' thread). copyOf, when set, is the
// compiled artifact of the thread the file persists: an item whose
// references read the same there was reported at the delta that wrote
// them, and is not reported again.
func artifactReferenceFindings(p *artifact.Parsed, session string, copyOf *artifact.Artifact) []diag.Finding {
	rule := Lookup("RF-003")
	if rule == nil || p == nil {
		return nil
	}
	hint := hintArtifactRefs
	if p.FromJSON {
		hint = hintArtifactRefsJSON
	}
	var out []diag.Finding
	var thread *artifact.Artifact // copyOf as its rendering reads back, built when first needed
	nth := map[string]int{}
	for _, s := range p.Sources() {
		k := nth[s.Section]
		nth[s.Section]++
		rv, pos := s.Field("references")
		problems := referenceProblems(rv)
		if len(problems) == 0 {
			continue
		}
		if copyOf != nil && s.ID != "" && !p.FromJSON {
			if thread == nil {
				thread = artifact.ReadBack(copyOf)
			}
			if tv := thread.Find(s.Section, s.ID).Get("references"); tv != nil && tv.Text() == rv.Text() {
				continue
			}
		}
		subject := itemRefSubject(&s, k)
		for _, pr := range problems {
			out = append(out, diag.Finding{Rule: rule.ID, Code: rule.Code, Severity: rule.Severity,
				Message: subject + pr.what, Hint: hint, Pos: s.At(pr.at, pos).Normalize(), Thread: session,
				Anchor: fmt.Sprintf("artifact %s %s%s", p.File, subject, pr.what)})
		}
	}
	return out
}

// artifactFacts are the facts of a persisted artifact of session, for the
// cross-session rules and the genealogy graph: its items as the model
// reads them, and the well-formed references of every item with an id,
// positioned in the file.
func artifactFacts(p *artifact.Parsed, session string) *Facts {
	f := &Facts{Key: strings.Clone(session), ThreadID: strings.Clone(session), Artifact: p.File}
	sc := itemScratchPool.Get().(*itemScratch)
	defer sc.release()
	items, claims := itemFacts(p.Art, sc, nil)
	sources := p.Sources()
	for i := range sources {
		s := &sources[i]
		rv, pos := s.Field("references")
		if s.ID == "" || rv == nil || rv.Kind != jsonv.Array {
			continue
		}
		for _, r := range rv.Arr() {
			sess, item, rel := refFields(r)
			if sess == "" || item == "" {
				continue // RF-003 reports malformed entries
			}
			f.Refs = append(f.Refs, RefFact{From: strings.Clone(s.ID), Session: strings.Clone(sess), Item: strings.Clone(item),
				Relation: strings.Clone(rel), Pos: s.At(r, pos).Normalize()})
		}
	}
	// Where a claim is written: for RF-006, as for threads.
	if len(f.Refs) > 0 {
		for i, it := range items {
			h := it.Hyp
			if h == nil || it.Killed || claims[i] == "" {
				continue
			}
			for j := range sources {
				if s := &sources[j]; s.Section == delta.HypothesisSlate && s.ID == it.ID {
					if v, pos := s.Field("claim"); v != nil {
						h.Claim = &ClaimAt{Pos: s.At(v, pos).Normalize()}
					} else {
						h.Claim = &ClaimAt{Pos: s.Pos.Normalize()}
					}
					break
				}
			}
		}
	}
	f.Items = PackItems(items)
	return f
}
