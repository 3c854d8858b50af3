package custom

import (
	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/types"
)

// A guard is what a condition needs before anything else: the string
// fields it compares with a literal at the top of its conjunction
// (`message.type == "DELTA" && …`, `item.status == "active" && …`). CEL's
// && is false when one side is false, whatever the other, so when a guard
// does not hold the condition is false, and the check skips CEL for that
// message or item. Most messages of a thread are not of the type a rule
// is about: this is most of the evaluations of a typical rule set.
// TestGuardsAgreeWithCEL holds guarded evaluation to plain evaluation.
type guard []fieldIs

// fieldIs is one test: the variable's field read by get is want.
type fieldIs struct {
	get  func(*vars) (string, bool)
	want string
}

// holds reports whether every test of g holds on v.
func (g guard) holds(v *vars) bool {
	for _, t := range g {
		if s, ok := t.get(v); !ok || s != t.want {
			return false
		}
	}
	return true
}

// guardCost is what a condition whose guard does not hold is charged: one
// unit, about the field read and comparison CEL would have charged.
const guardCost = 1

// stringFields are the fields a guard may read, by variable and CEL name.
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
		switch {
		case c.FunctionName() == operators.LogicalAnd && len(args) == 2:
			walk(args[0])
			walk(args[1])
		case c.FunctionName() == operators.Equals && len(args) == 2:
			if t, ok := fieldLiteral(args[0], args[1]); ok {
				g = append(g, t)
			} else if t, ok := fieldLiteral(args[1], args[0]); ok {
				g = append(g, t)
			}
		}
	}
	walk(a.NativeRep().Expr())
	return g
}

// fieldLiteral reads `variable.field` and a string literal.
func fieldLiteral(sel, lit ast.Expr) (fieldIs, bool) {
	if sel.Kind() != ast.SelectKind || lit.Kind() != ast.LiteralKind {
		return fieldIs{}, false
	}
	s := sel.AsSelect()
	if s.IsTestOnly() || s.Operand().Kind() != ast.IdentKind {
		return fieldIs{}, false
	}
	get := stringFields[s.Operand().AsIdent()][s.FieldName()]
	want, ok := lit.AsLiteral().(types.String)
	if get == nil || !ok {
		return fieldIs{}, false
	}
	return fieldIs{get: get, want: string(want)}, true
}

// str reads a field of x, or reports that x is not there.
func str[T any](x *T, get func(*T) string) (string, bool) {
	if x == nil {
		return "", false
	}
	return get(x), true
}
