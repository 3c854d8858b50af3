// Package rulepack builds brenner-ci with rules of your own written in Go:
// a rule pack. A pack is a list of rules.Rule declarations — the same
// declaration as a built-in rule: id, name, scope, severity, docs,
// examples and a Check over the compiled model — and a program whose main
// calls Main with it. Everything else (commands, configuration, reports,
// caches, shards) is brenner-ci's: a pack's rules are rules everywhere.
// examples/rulepack is a complete pack.
//
// Stable: this package, the rules.Rule fields, rules.Ctx's model fields
// (T, M, P, Thread) and its Report, Memo and Spend methods, rules.Scope and
// diag.Pos/diag.Severity. Everything else may change between releases.
//
// A Check may keep what it reads only as strings, numbers or copies: the
// compiled model it is given (Ctx.T, Ctx.M) is valid during the call only
// (see rules.Ctx).
package rulepack

import (
	"fmt"
	"os"

	"github.com/brenner-ci/brenner-ci/internal/cli"
	"github.com/brenner-ci/brenner-ci/rules"
)

// Registry is the built-in rules with the rules of packs added, in order.
// An id already taken (a built-in rule's, or twice in the packs) is an
// error.
func Registry(packs ...[]*rules.Rule) (*rules.Registry, error) {
	reg := rules.Builtin()
	for _, p := range packs {
		for _, r := range p {
			if err := rules.Check(r); err != nil {
				return nil, err
			}
		}
		var err error
		if reg, err = reg.With(p...); err != nil {
			return nil, err
		}
	}
	return reg, nil
}

// Main runs brenner-ci with the command line of the process and the rules
// of packs added, and exits with its exit code.
func Main(packs ...[]*rules.Rule) {
	reg, err := Registry(packs...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "brenner-ci: rule pack: %v\n", err)
		os.Exit(cli.ExitInternal)
	}
	os.Exit(cli.RunRules(reg, os.Args[1:], os.Stdout, os.Stderr))
}
