package run

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/binenc"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/compile/tempfile"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/cache"
	"github.com/brenner-ci/brenner-ci/pipeline"
	"github.com/brenner-ci/brenner-ci/reporters"
	"github.com/brenner-ci/brenner-ci/reporters/text"
	"github.com/brenner-ci/brenner-ci/rules"
)

// CompileOptions are compile's options as the command line gives them.
type CompileOptions struct {
	Paths         []string
	Out           string // write DIR/artifacts/<thread_id>.md
	CompiledBody  bool   // and DIR/compiled/<thread_id>.v<N>.md
	Jobs          int
	ThreadTimeout time.Duration
	Timeout       time.Duration // the run's time budget (0: none)
	Config        string
	NoGitignore   bool   // read what .gitignore ignores too
	RepoRoot      string // findings' paths are relative to it (default: git's top level)
}

type compiler struct {
	CompileOptions
	// fresh are the output subfolders (artifacts, compiled) that did not
	// exist when the run started, built whole (newFolder).
	fresh map[string]*newFolder
	// held keeps the early results of a run past keepResults files (nil:
	// in memory).
	held *compileHeld
}

// Compile compiles every thread of the inputs, prints a line per thread and
// the compiler's findings, and with Out writes the artifacts.
func Compile(o CompileOptions, e *Env) error { return (&compiler{CompileOptions: o}).run(e) }

// threadLine is the one-line summary of a compiled thread.
func threadLine(t *compile.Thread) string {
	b := make([]byte, 0, len(t.Key)+120)
	b = append(b, t.Key...)
	b = append(b, ": "...)
	b = strconv.AppendInt(b, int64(len(t.Msgs)), 10)
	b = append(b, " messages, "...)
	b = strconv.AppendInt(b, int64(t.Stats.Blocks), 10)
	b = append(b, " delta blocks ("...)
	b = strconv.AppendInt(b, int64(t.Stats.Valid), 10)
	b = append(b, " valid, "...)
	b = strconv.AppendInt(b, int64(t.Stats.Invalid), 10)
	b = append(b, " invalid), "...)
	b = strconv.AppendInt(b, int64(t.Stats.Applied), 10)
	b = append(b, " applied, version "...)
	b = strconv.AppendInt(b, int64(t.Version), 10)
	b = append(b, ',')
	for _, sec := range delta.Sections[1:] {
		active, killed := t.Current.Count(sec)
		b = append(b, ' ')
		b = append(b, delta.Prefix[sec]...)
		b = strconv.AppendInt(b, int64(active), 10)
		if killed > 0 {
			b = append(b, "(+"...)
			b = strconv.AppendInt(b, int64(killed), 10)
			b = append(b, " killed)"...)
		}
	}
	return string(b)
}

type compiledOut struct {
	key      string // the thread's
	line     string
	findings []diag.Finding
	comments []diag.Comment
	files    []outFile // at most two: the artifact, and the COMPILED body
	buf      *[]byte   // the renderBufs buffer the artifact's content is in
	err      string
}

// outFile is a file of a thread's result: its path under --out and its
// content, or, for a thread compiled early, where stage wrote it. (Two
// maps a thread, of names to contents and to staged files, were a fifth
// of what compile allocated besides its arenas.)
type outFile struct {
	name   string
	data   []byte
	staged bool
	st     stagedFile // when staged
}

// renderBufs are the buffers compileThread renders artifacts into (most are
// 4-16 KB); writeFiles gives each back once the thread's files are written,
// and nothing reads them after. One buffer a thread was a fifth of
// compile's allocations.
var renderBufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

