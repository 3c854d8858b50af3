package rules

import (
	"bytes"
	"fmt"
	"io/fs"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/sourcegraph/conc/iter"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
)

// Engine runs a list of rules, every scope through one context type (Ctx):
// persisted artifacts, then threads (message and thread scopes), then the
// batch. It produces raw findings and the comments that may hold
// suppressions; the findings pipeline does everything after that. It reads
// no file itself: persisted artifacts and evidence packs come through
// Files.
type Engine struct {
	// enabled lists the rules the engine runs, in the order given.
	enabled []*Rule
	on      map[string]bool
	// ids are the enabled rules' ids, artifactIDs those of the
	// artifact-scope ones, and unparsedIDs those of them that run on an
	// artifact that could not be parsed (all but the artifact linter's,
	// see checkArtifact): slices shared (read-only) by every thread's and
	// artifact's summary, so summaries cost nothing per rule.
	ids, artifactIDs, unparsedIDs []string
	files                         Files
	limits                        limits.Parse
	// sessions are the session ids Early read from the markdown inputs'
	// front matter, by path, for pairArtifacts not to read them again
	// (nil: none read).
	sessions map[string]string
}

// Files reads the inputs the engine checks besides thread exports:
// persisted artifacts and their evidence packs. The run supplies it
// (internal/run reads the file system), so the engine does no I/O of its
// own; tests may hand it anything.
type Files interface {
	ReadFile(name string) ([]byte, error)
	Stat(name string) (fs.FileInfo, error)
}

// NewEngine returns an engine running rs (normally All(), less the rules
// the configuration turns off everywhere), in that order, reading
// artifacts through files.
func NewEngine(rs []*Rule, files Files, lim limits.Parse) *Engine {
	e := &Engine{on: map[string]bool{}, files: files, limits: lim}
	for _, r := range rs {
		e.enabled = append(e.enabled, r)
		e.on[r.ID] = true
		e.ids = append(e.ids, r.ID)
		if r.Scope == ScopeArtifact && r.Check != nil {
			e.artifactIDs = append(e.artifactIDs, r.ID)
			if r.Family != familyLinter {
				e.unparsedIDs = append(e.unparsedIDs, r.ID)
			}
		}
	}
	e.ids = slices.Clip(e.ids)
	e.artifactIDs = slices.Clip(e.artifactIDs)
	e.unparsedIDs = slices.Clip(e.unparsedIDs)
	return e
}

// Enabled returns the ids of the rules evaluated, in registry order.
// The slice is shared: callers must not modify it.
func (e *Engine) Enabled() []string { return e.ids }

// ArtifactRules returns the ids of the artifact-scope rules with a check,
// the rules a persisted artifact's summary lists. The slice is shared.
func (e *Engine) ArtifactRules() []string { return e.artifactIDs }

// run calls a rule's check with c, turning a panic into an internal error
// on what where names (called only then: run is called for every rule and
// message).
func (e *Engine) run(r *Rule, c *Ctx, where func() string, internal *[]string) {
	e.runCheck(r, r.Check, c, where, internal)
}

// runCheck is run with the check to call: the rule's Check or its
// BatchCheck.
func (e *Engine) runCheck(r *Rule, check func(*Ctx), c *Ctx, where func() string, internal *[]string) {
	c.rule = r
	msg := runSafely(func() { check(c) })
	c.settle()
	if msg != "" {
		*internal = append(*internal, fmt.Sprintf("rule %s panicked on %s: %s", r.ID, where(), msg))
	}
}

// ThreadResult is what the engine keeps of a thread after checking it: a
// summary, findings, comments, and the little the batch rules need. Bodies
// are not kept.
type ThreadResult struct {
	Summary  diag.Thread
	Findings []diag.Finding
	Comments []diag.Comment
	// Internal lists rule panics (internal errors) on this thread.
	Internal []string
	// Facts are what the batch rules need of the thread.
	Facts Facts
	// Cost is what rules with a Budget spent on the thread and its
	// persisted artifacts, by rule id; Incomplete is set when one of them
	// stopped for its budget (the result is then not cached).
	Cost       map[string]uint64
	Incomplete bool
}

// CheckThread runs every enabled message and thread rule on t and passes on
// the compiler's findings of enabled rules. persisted are the thread's
// persisted artifacts, for DR-001 (nil: none among the inputs).
func (e *Engine) CheckThread(t *compile.Thread, persisted []*artifact.Parsed) ThreadResult {
	return e.checkThread(t, persisted, false)
}

