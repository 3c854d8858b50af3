package run

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/iter"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/cache"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/internal/safefile"
	"github.com/brenner-ci/brenner-ci/pipeline"
	"github.com/brenner-ci/brenner-ci/reporters"
	"github.com/brenner-ci/brenner-ci/reporters/github"
	"github.com/brenner-ci/brenner-ci/reporters/jsonreport"
	"github.com/brenner-ci/brenner-ci/reporters/junit"
	"github.com/brenner-ci/brenner-ci/reporters/markdown"
	"github.com/brenner-ci/brenner-ci/reporters/sarif"
	"github.com/brenner-ci/brenner-ci/reporters/text"
	"github.com/brenner-ci/brenner-ci/rules"
)

const (
	homeURL = "https://github.com/brenner-ci/brenner-ci"
	docsURL = homeURL + "/blob/main/docs/rules.md"
)

// CheckOptions are check's options as the command line gives them (merge
// uses the report ones). Resolve turns them, with the configuration, into
// the settled options of a run (Plan).
type CheckOptions struct {
	Paths                                     []string
	Config, FailOn                            string
	Jobs                                      int
	Out, Format, Sarif, Junit, Markdown, JSON string
	MarkdownMax                               int
	Category, RepoRoot                        string
	Baseline, NewFromRev, WriteBaseline       string
	OldFindings                               string // --format github: notice, hide or keep (reporters/github.OldFindings)
	ThreadTimeout, Timeout                    time.Duration
	GithubOutput                              string
	Fix                                       bool
	Cache, Shard                              string
	Quiet, NoGitignore                        bool
}

// checker is one check (or merge) run.
type checker struct {
	CheckOptions
	// revCommit is --new-from-rev's commit; prMemory holds the run's thread
	// results for the revision's run to reuse (nil: none, or noReuse, which
	// tests set to compare with the plain way).
	revCommit string
	prMemory  *cache.Memory
	noReuse   bool
	// revTree is what git says of the revision and the working tree (nil:
	// nothing, or noOverlay, which tests set to compare with the long way).
	revTree     *revTree
	noOverlay   bool
	revOverlaid bool  // the revision was read as an overlay
	revReused   int64 // the revision's threads taken from the run's own results
	env         *Env
	errw        io.Writer    // standard error of the run
	rec         *runRecorder // recording this run for the run cache (nil: not)
	// renamesAt waits for the files renamed since --new-from-rev, which
	// git is asked for while the inputs are listed and scanned; runEngine
	// waits for them before the run writes anything (nil: ask when needed).
	renamesAt func() renames
	// lines are the lines of the input files the scan read whole
	// (mailbox.Batch.Lines), which the SARIF report reads instead of the
	// files (diag.Report.Lines).
	lines map[string]diag.Lines
	// warm resolves the threads' paths for the reports while the batch
	// rules and the pipeline run (nil: none started).
	warm *pathWarm
	// held keeps the results of the threads checked during the scan of a
	// large run until their turn (nil: they stay in memory; holdEarly).
	held *cache.Held
}

// Check runs check with o: it reads the inputs, checks them, writes every
// report and returns nil, an *ExitError or a *UsageError (see ExitCode).
func Check(o CheckOptions, e *Env) error {
	c := &checker{CheckOptions: o, env: e}
	return c.run(e)
}

func (c *checker) run(e *Env) error {
	c.errw = e.Stderr
	var (
		res   *rules.Output
		notes []diag.Notification
		last  time.Time
		eng   *rules.Engine
	)
	run, err := c.setup()
	if ue := (*UsageError)(nil); errors.As(err, &ue) && ue.unsafeOut {
		return err // no report is written through a symbolic link
	}
	if err == nil && c.Shard != "" {
		return c.runShard(e, run)
	}
	if err == nil {
		eng = run.Engine()
		var in *mailbox.Inputs
		end := phase(phaseList)
		in, err = c.list(run)
		end()
		if err == nil {
			policy := c.policyNotes(run)
			// A run whose every input, option and setting is that of a
			// recorded run writes that run's products again (runcache.go).
			if rc := c.runCacheFor(run, eng, in, policy); rc != nil {
				if err, ok := c.replay(e, rc, in.Files()); ok {
					return err
				}
				c.rec = newRunRecorder(rc, in)
			}
			var base *baseRead
			var scanned func()
			if c.NewFromRev != "" {
				base = c.baseReader(run, in)
				scanned = base.scanned
				if !c.noReuse {
					c.prMemory = cache.NewMemory()
				}
			}
			res, notes, last, err = c.runEngine(eng, run, in, scanned)
			notes = append(policy, notes...)
			if base != nil {
				if err == nil {
					err = c.newFromRev(run, base.get, c.prMemory)
				} else if r := base.get(); r.b != nil {
					os.RemoveAll(r.b.tmp)
				}
				c.prMemory = nil // its results are held nowhere else
			}
		}
	}
	if err != nil {
		c.reportRunError(e, err)
		return err
	}
	return c.finish(e, run, eng, res, notes, last)
}

