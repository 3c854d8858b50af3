package run

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/internal/safefile"
	"github.com/brenner-ci/brenner-ci/reporters"
	"github.com/brenner-ci/brenner-ci/reporters/text"
	"github.com/brenner-ci/brenner-ci/rules"
)

// The run cache is the outer level of check --cache DIR (kept in DIR/run).
// When every input of a run is byte for byte what it was in an earlier run
// of the same program, with the same configuration, options and
// environment, that run's products are written again: its report files,
// its standard output, its job summary and step outputs, its notes and its
// exit code. Nothing is parsed or checked; the inputs are only read, to
// hash them (the per-file keys of the scan cache).
//
// Any difference is a miss, and the run goes through the scan and thread
// caches as before: one changed byte in one input, another flag, another
// report asked for, another GITHUB_SHA. A run is recorded only when it is
// clean: no internal error, no thread over its time budget, no write error,
// and no input changed while it ran. With --out (compiled artifacts) or
// --fix a run is not reused whole.
//
// An entry is one file, <shard>-<key>.run (<shard> is "all" for a run of
// every thread, "shard-I-of-N" for check --shard I/N), written to a
// temporary file and renamed, so concurrent runs never see half of one. It
// holds its sections and a SHA-256 of its key and contents, checked before
// anything is written: a damaged or foreign entry is a miss.
//
// The folder is bounded: after an entry is written, only the
// MaxRunEntriesPerShard most recently used entries of its shard are kept
// (a nightly job whose inputs change every night records a new run every
// night; the older ones would never be used again), and at most
// MaxRunEntries in all. Entries named as an earlier version named them
// (<key>.run) can never be hit and are removed, and so are temporary files
// older than a day (a run killed while recording leaves them). Removal goes
// through the folder only (os.Root): a link is removed, never followed.

// runCacheFormat changes whenever an entry's form or meaning changes.
const runCacheFormat = 1

// MaxRunEntriesPerShard is how many run entries a cache keeps for each
// shard (and for the unsharded runs); a hit counts as use.
const MaxRunEntriesPerShard = 3

// MaxRunEntries is how many run entries a cache keeps in all, whatever the
// shards.
const MaxRunEntries = 48

// staleTemp is the age past which a temporary file in the run cache is
// taken for a killed run's and removed.
const staleTemp = 24 * time.Hour

var runMagic = []byte("brenner-ci run\n")

// runCache is one run's place in the run cache.
type runCache struct {
	dir   string // DIR/run
	shard string // the group the entry is pruned with (runShardName)
	key   [32]byte
}

func (rc *runCache) path() string {
	return filepath.Join(rc.dir, rc.shard+"-"+hex.EncodeToString(rc.key[:])+".run")
}

// runShardName names the entries of the runs of --shard spec ("" for a run
// of every thread) in the run cache; ok is false for a spec that is not I/N.
func runShardName(spec string) (string, bool) {
	if spec == "" {
		return "all", true
	}
	i, n, err := parseShard(spec)
	if err != nil {
		return "", false
	}
	return "shard-" + strconv.Itoa(i) + "-of-" + strconv.Itoa(n), true
}