// checkThread is CheckThread, with deferred: the run's budgets are not
// charged (Ctx.deferred).
func (e *Engine) checkThread(t *compile.Thread, persisted []*artifact.Parsed, deferred bool) ThreadResult {
	r := ThreadResult{Summary: diag.Thread{
		Key: t.Key, File: t.File(), Messages: len(t.Msgs), Blocks: t.Stats.Blocks, Valid: t.Stats.Valid,
		Invalid: t.Stats.Invalid, Applied: t.Stats.Applied, Version: t.Version, Rules: e.Enabled(),
	}}
	for _, f := range t.Findings {
		if e.on[f.Rule] || Lookup(f.Rule) == nil {
			r.Findings = append(r.Findings, f)
		}
	}
	c := &Ctx{T: t, Thread: t.Key, Persisted: persisted, deferred: deferred}
	var at checkStep
	for !e.checkFrom(c, &at, &r.Internal) {
	}
	r.Findings = append(r.Findings, c.out...)
	r.Cost, r.Incomplete = c.cost, c.incomplete
	r.Facts = CollectFacts(t)
	r.Comments = messageComments(t)
	r.detach()
	return r
}

// checkStep is where CheckThread is in its thread's checks: rule
// e.enabled[rule], and for a message rule its message msg.
type checkStep struct{ rule, msg int }

// checkFrom runs the message and thread rules on c.T from step at on. A
// panic is an internal error of the rule and message at: checkFrom records
// it, moves at past that step and returns false, and CheckThread calls it
// again for the steps after. One recover per thread instead of one per rule
// and message (a check makes about 2,000 calls a thread; the deferred
// recover of each was 5% of the instructions of a run).
func (e *Engine) checkFrom(c *Ctx, at *checkStep, internal *[]string) (done bool) {
	t := c.T
	defer func() {
		if done {
			return
		}
		// A panic, even one recover reports as nil (panic(nil) with
		// GODEBUG=panicnil=1, which runSafely let pass as no error):
		// step past it either way.
		rule := e.enabled[at.rule]
		if v := recover(); v != nil {
			where := "thread " + t.Key
			if rule.Scope == ScopeMessage {
				where += " message " + t.Msgs[at.msg].ID
			}
			*internal = append(*internal, fmt.Sprintf("rule %s panicked on %s: %s", rule.ID, where, panicText(v)))
		}
		c.settle()
		if at.msg++; rule.Scope != ScopeMessage || at.msg >= len(t.Msgs) {
			at.rule, at.msg = at.rule+1, 0
		}
		c.M = nil
		done = false
	}()
	for ; at.rule < len(e.enabled); at.rule, at.msg = at.rule+1, 0 {
		rule := e.enabled[at.rule]
		if t.Stopped() {
			break // its time budget ran out: the result is dropped
		}
		c.rule = rule
		switch {
		case rule.Check == nil:
		case rule.Scope == ScopeMessage:
			for ; at.msg < len(t.Msgs); at.msg++ {
				c.M = t.Msgs[at.msg]
				rule.Check(c)
				c.settle()
			}
			c.M = nil
		case rule.Scope == ScopeThread:
			rule.Check(c)
			c.settle()
		}
	}
	return true
}

// detach copies the strings of r that may point into the thread's message
// bodies or packed records (anchors, comment texts, reference fields are
// substrings of them): a result outlives its thread, whose bodies' memory
// is reused for the next thread (and one short substring of a body would
// keep all of it alive until the reports are written).
func (r *ThreadResult) detach() {
	for i := range r.Findings {
		r.Findings[i].Detach()
	}
	for i := range r.Comments {
		r.Comments[i].Detach()
	}
	for i := range r.Facts.Refs {
		rf := &r.Facts.Refs[i]
		rf.From, rf.Session, rf.Item, rf.Relation, rf.MsgID = strings.Clone(rf.From), strings.Clone(rf.Session),
			strings.Clone(rf.Item), strings.Clone(rf.Relation), strings.Clone(rf.MsgID)
	}
}

// messageComments lists the HTML comments of every message body.
func messageComments(t *compile.Thread) []diag.Comment {
	var out []diag.Comment
	for _, m := range t.Msgs {
		if m.Doc == nil {
			continue
		}
		for _, cm := range m.Doc.Comments {
			from, to := nextBlock(m.Body, cm.End, m.Doc)
			out = append(out, diag.Comment{Text: cm.Text, Pos: m.BodyPos(cm.Start, cm.End).Normalize(),
				From: m.BodyPos(from, from), To: m.BodyPos(to, to), Thread: t.Key, MsgID: m.ID})
		}
	}
	return out
}

