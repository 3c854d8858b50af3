package rules

import (
	"fmt"
	"runtime"

	"github.com/sourcegraph/conc/iter"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
)

// RunOptions control a whole check run.
type RunOptions struct {
	Compile compile.Options
	Jobs    int
	// OnThread, when set, is called for every compiled thread inside the
	// worker (concurrently), e.g. to render its artifact; its result is
	// handed to Collect in thread order.
	OnThread func(*compile.Thread) any
	Collect  func(ref *mailbox.ThreadRef, v any)
}

// Run checks a scanned batch: persisted artifacts first (so threads can be
// compared with them), then every thread concurrently, then the batch rules.
// Output order never depends on scheduling.
func (e *Engine) Run(b *mailbox.Batch, opt RunOptions) *Result {
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	type artIn struct {
		path string
		json bool
	}
	var ins []artIn
	for _, p := range b.Markdown {
		ins = append(ins, artIn{p, false})
	}
	for _, p := range b.ArtifactJSON {
		ins = append(ins, artIn{p, true})
	}
	// Keep a parsed artifact whole only when its thread is in the batch
	// (DR-001 compares them); otherwise keep its front matter, so that a
	// nightly audit of many artifacts stays small.
	threadIDs := make(map[string]bool, len(b.Threads))
	for _, t := range b.Threads {
		threadIDs[t.Key] = true
	}
	arts := iter.Mapper[artIn, ArtifactResult]{MaxGoroutines: jobs}.Map(ins, func(in *artIn) ArtifactResult {
		r := e.CheckArtifact(in.path, in.json)
		if p := r.Parsed; p != nil && !threadIDs[artifactSession(p, p.File)] {
			r.Parsed = &artifact.Parsed{File: p.File, FromJSON: p.FromJSON, Origin: p.Origin,
				HasFrontMatter: p.HasFrontMatter, FrontPos: p.FrontPos, Front: p.Front}
		}
		return r
	})
	e.Persisted(arts)

	type out struct {
		res ThreadResult
		v   any
	}
	var results []ThreadResult
	extra := append([]diag.Finding(nil), b.Findings...)
	var notes []diag.Notification
	compile.Each(b, opt.Compile, jobs, func(t *compile.Thread) out {
		o := out{res: e.CheckThread(t)}
		if opt.OnThread != nil {
			o.v = opt.OnThread(t)
		}
		return o
	}, func(ref *mailbox.ThreadRef, o out, err error) {
		if err != nil {
			if ie, ok := err.(*compile.InternalError); ok {
				notes = append(notes, diag.Notification{Level: diag.Error, Message: fmt.Sprintf("internal error on thread %s: %v", ref.Key, ie.Value)})
				return
			}
			extra = append(extra, compile.LoadError(ref, err))
			return
		}
		results = append(results, o.res)
		if opt.Collect != nil {
			opt.Collect(ref, o.v)
		}
	})
	res := e.Finish(results, arts, extra)
	if len(notes) > 0 {
		res.Internal = true
		res.Notifications = append(notes, res.Notifications...)
	}
	return res
}
