// Package config loads .brenner-ci.yaml: strictly decoded with yaml.v3, so an
// unknown key or a bad value is an error with file:line:col.
package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"gopkg.in/yaml.v3"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/safefile"
)

// FileName is the configuration file brenner-ci looks for, by its first
// name (FileNames).
const FileName = ".brenner-ci.yaml"

// FileNames are the names of the configuration file: a folder holds at
// most one of them (both is an error).
var FileNames = [...]string{FileName, ".brenner-ci.yml"}

// Config is the decoded configuration.
type Config struct {
	Path     string            `yaml:"-"`
	FailOn   string            `yaml:"fail-on"`
	Agents   []string          `yaml:"agents"`
	Ignore   []string          `yaml:"ignore"`
	Rules    map[string]RuleCf `yaml:"rules"`
	Override []Override        `yaml:"overrides"`
	Suppress []Suppression     `yaml:"suppress"`
	Limits   Limits            `yaml:"limits"`
	// CustomRules are the team's own rules (custom.go): checked here for
	// their shape, compiled by the run (rules/custom).
	CustomRules []CustomRule `yaml:"custom-rules"`

	ignore []*Pattern
	// dir is the absolute folder of the configuration file: globs are
	// matched against paths relative to it, so results do not depend on
	// the working directory.
	dir string
	rel sync.Map // input path → path relative to dir
	// doc is the parsed YAML document, for positions (nil for an empty file).
	doc *yaml.Node
	// Lines of each suppression entry, for SP-002 findings.
	SuppressLine []int `yaml:"-"`
	// tighter are the untrusted configurations whose stricter rule
	// settings apply on top of this one's (Tighten).
	tighter []*Config
	// sum is the SHA-256 of the file's bytes as read.
	sum [32]byte
	// src is the file's bytes while it is compiled (positions of block
	// scalars), nil afterwards.
	src []byte
}

// Digest identifies the bytes the configuration was read from (hex
// SHA-256), so nothing needs to read the file again.
func (c *Config) Digest() string { return hex.EncodeToString(c.sum[:]) }

// RuleCf configures one rule: enabled and/or severity. In YAML it is a map
// {enabled: false, severity: warning} or a shorthand scalar (off, error,
// warning, note).
type RuleCf struct {
	Enabled  *bool  `yaml:"enabled"`
	Severity string `yaml:"severity"`
}

// UnmarshalYAML accepts the shorthand scalar form.
func (r *RuleCf) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		if n.Tag == "!!bool" {
			var b bool
			if err := n.Decode(&b); err != nil {
				return err
			}
			r.Enabled = &b
			return nil
		}
		r.Severity = n.Value
		return nil
	}
	type plain RuleCf
	var p plain
	if err := n.Decode(&p); err != nil {
		return err
	}
	*r = RuleCf(p)
	return nil
}

// Limits raise or lower brenner-ci's input limits (docs/security.md); zero
// keeps the default.
type Limits struct {
	FileBytes int64 `yaml:"file-bytes"`            // largest input file read (IN-009)
	BodyBytes int   `yaml:"body-bytes"`            // largest markdown body or artifact parsed (IN-008)
	JSONDepth int   `yaml:"json-depth"`            // deepest JSON nesting accepted
	Messages  int   `yaml:"messages-per-thread"`   // messages compiled per thread (IN-011)
	Blocks    int   `yaml:"delta-blocks-per-body"` // delta blocks applied per body (IN-011)
	// The CEL cost one evaluation of a custom rule may reach, and what one
	// custom rule may spend in a run (docs/custom-rules.md).
	CustomCost   int64 `yaml:"custom-rule-cost"`
	CustomBudget int64 `yaml:"custom-rule-budget"`
}

// Override applies rule settings to inputs whose path matches one of Paths.
type Override struct {
	Paths []string          `yaml:"paths"`
	Rules map[string]RuleCf `yaml:"rules"`
	re    []*Pattern
}

// Suppression silences findings of Rule in a thread (and optionally one
// message) of a JSON export, which cannot carry comments.
type Suppression struct {
	Rule    string `yaml:"rule"`
	Thread  string `yaml:"thread"`
	Message string `yaml:"message"`
	Reason  string `yaml:"reason"`
}