// nextBlock returns the byte range of the markdown block after offset off:
// a fenced block as a whole, otherwise up to the next blank line.
func nextBlock(src string, off int, d *body.Doc) (int, int) {
	i := off
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	for _, f := range d.Fences {
		if f.Start >= off && f.Start <= i+1 {
			return f.Start, f.End
		}
	}
	if j := strings.Index(src[i:], "\n\n"); j >= 0 {
		return i, i + j
	}
	return i, len(src)
}

func runSafely(f func()) (msg string) {
	defer func() {
		if v := recover(); v != nil {
			msg = panicText(v)
		}
	}()
	f()
	return ""
}

// panicText is a recovered panic value and the start of its stack, from
// the panic on. Call it in the deferred function that recovered.
func panicText(v any) string {
	stack := string(debug.Stack())
	if i := strings.Index(stack, "panic("); i > 0 {
		stack = stack[i:]
	}
	if len(stack) > 600 {
		stack = stack[:600]
	}
	return fmt.Sprintf("%v\n%s", v, stack)
}

// ArtifactResult is what the engine keeps of a checked artifact file.
type ArtifactResult struct {
	Summary  diag.Thread
	Findings []diag.Finding
	Comments []diag.Comment
	Internal []string
	// Parsed is kept for the batch rules (AP-010, DR-001, DR-002); its Src
	// is dropped to bound memory.
	Parsed *artifact.Parsed
	// Facts are the artifact's items and references for the cross-session
	// rules and the genealogy graph (nil when it was not read as an
	// artifact).
	Facts *Facts
	// Skipped is true for markdown that is not an artifact.
	Skipped bool
	// Cost and Incomplete are ThreadResult's, for the artifact's checks.
	Cost       map[string]uint64
	Incomplete bool
}

// notAnArtifact is the DR-003 finding of a file at an artifact path that
// is empty or not an artifact.
func notAnArtifact(path string, empty bool) diag.Finding {
	what := "is not an artifact: it has no front matter with a session_id and none of the seven section headings"
	if empty {
		what = "is empty"
	}
	return diag.Finding{Rule: "DR-003", Message: fmt.Sprintf("This is the artifact path of thread %s, but the file %s.", ArtifactPathThread(path), what),
		Hint: "Restore the artifact (brenner-ci compile THREAD --out DIR writes it), or delete the file together with its thread.",
		Pos:  diag.Pos{File: path, Line: 1, Col: 1}, Thread: ArtifactPathThread(path), Anchor: "not an artifact " + path}
}

// looksLikeArtifact tells a persisted artifact from other markdown: front
// matter with a session_id, one of the seven section headings, or the
// evidence-pack layout's artifact.md name.
func looksLikeArtifact(p *artifact.Parsed, path string) bool {
	if p.Field("session_id") != nil {
		return true
	}
	for _, s := range p.Sections {
		if s.Section != "" {
			return true
		}
	}
	return strings.HasSuffix(path, "/artifact.md") || path == "artifact.md"
}

// CheckArtifact parses and lints one persisted artifact: a markdown file, or
// a JSON artifact object when fromJSON is set.
func (e *Engine) CheckArtifact(path string, fromJSON bool) ArtifactResult {
	return e.checkArtifact(path, fromJSON, false, nil)
}

