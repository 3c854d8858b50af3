package config

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/brenner-ci/brenner-ci/diag"
	"gopkg.in/yaml.v3"
)

// The file is checked against the Go types it decodes into before it is
// decoded: every key of a mapping that is a struct must be one of the
// struct's yaml keys, at any depth (yaml.v3's KnownFields stops at a type
// with its own UnmarshalYAML, such as RuleCf, and gives no column), and
// every value must decode into its field. Each problem is an Error at the
// line and column of its key or value, with the known key closest to an
// unknown one.

// checker walks a document against a Go type.
type checker struct {
	file string
	errs []*Error
	// seen are the (node, type) pairs walked: an alias is walked once per
	// type, so a YAML alias bomb costs no more than its nodes.
	seen map[checked]bool
}

type checked struct {
	n *yaml.Node
	t reflect.Type
}

var ruleCfType = reflect.TypeOf(RuleCf{})

// strictCheck returns every problem of doc (a parsed document) as the
// configuration file file, in the file's order.
func strictCheck(file string, doc *yaml.Node) []*Error {
	c := &checker{file: file, seen: map[checked]bool{}}
	n := doc
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil
		}
		n = n.Content[0]
	}
	c.walk(n, reflect.TypeOf(Config{}), "")
	sortErrors(c.errs)
	return c.errs
}

func (c *checker) add(n *yaml.Node, msg string) {
	c.errs = append(c.errs, &Error{File: c.file, Line: n.Line, Col: n.Column, Msg: msg})
}

// walk checks n as a value of type t; where names it ("" at the top).
func (c *checker) walk(n *yaml.Node, t reflect.Type, where string) {
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return
		}
		n = n.Alias
	}
	if c.seen[checked{n, t}] {
		return
	}
	c.seen[checked{n, t}] = true
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return // the zero value
	}
	switch {
	case t == ruleCfType && n.Kind == yaml.ScalarNode:
		c.leaf(n, t, where) // the shorthand: off, warning, false …
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		c.mapping(n, t, where)
	case t.Kind() == reflect.Map && n.Kind == yaml.MappingNode:
		c.mapping(n, t, where)
	case t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			c.walk(item, t.Elem(), fmt.Sprintf("%s[%d]", where, i))
		}
	default:
		c.leaf(n, t, where)
	}
}

// leaf decodes n into a value of type t, for its error.
func (c *checker) leaf(n *yaml.Node, t reflect.Type, where string) {
	if err := n.Decode(reflect.New(t).Interface()); err != nil {
		msg := decodeMsg(err)
		if where != "" {
			msg = where + ": " + msg
		}
		c.add(n, msg)
	}
}

// mapping checks the keys and values of a mapping decoded into t, a struct
// (known keys) or a map from strings (any key).
func (c *checker) mapping(n *yaml.Node, t reflect.Type, where string) {
	var fields map[string]reflect.Type
	var names []string
	if t.Kind() == reflect.Struct {
		fields, names = yamlFields(t)
	}
	set := map[string]int{} // key → its line
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if isMerge(k) {
			c.merge(v, t, where)
			continue
		}
		var key string
		if k.Kind != yaml.ScalarNode || k.Decode(&key) != nil {
			c.add(k, "a key must be a string"+in(where))
			continue
		}
		if line, dup := set[key]; dup {
			c.add(k, fmt.Sprintf("key %q%s is already set at line %d", key, in(where), line))
			continue
		}
		set[key] = k.Line
		elem := t
		if fields != nil {
			ft, ok := fields[key]
			if !ok {
				msg := fmt.Sprintf("unknown key %q%s", key, in(where))
				if s := closest(key, names); s != "" {
					msg += fmt.Sprintf("; did you mean %q?", s)
				}
				c.add(k, msg)
				continue
			}
			elem = ft
		} else {
			elem = t.Elem()
		}
		c.walk(v, elem, join(where, key))
	}
}

// merge checks the value of a merge key (<<: *a, <<: [*a, *b]) as more
// keys of the mapping.
func (c *checker) merge(v *yaml.Node, t reflect.Type, where string) {
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	if v.Kind == yaml.SequenceNode {
		for _, item := range v.Content {
			c.walk(item, t, where)
		}
		return
	}
	c.walk(v, t, where)
}

// isMerge reports whether k is the merge key <<, as yaml.v3 decides.
func isMerge(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && (k.Tag == "" || k.Tag == "!" || k.ShortTag() == "!!merge")
}

func in(where string) string {
	if where == "" {
		return ""
	}
	return " in " + where
}

func join(where, key string) string {
	if where == "" {
		return key
	}
	return where + "." + key
}