// Error is a configuration error with its position.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Line > 0: // yaml.v3 gives a syntax error's line only
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Errors are every error found in one configuration file, in the file's
// order (at least two). As an error it reads as the first.
type Errors []*Error

func (es Errors) Error() string {
	return fmt.Sprintf("%s (and %s: brenner-ci config verify lists them)", es[0].Error(), plural(len(es)-1, "more error", "more errors"))
}

// Unwrap gives each error, for errors.As.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// ErrorOf is nil for no error, the error for one, Errors for more (errs
// sorted by place).
func ErrorOf(errs []*Error) error {
	sortErrors(errs)
	return errorOf(errs)
}

// errorOf is nil for no error, the error for one, Errors for more.
func errorOf(errs []*Error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return Errors(errs)
}

// Find looks for the configuration file (FileNames) from dir upward,
// stopping at the repository root (a directory holding .git) or the file
// system root. It returns "" when there is none, and an error when a
// folder holds it under both names.
func Find(dir string) (string, error) { return findUnder(dir, "") }

// Known reports whether a rule id exists; set by the caller (the rule registry).
type Known func(id string) bool

// MaxFileBytes bounds a configuration file: far above any real one.
const MaxFileBytes = 1 << 20

// Load reads and validates a configuration file found in the repository.
// A pull request may have written it, so it is read as safefile reads:
// never through a symbolic link, never a device or FIFO, at most
// MaxFileBytes.
func Load(path string, known Known) (*Config, error) {
	data, err := safefile.Read(path, MaxFileBytes)
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	return Parse(path, data, known)
}

// LoadPinned is Load for the file the workflow names (--config): a link
// there is the workflow author's, so it is resolved first; its target is
// read under Load's rules.
func LoadPinned(path string, known Known) (*Config, error) {
	target, err := filepath.EvalSymlinks(path)
	if err == nil {
		var data []byte
		if data, err = safefile.Read(target, MaxFileBytes); err == nil {
			return Parse(path, data, known)
		}
	}
	return nil, &Error{File: path, Msg: err.Error()}
}

var yamlLine = regexp.MustCompile(`^yaml: (?:unmarshal errors:\n\s*)?line (\d+): (.*)$`)

// Parse decodes data (named path in errors). Every key must be one the
// file format has, at any depth; the errors are at the line and column of
// their key or value (a syntax error at its line: yaml.v3 gives no column).
func Parse(path string, data []byte, known Known) (*Config, error) {
	c := &Config{Path: path, sum: sha256.Sum256(data)}
	if path != "" {
		if abs, err := filepath.Abs(filepath.Dir(filepath.FromSlash(path))); err == nil {
			c.dir = abs
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return c, c.compile(known, nil)
		}
		return nil, yamlErr(path, err)
	}
	if errs := strictCheck(path, &root); len(errs) > 0 {
		return nil, errorOf(errs)
	}
	if err := root.Decode(c); err != nil {
		return nil, yamlErr(path, err) // what strictCheck did not foresee
	}
	c.doc = &root
	c.src = data
	defer func() { c.src = nil }()
	return c, c.compile(known, &root)
}

func yamlErr(path string, err error) error {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = "yaml: " + te.Errors[0]
	}
	if m := yamlLine.FindStringSubmatch(strings.TrimPrefix(msg, "yaml: unmarshal errors:\n  ")); m != nil {
		var line int
		fmt.Sscan(m[1], &line)
		return &Error{File: path, Line: line, Msg: m[2]}
	}
	if m := regexp.MustCompile(`line (\d+)`).FindStringSubmatch(msg); m != nil {
		var line int
		fmt.Sscan(m[1], &line)
		return &Error{File: path, Line: line, Msg: strings.TrimPrefix(msg, "yaml: ")}
	}
	return &Error{File: path, Msg: strings.TrimPrefix(msg, "yaml: ")}
}

// nodeAt finds the value node of a key path in the document, for positions.
func nodeAt(root *yaml.Node, keys ...string) *yaml.Node {
	_, v := lookup(root, keys...)
	return v
}

// lookup finds the key and value nodes of a key path in the document (or
// in a mapping node).
func lookup(root *yaml.Node, keys ...string) (key, val *yaml.Node) {
	n := root
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for _, k := range keys {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil, nil
		}
		var next *yaml.Node
		key = nil
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				key, next = n.Content[i], n.Content[i+1]
				break
			}
		}
		n = next
	}
	return key, n
}