// checkArtifact is CheckArtifact; atPath says the file is at the artifact
// path of a thread (artifacts/<thread_id>.md), so that markdown that is
// not an artifact there is reported (DR-003) instead of skipped, and is
// still compared with its thread (DR-001). thread, when set, is the
// compiled artifact of the thread the file persists: what the file holds
// of it was checked at its deltas (RF-003 is not reported twice).
func (e *Engine) checkArtifact(path string, fromJSON, atPath bool, thread *artifact.Artifact) ArtifactResult {
	r := ArtifactResult{Summary: diag.Thread{Key: path, File: path, Artifact: true}}
	src, err := e.files.ReadFile(path)
	if err != nil {
		r.Findings = append(r.Findings, diag.Finding{Rule: "IN-001", Code: "UNREADABLE_INPUT", Severity: diag.Error,
			Message: fmt.Sprintf("Artifact %s could not be read: %v.", path, err), Pos: diag.Pos{File: path}, Anchor: "read " + path})
		return r
	}
	var p *artifact.Parsed
	if msg := runSafely(func() {
		p = artifact.Read(src, path, fromJSON, e.limits)
	}); msg != "" {
		r.Internal = append(r.Internal, fmt.Sprintf("parsing artifact %s panicked: %s", path, msg))
		return r
	}
	if !fromJSON && !looksLikeArtifact(p, path) && !unparsed(p) {
		if atPath {
			// Emptied or replaced: the drift against its thread must not
			// disappear with the artifact (DR-001 compares it as an
			// artifact with no items).
			r.Findings = append(r.Findings, notAnArtifact(path, len(bytes.TrimSpace(src)) == 0))
			r.Parsed = p
			return r
		}
		// Other markdown (a README, a kickoff pack kept beside the
		// artifacts) is not linted as an artifact.
		r.Skipped = true
		if len(src) == 0 {
			r.Findings = append(r.Findings, diag.Finding{Rule: "IN-006", Code: "SKIPPED_INPUT", Severity: diag.Note,
				Message: "This file is empty; it is not checked.", Hint: "Remove it from the checked paths, or replace it with the file it stands for.",
				Pos: diag.Pos{File: path}, Anchor: path + " skipped"})
		}
		return r
	}
	r.Findings = append(r.Findings, p.Findings...)
	ev, evFinding := LoadEvidence(e.files, path, e.limits)
	if evFinding != nil {
		r.Findings = append(r.Findings, *evFinding)
	}
	c := &Ctx{P: p, Evidence: ev, Thread: artifactSession(p, path)}
	r.Summary.Rules = e.artifactIDs
	// A file that could not be parsed (IN-001, IN-008) has front matter and
	// sections that are unknown, not absent: the artifact linter's rules,
	// which judge them, would report them all missing, so they do not run.
	// The others do: credentials are looked for in the file's bytes, and
	// the evidence pack is a file of its own.
	parsed := !unread(p)
	if !parsed {
		r.Summary.Rules = e.unparsedIDs
	}
	for _, rule := range e.enabled {
		if rule.Scope == ScopeArtifact && rule.Check != nil && (parsed || rule.Family != familyLinter) {
			e.run(rule, c, func() string { return "artifact " + path }, &r.Internal)
		}
	}
	r.Findings = append(r.Findings, c.out...)
	r.Cost, r.Incomplete = c.cost, c.incomplete
	if p.FromJSON {
		// Positions point into the rendering: carried back to the JSON
		// values they were rendered from. A fix would edit the rendering,
		// not the file: there is none.
		for i := range r.Findings {
			if r.Findings[i].Pos.File == path {
				r.Findings[i].Pos = p.OriginPos(r.Findings[i].Pos)
				r.Findings[i].Fix = nil
			}
		}
	} else {
		r.Comments = artifactComments(p, c.Thread)
	}
	// References are checked where the file holds them: a JSON artifact's
	// in the JSON file (after the rewrite above).
	if parsed {
		if e.on["RF-003"] {
			r.Findings = append(r.Findings, artifactReferenceFindings(p, c.Thread, thread)...)
		}
		r.Facts = artifactFacts(p, c.Thread)
	}
	// Src stays for the thread's drift check; the engine keeps only the
	// front matter afterwards (frontOnly).
	r.Parsed = p
	return r
}

// artifactSession is the session id of an artifact: front matter session_id,
// else the one its path names.
func artifactSession(p *artifact.Parsed, path string) string {
	if p != nil && p.Art != nil && p.Art.SessionID != "" {
		return p.Art.SessionID
	}
	return ArtifactPathThread(path)
}

// artifactComments lists the HTML comments of an artifact outside code, as
// CommonMark sees them (a comment inside a code fence is code, not a
// directive). Files without "brenner-ci" are not parsed again.
func artifactComments(p *artifact.Parsed, thread string) []diag.Comment {
	if !strings.Contains(string(p.Src), "brenner-ci") {
		return nil
	}
	src := string(p.Src)
	d := body.Parse(src)
	li := diag.NewLineIndex(p.Src)
	out := make([]diag.Comment, 0, len(d.Comments))
	for _, cm := range d.Comments {
		from, to := nextBlock(src, cm.End, d)
		out = append(out, diag.Comment{Text: cm.Text, Pos: li.Span(p.File, cm.Start, cm.End).Normalize(),
			From: li.Span(p.File, from, from), To: li.Span(p.File, to, to), File: p.File, Thread: thread})
	}
	return out
}