func (c *compiler) run(e *Env) error {
	plan, err := settle(e.Rules, c.Config, c.Paths, c.Jobs, c.ThreadTimeout, c.Timeout)
	if err == nil && !c.NoGitignore {
		plan.UseGitignore()
	}
	if err != nil {
		return err
	}
	cfg, paths := plan.Cfg, plan.Paths
	if err := safeOutDir(c.Out); err != nil {
		return err
	}
	root, err := repoRoot(c.RepoRoot)
	if err != nil {
		return err
	}
	in, err := mailbox.List(paths, plan.ScanOptions(c.Out))
	if err != nil {
		return usagef("%v", err)
	}
	allFresh := true // every file a thread writes goes to a new folder (or none is written)
	if c.Out != "" {
		rels := []string{"artifacts"}
		if c.CompiledBody {
			rels = append(rels, "compiled")
		}
		c.fresh = newFolders(c.Out, rels...)
		allFresh = len(c.fresh) == len(rels)
	}
	// As check does (runEngine): a thread file's thread is compiled while
	// the scan holds its bytes, and its files are written at once (stage):
	// into a new folder, put in place whole at the end, or to temporary
	// files, renamed into place in thread order. A thread past its
	// budget may still run, but writes nothing: the files are staged once
	// its work has returned in time. The results (a line, findings and
	// file names a thread) live from the scan on: past keepResults files,
	// in a temporary file (compileHeld), and only when no file is staged
	// beside its target (which a result must hold in memory).
	earlyOpt := plan.CompileOptions(nil)
	earlyOpt.ArtifactOnly = artifactOnly
	past := in.Files() > keepResults
	if earlyCompile && (!past || allFresh) {
		if past {
			c.held = &compileHeld{file: tempfile.Spill{Pattern: "brenner-ci-held-*"}}
			defer func() {
				if compileHeldDone != nil {
					compileHeldDone(c.held)
				}
				c.held.file.Close()
			}()
		}
		in.CheckEarly(&mailbox.Early{
			Check: func(t *mailbox.Thread) (any, bool) {
				o, err := compile.One(t, earlyOpt, c.compileThread)
				if err != nil {
					return nil, false
				}
				o = c.stage(o)
				if c.held != nil {
					return c.held.hold(o), true
				}
				return o, true
			},
			Drop: c.discardEarly,
		})
	}
	batch := in.Scan()
	if afterCompileScan != nil {
		afterCompileScan()
	}
	if err := nothingFound(batch, paths); err != nil {
		return err
	}
	opt := plan.CompileOptions(batch.Agents)
	opt.ArtifactOnly = artifactOnly
	// A line per thread: buffered (a write per line was a system call per
	// thread), and flushed before anything goes to standard error, so that
	// a terminal shows the two in order.
	stdout := bufio.NewWriter(e.Stdout)
	defer stdout.Flush()
	findings := append([]diag.Finding(nil), batch.Findings...)
	var comments []diag.Comment
	internal := false
	var writeErrs []string
	claims := nameClaims{}
	early := func(ref *mailbox.ThreadRef) (compiledOut, bool) {
		if r := ref.Early(); r != nil {
			return c.earlyOut(r), true
		}
		return compiledOut{}, false
	}
	compile.EachWith(batch, opt, c.Jobs, early, c.compileThread, func(ref *mailbox.ThreadRef, o compiledOut, err error) {
		if err != nil {
			if r := ref.Early(); r != nil {
				c.discardEarly(r) // not taken: the run's time was up
			}
			if te, ok := err.(*compile.TimeoutError); ok {
				findings = append(findings, compile.TimeoutFinding(ref, te))
				return
			}
			if _, ok := err.(*compile.InternalError); ok {
				internal = true
				stdout.Flush()
				fmt.Fprintf(e.Stderr, "brenner-ci: thread %s: %s\n", reporters.Safe(ref.Key), reporters.Safe(err.Error()))
				return
			}
			findings = append(findings, compile.LoadError(ref, err))
			return
		}
		fmt.Fprintln(stdout, reporters.Safe(o.line))
		findings = append(findings, o.findings...)
		comments = append(comments, o.comments...)
		writeErrs = append(writeErrs, c.writeFiles(ref.Key, o, claims)...)
	})
	for _, rel := range []string{"artifacts", "compiled"} {
		if nf := c.fresh[rel]; nf != nil {
			writeErrs = append(writeErrs, nf.finish(c.Out)...)
		}
	}
	// The same findings pipeline as check: rule ids, severities, ignores
	// and suppressions agree between the two commands. compile runs no rule
	// checks: only the compiler's and the pipeline's rules can use a
	// suppression.
	ran := func(id string) bool { r := plan.reg().Lookup(id); return r != nil && r.By != rules.ByCheck }
	res := pipeline.Run(&pipeline.Input{Findings: findings, Comments: comments, Config: cfg, Ran: ran, Policy: plan.Policy, Rules: plan.reg()})
	display := reporters.NewPaths(root)
	errs := 0
	for i := range res.Findings {
		f := &res.Findings[i]
		fmt.Fprintln(stdout, text.Line(f, display))
		if f.Severity == diag.Error {
			errs++
		}
	}
	stdout.Flush()
	for _, w := range writeErrs {
		fmt.Fprintf(e.Stderr, "brenner-ci: %s\n", reporters.Safe(w))
	}
	fmt.Fprintf(stdout, "brenner-ci compile: %d threads from %d files, %d errors, %d artifacts not written\n", len(batch.Threads), batch.Files, errs, len(writeErrs))
	switch {
	case internal:
		return &ExitError{ExitInternal}
	case errs > 0 || len(writeErrs) > 0:
		// An artifact that could not be written (an unsafe thread id, a
		// refused symbolic link) fails the compile like an error finding.
		return &ExitError{ExitFindings}
	}
	return nil
}