// runCacheFor is the run cache entry of a check run on in, or nil when the
// run is not one to reuse whole (no --cache, --out or --fix, or an input
// without a digest).
func (c *checker) runCacheFor(run *Plan, eng *rules.Engine, in *mailbox.Inputs, policy []diag.Notification) *runCache {
	if c.Cache == "" || c.Out != "" || c.Fix {
		return nil
	}
	digest, ok := in.Digest()
	if !ok {
		return nil
	}
	shard, ok := runShardName(c.Shard)
	if !ok {
		return nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil
	}
	// The options value hashed whole (optionsKey), so an option added to
	// CheckOptions or Plan is in the key without anyone remembering it.
	// Which reports are written counts, not where: their content does not
	// depend on their paths (the paths excluded from the inputs are in the
	// inputs' digest). Nor do the paths of the job summary and step
	// outputs, which differ in every GitHub Actions job: only whether they
	// are written. A shard run's standard output names its shard file.
	o := c.CheckOptions
	written := func(p *string) {
		if *p != "" {
			*p = "written"
		}
	}
	for _, p := range []*string{&o.Sarif, &o.Junit, &o.Markdown, &o.WriteBaseline, &o.GithubOutput, &o.Cache} {
		written(p)
	}
	if o.Shard == "" {
		written(&o.JSON)
	}
	targets := c.reportTargets()
	var reports []string
	for _, t := range targets {
		reports = append(reports, t.key+" "+strconv.FormatBool(t.path != ""))
	}
	fps := make([]string, 0, len(run.baseline))
	for fp := range run.baseline {
		fps = append(fps, fp)
	}
	sort.Strings(fps)
	key := optionsKey("brenner-ci run "+strconv.Itoa(runCacheFormat), struct {
		Build, Config string
		Rules         []string
		Custom        []config.CustomRule
		Rev           string // --new-from-rev's commit: its findings are old
		Options       CheckOptions
		Paths         []string
		Reports       []string
		Limits        config.Limits
		FailOn        diag.Severity
		Epoch         int64
		Repo, Cwd     string
		Summary       bool
		GitHub        [3]string
		Baseline      bool
		Fingerprints  []string
		Policy        []diag.Notification
		Inputs        []byte
		Color         bool // standard output is coloured (text.Colored)
	}{c.buildID(), configID(run), eng.Enabled(), customRules(run), c.revCommit, o, run.Paths, reports, run.Limits, run.failOn,
		run.Epoch.UnixNano(), run.repoRoot, cwd, summaryPath(targets[2].path) != "",
		[3]string{os.Getenv("GITHUB_SERVER_URL"), os.Getenv("GITHUB_REPOSITORY"), os.Getenv("GITHUB_SHA")},
		run.baseline != nil, fps, policy, digest, text.Colored(c.env.Stdout)})
	return &runCache{dir: filepath.Join(c.Cache, "run"), shard: shard, key: key}
}

// runEntry is an entry read back: its sections, by name.
type runEntry struct {
	f        *os.File
	sections map[string]*io.SectionReader
}

func (en *runEntry) Close() { en.f.Close() }

// open reads the entry of rc and checks it whole; nil when there is none or
// it is not a complete entry of this key (a miss).
func (rc *runCache) open() *runEntry {
	f, _, err := safefile.Open(rc.path()) // never through a link, never a FIFO
	if err != nil {
		return nil
	}
	en, err := readRunEntry(f, rc.key)
	if err != nil {
		f.Close()
		return nil
	}
	return en
}

// readRunEntry parses an entry: the magic, the format, the number of
// sections, each section's name and size, the SHA-256 of the key, the
// header and the contents, then the contents in order.
func readRunEntry(f *os.File, key [32]byte) (*runEntry, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	// The header is small: it is parsed from the entry's first bytes.
	head := make([]byte, min(st.Size(), 4<<10))
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, err
	}
	bad := errors.New("not a run entry")
	if !bytes.HasPrefix(head, runMagic) || len(head) == len(runMagic) || head[len(runMagic)] != runCacheFormat {
		return nil, bad
	}
	rd := bytes.NewReader(head[len(runMagic)+1:])
	n, err := binary.ReadUvarint(rd)
	if err != nil || n > 16 {
		return nil, bad
	}
	type sec struct {
		name string
		size int64
	}
	secs := make([]sec, n)
	var total int64
	for i := range secs {
		l, err := binary.ReadUvarint(rd)
		if err != nil || l > 64 || l > uint64(rd.Len()) {
			return nil, bad
		}
		name := make([]byte, l)
		rd.Read(name)
		size, err := binary.ReadUvarint(rd)
		if err != nil || size > uint64(st.Size()) {
			return nil, bad
		}
		secs[i] = sec{string(name), int64(size)}
		total += int64(size)
	}
	var want [32]byte
	if _, err := io.ReadFull(rd, want[:]); err != nil {
		return nil, bad
	}
	headerLen := int64(len(head) - rd.Len())
	if headerLen+total != st.Size() {
		return nil, bad
	}
	// The whole entry is checked before any of it is used.
	h := sha256.New()
	h.Write(key[:])
	h.Write(head[:headerLen-32])
	if _, err := io.Copy(h, io.NewSectionReader(f, headerLen, total)); err != nil {
		return nil, err
	}
	if !bytes.Equal(h.Sum(nil), want[:]) {
		return nil, bad
	}
	en := &runEntry{f: f, sections: map[string]*io.SectionReader{}}
	off := headerLen
	for _, s := range secs {
		en.sections[s.name] = io.NewSectionReader(f, off, s.size)
		off += s.size
	}
	return en, nil
}

