package custom

import (
	"sync/atomic"

	"cel.dev/cel-go/common/overloads"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"

	"github.com/brenner-ci/brenner-ci/compile/relit"
)

// A condition's `matches` with a constant pattern is compiled once (as
// CEL's own optimisation does) with a literal prefilter (compile/relit):
// most texts hold none of the literals every match must contain, and a
// search for a few short literals costs a fraction of Go's backtracker on a
// case-insensitive pattern with \b, which was the largest part of a
// typical rule set's cost.

// matchesFast replaces the evaluation of both forms of `matches` (the
// overload ids take precedence over CEL's optimisation, keyed by the
// function's name).
var matchesFast = []*interpreter.RegexOptimization{
	{Function: overloads.Matches, OverloadID: overloads.Matches, RegexIndex: 1, Factory: matchesCall},
	{Function: overloads.Matches, OverloadID: overloads.MatchesString, RegexIndex: 1, Factory: matchesCall},
}

// matchersMade counts the calls given a matcher (for tests: that CEL takes
// them, not its own).
var matchersMade atomic.Int64

func matchesCall(call interpreter.InterpretableCall, pattern string) (interpreter.InterpretableCall, error) {
	matchersMade.Add(1)
	m, err := relit.Compile(pattern)
	if err != nil {
		return nil, err
	}
	return interpreter.NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(), func(values ...ref.Val) ref.Val {
		if len(values) != 2 {
			return types.NoSuchOverloadErr()
		}
		in, ok := values[0].Value().(string)
		if !ok {
			return types.NoSuchOverloadErr()
		}
		return types.Bool(m.MatchString(in))
	}), nil
}