// reportRunError writes every report for a run that could not run: a usage
// or configuration error exits 2, but the reports still exist, carrying the
// problem as a run-level notification, so a CI job's artifacts always exist.
func (c *checker) reportRunError(e *Env, err error) {
	var ue *UsageError
	if errors.As(err, &ue) {
		// No plan was settled: the report's time and root are read here,
		// as far as they can be.
		plan := &Plan{failOn: diag.Error}
		plan.Epoch, _ = epoch()
		plan.repoRoot, _ = repoRoot(c.RepoRoot)
		r := c.report(plan, nil, nil, []diag.Notification{{Level: diag.Error, Message: "brenner-ci could not run: " + err.Error()}}, time.Time{})
		// A configuration or input error quotes file names and file
		// content: every report shows it with its credentials redacted.
		r.RunError = diag.RedactSecrets(err.Error())
		c.writeReports(e, r)
	}
}

// finish runs the findings pipeline on the engine's output, writes every
// report and chooses the exit code (check, and merge of shards).
func (c *checker) finish(e *Env, run *Plan, eng *rules.Engine, res *rules.Output, notes []diag.Notification, last time.Time) error {
	// Notes in one canonical order, whatever produced them (a thread's
	// artifact write, an internal error, a shard).
	sort.SliceStable(notes, func(i, j int) bool {
		if notes[i].Level != notes[j].Level {
			return notes[i].Level < notes[j].Level
		}
		return notes[i].Message < notes[j].Message
	})
	end := phase(phasePipeline)
	findings := run.pipeline(eng, res, run.baseline)
	end()
	r := c.report(run, res.Threads, findings, notes, last)
	c.warm.adopt(r)
	c.warm = nil
	r.Internal = res.Internal
	r.Genealogy = &res.Genealogy
	r.Config = configInfo(run.Policy)
	r.RunID = reporters.RunID(r)
	// Every report file is written before the exit code is chosen.
	end = phase(phaseWrite)
	werrs := c.writeReports(e, r)
	end()
	// Run-level notes on standard error, bounded: a batch of thousands of
	// threads must not flood the log; the reports hold them all.
	const maxNotes = 20
	var lines bytes.Buffer
	notes = r.Notifications // the run's, and what the reports added (SARIF's results left out)
	for i, n := range notes {
		if i == maxNotes {
			fmt.Fprintf(&lines, "brenner-ci: … and %d more notifications (every report lists them)\n", len(notes)-maxNotes)
			break
		}
		fmt.Fprintf(&lines, "brenner-ci: %s: %s\n", n.Level, reporters.Safe(n.Message))
	}
	if !c.Quiet {
		e.Stderr.Write(lines.Bytes())
	}
	c.rec.section("stderr", lines.Bytes())
	for _, w := range werrs {
		fmt.Fprintf(e.Stderr, "brenner-ci: %s\n", reporters.Safe(w))
	}
	err := exitCode(r, res.Internal || len(werrs) > 0)
	// A run is recorded only when its products are a function of its
	// inputs: not after a write error, an internal error or a thread over
	// its time budget.
	if len(werrs) > 0 || res.Internal || timedOut(res.Findings) {
		c.rec.spoil()
	}
	c.rec.store(ExitStatus(err))
	return err
}

// timedOut reports whether a thread went over its time budget (IN-010).
func timedOut(fs []diag.Finding) bool {
	for i := range fs {
		if fs[i].Rule == "IN-010" {
			return true
		}
	}
	return false
}

// setup validates the flags and settles the run: the configuration, the
// gate, the repository root and the baseline.
func (c *checker) setup() (*Plan, error) {
	paths := c.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return nil, usagef("%v", err)
		}
	}
	if c.Fix && c.Out == "" {
		return nil, usagef("--fix writes corrected artifacts to --out DIR only; give --out")
	}
	for _, d := range c.outputDirs() {
		if err := safeOutDir(d); err != nil {
			return nil, err
		}
	}
	// Where reports go must be writable before anything runs: one line
	// naming the user's path, exit 2 (it was exit 3 after the run, with a
	// line per report and per temporary file).
	for _, d := range c.reportDirs() {
		if err := safefile.MakeDir(d); err != nil {
			return nil, &UsageError{Msg: fmt.Sprintf("cannot write reports to %s: %v", d, mailbox.PlainErr(err)), unsafeOut: true}
		}
	}
	// The cache is a hint: one that cannot be used is said once, and the
	// run goes on without it.
	if c.Cache != "" {
		if err := safefile.MakeDir(c.Cache); err != nil {
			fmt.Fprintf(c.errw, "brenner-ci: warning: --cache %s cannot be used (%s); the run goes on without a cache\n", reporters.Safe(c.Cache), reporters.Safe(mailbox.PlainErr(err).Error()))
			c.Cache = ""
		}
	}
	run, err := settle(c.env.Rules, c.Config, paths, c.Jobs, c.ThreadTimeout, c.Timeout)
	if err != nil {
		return nil, err
	}
	if !c.NoGitignore {
		run.UseGitignore()
	}
	if run.repoRoot, err = repoRoot(c.RepoRoot); err != nil {
		return nil, err
	}
	if err := c.outsideRoot(paths, run.repoRoot); err != nil {
		return nil, err
	}
	// Pull-request mode: the configuration and baseline of the revision
	// the change is compared with judge it (prpolicy.go).
	rev := c.compareRev(run.repoRoot)
	if rev != "" {
		if err := run.judgeAt(rev, c.Config); err != nil {
			return nil, err
		}
	}
	run.failOn = diag.Error
	fo := c.FailOn
	if fo == "" && run.Cfg != nil {
		fo = run.Policy.FailOn()
	}
	if fo != "" {
		var ok bool
		if run.failOn, ok = config.ParseFailOn(fo); !ok {
			return nil, usagef("--fail-on %q is not one of error, warning, note, none", fo)
		}
	}
	if c.Baseline != "" {
		// A pull request may have replaced the file (by a link to a
		// device, say): read as any file it wrote, within the file limit.
		data, err := safefile.Read(c.Baseline, run.FileBytes())
		if err != nil {
			return nil, usagef("--baseline: %v", err)
		}
		run.baseline, err = jsonreport.Fingerprints(bytes.NewReader(data))
		if err != nil {
			return nil, usagef("--baseline %s: %v", c.Baseline, err)
		}
		if rev != "" {
			if trusted, ok, err := run.baselineAt(rev, c.Baseline, run.baseline); err != nil {
				return nil, err
			} else if ok {
				run.baseline = trusted
			}
		}
	}
	if c.NewFromRev != "" {
		// The revision is read after the run's own inputs (newFromRev),
		// which it reuses where the pull request left them as they were.
		if c.revCommit, err = run.revCommit(c.NewFromRev); err != nil {
			return nil, err
		}
		// git takes 30-60 ms to start on the benchmark machine, and the
		// renames are needed only once the revision's findings are read.
		c.renamesAt = background(func() renames { return renamesSince(run.repoRoot, c.NewFromRev) })
	}
	return run, nil
}