// Batch is what batch rules see: every thread's facts and every artifact
// result of the run.
type Batch struct {
	Threads   []ThreadFacts
	Artifacts []ArtifactResult
	refs      *refGraph // built on first use (rf.go)
}

// ThreadFacts is what the batch rules read of a checked thread: its facts,
// and the file that holds it. The rest of its result is in the Output by
// then; a nightly audit of 200,000 threads held every whole result beside
// it (62 MB of them) through its batch rules.
type ThreadFacts struct {
	Facts Facts
	File  string
}

// CheckBatch runs the batch rules, and the batch part (BatchCheck) of the
// rules of other scopes that have one.
func (e *Engine) CheckBatch(b *Batch) (findings []diag.Finding, internal []string) {
	c := &Ctx{Batch: b}
	for _, rule := range e.enabled {
		check := rule.BatchCheck
		if rule.Scope == ScopeBatch {
			check = rule.Check
		}
		if check != nil {
			e.runCheck(rule, check, c, func() string { return "the batch" }, &internal)
		}
	}
	return c.out, internal
}

// Output is the engine's raw result for a whole run: findings before the
// findings pipeline (no configuration, suppression, order or de-duplication
// applied yet), the comments that may suppress them, and run-level notes.
type Output struct {
	// Genealogy is the reference graph of the run's threads and artifacts.
	Genealogy     diag.Genealogy
	Findings      []diag.Finding
	Comments      []diag.Comment
	Threads       []diag.Thread
	Notifications []diag.Notification
	Internal      bool
	// Cost is what rules with a Budget spent in the run, by rule id: a rule
	// that spent more than its budget's limit has its findings withdrawn
	// (Finish). A shard carries it, so a merged run decides the same.
	Cost map[string]uint64
}

// Checked is what the engine hands on of one checked thread: its result,
// its persisted artifacts' results (front matter only), and what a run
// writes of it.
type Checked struct {
	Thread    ThreadResult
	Artifacts []ArtifactResult // aligned with the thread's ArtifactInputs
	ID        string           // the thread id, or the key when it has none
	Last      time.Time        // the instant of the thread's last message
	Render    []byte           // the rendered artifact, with RunOptions.Render
}

// ArtifactInput is one persisted artifact among the inputs.
type ArtifactInput struct {
	Path   string
	JSON   bool // a JSON artifact object
	AtPath bool // at the artifact path of a thread (DR-003)
}

// Reuser stands in for checking a thread: results recorded by an earlier
// run (internal/cache). Both methods are called in the workers,
// concurrently.
type Reuser interface {
	// Reuse returns the recorded results of ref with its persisted
	// artifacts arts, or false (the thread is then checked, and Keep
	// called).
	Reuse(ref *mailbox.ThreadRef, arts []ArtifactInput) (*Checked, bool)
	// Keep records the results of the thread with key, checked in this
	// run.
	Keep(key string, c *Checked)
}

// RunOptions control a whole check run.
type RunOptions struct {
	Compile compile.Options
	Jobs    int
	// Render keeps every thread's rendered artifact in Checked.Render.
	Render bool
	// Cache, when set, is asked for each thread's results before the
	// thread is loaded.
	Cache Reuser
	// Collect, when set, is called for every thread checked in time, in
	// thread order (a thread past its budget may still be running).
	Collect func(ref *mailbox.ThreadRef, c *Checked)
	// Results, when set, holds the threads' results from their check to
	// the batch rules (nil: a slice). A nightly audit keeps 200,000 of
	// them, and the collector scans every pointer they hold at each cycle.
	Results Results
	// Held, when set, keeps the results of the threads checked during the
	// scan (Early) until their turn (nil: as they are, in memory).
	Held Held
}

// Results holds the results of the threads checked, in thread order, until
// the batch rules run.
type Results interface {
	// Add keeps the next thread's result.
	Add(ThreadResult)
	// Sizes reports how many results were added, and how many findings
	// and comments they hold together.
	Sizes() (threads, findings, comments int)
	// Each calls fn with every result kept, in order; it is called once,
	// last, and fn keeps nothing of the ThreadResult it is given but the
	// values of its fields. With an error (results that could not be read
	// back), fn has seen the results before the first it lost, and the run
	// reports an internal error.
	Each(fn func(*ThreadResult)) error
}

// inMemory is the Results of a run that sets none.
type inMemory []ThreadResult

func (m *inMemory) Add(t ThreadResult) { *m = append(*m, t) }

