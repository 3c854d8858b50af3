package rulepack

import (
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules"
)

func packRule(id string) *rules.Rule {
	return &rules.Rule{ID: id, Name: "pack-rule", Code: id, Family: strings.SplitN(id, "-", 2)[0], Scope: rules.ScopeThread,
		Severity: diag.Warning, Spec: "ours", Short: "s", Full: "f", Bad: "b", Good: "g", Check: func(*rules.Ctx) {}}
}

// TestRegistry: a pack's rules join the built-in ones in order; an id that
// is taken, has a built-in prefix or another form, or an incomplete
// declaration is refused with the reason.
func TestRegistry(t *testing.T) {
	reg, err := Registry([]*rules.Rule{packRule("PACK-001")}, []*rules.Rule{packRule("OURS-002")})
	if err != nil {
		t.Fatal(err)
	}
	all := reg.All()
	if n := len(rules.All()); len(all) != n+2 || all[n].ID != "PACK-001" || all[n+1].ID != "OURS-002" || rules.Builtin().Known("PACK-001") {
		t.Fatalf("the pack's rules are not added after the built-in ones, or changed the built-in registry")
	}
	incomplete := packRule("PACK-003")
	incomplete.Bad = ""
	noCheck := packRule("PACK-004")
	noCheck.Check = nil
	for _, tc := range []struct {
		packs [][]*rules.Rule
		want  string
	}{
		{[][]*rules.Rule{{packRule("PACK-001")}, {packRule("PACK-001")}}, "already another added rule"},
		{[][]*rules.Rule{{packRule("MB-901")}}, "MB is the prefix of a built-in rule family"},
		{[][]*rules.Rule{{packRule("pack-1")}}, "id does not match"},
		{[][]*rules.Rule{{incomplete}}, "needs a bad and a fixed example"},
		{[][]*rules.Rule{{noCheck}}, "Check is false"},
	} {
		if _, err := Registry(tc.packs...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("want an error with %q, got %v", tc.want, err)
		}
	}
}