// baseRead reads --new-from-rev's inputs while the run's own are checked:
// scanned is called once the run's inputs are scanned, get waits for the
// base's.
type baseRead struct {
	scanned func()
	get     func() revRead
}

// baseReader returns how the run reads --new-from-rev's inputs: as an
// overlay of its own listing in, once in is scanned, when the change
// allows (overlay.go), else written out and scanned (readRev) from the
// start.
func (c *checker) baseReader(run *Plan, in *mailbox.Inputs) *baseRead {
	if c.revTree != nil {
		if pl, ok := c.revTree.plan(run.Paths, in, c.writtenAbs()); ok {
			c.revOverlaid = true
			in.KeepScans()
			var read func() revRead
			return &baseRead{
				scanned: func() {
					read = background(func() revRead {
						b, err := c.overlay(run, c.revCommit, in, pl)
						return revRead{b, err}
					})
				},
				get: func() revRead {
					if read == nil {
						return revRead{} // the run's own scan failed
					}
					return read()
				}}
		}
	}
	read := background(func() revRead {
		b, err := c.readRev(run, c.NewFromRev)
		return revRead{b, err}
	})
	return &baseRead{scanned: func() {}, get: read}
}

// background runs f on a goroutine of its own and returns what waits for
// its result (as often as asked).
func background[T any](f func() T) func() T {
	ch := make(chan T, 1)
	go func() { ch <- f() }()
	return sync.OnceValue(func() T { return <-ch })
}

// newFromRev adds the fingerprints of the findings at --new-from-rev to the
// run's baseline: base reads the revision's inputs (baseReader; nil: read
// them now), and mem, when set, holds the run's own thread results, which
// the revision's unchanged threads reuse (revFingerprints).
func (c *checker) newFromRev(run *Plan, base func() revRead, mem *cache.Memory) error {
	var r revRead
	if base == nil {
		r.b, r.err = c.readRev(run, c.NewFromRev)
	} else {
		r = base()
	}
	if r.b != nil {
		defer os.RemoveAll(r.b.tmp)
	}
	if r.err != nil {
		return r.err
	}
	old, err := c.revFingerprints(run, c.NewFromRev, r.b, mem)
	if err != nil {
		return err
	}
	if run.baseline == nil {
		run.baseline = map[string]bool{}
	}
	for fp := range old {
		run.baseline[fp] = true
	}
	return nil
}

// runEngine scans the inputs and runs the engine on them, writing each
// thread's artifact (and, with --fix, its fixed copies) when --out is set;
// scanned, when set, is called once the inputs are scanned.
// It returns the engine's output, run-level notes and the instant of the
// last message (the report's time when SOURCE_DATE_EPOCH is unset).
func (c *checker) runEngine(eng *rules.Engine, run *Plan, in *mailbox.Inputs, scanned func()) (*rules.Output, []diag.Notification, time.Time, error) {
	end := phase(phaseScan)
	// The threads of files that hold one are checked while the scan has
	// their bytes (rules.Engine.Early), unless a cache or pull-request mode
	// keeps what the scan read. Their results live from the scan on: past
	// keepResults files, in a temporary file (holdEarly).
	if c.Cache == "" && c.prMemory == nil {
		defer c.holdEarly(eng, in.Files() > keepResults)()
		in.CheckEarly(earlyCheck(eng, c.runOptions(run, nil), in.Markdown()))
	}
	batch, err := c.scan(run, in)
	end()
	if err != nil {
		return nil, nil, time.Time{}, err
	}
	c.lines = batch.Lines
	if scanned != nil {
		scanned()
	}
	if c.renamesAt != nil {
		// git reads the working tree as the change left it: the renames
		// are in before the threads' run writes anything (--out).
		c.renamesAt()
	}
	end = phase(phaseThreads)
	res, b, notes, last := c.runThreads(eng, run, batch)
	end()
	c.warm = warmThreads(run.repoRoot, res.Threads)
	end = phase(phaseBatch)
	eng.Finish(res, b)
	end()
	return res, append(notes, res.Notifications...), last, nil
}

