package rules

import (
	"fmt"
	"regexp"

	brennerci "github.com/brenner-ci/brenner-ci"
	"github.com/brenner-ci/brenner-ci/diag"
)

// families lists every rule family's declarations in registry order: the
// protocol rules of the five specs, then the artifact linter's. Adding a rule
// is one declaration in its family's file and its two examples in
// testdata/rules/<ID>/; adding a family is one line here.
var families = [][]Rule{
	mbRules, mbTableRules, apRules, apTableRules, thRules, dlRules, mgRules, rfRules, inRules, spRules,
	metadataRules, structureRules, rtRules, hypothesisRules, predictionRules, testRules,
	assumptionRules, anomalyRules, critiqueRules, provenanceRules, evidenceRules, drRules, scRules,
}

var registry, byID = build()

func build() ([]*Rule, map[string]*Rule) {
	var all []*Rule
	m := map[string]*Rule{}
	for _, fam := range families {
		for i := range fam {
			r := &fam[i]
			if _, dup := m[r.ID]; dup {
				panic("duplicate rule id " + r.ID)
			}
			m[r.ID] = r
			all = append(all, r)
			// The examples live in testdata/rules/<ID>/example.{bad,good}.
			// A declaration that still spells them out (drift.go's, until
			// that file is free to edit) keeps its own: TestExampleFiles
			// holds them equal.
			bad, good := brennerci.RuleExamples(r.ID)
			if r.Bad == "" {
				r.Bad = bad
			}
			if r.Good == "" {
				r.Good = good
			}
		}
	}
	return all, m
}

// All returns every rule in registry order.
func All() []*Rule { return registry }

// Lookup returns the rule with id, or nil.
func Lookup(id string) *Rule { return byID[id] }

// Known reports whether id names a registered rule (config validation).
func Known(id string) bool { return byID[id] != nil }

// IDPattern matches every rule id of the registry (MB-001, EP-P01, WP-P02 …).
var IDPattern = regexp.MustCompile(`^[A-Z]{2}-(?:[A-Z])?\d{2,3}$`)

// validate is run by tests: every declaration is complete and consistent.
func validate() error {
	for _, r := range registry {
		switch {
		case !IDPattern.MatchString(r.ID):
			return fmt.Errorf("%s: id does not match %s", r.ID, IDPattern)
		case r.Name == "" || r.Short == "" || r.Full == "" || r.Spec == "" || r.Code == "" || r.Family == "":
			return fmt.Errorf("%s: incomplete declaration", r.ID)
		case FamilyOf(r.Family) == nil:
			return fmt.Errorf("%s: family %s is not in the family table (family.go)", r.ID, r.Family)
		case r.Bad == "" || r.Good == "":
			return fmt.Errorf("%s: needs a bad and a fixed example (testdata/rules/%[1]s/example.bad, example.good)", r.ID)
		case (r.By == ByCheck) != (r.Check != nil):
			return fmt.Errorf("%s: reported by %s but Check is %v", r.ID, r.By, r.Check != nil)
		case r.BatchCheck != nil && (r.Scope == ScopeBatch || r.Check == nil):
			return fmt.Errorf("%s: a BatchCheck belongs to a rule of another scope with a Check of its own", r.ID)
		case r.Severity == diag.Off:
			return fmt.Errorf("%s: default severity off", r.ID)
		}
	}
	return nil
}
