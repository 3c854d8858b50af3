package pipeline

import (
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/rules"
)

// gates reports whether findings fail a run under the fail-on of cfg
// (the default, error, when cfg sets none).
func gates(out *Result, cfg *config.Config) bool {
	threshold := diag.Error
	if cfg != nil && cfg.FailOn != "" {
		threshold, _ = config.ParseFailOn(cfg.FailOn)
	}
	if threshold == diag.Off {
		return false
	}
	for _, f := range out.Findings {
		if f.Severity != diag.Off && f.Severity <= threshold {
			return true
		}
	}
	return false
}

// FuzzNestedConfigNeverOpensTheGate drives the policy with random
// configurations below the repository root: whatever the nested file says,
// a run that fails under the root's configuration alone still fails with it
// (no nested file lowers the exit code of a run with errors), and every
// error the root's configuration keeps is still reported.
func FuzzNestedConfigNeverOpensTheGate(f *testing.F) {
	for _, seed := range []string{
		"ignore: [\"**\"]\n",
		"fail-on: none\n",
		"rules:\n  MB-004: off\n  MB-003: note\n",
		"overrides:\n  - paths: [\"**\"]\n    rules: {MB-004: off, MB-003: off}\n",
		"suppress:\n  - {rule: MB-004, thread: t1}\n",
		"<<: {ignore: [\"**\"], fail-on: none}\n",
		"limits:\n  json-depth: 100000\n",
		"rules:\n  SP-005: off\nagents: [Mallory]\n",
		"fail-on: note\nrules:\n  MB-014: error\n",
	} {
		f.Add(seed, "")
		f.Add(seed, "fail-on: warning\nrules:\n  MB-003: warning\n")
	}
	findings := []diag.Finding{
		{Rule: "MB-004", Severity: diag.Error, Message: "empty delta", Pos: diag.Pos{File: "mailbox/t1.json", Line: 3, Col: 1}, Thread: "t1", MsgID: "2"},
		{Rule: "MB-003", Severity: diag.Error, Message: "no context", Pos: diag.Pos{File: "mailbox/sub/t2.json", Line: 9, Col: 1}, Thread: "t2", MsgID: "1"},
		{Rule: "MB-014", Severity: diag.Warning, Message: "no excerpt", Pos: diag.Pos{File: "mailbox/t1.json", Line: 5, Col: 1}, Thread: "t1", MsgID: "1"},
	}
	f.Fuzz(func(t *testing.T, nestedYAML, rootYAML string) {
		nested, err := config.Parse("mailbox/.brenner-ci.yaml", []byte(nestedYAML), rules.Known)
		if err != nil {
			return // a configuration error: the run cannot run (exit 2), never passes
		}
		var base *config.Config
		if rootYAML != "" {
			if base, err = config.Parse(".brenner-ci.yaml", []byte(rootYAML), rules.Known); err != nil {
				return // the repository's own configuration is broken: exit 2
			}
		}
		alone := Run(&Input{Findings: append([]diag.Finding(nil), findings...), Config: base})
		eff := config.Tighten(base, ".", nested)
		res := &config.Resolved{Config: nested, Below: true, Base: base, Effective: eff, Untrusted: []*config.Config{nested}}
		with := Run(&Input{Findings: append([]diag.Finding(nil), findings...), Config: eff, Policy: res})
		if gates(alone, base) && !gates(with, eff) {
			t.Fatalf("nested %q opened the gate of root %q", nestedYAML, rootYAML)
		}
		kept := map[string]bool{}
		for _, f := range with.Findings {
			if f.Severity == diag.Error {
				kept[f.Rule+" "+f.Thread] = true
			}
		}
		for _, f := range alone.Findings {
			if f.Severity == diag.Error && !kept[f.Rule+" "+f.Thread] {
				t.Fatalf("nested %q dropped or lowered the error %s of thread %s", nestedYAML, f.Rule, f.Thread)
			}
		}
	})
}