// bytes returns a (small) section whole; ok is false when it is missing.
func (en *runEntry) bytes(name string) ([]byte, bool) {
	s, ok := en.sections[name]
	if !ok {
		return nil, false
	}
	data := make([]byte, s.Size())
	if _, err := s.ReadAt(data, 0); err != nil && s.Size() > 0 {
		return nil, false
	}
	return data, true
}

// replay writes the products of a cached run, as finish would have: the
// report files (as one set), the job summary, the step outputs, standard
// output and the notes; it returns the run's exit error. ok is false when
// the entry does not hold what this run must write (a miss: nothing was
// written).
func (c *checker) replay(e *Env, rc *runCache, files int) (err error, ok bool) {
	en := rc.open()
	if en == nil {
		return nil, false
	}
	defer en.Close()
	exit, ok1 := en.bytes("exit")
	notes, ok2 := en.bytes("stderr")
	if !ok1 || !ok2 || len(exit) != 1 || (exit[0] != 0 && exit[0] != ExitFindings) {
		return nil, false
	}
	var targets []reportTarget
	if c.Shard != "" {
		p, err := c.shardPath()
		if err != nil {
			return nil, false
		}
		targets = []reportTarget{{"shard", p}}
	} else {
		targets = c.reportTargets()
	}
	for _, t := range targets {
		if _, has := en.sections["file:"+t.key]; t.path != "" && !has {
			return nil, false
		}
	}
	// A shard run writes neither a job summary nor step outputs.
	summary, outputs := "", ""
	if c.Shard == "" {
		summary, outputs = summaryPath(targets[2].path), c.GithubOutput
	}
	sum, hasSum := en.bytes("summary")
	steps, hasSteps := en.bytes("steps")
	if (summary != "" && !hasSum) || (outputs != "" && !hasSteps) {
		return nil, false
	}

	var werrs []string
	var set reporters.Set
	written := map[string]string{}
	for _, t := range targets {
		if t.path == "" {
			continue
		}
		sec := en.sections["file:"+t.key]
		if err := set.Add(t.path, func(w io.Writer) error {
			_, err := io.Copy(w, io.NewSectionReader(sec, 0, sec.Size()))
			return err
		}); err != nil {
			werrs = append(werrs, err.Error())
			continue
		}
		written[t.key] = t.path
	}
	if err := set.Commit(); err != nil {
		werrs = append(werrs, err.Error())
	}
	if summary != "" {
		if err := appendBytes(summary, sum); err != nil {
			werrs = append(werrs, "job summary: "+err.Error())
		}
	}
	if outputs != "" {
		if err := appendBytes(outputs, append(steps, stepPaths(written)...)); err != nil {
			werrs = append(werrs, "step outputs: "+err.Error())
		}
	}
	if out, has := en.sections["stdout"]; has {
		if _, err := io.Copy(e.Stdout, out); err != nil {
			werrs = append(werrs, err.Error())
		}
	}
	if !c.Quiet {
		fmt.Fprintf(e.Stderr, "brenner-ci: cache %s: the whole run reused (%s unchanged)\n", reporters.Safe(c.Cache), reporters.Plural(files, "input"))
		e.Stderr.Write(notes)
	}
	for _, w := range werrs {
		fmt.Fprintf(e.Stderr, "brenner-ci: %s\n", reporters.Safe(w))
	}
	// Used now: the entry is among the newest kept.
	now := time.Now()
	os.Chtimes(rc.path(), now, now)
	if len(werrs) > 0 {
		return &ExitError{ExitInternal}, true
	}
	if exit[0] != 0 {
		return &ExitError{int(exit[0])}, true
	}
	return nil, true
}