// list finds the inputs (and, with --cache, hashes them). Output is never
// input: the --out folder and the report files are not read, even when
// they lie inside the checked paths.
func (c *checker) list(run *Plan) (*mailbox.Inputs, error) {
	opt := run.ScanOptions(c.written()...)
	if c.Cache != "" {
		run.scanStore = cache.OpenScan(filepath.Join(c.Cache, "scan"))
		run.scanCache = &mailbox.ScanCache{Store: run.scanStore, Salt: c.scanSalt(opt)}
		opt.Cache = run.scanCache
	}
	if c.NewFromRev != "" && !c.noOverlay {
		// The files the change left alone are keyed by their blob ids,
		// which the base revision's run shares (overlay.go).
		if c.revTree = readRevTree(run.repoRoot, c.revCommit); c.revTree != nil {
			opt.Known = c.revTree.known()
		}
	}
	in, err := mailbox.List(run.Paths, opt)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return in, nil
}

// revRead is a revision's inputs, read, or why they could not be.
type revRead struct {
	b   *revBase
	err error
}

// writtenAbs are the paths the run writes (written), absolute and slash
// separated.
func (c *checker) writtenAbs() []string {
	var out []string
	for _, w := range c.written() {
		if w == "" {
			continue
		}
		if abs, err := filepath.Abs(w); err == nil {
			out = append(out, filepath.ToSlash(abs))
		}
	}
	return out
}

// written are the paths the run writes: never read as input (list), and
// excluded alike from the base revision's inputs (revOutputs).
func (c *checker) written() []string {
	return []string{c.Out, c.Sarif, c.Junit, c.Markdown, c.JSON, c.WriteBaseline, c.Cache}
}

// scan reads the inputs.
func (c *checker) scan(run *Plan, in *mailbox.Inputs) (*mailbox.Batch, error) {
	batch := in.Scan()
	if err := nothingFound(batch, run.Paths); err != nil {
		return nil, err
	}
	return batch, nil
}

// runThreads runs the engine on the artifacts and threads of batch (not the
// batch rules), writing each thread's artifact (and, with --fix, its fixed
// copies) when --out is set. It returns the raw output and the batch for
// the batch rules, the artifact writer's notes and the instant of the last message
// (the report's time when SOURCE_DATE_EPOCH is unset).
// keepResults is how many threads' results a check keeps as they are
// before it writes the rest to a temporary file (cache.Results): the
// threads of a pull request or a typical audit stay in memory (a variable
// for tests).
var keepResults = 16 << 10

// holdEarly has the run's early results kept in a temporary file
// (cache.Held) when past is set, and returns the function that removes
// it once the threads have taken them.
func (c *checker) holdEarly(eng *rules.Engine, past bool) (done func()) {
	if !past {
		return func() {}
	}
	c.held = cache.NewHeld(eng)
	return func() {
		if heldDone != nil {
			heldDone(c.held)
		}
		c.held.Close()
		c.held = nil
	}
}

// heldDone, when set, is given each run's Held before it is closed (for
// tests, which count what it held).
var heldDone func(*cache.Held)

// earlyCheck is the check a scan runs on the threads it can check early
// (a variable for tests, which count its calls or turn it off).
var earlyCheck = (*rules.Engine).Early

// runOptions are the options the run's threads are checked with, the
// archive agents aside.
func (c *checker) runOptions(run *Plan, agents []string) rules.RunOptions {
	ro := rules.RunOptions{Compile: run.CompileOptions(agents), Jobs: c.Jobs, Render: c.Out != ""}
	if c.held != nil { // a nil *cache.Held would be a Held that is not nil
		ro.Held = c.held
	}
	return ro
}