// compileThread renders what compile writes for one thread (inside a worker).
func (c *compiler) compileThread(t *compile.Thread) compiledOut {
	// The findings and comments are read after the thread is released,
	// when its bodies' memory holds the next thread's.
	o := compiledOut{key: t.Key, line: threadLine(t), findings: t.Findings, comments: rules.MessageComments(t)}
	for i := range o.findings {
		o.findings[i].Detach()
	}
	for i := range o.comments {
		o.comments[i].Detach()
	}
	if c.Out == "" {
		return o
	}
	id := t.ID()
	name, err := artifactName(id)
	if err != nil {
		o.err = fmt.Sprintf("%s: not written: %v", t.Key, err)
		return o
	}
	o.buf = renderBufs.Get().(*[]byte)
	rendered := t.Current.RenderInto(*o.buf)
	*o.buf = rendered // keep the array it grew to
	o.files = make([]outFile, 1, 2)
	o.files[0] = outFile{name: "artifacts/" + name, data: rendered}
	if c.CompiledBody {
		o.files = append(o.files, outFile{name: fmt.Sprintf("compiled/%s.v%d.md", id, t.Version), data: compiledBody(t, id, name, rendered)})
	}
	return o
}

// earlyCompile turns compile's early threads on (tests compare without).
var earlyCompile = true

// artifactOnly lets compile leave unparsed the bodies nothing it writes
// reads (compile.Options.ArtifactOnly; tests compare without).
var artifactOnly = true

// afterCompileScan, when set, is called when compile's scan is done (tests
// let the run's time run out there).
var afterCompileScan func()

// stage writes the files of a thread's result, kept from the scan to the
// threads' turn (mailbox.Early), at once, so that the result holds their
// names, not their bytes: in a new folder under their own names (place),
// elsewhere to temporary files (stageUnder). writeFiles commits them in
// thread order, or removes them. A file whose name another thread has
// placed keeps its bytes, for writeFiles to write if this thread claims
// the name.
func (c *compiler) stage(o compiledOut) compiledOut {
	for i := range o.files {
		f := &o.files[i]
		if nf, name := folderOf(c.fresh, f.name); nf != nil {
			placed, err := nf.place(o.key, name, f.data)
			if placed || err != nil {
				*f = outFile{name: f.name, staged: true, st: stagedFile{placed: placed, err: err}}
				continue
			}
			f.data = bytes.Clone(f.data) // kept: it is in o.buf, given back below
			continue
		}
		set, err := stageUnder(c.Out, f.name, bytesWriter(f.data))
		*f = outFile{name: f.name, staged: true, st: stagedFile{set: set, err: err}}
	}
	if o.buf != nil {
		renderBufs.Put(o.buf)
		o.buf = nil
	}
	return o
}

// discard removes the files stage wrote for o.
func (c *compiler) discard(o compiledOut) {
	for _, f := range o.files {
		switch {
		case !f.staged:
		case f.st.set != nil:
			f.st.set.Discard()
		case f.st.placed:
			nf, name := folderOf(c.fresh, f.name)
			nf.unplace(o.key, name)
		}
	}
}

// earlyOut is the result an early thread left (mailbox.ThreadRef.Early):
// kept as it is, or read back from the file it is held in. A record the
// file does not give back is a bug, or a disk that lost what it held: it
// panics, and the thread's task reports an internal error (the files the
// thread placed are removed when its folder is finished).
func (c *compiler) earlyOut(r any) compiledOut {
	switch v := r.(type) {
	case compiledOut:
		return v
	case heldCompiled:
		o, err := c.held.take(v)
		if err != nil {
			panic(fmt.Sprintf("reading back the thread's compiled result: %v", err))
		}
		return o
	}
	panic(fmt.Sprintf("an early result of type %T", r))
}

// discardEarly removes the files of an early result the run does not take
// (a result lost from its file leaves them to newFolder.finish).
func (c *compiler) discardEarly(r any) {
	switch v := r.(type) {
	case compiledOut:
		c.discard(v)
	case heldCompiled:
		if o, err := c.held.take(v); err == nil {
			c.discard(o)
		}
	}
}

