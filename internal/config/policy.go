package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/brenner-ci/brenner-ci/diag"
)

// Which configuration governs a run is a security question: the inputs of a
// pull request may come from a fork, and a .brenner-ci.yaml added next to
// them must not quietly turn the gate off. The policy:
//
//   - --config FILE pins the configuration: no other file is read.
//   - Otherwise the first .brenner-ci.yaml from the first path upward to
//     the repository root governs (Find). When it lies below the root, it is
//     compared with the root's own configuration (or the defaults when the
//     root has none), and every way it relaxes that one is reported
//     (Relaxations; rule SP-005) — with the severity the root's
//     configuration gives SP-005, so the file under review cannot silence
//     findings about itself.
//   - Every report names the file that applied.

// Resolved is the outcome of configuration discovery.
type Resolved struct {
	// Config is the governing configuration; nil when none was found (the
	// defaults apply).
	Config *Config
	// Pinned is true when Config was given with --config.
	Pinned bool
	// Below is true when Config was discovered below the repository root.
	// Base is then the root's configuration, nil when the root has none.
	Below bool
	Base  *Config
}

// Resolve finds the configuration governing a run whose first path is
// first, in the repository whose root folder is root ("": the nearest
// folder holding .git above first). A pinned file (the --config flag) is
// the only one read; otherwise the first .brenner-ci.yaml from first upward
// to root governs, and Base is root's own when the two differ.
func Resolve(pinned, first, root string, known Known) (*Resolved, error) {
	if pinned != "" {
		c, err := Load(pinned, known)
		if err != nil {
			return nil, err
		}
		return &Resolved{Config: c, Pinned: true}, nil
	}
	if first == "" {
		first = "."
	}
	if root == "" {
		root = RepoRoot(first)
	}
	path := findUnder(first, root)
	if path == "" {
		return &Resolved{}, nil
	}
	c, err := Load(path, known)
	if err != nil {
		return nil, err
	}
	res := &Resolved{Config: c}
	if root == "" {
		return res, nil
	}
	rootCfg := filepath.Join(root, FileName)
	if same(rootCfg, path) || !within(root, path) {
		return res, nil
	}
	res.Below = true
	if fi, err := os.Stat(rootCfg); err == nil && !fi.IsDir() {
		if res.Base, err = Load(rootCfg, known); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// FailOn is the fail-on threshold the resolved configuration sets: its
// own, except that a configuration below the repository root cannot make
// the gate more lenient than the root's (or the default, error) — that
// relaxation is reported (SP-005) and not applied.
func (r *Resolved) FailOn() string {
	if r == nil || r.Config == nil {
		return ""
	}
	own := r.Config.FailOn
	if !r.Below {
		return own
	}
	base := ""
	if r.Base != nil {
		base = r.Base.FailOn
	}
	if failStrictness(own) < failStrictness(base) {
		return base
	}
	return own
}

// findUnder looks for FileName from dir upward, stopping at a folder
// holding .git, at root (when set) or at the file system root.
func findUnder(dir, root string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		abs = filepath.Dir(abs)
	}
	if root != "" && !within(root, filepath.Join(abs, FileName)) {
		root = "" // the path lies outside the given root: stop at .git only
	}
	for {
		p := filepath.Join(abs, FileName)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
		if _, err := os.Stat(filepath.Join(abs, ".git")); err == nil {
			return ""
		}
		if root != "" && same(abs, root) {
			return ""
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return ""
		}
		abs = parent
	}
}

// within reports whether path lies inside (or is) folder root.
func within(root, path string) bool {
	ar, err1 := filepath.Abs(root)
	ap, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(ar, ap)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func same(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// RepoRoot returns the nearest folder holding .git from dir upward, or "".
func RepoRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(abs, ".git")); err == nil {
			return abs
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return ""
		}
		abs = parent
	}
}

// A Relaxation is one way a configuration relaxes another: what it does and
// where (a line of the relaxing file; 0 when the relaxation is something it
// leaves out).
type Relaxation struct {
	Line, Col int
	What      string
}

// failStrictness orders fail-on values: a higher value fails on more.
func failStrictness(s string) int {
	if s == "" {
		s = "error"
	}
	switch strings.ToLower(s) {
	case "none":
		return 0
	case "error":
		return 1
	case "warning":
		return 2
	case "note":
		return 3
	}
	return 1
}

