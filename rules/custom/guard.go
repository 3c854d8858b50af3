package custom

import (
	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/overloads"
	"cel.dev/cel-go/common/types"
)

// A guard is what a condition needs before anything else: the tests at the
// top of its conjunction that read one field of a variable and compare it
// with a literal — a string field with a string (`message.type == "DELTA"
// && …`, `item.status == "active" && …`) or the size of a list field with
// an integer (`size(item.references) > 3 && …`). CEL's && is false when
// one side is false, whatever the other, so when a guard does not hold the
// condition is false, and the check skips CEL for that message or item.
// Most messages of a thread are not of the type a rule is about: this is
// most of the evaluations of a typical rule set. FuzzGuardedEvaluation
// holds guarded evaluation to plain evaluation.
type guard []func(*vars) bool

// holds reports whether every test of g holds on v.
func (g guard) holds(v *vars) bool {
	for _, test := range g {
		if !test(v) {
			return false
		}
	}
	return true
}

// guardCost is what a condition whose guard does not hold is charged: one
// unit, about the field read and comparison CEL would have charged.
const guardCost = 1

// stringFields are the string fields a guard may read, by variable and
// CEL name; ok is false when the variable is not set.
var stringFields = map[string]map[string]func(*vars) (string, bool){
	"message": {
		"type":    func(v *vars) (string, bool) { return str(v.message, func(x *Message) string { return x.Type }) },
		"role":    func(v *vars) (string, bool) { return str(v.message, func(x *Message) string { return x.Role }) },
		"from":    func(v *vars) (string, bool) { return str(v.message, func(x *Message) string { return x.From }) },
		"subject": func(v *vars) (string, bool) { return str(v.message, func(x *Message) string { return x.Subject }) },
		"id":      func(v *vars) (string, bool) { return str(v.message, func(x *Message) string { return x.ID }) },
		"thread":  func(v *vars) (string, bool) { return str(v.message, func(x *Message) string { return x.Thread }) },
	},
	"item": {
		"section":  func(v *vars) (string, bool) { return str(v.item, func(x *Item) string { return x.Section }) },
		"status":   func(v *vars) (string, bool) { return str(v.item, func(x *Item) string { return x.Status }) },
		"id":       func(v *vars) (string, bool) { return str(v.item, func(x *Item) string { return x.ID }) },
		"added_by": func(v *vars) (string, bool) { return str(v.item, func(x *Item) string { return x.AddedBy }) },
	},
}

// listSizes are the list fields whose size a guard may read.
var listSizes = map[string]map[string]func(*vars) (int64, bool){
	"message": {
		"to": func(v *vars) (int64, bool) { return size(v.message, func(x *Message) int { return len(x.To) }) },
	},
	"item": {
		"anchors":    func(v *vars) (int64, bool) { return size(v.item, func(x *Item) int { return len(x.Anchors) }) },
		"references": func(v *vars) (int64, bool) { return size(v.item, func(x *Item) int { return len(x.References) }) },
	},
}

// str reads a field of x, or reports that x is not there.
func str[T any](x *T, get func(*T) string) (string, bool) {
	if x == nil {
		return "", false
	}
	return get(x), true
}

func size[T any](x *T, get func(*T) int) (int64, bool) {
	if x == nil {
		return 0, false
	}
	return int64(get(x)), true
}

// guardOf finds the guard of a checked condition (nil: none).
func guardOf(a *cel.Ast) guard {
	var g guard
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		if e.Kind() != ast.CallKind {
			return
		}
		c := e.AsCall()
		args := c.Args()
		if len(args) != 2 {
			return
		}
		if c.FunctionName() == operators.LogicalAnd {
			walk(args[0])
			walk(args[1])
			return
		}
		if test := stringTest(c.FunctionName(), args[0], args[1]); test != nil {
			g = append(g, test)
		} else if test := sizeTest(c.FunctionName(), args[0], args[1]); test != nil {
			g = append(g, test)
		}
	}
	walk(a.NativeRep().Expr())
	return g
}

// field reads `variable.field` (not a has() test).
func field(e ast.Expr) (variable, name string, ok bool) {
	if e.Kind() != ast.SelectKind {
		return "", "", false
	}
	s := e.AsSelect()
	if s.IsTestOnly() || s.Operand().Kind() != ast.IdentKind {
		return "", "", false
	}
	return s.Operand().AsIdent(), s.FieldName(), true
}

// stringTest is `variable.field == "literal"` (either way round).
func stringTest(fn string, a, b ast.Expr) func(*vars) bool {
	if fn != operators.Equals {
		return nil
	}
	if a.Kind() == ast.LiteralKind {
		a, b = b, a
	}
	v, f, ok := field(a)
	if !ok || b.Kind() != ast.LiteralKind {
		return nil
	}
	get := stringFields[v][f]
	want, isStr := b.AsLiteral().(types.String)
	if get == nil || !isStr {
		return nil
	}
	return func(x *vars) bool {
		s, ok := get(x)
		return ok && s == string(want)
	}
}

// sizeTest is `size(variable.list) OP n` or `variable.list.size() OP n`
// with OP one of > >= < <= == != and n an integer literal.
func sizeTest(fn string, a, b ast.Expr) func(*vars) bool {
	cmp := map[string]func(x, n int64) bool{
		operators.Greater:       func(x, n int64) bool { return x > n },
		operators.GreaterEquals: func(x, n int64) bool { return x >= n },
		operators.Less:          func(x, n int64) bool { return x < n },
		operators.LessEquals:    func(x, n int64) bool { return x <= n },
		operators.Equals:        func(x, n int64) bool { return x == n },
		operators.NotEquals:     func(x, n int64) bool { return x != n },
	}[fn]
	if cmp == nil || a.Kind() != ast.CallKind || b.Kind() != ast.LiteralKind {
		return nil
	}
	n, isInt := b.AsLiteral().(types.Int)
	c := a.AsCall()
	if !isInt || c.FunctionName() != overloads.Size {
		return nil
	}
	var list ast.Expr
	switch {
	case c.IsMemberFunction() && len(c.Args()) == 0:
		list = c.Target()
	case !c.IsMemberFunction() && len(c.Args()) == 1:
		list = c.Args()[0]
	default:
		return nil
	}
	v, f, ok := field(list)
	if !ok {
		return nil
	}
	get := listSizes[v][f]
	if get == nil {
		return nil
	}
	return func(x *vars) bool {
		s, ok := get(x)
		return ok && cmp(s, int64(n))
	}
}
