package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/diag"
)

// Which configuration governs a run is a security question: the inputs of a
// pull request may come from a fork, and a .brenner-ci.yaml added next to
// them must not quietly turn the gate off. The policy (docs/security.md;
// .brenner-ci.yaml stands for either name, FileNames):
//
//   - --config FILE pins the configuration: no other file is read.
//   - Otherwise the repository root's .brenner-ci.yaml governs (the
//     defaults when it has none). The first .brenner-ci.yaml from the first
//     path upward, when it lies below the root, may only tighten it: its
//     stricter settings apply (a rule turned on or raised, a stricter
//     fail-on, a lower limit), and every way it relaxes the root's is not
//     applied and is reported (Relaxations; rule SP-005, an error) at its
//     line, with the severity the root's configuration gives SP-005, so the
//     file under review cannot silence findings about itself.
//   - Every report names the files that applied.

// Resolved is the outcome of configuration discovery.
type Resolved struct {
	// Config is the configuration file found (or pinned); nil when none
	// was found (the defaults apply).
	Config *Config
	// Pinned is true when Config was given with --config.
	Pinned bool
	// Below is true when Config was discovered below the repository root.
	// Base is then the root's configuration, nil when the root has none.
	Below bool
	Base  *Config
	// Effective is the configuration that governs the run: Config, or Base
	// tightened by Untrusted (Tighten). Nil: the defaults.
	Effective *Config
	// Untrusted are the configurations that may only tighten Base (their
	// relaxations are SP-005 findings): one found below the root; in
	// pull-request mode also the working tree's version of the governing
	// file (AtRevision).
	Untrusted []*Config
	// BaseRev is, in pull-request mode, the revision whose configuration
	// Base is ("" otherwise).
	BaseRev string
}

// Resolve finds the configuration governing a run whose first path is
// first, in the repository whose root folder is root ("": the nearest
// folder holding .git above first). A pinned file (the --config flag) is
// the only one read; otherwise the first .brenner-ci.yaml from first upward
// to root governs, and Base is root's own when the two differ.
func Resolve(pinned, first, root string, known Known) (*Resolved, error) {
	if pinned != "" {
		c, err := LoadPinned(pinned, known)
		if err != nil {
			return nil, err
		}
		return &Resolved{Config: c, Pinned: true, Effective: c}, nil
	}
	if first == "" {
		first = "."
	}
	if root == "" {
		root = RepoRoot(first)
	}
	path, err := findUnder(first, root)
	if err != nil {
		return nil, err
	}
	if path == "" {
		return &Resolved{}, nil
	}
	rootCfg := ""
	if root != "" {
		if rootCfg, err = inFolder(root); err != nil {
			return nil, err
		}
	}
	below := root != "" && !same(rootCfg, path) && within(root, path)
	// The repository's own file is read first: a file below it may name
	// its custom rules (to raise them).
	var base *Config
	if below && rootCfg != "" {
		if base, err = Load(rootCfg, known); err != nil {
			return nil, err
		}
		known = base.knowing(known)
	}
	c, err := Load(path, known)
	if err != nil {
		return nil, err
	}
	res := &Resolved{Config: c, Effective: c}
	if !below {
		return res, nil
	}
	res.Below, res.Base = true, base
	res.Untrusted = []*Config{c}
	res.Effective = Tighten(res.Base, root, c)
	return res, nil
}

// FailOn is the fail-on threshold the governing configuration sets ("":
// the default): a configuration below the repository root can make it
// stricter, never more lenient (Tighten).
func (r *Resolved) FailOn() string {
	if r == nil || r.Effective == nil {
		return ""
	}
	return r.Effective.FailOn
}