// Relaxations lists every way c relaxes base (nil base: the defaults):
// a lower fail-on, a rule turned off or lowered (globally or for some
// paths), new ignore globs, suppress entries and agents. defaults gives a
// rule's default severity; ids lists every rule id. The result is sorted by
// line.
func Relaxations(c, base *Config, ids []string, defaults func(id string) diag.Severity) []Relaxation {
	if c == nil {
		return nil
	}
	if base == nil {
		base = &Config{}
	}
	var out []Relaxation
	at := func(what string, keys ...string) {
		r := Relaxation{What: what}
		if n := nodeAt(c.doc, keys...); n != nil && len(keys) > 0 {
			r.Line, r.Col = n.Line, n.Column
		}
		out = append(out, r)
	}
	if failStrictness(c.FailOn) < failStrictness(base.FailOn) {
		at(fmt.Sprintf("fail-on %s is more lenient than the repository's %s", orDefault(c.FailOn), orDefault(base.FailOn)), "fail-on")
	}
	for _, id := range ids {
		def := defaults(id)
		mine, theirs := apply(c.Rules[id], def), apply(base.Rules[id], def)
		if mine <= theirs { // Error < Warning < Note < Off
			continue
		}
		if _, set := c.Rules[id]; set {
			at(fmt.Sprintf("rule %s is %s here and %s in the repository's configuration", id, mine, theirs), "rules", id)
		} else {
			at(fmt.Sprintf("rule %s falls back to its default, %s; the repository's configuration makes it %s", id, mine, theirs))
		}
	}
	baseOverrides := map[string]bool{}
	for _, o := range base.Override {
		for id, r := range o.Rules {
			baseOverrides[overrideKey(o.Paths, id, r)] = true
		}
	}
	for i, o := range c.Override {
		ids := make([]string, 0, len(o.Rules))
		for id := range o.Rules {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			r := o.Rules[id]
			global := apply(base.Rules[id], defaults(id))
			if apply(r, global) > global && !baseOverrides[overrideKey(o.Paths, id, r)] {
				rel := Relaxation{What: fmt.Sprintf("overrides lower rule %s to %s for %s", id, apply(r, global), strings.Join(o.Paths, ", "))}
				if n := seqItem(c.doc, i, "overrides"); n != nil {
					rel.Line, rel.Col = n.Line, n.Column
				}
				out = append(out, rel)
			}
		}
	}
	have := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, s := range list {
			m[s] = true
		}
		return m
	}
	baseIgnore := have(base.Ignore)
	for i, g := range c.Ignore {
		if !baseIgnore[g] {
			rel := Relaxation{What: fmt.Sprintf("ignore %q is not in the repository's configuration", g)}
			if n := seqItem(c.doc, i, "ignore"); n != nil {
				rel.Line, rel.Col = n.Line, n.Column
			}
			out = append(out, rel)
		}
	}
	baseSupp := map[Suppression]bool{}
	for _, s := range base.Suppress {
		s.Reason = ""
		baseSupp[s] = true
	}
	for i, s := range c.Suppress {
		key := s
		key.Reason = ""
		if !baseSupp[key] {
			rel := Relaxation{What: fmt.Sprintf("suppress %s in thread %q is not in the repository's configuration", s.Rule, s.Thread)}
			if i < len(c.SuppressLine) {
				rel.Line, rel.Col = c.SuppressLine[i], 1
			}
			out = append(out, rel)
		}
	}
	baseAgents := have(base.Agents)
	for i, a := range c.Agents {
		if baseAgents[a] {
			continue
		}
		rel := Relaxation{What: fmt.Sprintf("agent %q is not registered in the repository's configuration", a)}
		if n := seqItem(c.doc, i, "agents"); n != nil {
			rel.Line, rel.Col = n.Line, n.Column
		}
		out = append(out, rel)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

func orDefault(failOn string) string {
	if failOn == "" {
		return "error"
	}
	return failOn
}

func overrideKey(paths []string, id string, r RuleCf) string {
	en := ""
	if r.Enabled != nil {
		en = fmt.Sprint(*r.Enabled)
	}
	return strings.Join(paths, "\x00") + "\x01" + id + "\x01" + en + "\x01" + r.Severity
}

// seqItem is the i-th item of the sequence at keys, for positions.
func seqItem(doc *yaml.Node, i int, keys ...string) *yaml.Node {
	n := nodeAt(doc, keys...)
	if n == nil || n.Kind != yaml.SequenceNode || i >= len(n.Content) {
		return nil
	}
	return n.Content[i]
}
