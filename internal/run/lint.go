package run

import (
	"fmt"
	"slices"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/pipeline"
	"github.com/brenner-ci/brenner-ci/rules"
)

// Lint is check without reports: it reads the inputs of p, compiles and
// checks every thread and artifact, runs the batch rules and the findings
// pipeline (no baseline), and returns the engine's raw output and the
// pipeline's result. Tests and benchmarks run the whole flow through it.
func (p *Plan) Lint() (*rules.Output, *pipeline.Result, error) {
	if p.err != nil {
		return nil, nil, p.err
	}
	batch, err := mailbox.Scan(p.Paths, p.ScanOptions())
	if err != nil {
		return nil, nil, err
	}
	eng := p.Engine()
	out := eng.Run(batch, rules.RunOptions{Compile: p.CompileOptions(batch.Agents), Jobs: p.Jobs})
	return out, p.pipeline(eng, out, nil), nil
}

// LintTree is Lint of the tree at root with the configuration check would
// find for it: from first (a folder in root) upward to root, the
// repository's root. An internal error is an error. Tests check example
// trees with it.
func LintTree(root, first string, jobs int) (*rules.Output, *pipeline.Result, error) {
	resolved, err := config.Resolve("", first, root, rules.Known)
	if err != nil {
		return nil, nil, err
	}
	out, res, err := NewPlan([]string{root}, resolved, jobs).Lint()
	if err == nil && out.Internal {
		err = fmt.Errorf("internal error: %+v", out.Notifications)
	}
	return out, res, err
}

// pipeline runs the findings pipeline on an engine's output, with the
// configuration and policy of p and baseline (nil: none).
func (p *Plan) pipeline(eng *rules.Engine, out *rules.Output, baseline map[string]bool) *pipeline.Result {
	return pipeline.Run(&pipeline.Input{Findings: slices.Concat(out.Findings, p.extra), Comments: out.Comments, Config: p.Cfg, Baseline: baseline,
		Ran: enabledSet(eng), Policy: p.Policy, Rules: p.Registry})
}