func (c *checker) runThreads(eng *rules.Engine, run *Plan, batch *mailbox.Batch) (*rules.Output, *rules.Batch, []diag.Notification, time.Time) {
	ro := c.runOptions(run, batch.Agents)
	opt := ro.Compile
	w := &artifactWriter{out: c.Out, fix: c.Fix, repoRoot: run.repoRoot, persisted: map[string][]string{}, claims: nameClaims{}}
	for _, p := range batch.Markdown {
		id := rules.ArtifactPathThread(p)
		w.persisted[id] = append(w.persisted[id], p)
	}
	if c.Out != "" {
		w.claimAll(batch.Threads)
		w.fresh = newFolders(c.Out, "artifacts")["artifacts"]
	}
	var last time.Time
	prog := newProgress(c.progressWriter(), len(batch.Threads))
	defer prog.finish()
	var threads *cache.Threads
	ro.Results = &cache.Results{KeepFirst: keepResults, Expect: len(batch.Threads)}
	// In thread order, and only for threads checked in time: a thread
	// past its budget may still be running, and writes nothing.
	ro.Collect = func(ref *mailbox.ThreadRef, ck *rules.Checked) {
		if ck.Last.After(last) {
			last = ck.Last
		}
		if c.Out != "" && ck.Render != nil {
			w.write(ref.Key, ck.ID, ck.Render)
		}
		prog.tick()
	}
	if c.Cache != "" {
		threads = cache.OpenThreads(c.Cache, c.threadSalt(eng, run, opt), eng, ro.Render, opt.ThreadTimeout)
		ro.Cache = threads
	}
	if c.prMemory != nil {
		// Pull-request mode: the results are kept for the base revision's
		// unchanged threads (newFromRev).
		var inner rules.Reuser
		if threads != nil {
			inner = threads
		}
		ro.Cache = c.prMemory.Recorder(c.threadSalt(eng, run, opt), opt.ThreadTimeout, inner)
	}
	res, b := eng.RunThreads(batch, ro)
	if w.fresh != nil {
		for _, e := range w.fresh.finish(c.Out) {
			w.notes = append(w.notes, diag.Notification{Level: diag.Warning, Message: "artifact not written: " + e})
		}
	}
	if threads != nil {
		threads.Close()
		w.notes = append(w.notes, c.cacheNotes(run, threads)...)
		if !c.Quiet {
			fmt.Fprintf(c.errw, "brenner-ci: cache %s: %d threads reused, %d checked\n", reporters.Safe(c.Cache), threads.Hits.Load(), threads.Misses.Load())
			if sc := run.scanCache; sc != nil {
				fmt.Fprintf(c.errw, "brenner-ci: cache %s: %d files not parsed again, %d scanned\n", reporters.Safe(c.Cache), sc.Hits.Load(), sc.Misses.Load())
			}
		}
	}
	return res, b, w.notes, last
}

// artifactWriter writes compiled artifacts under --out (and --fix copies).
// Which thread owns an artifact file name is settled before the run
// (claimAll), in thread order, so it never depends on which threads could
// be checked.
type artifactWriter struct {
	out, repoRoot string
	fix           bool
	persisted     map[string][]string // thread id → persisted artifact paths among the inputs
	claims        nameClaims
	fresh         *newFolder // artifacts/, when it did not exist before the run
	mu            sync.Mutex
	notes         []diag.Notification
}

// claimAll gives every artifact file name to the first thread (in key
// order) that would write it.
func (w *artifactWriter) claimAll(threads []*mailbox.ThreadRef) {
	for _, t := range threads {
		id := t.ID()
		if name, err := artifactName(id); err == nil {
			w.claims.claim("artifacts/"+name, t.Key) // a later clash is reported by write
		}
	}
}

func (w *artifactWriter) write(key, id string, art []byte) {
	name, err := artifactName(id)
	if err == nil {
		err = w.claims.owns("artifacts/"+name, key)
	}
	switch {
	case err == nil && w.fresh != nil:
		err = w.fresh.commit(key, name, art)
	case err == nil:
		err = writeUnder(w.out, "artifacts/"+name, bytesWriter(art))
	}
	if err == nil && w.fix {
		for _, p := range w.persisted[id] {
			if rel, ok := relInside(w.repoRoot, p); ok {
				err = writeUnder(filepath.Join(w.out, "fixed"), rel, bytesWriter(art))
			} else {
				err = fmt.Errorf("persisted artifact %s is outside the repository root; its fixed copy is only in %s", p, filepath.Join(w.out, "artifacts"))
			}
		}
	}
	if err != nil {
		w.mu.Lock()
		w.notes = append(w.notes, diag.Notification{Level: diag.Warning, Message: fmt.Sprintf("artifact of thread %s not written: %v", key, err)})
		w.mu.Unlock()
	}
}

// enabledSet reports which rules the engine ran.
func enabledSet(eng *rules.Engine) func(string) bool {
	on := map[string]bool{}
	for _, id := range eng.Enabled() {
		on[id] = true
	}
	return func(id string) bool { return on[id] }
}

// exitCode: 3 after an internal or write error, 1 when the findings gate
// the run (reporters.Gating: new and at or above fail-on), else 0.
func exitCode(r *diag.Report, internal bool) error {
	switch {
	case internal:
		return &ExitError{ExitInternal}
	case reporters.Gating(r) > 0:
		return &ExitError{ExitFindings}
	}
	return nil
}

