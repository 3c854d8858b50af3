package run

import (
	"io"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/reporters/genealogy"
	"github.com/brenner-ci/brenner-ci/rules"
)

// GraphOptions are graph's options as the command line gives them.
type GraphOptions struct {
	Paths  []string
	Config string
	Format string // mermaid, dot or json
	Jobs   int
}

// Graph writes the genealogy graph of the threads and persisted artifacts
// in the paths: every item that references or is referenced by another
// (cross-session references), by session, with the references as labelled
// edges — those read from an artifact dotted, with a legend line — and
// killed items styled.
func Graph(c GraphOptions, e *Env) error {
	plan, err := settle(e.Rules, c.Config, c.Paths, c.Jobs, 0, 0)
	if err != nil {
		return err
	}
	batch, err := mailbox.Scan(plan.Paths, plan.ScanOptions())
	if err != nil {
		return usagef("%v", err)
	}
	if err := nothingFound(batch, plan.Paths); err != nil {
		return err
	}
	out := plan.Engine().Run(batch, rules.RunOptions{Compile: plan.CompileOptions(batch.Agents), Jobs: c.Jobs})
	g := out.Genealogy
	switch c.Format {
	case "json":
		return genealogy.WriteJSON(e.Stdout, &g)
	case "dot":
		_, err = io.WriteString(e.Stdout, genealogy.DOT(&g))
	default:
		_, err = io.WriteString(e.Stdout, genealogy.Mermaid(&g))
	}
	return err
}