// Tighten returns the configuration that governs a run: base, the trusted
// one (the repository root's, or in pull-request mode the base revision's;
// nil: the defaults, with globs relative to folder root), with only those
// settings of each untrusted configuration that make it stricter —
//
//   - a rule's severity where the untrusted file's is stricter (a rule
//     turned on or raised, globally or by one of its overrides, whose
//     paths stay relative to its own folder);
//   - the stricter fail-on;
//   - each limit it lowers.
//
// Their ignore globs, suppress entries, agents, lower severities, more
// lenient fail-on and raised limits are not applied (Relaxations lists
// them). No configuration is modified.
func Tighten(base *Config, root string, untrusted ...*Config) *Config {
	if base == nil {
		base = &Config{}
		if abs, err := filepath.Abs(root); err == nil {
			base.dir = abs
		}
	}
	eff := &Config{
		Path: base.Path, FailOn: base.FailOn, Agents: base.Agents, Ignore: base.Ignore, Rules: base.Rules,
		Override: base.Override, Suppress: base.Suppress, SuppressLine: base.SuppressLine, Limits: base.Limits,
		ignore: base.ignore, dir: base.dir, doc: base.doc, sum: base.sum, CustomRules: base.CustomRules,
	}
	for _, u := range untrusted {
		if u == nil {
			continue
		}
		eff.tighter = append(eff.tighter, u)
		// A rule of its own adds findings: it applies. One that redefines
		// a custom rule in force does not (Relaxations names it).
		eff.CustomRules = addCustom(eff.CustomRules, u.CustomRules)
		if failStrictness(u.FailOn) > failStrictness(eff.FailOn) {
			eff.FailOn = u.FailOn
		}
		eff.Limits = lowerLimits(eff.Limits, u.Limits)
	}
	return eff
}

// AtRevision re-judges r in pull-request mode: trusted, the governing
// file's content at revision rev (the repository root's .brenner-ci.yaml,
// or the --config file when it lies in the repository; nil when rev has
// none), governs; the working tree's version of that file, when its bytes
// differ, and a configuration below the root may only tighten it. A pull
// request that edits the policy judging it gets its relaxations reported
// (SP-005); they apply once merged.
func (r *Resolved) AtRevision(rev string, trusted *Config, root string) {
	working := r.Config
	if r.Below {
		working = r.Base
	}
	var untrusted []*Config
	if working != nil && (trusted == nil || working.sum != trusted.sum) {
		untrusted = append(untrusted, working)
	}
	if r.Below {
		untrusted = append(untrusted, r.Config)
	}
	r.Base, r.BaseRev, r.Untrusted = trusted, rev, untrusted
	r.Effective = Tighten(trusted, root, untrusted...)
}

// The input limits as a list, in the order of limitNames, with their
// defaults (0 in a configuration means the default).
var (
	limitNames    = [...]string{"file-bytes", "body-bytes", "json-depth", "messages-per-thread", "delta-blocks-per-body", "custom-rule-cost", "custom-rule-budget"}
	limitDefaults = [...]int64{limits.DefaultFileBytes, limits.DefaultBodyBytes, limits.DefaultJSONDepth, limits.DefaultMessages, limits.DefaultBlocks,
		limits.DefaultCustomCost, limits.DefaultCustomBudget}
)

func (l Limits) list() [len(limitNames)]int64 {
	return [...]int64{l.FileBytes, int64(l.BodyBytes), int64(l.JSONDepth), int64(l.Messages), int64(l.Blocks), l.CustomCost, l.CustomBudget}
}

func limitsOf(v [len(limitNames)]int64) Limits {
	return Limits{FileBytes: v[0], BodyBytes: int(v[1]), JSONDepth: int(v[2]), Messages: int(v[3]), Blocks: int(v[4]), CustomCost: v[5], CustomBudget: v[6]}
}

// effective is the limit in force: the configured one, or the default.
func effectiveLimit(v int64, i int) int64 {
	if v > 0 {
		return v
	}
	return limitDefaults[i]
}

// lowerLimits is base with each limit nested lowers.
func lowerLimits(base, nested Limits) Limits {
	out, n := base.list(), nested.list()
	for i := range out {
		if n[i] > 0 && n[i] < effectiveLimit(out[i], i) {
			out[i] = n[i]
		}
	}
	return limitsOf(out)
}