func (m *inMemory) Sizes() (threads, findings, comments int) {
	for i := range *m {
		findings += len((*m)[i].Findings)
		comments += len((*m)[i].Comments)
	}
	return len(*m), findings, comments
}

func (m *inMemory) Each(fn func(*ThreadResult)) error {
	for i := range *m {
		fn(&(*m)[i])
		(*m)[i] = ThreadResult{} // what fn took is its own now
	}
	*m = nil
	return nil
}

// Run checks a scanned batch: persisted artifacts first (so threads can be
// compared with them), then every thread concurrently, then the batch rules.
// Output order never depends on scheduling.
func (e *Engine) Run(b *mailbox.Batch, opt RunOptions) *Output {
	out, batch := e.RunThreads(b, opt)
	e.Finish(out, batch)
	return out
}

// RunThreads is Run without the batch rules: it checks the persisted
// artifacts and every thread, and returns their raw results with the batch
// the batch rules need (Finish). A shard of a sharded run stops here.
func (e *Engine) RunThreads(b *mailbox.Batch, opt RunOptions) (*Output, *Batch) {
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	r := &threadRun{e: e, b: b, opt: opt, out: &Output{}, threads: opt.Results}
	if r.threads == nil {
		// Grown as threads are checked (made at its full length up front,
		// it was 60 MB of a 200,000-thread run's heap from the start).
		r.threads = new(inMemory)
	}
	r.pair(jobs)
	// Artifacts of no thread among the inputs: checked first, concurrently.
	e.checkArtifactsAt(r.ins, r.alone, r.arts, r.done, jobs)
	r.out.Findings = append(r.out.Findings, b.Findings...)
	compile.EachWith(b, opt.Compile, jobs, r.reuse, r.check, r.collect)
	// Artifacts whose thread could not be checked are checked alone.
	var left []int
	for i := range r.ins {
		if !r.done[i] {
			left = append(left, i)
		}
	}
	e.checkArtifactsAt(r.ins, left, r.arts, r.done, jobs)
	return r.output()
}

// threadRun is one RunThreads: the batch's artifacts paired with their
// threads, and the results gathered in thread order.
type threadRun struct {
	e     *Engine
	b     *mailbox.Batch
	opt   RunOptions
	out   *Output
	ins   []ArtifactInput
	arts  []ArtifactResult // aligned with ins
	done  []bool           // aligned with ins
	owned map[string][]int // thread key → its artifacts (indexes into ins)
	alone []int            // artifacts of no thread among the inputs
	// early: the checks of the scan (Engine.Early), which charge no
	// budget: their results' costs are charged when they are taken.
	early bool

	threads Results
}

// pair lists the artifact inputs and which thread owns each.
func (r *threadRun) pair(jobs int) {
	ins, owner := r.e.pairArtifacts(r.b, jobs)
	r.ins, r.arts, r.done = ins, make([]ArtifactResult, len(ins)), make([]bool, len(ins))
	r.owned = map[string][]int{}
	for i, o := range owner {
		if o < 0 {
			r.alone = append(r.alone, i)
		} else {
			key := r.b.Threads[o].Key
			r.owned[key] = append(r.owned[key], i)
		}
	}
}

// reuse takes a thread's results from its check during the scan (Early),
// or asks the cache for them (in the worker).
func (r *threadRun) reuse(ref *mailbox.ThreadRef) (*Checked, bool) {
	// Else (an artifact it owns) its file is read again (ThreadRef.Load).
	if len(r.owned[ref.Key]) == 0 {
		v := ref.Early()
		c, ok := v.(*Checked)
		if !ok && v != nil && r.opt.Held != nil {
			c, ok = r.opt.Held.Take(v)
		}
		if ok {
			chargeCost(r.e.enabled, c.Thread.Cost) // not charged when it was checked
			return c, true
		}
	}
	if r.opt.Cache == nil {
		return nil, false
	}
	own := make([]ArtifactInput, 0, len(r.owned[ref.Key]))
	for _, i := range r.owned[ref.Key] {
		own = append(own, r.ins[i])
	}
	c, ok := r.opt.Cache.Reuse(ref, own)
	if !ok {
		return nil, false
	}
	c.ID = ref.ID()
	chargeCost(r.e.enabled, c.Thread.Cost)
	return c, true
}

