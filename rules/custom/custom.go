// Package custom compiles a team's own rules, declared in .brenner-ci.yaml
// under custom-rules:, into rules of the registry. A rule's condition
// (when) and the {{ … }} parts of its message are CEL expressions
// (cel.dev/cel-go: typed, side-effect free, cost-bounded) over a typed view
// of the compiled model (model.go). Every expression is compiled when the
// configuration is read, so a syntax or type error is a configuration
// error at its line and column; evaluation is bounded by a cost limit per
// evaluation and a budget per run (rules.Budget).
package custom

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	"cel.dev/cel-go/ext"
	"cel.dev/cel-go/interpreter"

	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules"
)

// Def is a custom rule as the configuration declares it.
type Def struct {
	ID, Name, Scope, Severity string
	When, Message             string
	Short, Full               string
	Bad, Good                 string
	// At maps a place in one of the definition's values (key: "when",
	// "message", "id" …; line and column 1-based within the value's text;
	// "" and 1, 1 for the entry) to the configuration file.
	At func(key string, line, col int) diag.Pos
}

// Limits bound evaluation: Eval is the cost one evaluation may reach, Run
// what one rule may spend in a run (CEL's cost units: roughly one per
// operation, field access and list element visited). Zero is the default
// (compile/limits).
type Limits struct {
	Eval, Run uint64
	// Bytes is the largest body parsed (limits: body-bytes), which bounds
	// every string and list of the model for CEL's static estimate.
	Bytes uint64
}

// Error is an error in a definition, at its place in the configuration.
type Error struct {
	Pos diag.Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.Where() + ": " + e.Msg }

// Compile compiles defs into rules (in the order given), against reg, the
// registry they join (their ids and prefixes must not be its built-in
// ones). It returns every error found.
func Compile(defs []Def, reg *rules.Registry, lim Limits) ([]*rules.Rule, []*Error) {
	if lim.Eval == 0 {
		lim.Eval = limits.DefaultCustomCost
	}
	if lim.Run == 0 {
		lim.Run = limits.DefaultCustomBudget
	}
	if lim.Bytes == 0 {
		lim.Bytes = limits.DefaultBodyBytes
	}
	var out []*rules.Rule
	var errs []*Error
	for i := range defs {
		d := &defs[i]
		at := func(key string, line, col int) diag.Pos {
			if d.At == nil {
				return diag.Pos{}
			}
			return d.At(key, line, col)
		}
		if !rules.PackIDPattern.MatchString(d.ID) {
			errs = append(errs, &Error{at("id", 1, 1), fmt.Sprintf("custom rule id %q must be two to five capital letters, a hyphen and three digits (LAB-001)", d.ID)})
			continue
		}
		if p, _, _ := strings.Cut(d.ID, "-"); rules.BuiltinPrefix(p) {
			errs = append(errs, &Error{at("id", 1, 1), fmt.Sprintf("custom rule %s: %s is the prefix of a built-in rule family; choose one of your own (LAB-001)", d.ID, p)})
			continue
		}
		if reg.Known(d.ID) {
			errs = append(errs, &Error{at("id", 1, 1), fmt.Sprintf("custom rule %s: the id is already a registered rule's", d.ID)})
			continue
		}
		r, es := compileOne(d, at, lim)
		errs = append(errs, es...)
		if r != nil {
			out = append(out, r)
		}
	}
	return out, errs
}

// rule is one compiled custom rule.
type rule struct {
	def   *Def
	needs needs // what the rule reads of the model that is built on demand
	scope string
	when  *compiled
	guard guard  // tests the condition needs before all else (guard.go)
	parts []part // the message: text and expressions in turn
	lim   Limits
}

// part is a piece of the message: literal text, or an expression.
type part struct {
	text string
	expr *compiled
}

var sevOf = map[string]diag.Severity{"error": diag.Error, "warning": diag.Warning, "note": diag.Note}

