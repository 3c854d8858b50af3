package run

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
	"github.com/brenner-ci/brenner-ci/rules"
)

// TestCustomRuleErrorsAreConfigurationErrors: a syntax or type error, a
// built-in id or prefix, a duplicate id and a non-bool condition are
// configuration errors at their line and column (exit 2), reported all
// at once.
func TestCustomRuleErrorsAreConfigurationErrors(t *testing.T) {
	dir := t.TempDir()
	cfg := `custom-rules:
  - id: LAB-001
    name: typo-field
    scope: message
    severity: warning
    when: message.type == "DELTA" && message.bdy.contains("x")
    message: m
    short: s
  - id: MB-001
    name: builtin-id
    scope: thread
    severity: note
    when: "true"
    message: m
    short: s
  - id: MB-900
    name: builtin-prefix
    scope: thread
    severity: note
    when: "true"
    message: m
    short: s
  - id: LAB-001
    name: duplicate
    scope: thread
    severity: note
    when: "true"
    message: m
    short: s
  - id: LAB-002
    name: not-a-condition
    scope: item
    severity: note
    when: item.id
    message: "{{ item.nope }}"
    short: s
  - id: LAB-003
    name: syntax
    scope: artifact
    severity: note
    when: |
      artifact.items.size() >
        && true
    message: m
    short: s
`
	// The shape (id, name, scope …) is checked when the file is read;
	// the expressions are compiled once the shape is right.
	shape := errorsOf(t, dir, cfg)
	for _, w := range []string{
		"23:9: custom-rules[3]: id LAB-001 is already the id of the custom rule at line 2",
	} {
		if !strings.Contains(shape, w) {
			t.Errorf("missing %q in:\n%s", w, shape)
		}
	}
	fixed := strings.Replace(cfg, "id: LAB-001\n    name: duplicate", "id: LAB-008\n    name: duplicate", 1)
	exprs := errorsOf(t, dir, fixed)
	for _, w := range []string{
		"6:45: when: undefined field 'bdy'",
		"9:9: custom rule MB-001: MB is the prefix of a built-in rule family",
		"16:9: custom rule MB-900: MB is the prefix of a built-in rule family",
		"34:11: custom rule LAB-002: when must be a condition (a bool), not a string",
		"35:22: message: undefined field 'nope'",
		"43:9: when: Syntax error",
	} {
		if !strings.Contains(exprs, w) {
			t.Errorf("missing %q in:\n%s", w, exprs)
		}
	}
}

// errorsOf checks dir under configuration cfg: it must be a usage error
// (exit 2, "could not run" reports); it returns the configuration's
// errors, one "line:col: message" a line.
func errorsOf(t *testing.T, dir, cfg string) string {
	t.Helper()
	path := filepath.Join(dir, ".brenner-ci.yaml")
	testutil.WriteTree(t, dir, map[string]string{".brenner-ci.yaml": cfg, "mailbox/.keep": ""})
	var out, errb bytes.Buffer
	err := Check(CheckOptions{Paths: []string{dir}, Config: path, Format: "text"}, &Env{Stdout: &out, Stderr: &errb})
	var ue *UsageError
	if !errors.As(err, &ue) {
		t.Fatalf("want a usage error (exit 2), got %v", err)
	}
	res, err := config.Resolve(path, dir, "", rulesKnown)
	if err == nil {
		_, err = registry(nil, res.Effective)
	}
	var got []string
	for _, e := range append(configErrors(err), nil...) {
		got = append(got, strings.TrimPrefix(e.Error(), path+":"))
	}
	return strings.Join(got, "\n")
}

var rulesKnown = rules.Builtin().Known

func configErrors(err error) []*config.Error {
	var list config.Errors
	if errors.As(err, &list) {
		return list
	}
	var one *config.Error
	if errors.As(err, &one) {
		return []*config.Error{one}
	}
	return nil
}
