package cli

import (
	"io"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/reporters/genealogy"
	"github.com/brenner-ci/brenner-ci/rules"
)

type graphCmd struct {
	Paths  []string `arg:"" optional:"" name:"path" help:"Files or directories to read (default .)."`
	Config string   `help:"Configuration file (default: .brenner-ci.yaml found from the first path upward to the repository root)." placeholder:"FILE"`
	Format string   `help:"Output format: mermaid, dot or json." enum:"mermaid,dot,json" default:"mermaid"`
	Jobs   int      `help:"Threads compiled in parallel (default: number of CPUs)." default:"0"`
}

// Run writes the genealogy graph of the threads in the paths: every item
// that references or is referenced by another (cross-session references),
// by session, with the references as labelled edges and killed items
// styled.
func (c *graphCmd) Run(e *env) error {
	paths := c.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	policy, err := loadConfig(c.Config, paths)
	if err != nil {
		return err
	}
	batch, err := mailbox.Scan(paths, mailbox.ScanOptions{Jobs: c.Jobs, MaxFileBytes: maxFileBytes(policy.Config)})
	if err != nil {
		return usagef("%v", err)
	}
	if err := nothingFound(batch, paths); err != nil {
		return err
	}
	opt := compile.Options{ArchiveAgents: batch.Agents}
	if cfg := policy.Config; cfg != nil {
		opt.Agents = cfg.Agents
		opt.MaxMessages, opt.MaxBlocks = cfg.Limits.Messages, cfg.Limits.Blocks
	}
	out := rules.NewEngine(policy.Config).Run(batch, rules.RunOptions{Compile: opt, Jobs: c.Jobs})
	g := out.Genealogy
	switch c.Format {
	case "json":
		return genealogy.WriteJSON(e.stdout, &g)
	case "dot":
		_, err = io.WriteString(e.stdout, genealogy.DOT(&g))
	default:
		_, err = io.WriteString(e.stdout, genealogy.Mermaid(&g))
	}
	return err
}
