package run

import (
	"errors"
	"fmt"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/reporters"
	"github.com/brenner-ci/brenner-ci/rules"
)

// ConfigVerifyOptions are config verify's options as the command line
// gives them.
type ConfigVerifyOptions struct {
	Path   string
	Config string
}

// ConfigVerify parses and validates the configuration that would govern a
// check of c.Path (the --config file alone, else the same discovery as
// check) and says what it found: the files, what each sets, and what a
// file below the repository root would relax (SP-005 in check). A
// configuration error is every error of the file, one a line on standard
// error, and exit 2.
func ConfigVerify(c ConfigVerifyOptions, e *Env) error {
	path := c.Path
	if path == "" {
		path = "."
	}
	base := e.Rules
	if base == nil {
		base = rules.Builtin()
	}
	res, err := config.Resolve(c.Config, path, "", base.Known)
	var reg *rules.Registry
	if err == nil {
		// The custom rules in force compile, or are errors too.
		reg, err = registry(base, res.Effective)
	}
	if err != nil {
		var list config.Errors
		if !errors.As(err, &list) {
			list = config.Errors{{Msg: err.Error()}}
			var one *config.Error
			if errors.As(err, &one) {
				list[0] = one
			}
		}
		for _, ce := range list {
			fmt.Fprintf(e.Stderr, "brenner-ci: configuration error: %s\n", reporters.Safe(ce.Error()))
		}
		return &ExitError{Code: ExitUsage}
	}
	paths := reporters.NewPaths("")
	show := func(file string) string { return reporters.SafeOneLine(paths.Display(file)) }
	fmt.Fprintf(e.Stdout, "brenner-ci: %s\n", reporters.ConfigLine(&diag.Report{Config: configInfo(res)}))
	if res.Config == nil {
		fmt.Fprintf(e.Stdout, "no %s or %s from %s up to the repository root: the defaults apply\n", config.FileNames[0], config.FileNames[1], reporters.SafeOneLine(path))
		return nil
	}
	if res.Base != nil {
		fmt.Fprintf(e.Stdout, "%s: valid: %s\n", show(res.Base.Path), reporters.SafeOneLine(res.Base.Summary()))
	}
	fmt.Fprintf(e.Stdout, "%s: valid: %s\n", show(res.Config.Path), reporters.SafeOneLine(res.Config.Summary()))
	if res.Below {
		ids := make([]string, 0, len(reg.All()))
		for _, r := range reg.All() {
			ids = append(ids, r.ID)
		}
		def := func(id string) diag.Severity { return reg.Lookup(id).Severity }
		for _, rel := range config.Relaxations(res.Config, res.Base, ids, def) {
			at := show(res.Config.Path)
			if rel.Line > 0 {
				at += fmt.Sprintf(":%d:%d", rel.Line, rel.Col)
			}
			fmt.Fprintf(e.Stdout, "%s: not applied (SP-005 in check): %s\n", at, reporters.SafeOneLine(rel.What))
		}
	}
	return nil
}
