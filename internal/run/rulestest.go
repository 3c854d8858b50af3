package run

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/reporters"
	"github.com/brenner-ci/brenner-ci/rules"
	"github.com/brenner-ci/brenner-ci/rules/custom"
)

// RulesOptions are the options of `rules`: the configuration whose custom
// rules join the list (Config, else the one found from Path upward).
type RulesOptions struct {
	Config string
	Path   string
}

// Rules returns the rules a check of o.Path would know: the program's and
// the configuration's custom rules, and the configuration.
func Rules(o RulesOptions, e *Env) (*rules.Registry, *config.Config, error) {
	p, err := settle(e.Rules, o.Config, []string{cmp.Or(o.Path, ".")}, 1, 0, 0)
	if err != nil {
		return nil, nil, err
	}
	return p.Registry, p.Cfg, nil
}

// exampleSubject is the subject of a custom rule's example that is one
// message body.
const exampleSubject = "DELTA[example]: Example"

// TestRules runs every custom rule's examples through the real flow: the
// bad example must produce the rule, the good one must not. It prints one
// line per example and returns an ExitError 1 when one fails (exit 2 for a
// configuration that has no custom rule with examples).
func TestRules(o RulesOptions, e *Env) error {
	p, err := settle(e.Rules, o.Config, []string{cmp.Or(o.Path, ".")}, 1, 0, 0)
	if err != nil {
		return err
	}
	if p.Cfg == nil || len(p.Cfg.CustomRules) == 0 {
		return usagef("no custom rules to test: the configuration (--config, or %s found from %s upward) declares none", config.FileName, reporters.SafeOneLine(cmp.Or(o.Path, ".")))
	}
	tested, failed := 0, 0
	for _, cr := range p.Cfg.CustomRules {
		r := p.Registry.Lookup(cr.ID)
		for _, ex := range []struct {
			kind, text string
			want       bool
		}{{"bad", cr.Examples.Bad, true}, {"good", cr.Examples.Good, false}} {
			if strings.TrimSpace(ex.text) == "" {
				fmt.Fprintf(e.Stdout, "%s %s example: none\n", r.ID, ex.kind)
				continue
			}
			tested++
			got, err := runExample(p, r, ex.text)
			failedEval := ""
			for _, f := range got {
				if strings.Contains(f, custom.EvalFailed(r.ID)) {
					failedEval = f
				}
			}
			switch {
			case failedEval != "":
				failed++
				fmt.Fprintf(e.Stdout, "FAIL %s %s example: %s\n", r.ID, ex.kind, reporters.SafeOneLine(failedEval))
			case err != nil:
				failed++
				fmt.Fprintf(e.Stdout, "FAIL %s %s example: could not run it: %s\n", r.ID, ex.kind, reporters.SafeOneLine(err.Error()))
			case (len(got) > 0) != ex.want:
				failed++
				if ex.want {
					fmt.Fprintf(e.Stdout, "FAIL %s bad example: the rule reported nothing (want one finding or more)\n", r.ID)
				} else {
					fmt.Fprintf(e.Stdout, "FAIL %s good example: the rule reported %d finding(s) (want none):\n", r.ID, len(got))
				}
				for _, f := range got {
					fmt.Fprintf(e.Stdout, "    %s\n", reporters.SafeOneLine(f))
				}
			default:
				fmt.Fprintf(e.Stdout, "ok   %s %s example\n", r.ID, ex.kind)
			}
		}
	}
	fmt.Fprintf(e.Stdout, "%d example(s) of %d custom rule(s): %d failed\n", tested, len(p.Cfg.CustomRules), failed)
	if failed > 0 {
		return &ExitError{Code: ExitFindings}
	}
	return nil
}

// runExample checks example ex of custom rule r under plan p's rules and
// returns the rule's findings ("file:line: message"). An artifact rule's
// example is an artifact (markdown, or a JSON object); any other is a
// thread export (JSON), a script of "@@" lines or one message body
// (rules.ExampleFiles).
func runExample(p *Plan, r *rules.Rule, ex string) ([]string, error) {
	dir, err := os.MkdirTemp("", "brenner-ci-example-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	files := map[string]string{}
	t := strings.TrimSpace(ex)
	switch {
	case r.Scope == rules.ScopeArtifact && strings.HasPrefix(t, "{"):
		files["artifacts/"+rules.ExampleThread+".json"] = ex
	case r.Scope == rules.ScopeArtifact:
		files["artifacts/"+rules.ExampleThread+".md"] = ex
	case strings.HasPrefix(t, "{") || strings.HasPrefix(t, "["):
		files["mailbox/example.json"] = ex
	default:
		if files, err = rules.ExampleFiles(ex, exampleSubject, false); err != nil {
			return nil, err
		}
	}
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return nil, err
		}
	}
	run := *p
	run.Paths = []string{dir}
	run.Ignored = nil
	_, res, err := run.Lint()
	if err != nil {
		return nil, err
	}
	var got []string
	for _, f := range res.Findings {
		if f.Rule == r.ID {
			f.Pos.File = strings.TrimPrefix(filepath.ToSlash(strings.TrimPrefix(f.Pos.File, dir)), "/")
			got = append(got, fmt.Sprintf("%s: %s", place(f.Pos), f.Message))
		}
	}
	return got, nil
}

func place(p diag.Pos) string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}