var fieldCache sync.Map // reflect.Type → fieldSet

type fieldSet struct {
	types map[string]reflect.Type
	names []string // in declaration order
}

// yamlFields returns the keys of struct t as yaml.v3 decodes it, and their
// types.
func yamlFields(t reflect.Type) (map[string]reflect.Type, []string) {
	if v, ok := fieldCache.Load(t); ok {
		fs := v.(fieldSet)
		return fs.types, fs.names
	}
	fs := fieldSet{types: map[string]reflect.Type{}}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = strings.ToLower(f.Name)
		}
		fs.types[name] = f.Type
		fs.names = append(fs.names, name)
	}
	fieldCache.Store(t, fs)
	return fs.types, fs.names
}

var yamlLinePrefix = regexp.MustCompile(`^line \d+: `)

// decodeMsg is yaml.v3's message for a decoding error without its
// "yaml: unmarshal errors:" and "line N:" prefixes (the Error has the
// position).
func decodeMsg(err error) string {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	return yamlLinePrefix.ReplaceAllString(msg, "")
}

// closest is the name nearest to key (case and _ for - aside), when it is
// near enough to be what was meant; "" otherwise.
func closest(key string, names []string) string {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }
	k := norm(key)
	best, bestD := "", 0
	for _, name := range names {
		d := diag.EditDistance(k, norm(name))
		if best == "" || d < bestD {
			best, bestD = name, d
		}
	}
	max := len(best) / 3
	if max < 1 {
		max = 1
	}
	if max > 3 {
		max = 3
	}
	if best == "" || bestD > max || len(key) > 64 {
		return ""
	}
	return best
}

// suggestIDs returns the known rule ids id was probably meant to be: the
// same id in upper case, with its dash or its zero padding back, or else
// the known ids one edit (a character changed, added, removed or two
// swapped) away — at most three, sorted. Known only answers for one id, so
// the candidates are made and asked.
func suggestIDs(id string, known Known) []string {
	if known == nil || len(id) > 16 {
		return nil
	}
	const upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	up := strings.NewReplacer("_", "-", " ", "-", ".", "-").Replace(strings.ToUpper(strings.TrimSpace(id)))
	norm := []string{up}
	// MB001, MB-1, EP-P1: the dash and the zero padding back.
	family := up[:len(up)-len(strings.TrimLeft(up, upper))]
	rest := strings.TrimPrefix(up[len(family):], "-")
	digits := strings.TrimLeft(rest, upper)
	if family != "" && digits != "" && strings.Trim(digits, "0123456789") == "" {
		head := rest[:len(rest)-len(digits)]
		norm = append(norm, family+"-"+rest)
		for width := 2; width <= 3; width++ {
			if len(digits) < width {
				norm = append(norm, family+"-"+head+strings.Repeat("0", width-len(digits))+digits)
			}
		}
	}
	for _, cand := range norm {
		if cand != id && known(cand) {
			return []string{cand}
		}
	}
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-"
	found := map[string]bool{}
	try := func(cand string) {
		if cand != id && !found[cand] && known(cand) {
			found[cand] = true
		}
	}
	for i := 0; i <= len(up); i++ {
		for _, ch := range alphabet {
			try(up[:i] + string(ch) + up[i:]) // added
			if i < len(up) {
				try(up[:i] + string(ch) + up[i+1:]) // changed
			}
		}
		if i < len(up) {
			try(up[:i] + up[i+1:]) // removed
		}
		if i+1 < len(up) {
			try(up[:i] + up[i+1:i+2] + up[i:i+1] + up[i+2:]) // swapped
		}
	}
	out := make([]string, 0, len(found))
	for cand := range found {
		out = append(out, cand)
	}
	sort.Strings(out)
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// didYouMean is "; did you mean "A"?" (or "A" or "B", "A", "B" or "C"),
// "" for no candidate.
func didYouMean(cands []string) string {
	if len(cands) == 0 {
		return ""
	}
	q := make([]string, len(cands))
	for i, c := range cands {
		q[i] = fmt.Sprintf("%q", c)
	}
	s := q[len(q)-1]
	if len(q) > 1 {
		s = strings.Join(q[:len(q)-1], ", ") + " or " + s
	}
	return "; did you mean " + s + "?"
}

// sortErrors orders errors by position, those without one last.
func sortErrors(errs []*Error) {
	key := func(e *Error) (int, int) {
		if e.Line == 0 {
			return int(^uint(0) >> 1), 0
		}
		return e.Line, e.Col
	}
	sort.SliceStable(errs, func(i, j int) bool {
		li, ci := key(errs[i])
		lj, cj := key(errs[j])
		return li < lj || li == lj && ci < cj
	})
}