// runRecorder collects the products of a run for the run cache. A nil
// recorder records nothing.
type runRecorder struct {
	rc       *runCache
	in       *mailbox.Inputs
	files    []reportTarget // report files written (key, final path)
	sections []recSection   // small sections, in memory
	out      *os.File       // standard output, teed to a temporary file
	outErr   error
	bad      bool // something makes the run not one to keep
}

type recSection struct {
	name string
	data []byte
}

func newRunRecorder(rc *runCache, in *mailbox.Inputs) *runRecorder {
	if rc == nil {
		return nil
	}
	return &runRecorder{rc: rc, in: in}
}

func (r *runRecorder) file(key, path string) {
	if r != nil {
		r.files = append(r.files, reportTarget{key, path})
	}
}

func (r *runRecorder) section(name string, data []byte) {
	if r != nil {
		r.sections = append(r.sections, recSection{name, bytes.Clone(data)})
	}
}

// spoil marks the run as not to be kept.
func (r *runRecorder) spoil() {
	if r != nil {
		r.bad = true
	}
}

// stdout is w, teed to a temporary file in the cache when recording.
func (r *runRecorder) stdout(w io.Writer) io.Writer {
	if r == nil {
		return w
	}
	if err := safefile.MakeDir(r.rc.dir); err != nil {
		r.bad = true
		return w
	}
	f, err := os.CreateTemp(r.rc.dir, ".stdout-*")
	if err != nil {
		r.bad = true
		return w
	}
	r.out = f
	return &teeWriter{w: w, r: r}
}

// teeWriter writes to w, and to the recorder's file as long as that works
// (a failure there only spoils the recording, never the run's output).
type teeWriter struct {
	w io.Writer
	r *runRecorder
}

// ColorText says whether the writer behind the tee shows colours
// (text.Colored): the text report is coloured as it would be without the
// recording.
func (t *teeWriter) ColorText() bool { return text.Colored(t.w) }

func (t *teeWriter) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	if t.r.outErr == nil {
		if _, werr := t.r.out.Write(p[:n]); werr != nil {
			t.r.outErr = werr
		}
	}
	return n, err
}

// store writes the entry of the recorded run with exit code exit, unless
// the run is not one to keep; a failure only costs a miss next time.
func (r *runRecorder) store(exit int) {
	if r == nil {
		return
	}
	if r.out != nil {
		defer os.Remove(r.out.Name())
		defer r.out.Close()
	}
	if r.bad || r.outErr != nil || (exit != 0 && exit != ExitFindings) || !r.in.Unchanged() || safefile.MakeDir(r.rc.dir) != nil {
		return
	}
	type part struct {
		name string
		size int64
		open func() (io.ReadCloser, error)
	}
	var parts []part
	small := append([]recSection{{"exit", []byte{byte(exit)}}}, r.sections...)
	for _, s := range small {
		parts = append(parts, part{s.name, int64(len(s.data)), func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(s.data)), nil }})
	}
	addFile := func(name, path string) bool {
		st, err := os.Stat(path)
		if err != nil || !st.Mode().IsRegular() {
			return false
		}
		parts = append(parts, part{name, st.Size(), func() (io.ReadCloser, error) { return os.Open(path) }})
		return true
	}
	for _, f := range r.files {
		if !addFile("file:"+f.key, f.path) {
			return
		}
	}
	if r.out != nil && !addFile("stdout", r.out.Name()) {
		return
	}
	var header bytes.Buffer
	header.Write(runMagic)
	header.WriteByte(runCacheFormat)
	header.Write(binary.AppendUvarint(nil, uint64(len(parts))))
	for _, p := range parts {
		header.Write(binary.AppendUvarint(nil, uint64(len(p.name))))
		header.WriteString(p.name)
		header.Write(binary.AppendUvarint(nil, uint64(p.size)))
	}
	// The checksum comes before the contents: they are hashed first, then
	// copied after it (a file that changed in between makes the entry a
	// miss, never a wrong result).
	h := sha256.New()
	h.Write(r.rc.key[:])
	h.Write(header.Bytes())
	for _, p := range parts {
		if !copyPart(h, p.open, p.size) {
			return
		}
	}
	// Not github.com/google/renameio/v2 (issue 26): no Windows
	// implementation (see reporters/atomic.go); its temporary file would be
	// named ".<entry><n>", which pruneRunEntries does not take for a killed
	// run's (it removes stale ".run-*"), so they would pile up; and its fsync
	// buys nothing for an entry that is checksummed (a damaged one is a
	// miss).
	tmp, err := os.CreateTemp(r.rc.dir, ".run-*")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name()) // after the rename: nothing to remove
	w := bufio.NewWriterSize(tmp, 1<<20)
	w.Write(header.Bytes())
	w.Write(h.Sum(nil))
	ok := true
	for _, p := range parts {
		ok = ok && copyPart(w, p.open, p.size)
	}
	if err := w.Flush(); err != nil {
		ok = false
	}
	if err := tmp.Close(); err != nil || !ok {
		return
	}
	if os.Rename(tmp.Name(), r.rc.path()) == nil {
		pruneRunEntries(r.rc.dir, r.rc.shard, time.Now())
	}
}

