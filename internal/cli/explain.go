package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/run"
	"github.com/brenner-ci/brenner-ci/rules"
)

// explainCmd prints one rule's documentation, as docs/rules.md has it.
type explainCmd struct {
	Rule   string `arg:"" name:"rule" help:"A rule id (MB-006) or name (critique-missing-target); a custom rule's too."`
	Config string `help:"Configuration file whose custom rules can be explained too (default: the .brenner-ci.yaml found from the current folder up to the repository root)." type:"path" placeholder:"FILE"`
}

func (c *explainCmd) Run(e *run.Env) error {
	reg, _, err := run.Rules(run.RulesOptions{Config: c.Config}, e)
	if err != nil {
		return err
	}
	m := findRule(reg, c.Rule)
	if m == nil {
		var names []string
		for _, r := range reg.All() {
			names = append(names, r.ID, r.Name)
		}
		hint := ""
		if s := diag.Closest(strings.ToUpper(c.Rule), names, 2); s != "" {
			hint = fmt.Sprintf("; did you mean %s?", s)
		} else if s := diag.Closest(strings.ToLower(c.Rule), names, 3); s != "" {
			hint = fmt.Sprintf("; did you mean %s?", s)
		}
		return usagef("no rule %q%s (brenner-ci rules lists them all)", c.Rule, hint)
	}
	_, err = io.WriteString(e.Stdout, ruleDoc(m, "# "))
	return err
}

// findRule finds a rule by id (any case) or by name.
func findRule(reg *rules.Registry, s string) *rules.Rule {
	if m := reg.Lookup(strings.ToUpper(strings.TrimSpace(s))); m != nil {
		return m
	}
	for _, m := range reg.All() {
		if m.Name == strings.ToLower(strings.TrimSpace(s)) {
			return m
		}
	}
	return nil
}

// ruleDoc is a rule's documentation in markdown, its title a heading of
// the given level ("### " in docs/rules.md, "# " alone).
func ruleDoc(m *rules.Rule, heading string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s\n\n`%s` · default severity **%s** · scope: %s · reported by: %s · spec: %s\n\n%s\n\n%s\n", heading, m.ID, m.Name, m.Severity, m.Scope, m.By, m.Spec, m.Short, m.Full)
	if m.Bad != "" {
		fmt.Fprintf(&b, "\nBad:\n\n%s\n\nFixed:\n\n%s\n", rules.Fence(m.Bad), rules.Fence(m.Good))
	}
	return b.String()
}