func compileOne(d *Def, at func(string, int, int) diag.Pos, lim Limits) (*rules.Rule, []*Error) {
	env, err := envFor(d.Scope)
	if err != nil {
		return nil, []*Error{{at("scope", 1, 1), err.Error()}}
	}
	cr := &rule{def: d, scope: d.Scope, lim: lim, needs: needsOf(d)}
	var errs []*Error
	when, es := program(env, d.When, "when", at, lim)
	errs = append(errs, es...)
	if when != nil {
		if t := when.out; !t.IsExactType(cel.BoolType) {
			errs = append(errs, &Error{at("when", 1, 1), fmt.Sprintf("custom rule %s: when must be a condition (a bool), not a %s", d.ID, t)})
		}
		cr.when, cr.guard = when, when.guard
	}
	parts, es := template(env, d.Message, at, lim)
	errs = append(errs, es...)
	cr.parts = parts
	if len(errs) > 0 {
		return nil, errs
	}
	sev := sevOf[d.Severity]
	scope := map[string]rules.Scope{"message": rules.ScopeMessage, "thread": rules.ScopeThread, "item": rules.ScopeThread, "artifact": rules.ScopeArtifact}[d.Scope]
	full := strings.TrimSpace(d.Full)
	if full != "" {
		full += "\n\n"
	}
	full += fmt.Sprintf("A custom rule (%s scope): it reports where its condition holds, `%s`.", d.Scope, strings.TrimSpace(d.When))
	decl := at("", 1, 1)
	return &rules.Rule{
		ID: d.ID, Name: d.Name, Code: d.ID, Family: strings.SplitN(d.ID, "-", 2)[0], Scope: scope, Severity: sev,
		Spec: "custom rule, " + decl.Where(), Short: d.Short, Full: full, Bad: d.Bad, Good: d.Good,
		Check: cr.check, Budget: &rules.Budget{Limit: lim.Run, At: decl},
	}, nil
}

type compiled struct {
	prg   cel.Program
	out   *cel.Type
	guard guard
	// static: CEL's estimate of the worst case is within the limit, so the
	// program runs without counting and is charged charge.
	static bool
	charge uint64
}

// sizes bounds what the model's values can hold for CEL's static
// estimate: no string or list read from the input is longer than the
// largest body parsed.
type sizes struct{ bytes uint64 }

func (s sizes) EstimateSize(n cost.AstNode) *cost.SizeEstimate {
	if len(n.Path()) == 0 {
		return nil
	}
	return &cost.SizeEstimate{Min: 0, Max: s.bytes}
}

func (sizes) EstimateCallCost(function, overloadID string, target *cost.AstNode, args []cost.AstNode) *cost.CallEstimate {
	return nil
}