// check checks a compiled thread with its persisted artifacts (in the
// worker). The artifacts are parsed in the thread's own task and dropped
// with it (only their front matter is kept), so memory does not grow with
// the artifacts of the whole batch.
func (r *threadRun) check(t *compile.Thread) *Checked {
	c := &Checked{ID: t.ID()}
	var persisted []*artifact.Parsed
	for _, i := range r.owned[t.Key] {
		in := r.ins[i]
		a := r.e.checkArtifact(in.Path, in.JSON, in.AtPath, t.Current)
		if p := a.Parsed; p != nil && p.Art != nil && !p.FromJSON {
			persisted = append(persisted, p)
		}
		c.Artifacts = append(c.Artifacts, a)
	}
	c.Thread = r.e.checkThread(t, persisted, r.early)
	for k := range c.Artifacts {
		a := &c.Artifacts[k]
		a.Parsed = frontOnly(a.Parsed)
		for i := range a.Findings {
			a.Findings[i].Detach() // DR-001 quotes the compiled artifact, made of the bodies
		}
		// The thread's cost covers its artifacts' (one record to cache).
		c.Thread.Cost = addCost(c.Thread.Cost, a.Cost)
		c.Thread.Incomplete = c.Thread.Incomplete || a.Incomplete
		a.Cost = nil
	}
	if n := len(t.Msgs); n > 0 {
		c.Last = t.Msgs[n-1].Created
	}
	if r.opt.Render {
		c.Render = t.Current.Render()
	}
	if r.opt.Cache != nil && !c.Thread.Incomplete {
		r.opt.Cache.Keep(t.Key, c)
	}
	return c
}

// collect takes a thread's results in thread order.
func (r *threadRun) collect(ref *mailbox.ThreadRef, c *Checked, err error) {
	if err != nil {
		if ie, ok := err.(*compile.InternalError); ok {
			r.out.internal(fmt.Sprintf("thread %s: %v", ref.Key, ie.Value))
			return
		}
		if te, ok := err.(*compile.TimeoutError); ok {
			r.out.Findings = append(r.out.Findings, compile.TimeoutFinding(ref, te))
			return
		}
		r.out.Findings = append(r.out.Findings, compile.LoadError(ref, err))
		return
	}
	for k, i := range r.owned[ref.Key] {
		r.arts[i], r.done[i] = c.Artifacts[k], true
	}
	r.threads.Add(c.Thread)
	if r.opt.Collect != nil {
		r.opt.Collect(ref, c)
	}
}

// output assembles the raw output (artifacts, then threads) and the batch
// the batch rules read.
func (r *threadRun) output() (*Output, *Batch) {
	out, arts := r.out, r.arts
	notes := len(out.Notifications)
	// Room for every summary, finding and comment at once. Grown by
	// appends, the lists ended up to twice their size, and each doubling
	// held the old list beside the new one while every thread's results
	// were in memory: the live peak of a nightly audit of 200,000 threads.
	nthreads, nf, nc := r.threads.Sizes()
	threads := make([]ThreadFacts, 0, nthreads)
	nsum := nthreads // summaries: the threads' and the artifacts'
	for i := range arts {
		if !arts[i].Skipped {
			nsum, nf, nc = nsum+1, nf+len(arts[i].Findings), nc+len(arts[i].Comments)
		}
	}
	out.Threads = slices.Grow(out.Threads, nsum)
	out.Findings = slices.Grow(out.Findings, nf)
	out.Comments = slices.Grow(out.Comments, nc)
	for i := range arts {
		if !arts[i].Skipped {
			out.add(arts[i].Summary, arts[i].Findings, arts[i].Comments, arts[i].Internal)
		}
		out.Cost = addCost(out.Cost, arts[i].Cost)
		// The batch rules read front matter only: the output holds the rest.
		arts[i].Findings, arts[i].Comments, arts[i].Internal = nil, nil, nil
	}
	// The threads' results are read back one at a time: the output takes
	// their summaries, findings and comments, the batch their facts.
	err := r.threads.Each(func(t *ThreadResult) {
		out.add(t.Summary, t.Findings, t.Comments, t.Internal)
		out.Cost = addCost(out.Cost, t.Cost)
		threads = append(threads, ThreadFacts{Facts: t.Facts, File: t.Summary.File})
	})
	if err != nil { // said before the results' own internal errors
		out.Internal = true
		out.Notifications = slices.Insert(out.Notifications, notes, internalNote(err.Error()))
	}
	return out, &Batch{Threads: threads, Artifacts: arts}
}