// findUnder looks for the configuration file from dir upward, stopping at
// a folder holding .git, at root (when set) or at the file system root.
func findUnder(dir, root string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		abs = filepath.Dir(abs)
	}
	if root != "" && !within(root, filepath.Join(abs, FileName)) {
		root = "" // the path lies outside the given root: stop at .git only
	}
	for {
		if p, err := inFolder(abs); p != "" || err != nil {
			return p, err
		}
		if _, err := os.Stat(filepath.Join(abs, ".git")); err == nil {
			return "", nil
		}
		if root != "" && same(abs, root) {
			return "", nil
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return "", nil
		}
		abs = parent
	}
}

// inFolder returns the configuration file of folder dir, "" when it has
// none; an error naming both when it has one under each name.
func inFolder(dir string) (string, error) {
	var found []string
	for _, name := range FileNames {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 0:
		return "", nil
	case 1:
		return found[0], nil
	}
	return "", &Error{File: found[0], Msg: fmt.Sprintf("%s is present too; keep one of the two", found[1])}
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
// paths), a raised limit, new ignore globs, suppress entries and agents. defaults gives a
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
		}
		// A rule the file leaves out keeps the repository's setting
		// (Tighten): not a relaxation.
	}
	cl, bl := c.Limits.list(), base.Limits.list()
	for i, name := range limitNames {
		if in := effectiveLimit(bl[i], i); cl[i] > in {
			at(fmt.Sprintf("limits: %s %d is above %d, the limit in force", name, cl[i], in), "limits", name)
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
	for i, r := range c.CustomRules {
		if b := customByID(base.CustomRules, r.ID); b != nil && !sameCustom(b, &r) {
			rel := Relaxation{What: fmt.Sprintf("custom rule %s differs from the one in force; that one applies", r.ID)}
			if n := seqItem(c.doc, i, "custom-rules"); n != nil {
				rel.Line, rel.Col = n.Line, n.Column
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

// addCustom is list with the rules of more whose ids it does not have.
func addCustom(list, more []CustomRule) []CustomRule {
	out := list[:len(list):len(list)]
	for _, r := range more {
		if customByID(out, r.ID) == nil {
			out = append(out, r)
		}
	}
	return out
}

func customByID(list []CustomRule, id string) *CustomRule {
	for i := range list {
		if list[i].ID == id {
			return &list[i]
		}
	}
	return nil
}

// sameCustom compares two custom rules' definitions (not their places).
func sameCustom(a, b *CustomRule) bool {
	x, y := *a, *b
	x.At, y.At = nil, nil
	return reflect.DeepEqual(x, y)
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

// Summary says in one line what the configuration sets, for config
// verify: "fail-on warning; 2 agents; 1 rule setting; limits: json-depth
// 100", or "empty (the defaults)".
func (c *Config) Summary() string {
	var parts []string
	if c.FailOn != "" {
		parts = append(parts, "fail-on "+c.FailOn)
	}
	count := func(n int, one, many string) {
		if n > 0 {
			parts = append(parts, plural(n, one, many))
		}
	}
	count(len(c.Agents), "agent", "agents")
	count(len(c.Ignore), "ignore glob", "ignore globs")
	count(len(c.Rules), "rule setting", "rule settings")
	count(len(c.Override), "override", "overrides")
	count(len(c.Suppress), "suppression", "suppressions")
	count(len(c.CustomRules), "custom rule", "custom rules")
	var lim []string
	for i, v := range c.Limits.list() {
		if v > 0 {
			lim = append(lim, fmt.Sprintf("%s %d", limitNames[i], v))
		}
	}
	if len(lim) > 0 {
		parts = append(parts, "limits: "+strings.Join(lim, ", "))
	}
	if len(parts) == 0 {
		return "empty (the defaults)"
	}
	return strings.Join(parts, "; ")
}
