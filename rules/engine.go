package rules

import (
	"fmt"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/config"
)

// Engine runs the enabled rules on compiled threads and applies the
// configuration: severities, ignores, per-path overrides and suppressions.
type Engine struct {
	Config *config.Config
	// persisted are the batch's persisted artifacts by session id (DR-001).
	persisted map[string][]*artifact.Parsed
	// enabled lists the rules not disabled globally, in registry order.
	enabled []*Meta
}

// NewEngine returns an engine for cfg (nil: defaults).
func NewEngine(cfg *config.Config) *Engine {
	e := &Engine{Config: cfg}
	for _, m := range All() {
		if cfg.Severity(m.ID, "", m.Severity) != diag.Off || hasOverride(cfg, m.ID) {
			e.enabled = append(e.enabled, m)
		}
	}
	return e
}

func hasOverride(cfg *config.Config, id string) bool {
	if cfg == nil {
		return false
	}
	for _, o := range cfg.Override {
		if _, ok := o.Rules[id]; ok {
			return true
		}
	}
	return false
}

// Enabled returns the ids of the rules evaluated.
func (e *Engine) Enabled() []string {
	ids := make([]string, len(e.enabled))
	for i, m := range e.enabled {
		ids[i] = m.ID
	}
	return ids
}

// ThreadResult is what the engine keeps of a thread after checking it: a
// summary, findings, and the little the batch rules need. Bodies are not kept.
type ThreadResult struct {
	Summary  diag.Thread
	Findings []diag.Finding
	// Internal lists rule panics (internal errors) on this thread.
	Internal []string
	ref      refInfo
	supp     []*suppression
}

// CheckThread runs every enabled thread rule on t.
func (e *Engine) CheckThread(t *compile.Thread) ThreadResult {
	r := ThreadResult{Summary: diag.Thread{
		Key: t.Key, File: t.File(), Messages: len(t.Msgs), Blocks: t.Stats.Blocks, Valid: t.Stats.Valid,
		Invalid: t.Stats.Invalid, Applied: t.Stats.Applied, Version: t.Version, Rules: e.Enabled(),
	}}
	r.Findings = append(r.Findings, t.Findings...)
	for _, m := range e.enabled {
		chk := checks[m.ID]
		if chk == nil {
			continue
		}
		c := &Ctx{T: t, meta: m}
		if err := runSafely(func() { chk(c) }); err != "" {
			r.Internal = append(r.Internal, fmt.Sprintf("rule %s panicked on thread %s: %s", m.ID, t.Key, err))
			continue
		}
		r.Findings = append(r.Findings, c.out...)
	}
	if len(e.persisted) > 0 && e.on("DR-001") {
		r.Findings = append(r.Findings, e.checkDrift(t)...)
	}
	r.ref = collectRefs(t)
	r.supp = inlineSuppressions(t)
	return r
}

func runSafely(f func()) (msg string) {
	defer func() {
		if v := recover(); v != nil {
			stack := string(debug.Stack())
			if i := strings.Index(stack, "panic("); i > 0 {
				stack = stack[i:]
			}
			if len(stack) > 600 {
				stack = stack[:600]
			}
			msg = fmt.Sprintf("%v\n%s", v, stack)
		}
	}()
	f()
	return ""
}

// Result is the outcome of a whole run.
type Result struct {
	Findings      []diag.Finding // sorted
	Threads       []diag.Thread
	Notifications []diag.Notification
	Internal      bool
}

// Finish runs the batch rules, applies configuration and suppressions,
// sorts, and returns the run's findings. extra are findings from outside
// threads (IN-001 …); arts are the persisted artifacts among the inputs.
func (e *Engine) Finish(results []ThreadResult, arts []ArtifactResult, extra []diag.Finding) *Result {
	res := &Result{}
	var all []diag.Finding
	all = append(all, extra...)
	for i := range arts {
		if arts[i].Skipped {
			continue
		}
		res.Threads = append(res.Threads, arts[i].Summary)
		all = append(all, arts[i].Findings...)
		for _, msg := range arts[i].Internal {
			res.Internal = true
			res.Notifications = append(res.Notifications, diag.Notification{Level: diag.Error, Message: "internal error: " + msg})
		}
	}
	for i := range results {
		res.Threads = append(res.Threads, results[i].Summary)
		all = append(all, results[i].Findings...)
		for _, msg := range results[i].Internal {
			res.Internal = true
			res.Notifications = append(res.Notifications, diag.Notification{Level: diag.Error, Message: "internal error: " + msg})
		}
	}
	if e.on("RF-001") || e.on("RF-002") {
		all = append(all, checkReferences(results, e.on("RF-001"), e.on("RF-002"))...)
	}
	all = append(all, checkArtifacts(results, arts, e)...)

	// Configuration: ignores, severities, disabled rules.
	kept := all[:0]
	for _, f := range all {
		if e.Config.Ignored(f.Pos.File) {
			continue
		}
		m := Lookup(f.Rule)
		if m == nil {
			kept = append(kept, f)
			continue
		}
		sev := e.Config.Severity(f.Rule, f.Pos.File, f.Severity)
		if sev == diag.Off {
			continue
		}
		f.Severity = sev
		kept = append(kept, f)
	}
	all = kept

	// Suppressions (inline comments and config entries).
	var supps []*suppression
	for i := range results {
		supps = append(supps, results[i].supp...)
	}
	for i := range arts {
		supps = append(supps, arts[i].supp...)
	}
	supps = append(supps, configSuppressions(e.Config)...)
	all = applySuppressions(all, supps)
	all = append(all, suppressionFindings(supps, e)...)

	sort.SliceStable(all, func(i, j int) bool { return diag.Less(&all[i], &all[j]) })
	res.Findings = dedupe(all)
	return res
}

func (e *Engine) on(id string) bool {
	for _, m := range e.enabled {
		if m.ID == id {
			return true
		}
	}
	return false
}

// dedupe drops exact duplicates (same rule, position, message, thread,
// message id) from a sorted slice.
func dedupe(fs []diag.Finding) []diag.Finding {
	out := fs[:0]
	for i := range fs {
		if i > 0 {
			a, b := &fs[i-1], &fs[i]
			if a.Rule == b.Rule && a.Pos == b.Pos && a.Message == b.Message && a.Thread == b.Thread && a.MsgID == b.MsgID {
				continue
			}
		}
		out = append(out, fs[i])
	}
	return out
}

func posLE(a, b diag.Pos) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col <= b.Col
}