// errAt is an error at n (no position when n is nil).
func (c *Config) errAt(n *yaml.Node, msg string) *Error {
	e := &Error{File: c.Path, Msg: msg}
	if n != nil {
		e.Line, e.Col = n.Line, n.Column
	}
	return e
}

func (c *Config) compile(known Known, root *yaml.Node) error {
	errs := c.checkCustom(root)
	known = c.knowing(known)
	if c.FailOn != "" {
		if _, ok := ParseFailOn(c.FailOn); !ok {
			errs = append(errs, c.errAt(nodeAt(root, "fail-on"), fmt.Sprintf("fail-on: %q is not one of error, warning, note, none", c.FailOn)))
		}
	}
	// check checks the rule settings of the mapping at node m (the file's
	// rules:, or an override's), named where in messages.
	check := func(rules map[string]RuleCf, m *yaml.Node, where string) {
		ids := make([]string, 0, len(rules))
		for id := range rules {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			key, val := lookup(m, id)
			if known != nil && !known(id) {
				errs = append(errs, c.errAt(key, fmt.Sprintf("unknown rule id %q%s", id, in(where))+didYouMean(suggestIDs(id, known))))
				continue
			}
			if r := rules[id]; r.Severity != "" {
				if _, ok := diag.ParseSeverity(r.Severity); !ok {
					errs = append(errs, c.errAt(val, fmt.Sprintf("rule %s: severity %q is not one of error, warning, note, off", id, r.Severity)))
				}
			}
		}
	}
	check(c.Rules, nodeAt(root, "rules"), "")
	if l := c.Limits; l.FileBytes < 0 || l.BodyBytes < 0 || l.JSONDepth < 0 || l.Messages < 0 || l.Blocks < 0 || l.CustomCost < 0 || l.CustomBudget < 0 {
		errs = append(errs, c.errAt(nodeAt(root, "limits"), "limits: values must be positive"))
	}
	for i, g := range c.Ignore {
		re, err := Glob(g)
		if err != nil {
			errs = append(errs, c.errAt(seqItem(root, i, "ignore"), "ignore: "+err.Error()))
			continue
		}
		c.ignore = append(c.ignore, re)
	}
	for i := range c.Override {
		o := &c.Override[i]
		check(o.Rules, nodeAt(seqItem(root, i, "overrides"), "rules"), fmt.Sprintf("overrides[%d]", i))
		for j, g := range o.Paths {
			re, err := Glob(g)
			if err != nil {
				errs = append(errs, c.errAt(seqItem(seqItem(root, i, "overrides"), j, "paths"), fmt.Sprintf("overrides[%d].paths: %v", i, err)))
				continue
			}
			o.re = append(o.re, re)
		}
	}
	supp := nodeAt(root, "suppress")
	for i, s := range c.Suppress {
		var item *yaml.Node
		line := 0
		if supp != nil && supp.Kind == yaml.SequenceNode && i < len(supp.Content) {
			item = supp.Content[i]
			line = item.Line
		}
		c.SuppressLine = append(c.SuppressLine, line)
		if s.Rule == "" || (known != nil && !known(s.Rule)) {
			at := item
			if v := nodeAt(item, "rule"); v != nil {
				at = v
			}
			errs = append(errs, c.errAt(at, fmt.Sprintf("suppress: unknown rule id %q", s.Rule)+didYouMean(suggestIDs(s.Rule, known))))
			continue
		}
		if s.Thread == "" {
			errs = append(errs, c.errAt(item, "suppress: an entry needs a thread"))
		}
	}
	sortErrors(errs)
	return errorOf(errs)
}

// ParseFailOn parses --fail-on values; none means never fail.
func ParseFailOn(s string) (diag.Severity, bool) {
	switch strings.ToLower(s) {
	case "none":
		return diag.Off, true
	case "error", "warning", "note":
		sev, _ := diag.ParseSeverity(s)
		return sev, true
	}
	return diag.Error, false
}