// copyPart copies what open gives to w; false unless it is size bytes.
func copyPart(w io.Writer, open func() (io.ReadCloser, error), size int64) bool {
	rd, err := open()
	if err != nil {
		return false
	}
	defer rd.Close()
	n, err := io.Copy(w, rd)
	return err == nil && n == size
}

// pruneRunEntries bounds the run cache dir after an entry of shard was
// written: it keeps the MaxRunEntriesPerShard most recently used entries
// of shard and the MaxRunEntries most recently used in all, and removes
// the entries of an earlier naming and the temporary files older than
// staleTemp (at now). Everything is done inside dir (os.Root): dir must be
// a folder, not a link to one, and a link inside it is removed, never
// followed. Failures are ignored: the cache is a hint.
func pruneRunEntries(dir, shard string, now time.Time) {
	st, err := os.Lstat(dir)
	if err != nil || !st.IsDir() {
		return // a link: nothing outside is removed
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return
	}
	defer root.Close()
	// What was opened is what was checked.
	if rst, err := root.Lstat("."); err != nil || !os.SameFile(st, rst) {
		return
	}
	d, err := root.Open(".")
	if err != nil {
		return
	}
	ents, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return
	}
	type ent struct {
		name, shard string
		t           time.Time
	}
	var runs []ent
	for _, e := range ents {
		name := e.Name()
		info, err := e.Info() // lstat: a link is seen as a link
		if err != nil {
			continue
		}
		switch {
		case strings.HasPrefix(name, ".run-") || strings.HasPrefix(name, ".stdout-"):
			if info.Mode().IsRegular() && now.Sub(info.ModTime()) > staleTemp {
				root.Remove(name)
			}
		case strings.HasPrefix(name, "."), !strings.HasSuffix(name, ".run"):
		default:
			s, ok := splitRunName(name)
			if !ok {
				continue
			}
			if s == "" {
				root.Remove(name) // an earlier version's <key>.run: never hit
				continue
			}
			runs = append(runs, ent{name, s, info.ModTime()})
		}
	}
	// Newest first; names break ties, so what is kept does not depend on
	// the order of the listing.
	sort.Slice(runs, func(i, j int) bool {
		if !runs[i].t.Equal(runs[j].t) {
			return runs[i].t.After(runs[j].t)
		}
		return runs[i].name < runs[j].name
	})
	mine, all := 0, 0
	for _, e := range runs {
		if e.shard == shard {
			mine++
			if mine > MaxRunEntriesPerShard {
				root.Remove(e.name)
				continue
			}
		}
		all++
		if all > MaxRunEntries {
			root.Remove(e.name)
		}
	}
}

// splitRunName returns the shard of a run entry's name, <shard>-<key>.run
// (the key in hexadecimal); an entry named as an earlier version named
// them, <key>.run, has shard "". ok is false for any other name.
func splitRunName(name string) (shard string, ok bool) {
	base := strings.TrimSuffix(name, ".run")
	if len(base) < 64 {
		return "", false
	}
	if _, err := hex.DecodeString(base[len(base)-64:]); err != nil {
		return "", false
	}
	switch rest := base[:len(base)-64]; {
	case rest == "":
		return "", true
	case len(rest) > 1 && strings.HasSuffix(rest, "-"):
		return rest[:len(rest)-1], true
	}
	return "", false
}
