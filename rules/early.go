package rules

import (
	"github.com/sourcegraph/conc/iter"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
)

// Early is the check a scan runs on a thread while it holds the thread's
// file (mailbox.Early): the check RunThreads would run on it (opt as
// RunThreads gets it, without archive agents), for a thread that owns no
// persisted artifact. markdown are the inputs that may be persisted
// artifacts (mailbox.Inputs.Markdown): a thread that one of them may
// belong to is left for RunThreads, which pairs them.
//
// Nil when the run cannot check threads early: with a cache (opt.Cache).
//
// The rules with a Budget charge nothing during these checks: a result
// the run takes is charged when it is taken, as a cached one is
// (threadRun.reuse), and one it does not take (its file scanned again,
// Drop) is never charged, so no thread counts twice. What these checks
// spend together is bounded by the limit too (Budget.early): a check that
// passes it stops, its result is not taken, and the thread is checked
// again with the others, charging as it goes. So the run's spending only
// grows, and reaches the limit only when the taken results' costs pass
// it, as without early checks: the findings and the withdrawals are those
// of a run without them.
func (e *Engine) Early(opt RunOptions, markdown []string) *mailbox.Early {
	if opt.Cache != nil {
		return nil
	}
	// The thread each artifact is paired with is the first of its session
	// id, or else of its file name (pairArtifacts, which takes the ids
	// read here).
	sids := iter.Mapper[string, string]{MaxGoroutines: opt.Jobs}.Map(markdown, func(p *string) string {
		return e.ArtifactSession(*p, false)
	})
	e.sessions = make(map[string]string, len(sids))
	owned := make(map[string]bool, len(sids))
	for i, sid := range sids {
		e.sessions[markdown[i]] = sid
		if sid == "" {
			sid = ArtifactPathThread(markdown[i])
		}
		owned[sid] = true
	}
	r := &threadRun{e: e, opt: opt, early: true}
	return &mailbox.Early{
		Check: func(t *mailbox.Thread) (any, bool) {
			c, err := compile.One(t, opt.Compile, r.check)
			if err != nil || c.Thread.Incomplete {
				return c, false
			}
			if opt.Held != nil {
				return opt.Held.Hold(c), true
			}
			return c, true
		},
		Owned: func(id string) bool { return owned[id] },
	}
}

// Held keeps the results of the threads checked during the scan until
// their turn (RunOptions.Held): a nightly audit checks most of its threads
// early, and their results would be in memory from the scan on. Both
// methods are called concurrently.
type Held interface {
	// Hold returns what stands for c until Take (c itself when it keeps
	// c as it is).
	Hold(c *Checked) any
	// Take returns the result v, which Hold returned, stands for; false
	// when it is lost (a disk that lost what it held): the thread is then
	// loaded and checked as if it had not been checked early.
	Take(v any) (*Checked, bool)
}
