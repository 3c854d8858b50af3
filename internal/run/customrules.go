package run

import (
	"cmp"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/rules"
	"github.com/brenner-ci/brenner-ci/rules/custom"
)

// registry is the registry of a run under cfg: base (the built-in rules
// and any rule packs; nil: the built-in rules) and cfg's custom rules,
// compiled (rules/custom). A definition that does not compile is a
// configuration error at its line and column.
func registry(base *rules.Registry, cfg *config.Config) (*rules.Registry, error) {
	if base == nil {
		base = rules.Builtin()
	}
	if cfg == nil || len(cfg.CustomRules) == 0 {
		return base, nil
	}
	defs := make([]custom.Def, len(cfg.CustomRules))
	for i := range cfg.CustomRules {
		defs[i] = customDef(&cfg.CustomRules[i])
	}
	lim := custom.Limits{Eval: uint64(cfg.Limits.CustomCost), Run: uint64(cfg.Limits.CustomBudget), Bytes: uint64(cfg.Limits.BodyBytes)}
	rs, errs := custom.Compile(defs, base, lim)
	if len(errs) > 0 {
		ce := make([]*config.Error, len(errs))
		for i, e := range errs {
			ce[i] = &config.Error{File: cmp.Or(e.Pos.File, cfg.Path), Line: e.Pos.Line, Col: e.Pos.Col, Msg: e.Msg}
		}
		return nil, config.ErrorOf(ce)
	}
	return base.With(rs...)
}

// customDef is a custom rule's definition as rules/custom reads it.
func customDef(r *config.CustomRule) custom.Def {
	return custom.Def{ID: r.ID, Name: r.Name, Scope: r.Scope, Severity: r.Severity, When: r.When, Message: r.Message,
		Short: r.Short, Full: r.Full, Bad: r.Examples.Bad, Good: r.Examples.Good,
		At: func(key string, line, col int) diag.Pos {
			p, ok := r.At[key]
			if !ok {
				p = r.At[""]
			}
			return p.At(line, col)
		}}
}