// relPath returns path (as given on the command line, relative to the
// working directory) relative to the configuration file's folder, slash
// separated. A path outside that folder is returned as given.
func (c *Config) relPath(path string) string {
	if c.dir == "" || path == "" {
		return path
	}
	if v, ok := c.rel.Load(path); ok {
		return v.(string)
	}
	out := path
	if abs, err := filepath.Abs(filepath.FromSlash(path)); err == nil {
		if r, err := filepath.Rel(c.dir, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			out = filepath.ToSlash(r)
		}
	}
	c.rel.Store(path, out)
	return out
}

// Ignored reports whether a path matches an ignore glob (globs are relative
// to the configuration file's folder).
func (c *Config) Ignored(path string) bool {
	if c == nil {
		return false
	}
	path = c.relPath(path)
	for _, re := range c.ignore {
		if re.Match(path) {
			return true
		}
	}
	return false
}

// Severity returns the effective severity of a finding of rule id at path
// with default severity def (diag.Off: disabled): this configuration's,
// or the stricter one a configuration below the root it was tightened by
// (Tighten) gives.
func (c *Config) Severity(id, path string, def diag.Severity) diag.Severity {
	if c == nil {
		return def
	}
	sev := c.ownSeverity(id, path, def)
	for _, t := range c.tighter {
		if s := t.ownSeverity(id, path, sev); s < sev { // Error < Warning < Note < Off
			sev = s
		}
	}
	return sev
}

// ownSeverity is Severity by this file's settings alone.
func (c *Config) ownSeverity(id, path string, def diag.Severity) diag.Severity {
	sev := apply(c.Rules[id], def)
	path = c.relPath(path)
	for i := range c.Override {
		o := &c.Override[i]
		r, ok := o.Rules[id]
		if !ok {
			continue
		}
		for _, re := range o.re {
			if re.Match(path) {
				sev = apply(r, sev)
				break
			}
		}
	}
	return sev
}

func apply(r RuleCf, sev diag.Severity) diag.Severity {
	if r.Enabled != nil && !*r.Enabled {
		return diag.Off
	}
	if r.Severity != "" {
		s, _ := diag.ParseSeverity(r.Severity)
		return s
	}
	if r.Enabled != nil && *r.Enabled && sev == diag.Off {
		return diag.Error
	}
	return sev
}

// A Pattern is a compiled path glob (Glob).
type Pattern struct {
	glob string
	// anywhere: the glob has no '/', so it is matched against each part of
	// the path (its base name and every folder).
	anywhere bool
}

// Glob compiles a path glob of github.com/bmatcuk/doublestar: * matches
// within a segment, ** as a whole segment across segments, ? one
// character, [abc] [a-z] [!a] one character of a class, {a,b} either
// alternative, \ escapes the next character. A pattern without '/'
// matches the base name or any folder of the path; one with '/' matches
// the path, or a folder the path is in (a/b matches a/b/c.json).
func Glob(g string) (*Pattern, error) {
	g = filepath.ToSlash(strings.TrimPrefix(g, "./"))
	if !doublestar.ValidatePattern(g) {
		return nil, fmt.Errorf("%q is not a valid glob (an unclosed [ or {, a } without its {, or a \\ at its end)", g)
	}
	return &Pattern{glob: g, anywhere: !strings.Contains(g, "/")}, nil
}

// Match reports whether path (slash separated, relative to the
// configuration's folder) matches.
func (p *Pattern) Match(path string) bool {
	if p.anywhere {
		for part := range strings.SplitSeq(path, "/") {
			if doublestar.MatchUnvalidated(p.glob, part) {
				return true
			}
		}
		return false
	}
	for {
		if doublestar.MatchUnvalidated(p.glob, path) {
			return true
		}
		i := strings.LastIndexByte(path, '/')
		if i < 0 {
			return false
		}
		path = path[:i]
	}
}

// OffEverywhere reports whether rule id is turned off globally and no
// per-path override mentions it (nor the configuration it was tightened
// by), so the engine need not run it at all.
func (c *Config) OffEverywhere(id string) bool {
	if c == nil || apply(c.Rules[id], diag.Error) != diag.Off || c.mentions(id) {
		return false
	}
	for _, t := range c.tighter {
		if _, ok := t.Rules[id]; ok || t.mentions(id) {
			return false
		}
	}
	return true
}

// mentions reports whether an override sets rule id.
func (c *Config) mentions(id string) bool {
	for i := range c.Override {
		if _, ok := c.Override[i].Rules[id]; ok {
			return true
		}
	}
	return false
}