// Finish runs the batch rules on batch and adds their findings and the
// genealogy graph to out.
func (e *Engine) Finish(out *Output, batch *Batch) {
	fs, internal := e.CheckBatch(batch)
	out.Genealogy = genealogy(batch.refGraph())
	out.Findings = withdraw(e.enabled, append(out.Findings, fs...), out.Cost)
	for _, msg := range internal {
		out.internal(msg)
	}
}

func (o *Output) add(t diag.Thread, fs []diag.Finding, cs []diag.Comment, internal []string) {
	o.Threads = append(o.Threads, t)
	o.Findings = append(o.Findings, fs...)
	o.Comments = append(o.Comments, cs...)
	for _, msg := range internal {
		o.internal(msg)
	}
}

func (o *Output) internal(msg string) {
	o.Internal = true
	o.Notifications = append(o.Notifications, internalNote(msg))
}

func internalNote(msg string) diag.Notification {
	return diag.Notification{Level: diag.Error, Message: "internal error: " + msg}
}

// pairArtifacts lists the batch's artifact inputs (markdown, then JSON
// artifact objects, in input order) and, for each, the index in b.Threads
// of the thread DR-001 compares it with: the first thread whose id is the
// artifact's session_id, or its file name's thread when it has none; -1
// when that thread is not among the inputs (or for JSON artifact objects,
// which are not compared). Only the front matter is read here.
func (e *Engine) pairArtifacts(b *mailbox.Batch, jobs int) ([]ArtifactInput, []int) {
	var ins []ArtifactInput
	for _, p := range b.Markdown {
		ins = append(ins, ArtifactInput{Path: p})
	}
	for _, p := range b.ArtifactJSON {
		ins = append(ins, ArtifactInput{Path: p, JSON: true})
	}
	threadKeys := make(map[string]bool, len(b.Threads))
	byID := make(map[string]int, len(b.Threads))
	for i, t := range b.Threads {
		threadKeys[t.Key] = true
		id := t.ID()
		if _, ok := byID[id]; !ok {
			byID[id] = i
		}
	}
	owner := iter.Mapper[ArtifactInput, int]{MaxGoroutines: jobs}.Map(ins, func(in *ArtifactInput) int {
		name := ArtifactPathThread(in.Path)
		in.AtPath = !in.JSON && mailbox.IsArtifactPath(in.Path) && (threadKeys[name] || validThreadID(name))
		if in.JSON {
			return -1
		}
		sid, ok := e.sessions[in.Path]
		if !ok {
			sid = e.ArtifactSession(in.Path, false)
		}
		if sid == "" {
			sid = name
		}
		if i, ok := byID[sid]; ok {
			return i
		}
		return -1
	})
	return ins, owner
}

// checkArtifactsAt checks the artifacts ins[idx] concurrently into arts,
// keeping only their front matter.
func (e *Engine) checkArtifactsAt(ins []ArtifactInput, idx []int, arts []ArtifactResult, done []bool, jobs int) {
	res := iter.Mapper[int, ArtifactResult]{MaxGoroutines: jobs}.Map(idx, func(i *int) ArtifactResult {
		in := ins[*i]
		r := e.checkArtifact(in.Path, in.JSON, in.AtPath, nil)
		r.Parsed = frontOnly(r.Parsed)
		return r
	})
	for k, i := range idx {
		arts[i], done[i] = res[k], true
	}
}

// frontOnly is what the batch rules read of a parsed artifact: its file
// and front matter.
func frontOnly(p *artifact.Parsed) *artifact.Parsed {
	if p == nil {
		return nil
	}
	return &artifact.Parsed{File: p.File, FromJSON: p.FromJSON, Origin: p.Origin,
		HasFrontMatter: p.HasFrontMatter, FrontPos: p.FrontPos, Front: p.Front}
}

// MessageComments lists the HTML comments of every message body of t, for
// the findings pipeline's suppress stage (compile runs the pipeline too).
func MessageComments(t *compile.Thread) []diag.Comment { return messageComments(t) }

// unread reports whether the artifact could not be read as one (IN-001,
// IN-008): it holds no items, and its session is not among the inputs.
func unread(p *artifact.Parsed) bool {
	if p.Art == nil {
		return true
	}
	for i := range p.Findings {
		if r := p.Findings[i].Rule; r == "IN-001" || r == "IN-008" {
			return true
		}
	}
	return false
}

// unparsed reports whether the markdown parser refused the file (IN-008):
// it cannot tell whether the file is an artifact, so it is reported.
func unparsed(p *artifact.Parsed) bool {
	for i := range p.Findings {
		if p.Findings[i].Rule == "IN-008" {
			return true
		}
	}
	return false
}