// report assembles the report model of a run settled as plan (findings
// nil: none). Its time is SOURCE_DATE_EPOCH when set, else the instant of
// the data's last message.
func (c *checker) report(plan *Plan, threads []diag.Thread, findings *pipeline.Result, notes []diag.Notification, last time.Time) *diag.Report {
	r := &diag.Report{
		Tool:          diag.Tool{Name: "brenner-ci", Version: c.env.Version, InfoURI: homeURL, DocsURL: docsURL},
		HasBaseline:   plan.baseline != nil,
		BaseRev:       c.NewFromRev,
		BaselineFile:  c.Baseline != "",
		Notifications: notes,
		Category:      c.Category,
		FailOn:        plan.failOn,
		GitHub:        diag.GitHub{ServerURL: os.Getenv("GITHUB_SERVER_URL"), Repository: os.Getenv("GITHUB_REPOSITORY"), SHA: os.Getenv("GITHUB_SHA")},
		Inputs:        redactAll(c.Paths),
		Time:          last.UTC(),
		RepoRoot:      plan.repoRoot,
		Lines:         c.lines,
	}
	if !plan.Epoch.IsZero() {
		r.Time, r.TimeFromEpoch = plan.Epoch, true
	}
	r.Threads = threads
	for i := range r.Threads {
		r.Threads[i].Key = pipeline.Echo(r.Threads[i].Key, pipeline.MaxIDBytes)
		r.Threads[i].File = diag.RedactSecrets(r.Threads[i].File)
	}
	for i := range r.Notifications {
		r.Notifications[i].Message = pipeline.Echo(r.Notifications[i].Message, pipeline.MaxMessageBytes)
	}
	if findings != nil {
		r.Findings, r.Fingerprints, r.New = findings.Findings, findings.Fingerprints, findings.New
	}
	for _, m := range plan.reg().All() {
		r.Rules = append(r.Rules, m.Report(docsURL))
	}
	return r
}

// redactAll is paths with their credentials redacted (diag.RedactSecrets),
// as a report may show them.
func redactAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = diag.RedactSecrets(p)
	}
	return out
}

// reportTarget is a report file a run writes.
type reportTarget struct{ key, path string }

// reportTargets are the report files check writes (--out gives each a
// default path in DIR), in a fixed order; a report not asked for has no
// path.
func (c *checker) reportTargets() []reportTarget {
	sarifPath, junitPath, mdPath, jsonPath := c.Sarif, c.Junit, c.Markdown, c.JSON
	if c.Out != "" {
		def := func(p *string, name string) {
			if *p == "" {
				*p = filepath.Join(c.Out, name)
			}
		}
		def(&sarifPath, "brenner-ci.sarif")
		def(&junitPath, "brenner-ci.junit.xml")
		def(&mdPath, "brenner-ci.md")
		def(&jsonPath, "brenner-ci.json")
	}
	return []reportTarget{{"sarif", sarifPath}, {"junit", junitPath}, {"markdown", mdPath}, {"json", jsonPath}, {"baseline", c.WriteBaseline}}
}

// outputs are the reports a run with targets writes, as the report model
// names them (diag.Report.Outputs): the report files, standard output's
// format and the job summary. The --write-baseline file is not one of them.
func (c *checker) outputs(targets []reportTarget) []diag.Output {
	out := []diag.Output{}
	for _, t := range targets {
		if t.path != "" && t.key != "baseline" {
			out = append(out, diag.Output{Format: t.key, Path: t.path})
		}
	}
	format := c.Format
	if format == "" {
		format = "text"
	}
	out = append(out, diag.Output{Format: format})
	if summaryPath(targets[2].path) != "" {
		out = append(out, diag.Output{Format: "summary"})
	}
	return out
}

// summaryPath is the job summary the markdown report is appended to: set
// in GitHub Actions, unless it is the markdown report itself ("": none).
func summaryPath(mdPath string) string {
	if summary := os.Getenv("GITHUB_STEP_SUMMARY"); summary != "" && os.Getenv("GITHUB_ACTIONS") == "true" && summary != mdPath {
		return summary
	}
	return ""
}

// pathWarm resolves how the reports will show the threads' files
// (reporters.Paths.Display) while the batch rules and the findings
// pipeline run: they run on one processor, and the other was idle (about
// 25 ms of a 10,000-thread check). The report then adopts the resolver
// (reporters.Adopt), and warmPaths finds those paths cached.
type pathWarm struct {
	paths *reporters.Paths
	wg    conc.WaitGroup
}

// warmThreads starts resolving the files of threads as their report will
// name them (c.report redacts each).
func warmThreads(repoRoot string, threads []diag.Thread) *pathWarm {
	files := make([]string, 0, len(threads)) // c.report changes the threads' Files in place
	for i := range threads {
		if f := threads[i].File; f != "" {
			files = append(files, f)
		}
	}
	w := &pathWarm{paths: reporters.NewPaths(repoRoot)}
	w.wg.Go(func() {
		for _, f := range files {
			w.paths.Display(diag.RedactSecrets(f))
		}
	})
	return w
}

// adopt waits for the warm-up and makes its resolver r's.
func (w *pathWarm) adopt(r *diag.Report) {
	if w == nil {
		return
	}
	w.wg.Wait()
	reporters.Adopt(r, w.paths)
}

