package config

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/brenner-ci/brenner-ci/diag"

	"gopkg.in/yaml.v3"
)

// CustomRule is one entry of custom-rules: a team's own rule, whose
// condition and message parts are CEL expressions (docs/custom-rules.md).
// The configuration checks its shape; the run compiles the expressions
// (rules/custom), so a type error is a configuration error too, at the
// expression's line and column (At).
type CustomRule struct {
	ID       string         `yaml:"id"`
	Name     string         `yaml:"name"`
	Scope    string         `yaml:"scope"`
	Severity string         `yaml:"severity"`
	When     string         `yaml:"when"`
	Message  string         `yaml:"message"`
	Short    string         `yaml:"short"`
	Full     string         `yaml:"full"`
	Examples CustomExamples `yaml:"examples"`

	// At gives the position of the entry ("") and of each of its values by
	// key ("when", "message" …), for errors and findings about the rule.
	At map[string]Place `yaml:"-"`
}

// CustomExamples are a custom rule's bad and good example, run by
// `brenner-ci rules --test`.
type CustomExamples struct {
	Bad  string `yaml:"bad"`
	Good string `yaml:"good"`
}

// Place is where a value stands in the configuration file: its line and
// column, and whether it is a block scalar (| or >), whose text starts on
// the next line, indented by Indent columns.
type Place struct {
	File      string
	Line, Col int
	Block     bool
	Quoted    bool
	Indent    int
}

// CustomScopes are what a custom rule may look at.
var CustomScopes = []string{"message", "thread", "item", "artifact"}

var (
	customNameRE = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
)

// checkCustom checks the custom rules' shape: an id (not twice; the run
// checks its pattern, and that it is no other rule's, rules/custom), a kebab-case name, a known scope
// and severity, a condition, a message and a short description.
func (c *Config) checkCustom(root *yaml.Node) []*Error {
	var errs []*Error
	list := nodeAt(root, "custom-rules")
	seen := map[string]int{}
	for i := range c.CustomRules {
		r := &c.CustomRules[i]
		item := seqItem(root, i, "custom-rules")
		if list == nil {
			item = nil
		}
		r.At = map[string]Place{"": c.place(item)}
		for _, k := range []string{"id", "name", "scope", "severity", "when", "message", "short", "full", "examples"} {
			if v := nodeAt(item, k); v != nil {
				r.At[k] = c.place(v)
			}
		}
		at := func(k string) *yaml.Node {
			if v := nodeAt(item, k); v != nil {
				return v
			}
			return item
		}
		where := fmt.Sprintf("custom-rules[%d]", i)
		switch {
		case r.ID == "":
			errs = append(errs, c.errAt(item, where+": an id is required (e.g. LAB-001)"))
		default:
			if line, dup := seen[r.ID]; dup {
				errs = append(errs, c.errAt(at("id"), fmt.Sprintf("%s: id %s is already the id of the custom rule at line %d", where, r.ID, line)))
			}
			seen[r.ID] = r.At[""].Line
		}
		if !customNameRE.MatchString(r.Name) {
			errs = append(errs, c.errAt(at("name"), fmt.Sprintf("%s: name %q must be kebab case (delta-cites-transcript)", where, r.Name)))
		}
		if !slices.Contains(CustomScopes, r.Scope) {
			errs = append(errs, c.errAt(at("scope"), fmt.Sprintf("%s: scope %q is not one of %s", where, r.Scope, strings.Join(CustomScopes, ", "))))
		}
		if !slices.Contains([]string{"error", "warning", "note"}, r.Severity) {
			errs = append(errs, c.errAt(at("severity"), fmt.Sprintf("%s: severity %q is not one of error, warning, note", where, r.Severity)))
		}
		for _, k := range []struct{ key, val string }{{"when", r.When}, {"message", r.Message}, {"short", r.Short}} {
			if strings.TrimSpace(k.val) == "" {
				errs = append(errs, c.errAt(at(k.key), fmt.Sprintf("%s: %s is required", where, k.key)))
			}
		}
	}
	return errs
}

// knowing is known with the ids of c's own custom rules: rules:,
// overrides: and suppress: may name them.
func (c *Config) knowing(known Known) Known {
	if len(c.CustomRules) == 0 || known == nil {
		return known
	}
	own := map[string]bool{}
	for _, r := range c.CustomRules {
		own[r.ID] = true
	}
	return func(id string) bool { return own[id] || known(id) }
}

func (c *Config) place(n *yaml.Node) Place {
	if n == nil {
		return Place{File: c.Path}
	}
	p := Place{File: c.Path, Line: n.Line, Col: n.Column}
	switch n.Style {
	case yaml.LiteralStyle, yaml.FoldedStyle:
		// The text starts on the next line, at that line's indentation.
		p.Block = true
		if lines := bytes.Split(c.src, []byte("\n")); n.Line < len(lines) {
			l := lines[n.Line]
			p.Indent = len(l) - len(bytes.TrimLeft(l, " "))
		}
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		p.Quoted = true
	}
	return p
}

// At is the position in the file of line and column (1-based) of the
// value's text.
func (p Place) At(line, col int) diag.Pos {
	switch {
	case p.Line == 0:
		return diag.Pos{File: p.File}
	case p.Block:
		return diag.Pos{File: p.File, Line: p.Line + line, Col: p.Indent + col}
	case line > 1:
		return diag.Pos{File: p.File, Line: p.Line + line - 1, Col: col}
	case p.Quoted:
		return diag.Pos{File: p.File, Line: p.Line, Col: p.Col + col}
	}
	return diag.Pos{File: p.File, Line: p.Line, Col: p.Col + col - 1}
}
