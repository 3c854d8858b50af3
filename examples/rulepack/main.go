// Command rulepack is brenner-ci with one rule of its own, written in Go: a
// rule pack. Build it with `go build` in this folder; it has every command
// of brenner-ci, and its rule is listed, configured, suppressed and
// reported like a built-in one.
package main

import (
	"fmt"

	"github.com/brenner-ci/brenner-ci/compile/subject"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rulepack"
	"github.com/brenner-ci/brenner-ci/rules"
)

// kickoffFirst reports a research thread whose first message is not its
// KICKOFF: a thread forwarded or exported from the middle loses the
// question it answers.
var kickoffFirst = &rules.Rule{
	ID:       "PACK-001",
	Name:     "kickoff-first",
	Code:     "PACK-001",
	Family:   "PACK",
	Scope:    rules.ScopeThread,
	Severity: diag.Warning,
	Spec:     "our lab's conventions",
	Short:    "A thread starts with its KICKOFF.",
	Full:     "The first message of a thread is the KICKOFF that states its question; a thread that starts elsewhere was exported from the middle, or its kickoff was lost.",
	Bad:      "@@ DELTA[gpt]: Hypotheses\nfirst\n@@ KICKOFF: Cell fate\nlate",
	Good:     "@@ KICKOFF: Cell fate\nwhy\n@@ DELTA[gpt]: Hypotheses\nfirst",
	Check: func(c *rules.Ctx) {
		if len(c.T.Msgs) == 0 {
			return
		}
		first := c.T.Msgs[0]
		if first.Subject.Kind == subject.Kickoff {
			return
		}
		c.Report(first.Pos("subject"), fmt.Sprintf("Thread %s starts with %s, not with its KICKOFF.", c.T.ID(), first.Subject.Kind), "Export the thread from its first message.")
	},
}

func main() { rulepack.Main([]*rules.Rule{kickoffFirst}) }