// warmPaths resolves the paths the reports will ask reporters.Paths for,
// on jobs goroutines: how each is shown (Display: every thread's file and
// every finding's) and, for the SARIF report (lines), what File says of a
// finding's file (its lines, from the scan for the files it read whole,
// else a few system calls and a read of the file). The reports
// then find them cached; they asked one path at a time, and the reporting
// of 10,000 threads ran on one of its two processors (docs/performance.md,
// seventeenth round). The findings are sorted by file, so their files are
// listed once each without a set: a set of 200,000 files held through the
// reports of a nightly audit cost it collections.
func warmPaths(r *diag.Report, jobs int, lines bool) {
	p := reporters.PathsFor(r)
	var found []string // the findings' files, each once
	for i := range r.Findings {
		if f := r.Findings[i].Pos.File; f != "" && (len(found) == 0 || found[len(found)-1] != f) {
			found = append(found, f)
		}
	}
	iter.Iterator[string]{MaxGoroutines: jobs}.ForEach(found, func(f *string) {
		p.Display(*f)
		if lines {
			p.File(*f)
		}
	})
	iter.Iterator[diag.Thread]{MaxGoroutines: jobs}.ForEach(r.Threads, func(t *diag.Thread) {
		if t.File != "" {
			p.Display(t.File)
		}
	})
}

// writeReports writes every requested report file and standard output; it
// returns the write errors. With the run cache recording, what it writes
// is also given to the recorder.
func (c *checker) writeReports(e *Env, r *diag.Report) []string {
	var werrs []string
	targets := c.reportTargets()
	r.Outputs = c.outputs(targets)
	// The SARIF file is prepared beside the other reports. When it leaves
	// results out (code scanning keeps 5,000 per run), the other reports
	// must say so, first among the notifications (standard error shows
	// only the first 20): then every report is written again with that
	// notification (rare; prepared first, it took 70-90 ms of a
	// 10,000-thread run on one core while the other core waited).
	writeSARIF := func(w io.Writer) error { return sarif.Write(w, r) }
	var note *diag.Notification
	prepare := func() {
		if log, err := sarif.Prepare(r); err == nil {
			writeSARIF = log.Write
			note = log.Notification()
		}
	}
	render := map[string]func(io.Writer) error{
		"sarif":    func(w io.Writer) error { return writeSARIF(w) },
		"junit":    func(w io.Writer) error { return junit.Write(w, r) },
		"markdown": func(w io.Writer) error { return markdown.Write(w, r, c.MarkdownMax) },
		"json":     func(w io.Writer) error { return jsonreport.Write(w, r) },
		"baseline": func(w io.Writer) error { return jsonreport.WriteFingerprints(w, r) },
	}
	sarifOut := targets[0].path != "" || c.Format == "sarif" // a SARIF log is prepared (file or standard output)
	end := phase(phaseWarm)
	warmPaths(r, c.Jobs, sarifOut)
	end()
	// The report files are one set (reporters.Set): each is written to a
	// temporary file, then all are renamed into place together, so an
	// interrupted run leaves the previous run's set whole, and a report
	// that cannot be written does not leave the previous run's version
	// beside this run's others. Every report carries the run id.
	var set reporters.Set
	written := map[string]string{}
	// The reports are written concurrently (they only read r); errors are
	// kept in report order. Of a report written twice, the set keeps the
	// second version.
	errs := make([]error, len(targets))
	writeAll := func(first bool) {
		var wg conc.WaitGroup
		if first && sarifOut {
			wg.Go(func() {
				prepare()
				if targets[0].path != "" {
					errs[0] = set.Add(targets[0].path, render["sarif"])
				}
			})
		}
		for i, t := range targets {
			if t.path != "" && (i > 0 || !first) {
				wg.Go(func() { errs[i] = set.Add(t.path, render[t.key]) })
			}
		}
		wg.Wait()
	}
	writeAll(true)
	if note != nil {
		r.Notifications = append([]diag.Notification{*note}, r.Notifications...)
		writeAll(false)
	}
	for i, t := range targets {
		switch {
		case t.path == "":
		case errs[i] != nil:
			werrs = append(werrs, errs[i].Error())
		default:
			written[t.key] = t.path
		}
	}
	if err := set.Commit(); err != nil {
		werrs = append(werrs, err.Error())
		if errors.Is(err, reporters.ErrInterrupted) {
			return werrs
		}
	}
	for _, t := range targets {
		if p, ok := written[t.key]; ok {
			c.rec.file(t.key, p)
		}
	}
	// In GitHub Actions the markdown report is appended to the job summary,
	// never written over it: earlier steps' summaries stay.
	if summary := summaryPath(targets[2].path); summary != "" {
		var buf bytes.Buffer
		err := markdown.Write(&buf, r, c.MarkdownMax)
		if err == nil {
			c.rec.section("summary", buf.Bytes())
			err = appendBytes(summary, buf.Bytes())
		}
		if err != nil {
			werrs = append(werrs, "job summary: "+err.Error())
		}
	}
	if c.GithubOutput != "" {
		counts := stepCounts(r)
		c.rec.section("steps", []byte(counts))
		if err := appendBytes(c.GithubOutput, []byte(counts+stepPaths(written))); err != nil {
			werrs = append(werrs, "step outputs: "+err.Error())
		}
	}

	var err error
	stdout := c.rec.stdout(e.Stdout)
	switch c.Format {
	case "github":
		err = github.WriteOptions(stdout, r, github.Options{Old: github.OldFindings(c.OldFindings)})
	case "json":
		err = jsonreport.Write(stdout, r)
	case "sarif":
		err = writeSARIF(stdout)
	case "junit":
		err = junit.Write(stdout, r)
	case "markdown":
		err = markdown.Write(stdout, r, c.MarkdownMax)
	default:
		err = text.Write(stdout, r)
	}
	if err != nil {
		werrs = append(werrs, err.Error())
	}
	return werrs
}