// compileHeld keeps the early results of a compile of more than
// keepResults files in a temporary file until their thread's turn, as
// check's are (cache.Held): its line, its findings and comments, and the
// names of the files it placed in a new folder.
type compileHeld struct {
	file           tempfile.Spill
	written, taken atomic.Int64 // results written to the file, and read back
}

// compileHeldDone, when set, is given each run's compileHeld before its
// file is closed (for tests, which count what it held).
var compileHeldDone func(*compileHeld)

// heldCompiled stands for a result in the file.
type heldCompiled tempfile.At

// hold writes o to the file and returns its place; or returns o itself
// when it holds more than names of placed files (bytes kept, files staged
// beside their targets, an error of one) or cannot be written.
func (h *compileHeld) hold(o compiledOut) any {
	if o.buf != nil {
		return o
	}
	names := make([]string, 0, len(o.files))
	for _, f := range o.files {
		if !f.staged || !f.st.placed || f.st.set != nil || f.st.err != nil {
			return o
		}
		names = append(names, f.name)
	}
	b := binenc.AppendString(nil, o.key)
	b = binenc.AppendString(b, o.line)
	b = binenc.AppendString(b, o.err)
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, n := range names {
		b = binenc.AppendString(b, n)
	}
	at, ok := h.file.Write(cache.AppendNotes(b, o.findings, o.comments))
	if !ok {
		return o
	}
	h.written.Add(1)
	return heldCompiled(at)
}

// take reads back the result at v's place.
func (h *compileHeld) take(v heldCompiled) (compiledOut, error) {
	data, err := h.file.Read(tempfile.At(v))
	if err != nil {
		return compiledOut{}, err
	}
	r := binenc.Reader{B: data}
	o := compiledOut{key: r.Str(), line: r.Str(), err: r.Str()}
	if n := r.Count(); n > 0 {
		o.files = make([]outFile, n)
		for i := range o.files {
			o.files[i] = outFile{name: r.Str(), staged: true, st: stagedFile{placed: true}}
		}
	}
	fs, cs, rest, ok := cache.ReadNotes(r.B)
	if r.Bad || !ok || len(rest) != 0 {
		return compiledOut{}, fmt.Errorf("a malformed record of %d bytes", len(data))
	}
	o.findings, o.comments = fs, cs
	h.taken.Add(1)
	return o, nil
}

// stagedFile is a file of a thread written at once (stage): to a
// temporary file (set), or in a new folder under its name (placed); or why
// it could not be.
type stagedFile struct {
	set    *reporters.Set
	placed bool
	err    error
}

// compiledBody is the COMPILED message body of t's current version, whose
// artifact renders as rendered.
func compiledBody(t *compile.Thread, id, name string, rendered []byte) []byte {
	var prev *artifact.Artifact
	if n := len(t.Versions); n > 0 {
		prev = t.VersionArtifact(n - 1)
		if prev.Version == t.Version && n > 1 {
			prev = t.VersionArtifact(n - 2)
		} else if prev.Version == t.Version {
			prev = nil
		}
	}
	errs, warns := 0, 0
	for i := range t.Findings {
		switch t.Findings[i].Severity {
		case diag.Error:
			errs++
		case diag.Warning:
			warns++
		}
	}
	return artifact.RenderCompiledBody(t.Current, prev, artifact.CompiledInfo{ThreadID: id, Compiler: "brenner-ci", SchemaPass: errs == 0,
		LintWarnings: warns, LintErrors: errs, ArtifactPath: "artifacts/" + name, Status: "Pending", Rendered: rendered})
}

// writeFiles writes a thread's files under --out in name order and returns
// what could not be written.
func (c *compiler) writeFiles(key string, o compiledOut, claims nameClaims) []string {
	var errs []string
	if o.err != "" {
		errs = append(errs, o.err)
	}
	slices.SortFunc(o.files, func(a, b outFile) int { return strings.Compare(a.name, b.name) })
	for _, f := range o.files {
		n, st, staged := f.name, f.st, f.staged
		err := claims.claim(n, key)
		nf, name := folderOf(c.fresh, n)
		switch {
		case err != nil && staged && st.set != nil:
			st.set.Discard()
		case err != nil && staged && st.placed:
			nf.unplace(key, name)
		case err != nil:
		case staged && st.err != nil:
			err = st.err
		case staged && st.placed:
			err = nf.commit(key, name, nil)
		case staged:
			err = st.set.Commit()
		case nf != nil:
			err = nf.commit(key, name, f.data)
		default:
			err = writeUnder(c.Out, n, bytesWriter(f.data))
		}
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", key, err))
		}
	}
	if o.buf != nil {
		renderBufs.Put(o.buf)
	}
	return errs
}
