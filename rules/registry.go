package rules

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

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

// Registry is a set of rules in order: the built-in rules (Builtin), and a
// run's registry, which adds rule packs and the configuration's custom
// rules to them (With). Everything that names rules by id — the engine,
// the pipeline, the reports, `rules` and `explain` — reads one Registry, so
// a rule added to it is a rule everywhere.
type Registry struct {
	all  []*Rule
	byID map[string]*Rule
}

var builtin = build()

func build() *Registry {
	g := &Registry{byID: map[string]*Rule{}}
	for _, fam := range families {
		for i := range fam {
			r := &fam[i]
			if _, dup := g.byID[r.ID]; dup {
				panic("duplicate rule id " + r.ID)
			}
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
			g.add(r)
		}
	}
	return g
}

func (g *Registry) add(r *Rule) {
	g.byID[r.ID] = r
	g.all = append(g.all, r)
}

// Builtin is the registry of brenner-ci's own rules.
func Builtin() *Registry { return builtin }

// With returns a registry holding g's rules and then rs, in that order. An
// id that is already registered, or that rs repeats, is an error: ids
// never change meaning.
func (g *Registry) With(rs ...*Rule) (*Registry, error) {
	if len(rs) == 0 {
		return g, nil
	}
	out := &Registry{all: slices.Clip(g.all), byID: maps.Clone(g.byID)}
	for _, r := range rs {
		if prev := out.byID[r.ID]; prev != nil {
			what := "a built-in rule"
			if builtin.byID[r.ID] == nil {
				what = "another added rule (" + prev.Name + ")"
			}
			return nil, fmt.Errorf("rule id %s is already %s", r.ID, what)
		}
		out.add(r)
	}
	return out, nil
}

// All returns every rule of g in order. The slice is shared: callers must
// not modify it.
func (g *Registry) All() []*Rule { return g.all }

// Lookup returns the rule of g with id, or nil.
func (g *Registry) Lookup(id string) *Rule { return g.byID[id] }

// Known reports whether id names a rule of g (config validation).
func (g *Registry) Known(id string) bool { return g.byID[id] != nil }

// All returns every built-in rule in registry order.
func All() []*Rule { return builtin.all }

// Lookup returns the built-in rule with id, or nil.
func Lookup(id string) *Rule { return builtin.byID[id] }

// Known reports whether id names a built-in rule.
func Known(id string) bool { return builtin.byID[id] != nil }

// IDPattern matches every rule id of the registry (MB-001, EP-P01, WP-P02 …).
var IDPattern = regexp.MustCompile(`^[A-Z]{2}-(?:[A-Z])?\d{2,3}$`)

// validate is run by tests: every declaration is complete and consistent.
func validate() error {
	for _, r := range builtin.all {
		if !IDPattern.MatchString(r.ID) {
			return fmt.Errorf("%s: id does not match %s", r.ID, IDPattern)
		}
		if FamilyOf(r.Family) == nil {
			return fmt.Errorf("%s: family %s is not in the family table (family.go)", r.ID, r.Family)
		}
		if err := checkDecl(r); err != nil {
			return err
		}
	}
	return nil
}

// PackIDPattern is the id of a rule that is not brenner-ci's own (a rule
// pack's, a custom rule's): two to five capital letters, a hyphen, three
// digits, with a prefix no built-in rule has.
var PackIDPattern = regexp.MustCompile(`^[A-Z]{2,5}-[0-9]{3}$`)

// BuiltinPrefix reports whether prefix (the id's part before the hyphen)
// is one of brenner-ci's rule families'.
func BuiltinPrefix(prefix string) bool { return builtinPrefixes[prefix] }

var builtinPrefixes = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range builtin.all {
		p, _, _ := strings.Cut(r.ID, "-")
		m[p] = true
	}
	return m
}()

// Check checks a rule declared outside brenner-ci (a rule pack's): an id
// of its own (PackIDPattern, not a built-in prefix) and a complete
// declaration, as for a built-in rule.
func Check(r *Rule) error {
	p, _, _ := strings.Cut(r.ID, "-")
	switch {
	case !PackIDPattern.MatchString(r.ID):
		return fmt.Errorf("%s: id does not match %s", r.ID, PackIDPattern)
	case BuiltinPrefix(p):
		return fmt.Errorf("%s: %s is the prefix of a built-in rule family", r.ID, p)
	case r.Scope != ScopeMessage && r.Scope != ScopeThread && r.Scope != ScopeArtifact && r.Scope != ScopeBatch:
		return fmt.Errorf("%s: scope %s is not one a rule pack may use", r.ID, r.Scope)
	case r.By != ByCheck:
		return fmt.Errorf("%s: a rule pack's rule is reported by its Check", r.ID)
	}
	return checkDecl(r)
}

// checkDecl checks what every declaration needs.
func checkDecl(r *Rule) error {
	switch {
	case r.Name == "" || r.Short == "" || r.Full == "" || r.Spec == "" || r.Code == "" || r.Family == "":
		return fmt.Errorf("%s: incomplete declaration", r.ID)
	case r.Bad == "" || r.Good == "":
		return fmt.Errorf("%s: needs a bad and a fixed example (testdata/rules/%[1]s/example.bad, example.good)", r.ID)
	case (r.By == ByCheck) != (r.Check != nil):
		return fmt.Errorf("%s: reported by %s but Check is %v", r.ID, r.By, r.Check != nil)
	case r.BatchCheck != nil && (r.Scope == ScopeBatch || r.Check == nil):
		return fmt.Errorf("%s: a BatchCheck belongs to a rule of another scope with a Check of its own", r.ID)
	case r.Severity == diag.Off:
		return fmt.Errorf("%s: default severity off", r.ID)
	}
	return nil
}