// repoRoot is the repository root that report paths are relative to: flag
// when given, else git's top level of the working directory, else the
// working directory.
func repoRoot(flag string) (string, error) {
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", usagef("--repo-root: %v", err)
		}
		return abs, nil
	}
	if out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output(); err == nil {
		if s := strings.TrimSpace(string(out)); s != "" {
			return s, nil
		}
	}
	return os.Getwd()
}

// outsideRoot is a usage error when the run writes SARIF and an input lies
// outside the repository root: code scanning cannot show the findings of
// a file outside the repository (they would only be notifications), and
// uploading a SARIF file without them closes their alerts as fixed. The
// reports then say the run could not run (SARIF: executionSuccessful
// false, which keeps the open alerts). A run without a SARIF report (a
// shard's writes none; its merge does) checks such inputs as any other.
func (c *checker) outsideRoot(paths []string, root string) error {
	if c.Shard != "" || (c.Sarif == "" && c.Out == "" && c.Format != "sarif") {
		return nil
	}
	real := func(p string) string {
		abs, err := filepath.Abs(p)
		if err != nil {
			return p
		}
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			return r
		}
		return abs
	}
	rootReal := real(root)
	for _, p := range paths {
		rel, err := filepath.Rel(rootReal, real(p))
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			continue
		}
		return usagef("%s is outside the repository root %s: code scanning cannot show its findings, and a SARIF report without them "+
			"would close their alerts when uploaded. Check it from inside the repository (or give --repo-root), or write no SARIF report "+
			"(--json, --junit, --markdown instead of --out or --sarif)", p, root)
	}
	return nil
}

// relInside returns p relative to root when it stays inside it.
func relInside(root, p string) (string, bool) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// configInfo is the report's account of res.
func configInfo(res *config.Resolved) diag.ConfigInfo {
	if res == nil {
		return diag.ConfigInfo{}
	}
	found := res.Config
	if found == nil && res.BaseRev != "" {
		found = res.Base // the pull request removed the file its base has
	}
	if found == nil {
		return diag.ConfigInfo{}
	}
	info := diag.ConfigInfo{File: found.Path, How: diag.ConfigFound, Rev: res.BaseRev}
	switch {
	case res.Pinned:
		info.How = diag.ConfigPinned
	case res.Below:
		info.How = diag.ConfigBelowRoot
		if res.Base != nil {
			info.Base = res.Base.Path
		}
	case config.RepoRoot(found.Path) != "":
		info.How = diag.ConfigRepository
	}
	return info
}

// nothingFound is a usage error when the paths hold no thread export, no
// artifact and no input problem: a wrong or empty folder must not read as
// "0 threads, passed".
func nothingFound(b *mailbox.Batch, paths []string) error {
	if len(b.Threads) > 0 || len(b.Markdown) > 0 || len(b.ArtifactJSON) > 0 || len(b.Findings) > 0 {
		return nil
	}
	return usagef("no thread export or artifact found in %s", strings.Join(paths, ", "))
}

// appendBytes appends data to path (created when missing) in one write.
func appendBytes(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// stepCounts are the GitHub Actions step outputs of a run's findings:
// counts and the verdict. stepPaths adds the paths of the reports actually
// written (a report that was not written has no output, so nothing points
// at a missing file).
func stepCounts(r *diag.Report) string {
	e, wn, n := r.Counts()
	return fmt.Sprintf("errors=%d\nwarnings=%d\nnotes=%d\nnew=%d\ngating=%d\nfailed=%t\n",
		e, wn, n, reporters.NewCount(r), reporters.Gating(r), reporters.Failed(r))
}

// stepPaths are the step outputs naming the reports written.
func stepPaths(written map[string]string) string {
	var b strings.Builder
	for _, k := range []string{"sarif", "junit", "markdown", "json"} {
		if p, ok := written[k]; ok && !strings.ContainsAny(p, "\r\n") {
			fmt.Fprintf(&b, "%s=%s\n", k, p)
		}
	}
	return b.String()
}

// outputDirs are the folders check writes into.
// reportDirs are the folders the run writes reports and artifacts into.
func (c *checker) reportDirs() []string {
	var dirs []string
	if c.Out != "" {
		dirs = append(dirs, c.Out)
	}
	for _, f := range []string{c.Sarif, c.Junit, c.Markdown, c.JSON, c.WriteBaseline} {
		if f != "" {
			dirs = append(dirs, filepath.Dir(f))
		}
	}
	return dirs
}

func (c *checker) outputDirs() []string {
	dirs := []string{c.Out, c.Cache}
	for _, f := range []string{c.Sarif, c.Junit, c.Markdown, c.JSON, c.WriteBaseline} {
		if f != "" {
			dirs = append(dirs, filepath.Dir(f))
		}
	}
	return dirs
}