// program compiles one expression, the value of key (at places errors in
// it).
func program(env *cel.Env, src, key string, at func(string, int, int) diag.Pos, lim Limits) (*compiled, []*Error) {
	ast, iss := env.Compile(src)
	if iss != nil && iss.Err() != nil {
		var errs []*Error
		for _, e := range iss.Errors() {
			line, col := e.Location.Line(), e.Location.Column()+1
			line, col = max(line, 1), max(col, 1) // an empty expression has no place in it
			errs = append(errs, &Error{at(key, line, col), key + ": " + firstLine(e.Message)})
		}
		return nil, errs
	}
	c := &compiled{out: ast.OutputType(), guard: guardOf(ast)}
	opts := []cel.ProgramOption{cel.EvalOptions(cel.OptOptimize), cel.OptimizeRegex(matchesFast...)}
	est, err := env.EstimateCost(ast, sizes{lim.Bytes})
	if err == nil && est.Max <= lim.Eval {
		// Proven within the limit whatever the input: run without
		// counting, charged the least it can cost.
		c.static = true
		c.charge = max(est.Min, 1)
	} else {
		opts = append(opts, cel.CostLimit(lim.Eval))
	}
	if c.prg, err = env.Program(ast, opts...); err != nil {
		return nil, []*Error{{at(key, 1, 1), key + ": " + err.Error()}}
	}
	return c, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

var partRE = regexp.MustCompile(`\{\{(.*?)\}\}`)

// template splits a message into text and {{ expression }} parts.
func template(env *cel.Env, msg string, at func(string, int, int) diag.Pos, lim Limits) ([]part, []*Error) {
	var parts []part
	var errs []*Error
	last := 0
	for _, m := range partRE.FindAllStringSubmatchIndex(msg, -1) {
		if m[0] > last {
			parts = append(parts, part{text: msg[last:m[0]]})
		}
		last = m[1]
		src := msg[m[2]:m[3]]
		if strings.TrimSpace(src) == "" {
			continue
		}
		// The expression's place in the value: its line, and its column
		// on that line.
		line := 1 + strings.Count(msg[:m[2]], "\n")
		col := m[2] - strings.LastIndexByte(msg[:m[2]], '\n') - 1
		c, es := program(env, src, "message", func(key string, l, cc int) diag.Pos {
			if l == 1 {
				cc += col
			}
			return at(key, line+l-1, cc)
		}, lim)
		errs = append(errs, es...)
		if c != nil {
			parts = append(parts, part{expr: c})
		}
	}
	if last < len(msg) {
		parts = append(parts, part{text: msg[last:]})
	}
	return parts, errs
}

// envs are the CEL environments of the scopes, built once.
var envs = sync.OnceValues(func() (map[string]*cel.Env, error) {
	base, err := cel.NewEnv(
		ext.NativeTypes(ext.ParseStructTags(true), reflect.TypeFor[Message](), reflect.TypeFor[Thread](),
			reflect.TypeFor[Item](), reflect.TypeFor[Reference](), reflect.TypeFor[Artifact]()),
		ext.Strings(), ext.Lists(), ext.Sets(), ext.Math(),
	)
	if err != nil {
		return nil, err
	}
	vars := map[string][]cel.EnvOption{
		"message":  {cel.Variable("message", cel.ObjectType(typeName[Message]())), cel.Variable("thread", cel.ObjectType(typeName[Thread]()))},
		"thread":   {cel.Variable("thread", cel.ObjectType(typeName[Thread]()))},
		"item":     {cel.Variable("item", cel.ObjectType(typeName[Item]())), cel.Variable("thread", cel.ObjectType(typeName[Thread]()))},
		"artifact": {cel.Variable("artifact", cel.ObjectType(typeName[Artifact]()))},
	}
	out := map[string]*cel.Env{}
	for scope, opts := range vars {
		e, err := base.Extend(opts...)
		if err != nil {
			return nil, err
		}
		out[scope] = e
	}
	return out, nil
})

func typeName[T any]() string { return reflect.TypeFor[T]().String() }

func envFor(scope string) (*cel.Env, error) {
	m, err := envs()
	if err != nil {
		return nil, fmt.Errorf("the expression language could not be set up: %v", err)
	}
	e := m[scope]
	if e == nil {
		return nil, fmt.Errorf("scope %q is not one of message, thread, item, artifact", scope)
	}
	return e, nil
}

// check evaluates the rule on what the engine hands it.
func (r *rule) check(c *rules.Ctx) {
	if c.Exhausted() {
		return
	}
	// One activation per thread or artifact, reset for each rule (the
	// engine checks a thread's rules one after the other): made per check,
	// it was an allocation per message and rule.
	v := c.Memo(varsKey{}, func() any { return new(vars) }).(*vars)
	*v = vars{}
	switch r.scope {
	case "message":
		v.thread = c.Memo(modelKey{}, func() any { return threadModel(c.T) }).(*Thread)
		if v.message = v.thread.byMsg[c.M]; v.message == nil {
			v.message = noMessage
		}
		r.eval(c, v, v.message.pos)
	case "thread":
		v.thread = c.Memo(modelKey{}, func() any { return threadModel(c.T) }).(*Thread)
		r.eval(c, v, v.thread.pos)
	case "item":
		v.thread = c.Memo(modelKey{}, func() any { return threadModel(c.T) }).(*Thread)
		for _, it := range v.thread.Items {
			v.item = it
			if !r.eval(c, v, it.pos) {
				return
			}
		}
	case "artifact":
		v.artifact = c.Memo(modelKey{}, func() any { return artifactModel(c.P, c.Thread) }).(*Artifact)
		r.eval(c, v, func() diag.Pos { return diag.Pos{File: c.P.File, Line: 1, Col: 1} })
	}
}

// modelKey is the Ctx.Memo key of a thread's or artifact's model, varsKey
// that of the activation its rules are evaluated with.
type modelKey struct{}
type varsKey struct{}

// vars are the variables of one evaluation, set in place as the check
// moves from item to item (an activation, not a map per evaluation).
type vars struct {
	message  *Message
	thread   *Thread
	item     *Item
	artifact *Artifact
}

func (v *vars) ResolveName(name string) (any, bool) {
	switch {
	case name == "message" && v.message != nil:
		return v.message, true
	case name == "thread" && v.thread != nil:
		return v.thread, true
	case name == "item" && v.item != nil:
		return v.item, true
	case name == "artifact" && v.artifact != nil:
		return v.artifact, true
	}
	return nil, false
}

func (v *vars) Parent() interpreter.Activation { return nil }

// eval evaluates the condition on vars and reports at pos when it holds;
// false when the rule must stop (its run budget is spent).
func (r *rule) eval(c *rules.Ctx, vars *vars, pos func() diag.Pos) bool {
	if !r.guard.holds(vars) {
		return c.Spend(guardCost)
	}
	r.needs.fill(vars)
	v, cost, err := r.when.run(vars)
	if !c.Spend(cost) {
		return false
	}
	if err != nil {
		c.Report(pos(), fmt.Sprintf("%s%s.", EvalFailed(r.def.ID), evalError(err, r.lim.Eval)),
			"Fix the rule's condition in the configuration (a missing key reads with has(); a cost limit means the condition does too much work per evaluation).")
		return true
	}
	if b, ok := v.Value().(bool); !ok || !b {
		return true
	}
	var msg strings.Builder
	for _, p := range r.parts {
		if p.expr == nil {
			msg.WriteString(p.text)
			continue
		}
		pv, pc, err := p.expr.run(vars)
		if !c.Spend(pc) {
			return false
		}
		if err != nil {
			msg.WriteString("{{" + evalError(err, r.lim.Eval) + "}}")
			continue
		}
		msg.WriteString(text(pv))
	}
	c.Report(pos(), strings.TrimSpace(msg.String()), "")
	return true
}

// EvalFailed begins the message of a rule's finding where its condition
// could not be evaluated (an error, or its cost limit reached).
func EvalFailed(id string) string { return "Rule " + id + " could not be evaluated here: " }

// run evaluates c on vars and returns what it is charged.
func (c *compiled) run(vars any) (ref.Val, uint64, error) {
	v, n, err := run(c.prg, vars)
	if c.static {
		n = c.charge
	}
	return v, n, err
}

// run evaluates prg, never panicking, and returns its cost.
func run(prg cel.Program, vars any) (v ref.Val, cost uint64, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = types.False, fmt.Errorf("evaluation failed: %v", p)
		}
	}()
	v, det, err := prg.Eval(vars)
	if det != nil && det.ActualCost() != nil {
		cost = *det.ActualCost()
	}
	return v, cost, err
}

func evalError(err error, limit uint64) string {
	s := err.Error()
	if strings.Contains(s, "cost limit exceeded") {
		return fmt.Sprintf("its cost limit (%d) was reached", limit)
	}
	return strings.TrimSuffix(firstLine(s), ".")
}

// text is a value as a message shows it.
func text(v ref.Val) string {
	if s, ok := v.Value().(string); ok {
		return s
	}
	if l, ok := v.(traits.Lister); ok {
		n := l.Size().(types.Int)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = text(l.Get(types.Int(i)))
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(v.Value())
}
