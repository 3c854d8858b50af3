package bench

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/internal/run"

	"github.com/sourcegraph/conc/iter"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gtext "github.com/yuin/goldmark/text"
	"golang.org/x/sys/cpu"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/compile/subject"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/cli"
	"github.com/brenner-ci/brenner-ci/internal/gen"
	"github.com/brenner-ci/brenner-ci/internal/memlimit"
	"github.com/brenner-ci/brenner-ci/reporters/github"
	"github.com/brenner-ci/brenner-ci/reporters/jsonreport"
	"github.com/brenner-ci/brenner-ci/reporters/junit"
	"github.com/brenner-ci/brenner-ci/reporters/markdown"
	"github.com/brenner-ci/brenner-ci/reporters/sarif"
	"github.com/brenner-ci/brenner-ci/reporters/text"
	"github.com/brenner-ci/brenner-ci/rules"
)

// Seed and FaultRate of every benchmark corpus.
const (
	seed      = 1
	faultRate = 0.2
)

// benchDir is a corpus folder to benchmark instead of generated ones
// ($BRENNER_BENCH_DIR: one thread per *.json file, such as
// gen_corpus.py's, its manifest moved out), and its thread count.
func benchDir(b *testing.B) (string, int) {
	dir := os.Getenv("BRENNER_BENCH_DIR")
	if dir == "" {
		return "", 0
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		b.Fatalf("BRENNER_BENCH_DIR=%s holds no *.json file", dir)
	}
	return dir, len(files)
}

// sizes are the thread counts benchmarked: $BRENNER_BENCH_THREADS, or
// 1000 (or the count of $BRENNER_BENCH_DIR).
func sizes(b *testing.B) []int {
	if _, n := benchDir(b); n > 0 {
		return []int{n}
	}
	env := os.Getenv("BRENNER_BENCH_THREADS")
	if env == "" {
		return []int{1000}
	}
	var out []int
	for _, f := range strings.Split(env, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("BRENNER_BENCH_THREADS=%q: %q is not a thread count", env, f)
		}
		out = append(out, n)
	}
	return out
}

// corpus is a generated corpus and what the stages before a benchmarked one
// make of it, each computed once per test binary.
type corpus struct {
	n   int
	dir string

	batchOnce  sync.Once
	batch      *mailbox.Batch
	loadOnce   sync.Once
	loaded     []*mailbox.Thread
	compOnce   sync.Once
	compiled   []*compile.Thread
	reportOnce sync.Once
	report     *diag.Report
}

var (
	corporaMu sync.Mutex
	corpora   = map[int]*corpus{}
)

func getCorpus(b *testing.B, n int) *corpus {
	b.Helper()
	corporaMu.Lock()
	defer corporaMu.Unlock()
	if c, ok := corpora[n]; ok {
		return c
	}
	if dir, m := benchDir(b); m == n {
		c := &corpus{n: n, dir: dir}
		corpora[n] = c
		return c
	}
	dir, err := gen.Cached(gen.Options{Seed: seed, Threads: n, FaultRate: faultRate})
	if err != nil {
		b.Fatal(err)
	}
	c := &corpus{n: n, dir: dir}
	corpora[n] = c
	return c
}

func (c *corpus) scan(b *testing.B) *mailbox.Batch {
	c.batchOnce.Do(func() {
		batch, err := mailbox.Scan([]string{c.dir}, mailbox.ScanOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if len(batch.Threads) != c.n {
			b.Fatalf("scan found %d threads, want %d", len(batch.Threads), c.n)
		}
		c.batch = batch
	})
	return c.batch
}

func (c *corpus) load(b *testing.B) []*mailbox.Thread {
	c.loadOnce.Do(func() {
		for _, ref := range c.scan(b).Threads {
			t, err := ref.Load()
			if err != nil {
				b.Fatal(err)
			}
			c.loaded = append(c.loaded, t)
		}
	})
	return c.loaded
}

func (c *corpus) compile(b *testing.B) []*compile.Thread {
	c.compOnce.Do(func() {
		for _, t := range c.load(b) {
			c.compiled = append(c.compiled, compile.Compile(t, compile.Options{}))
		}
	})
	return c.compiled
}

// reportOf builds the report the check command writes (engine, findings
// pipeline, report model), with a fixed time.
func (c *corpus) reportOf(b *testing.B) *diag.Report {
	c.reportOnce.Do(func() {
		res, fs, err := run.NewPlan([]string{c.dir}, nil, 0).Lint()
		if err != nil {
			b.Fatal(err)
		}
		const docs = "https://github.com/brenner-ci/brenner-ci/blob/main/docs/rules.md"
		r := &diag.Report{
			Tool:     diag.Tool{Name: "brenner-ci", Version: "bench", InfoURI: "https://github.com/brenner-ci/brenner-ci", DocsURL: docs},
			Threads:  res.Threads,
			Findings: fs.Findings, Fingerprints: fs.Fingerprints, Notifications: res.Notifications,
			Category: "brenner-ci/", FailOn: diag.Error, RepoRoot: c.dir, Inputs: []string{c.dir},
			Time: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
		}
		for _, m := range rules.All() {
			r.Rules = append(r.Rules, m.Report(docs))
		}
		c.report = r
	})
	return c.report
}

// each runs fn as a sub-benchmark per size and reports threads/s.
func each(b *testing.B, fn func(b *testing.B, c *corpus)) {
	for _, n := range sizes(b) {
		b.Run(fmt.Sprintf("threads=%d", n), func(b *testing.B) {
			c := getCorpus(b, n)
			fn(b, c)
		})
	}
}

// fourReports are the flags that write all four report files into dir, as
// the benchmarks of the check command ask for them.
func fourReports(dir string) []string {
	return []string{"--sarif", filepath.Join(dir, "r.sarif"), "--junit", filepath.Join(dir, "r.junit.xml"),
		"--markdown", filepath.Join(dir, "r.md"), "--json", filepath.Join(dir, "r.json")}
}

// loop runs body b.N times (b.Loop) and reports threads/s and the process
// CPU time per iteration (user + system, all goroutines): on a shared
// machine wall time varies by a fifth from run to run, CPU time much less,
// so comparisons (Check against Floor) read both.
func loop(b *testing.B, c *corpus, body func()) { loopRuns(b, c, 1, body) }

// loopRuns is loop for a body that runs the corpus runs times (a benchmark
// that alternates two commands): threads/s and cpu-s/op are per run;
// B/op and allocs/op stay per iteration, the runs together.
func loopRuns(b *testing.B, c *corpus, runs int, body func()) {
	b.ReportAllocs()
	iters := 0
	cpu0 := cpuTime()
	for b.Loop() {
		body()
		iters++
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(c.n*iters*runs)/b.Elapsed().Seconds(), "threads/s")
	if cpu > 0 && iters > 0 {
		b.ReportMetric(cpu.Seconds()/float64(iters*runs), "cpu-s/op")
	}
}

// BenchmarkIngest: mailbox.Scan of the corpus folder (every file read and
// tokenised, messages grouped into threads), GOMAXPROCS files at a time.
func BenchmarkIngest(b *testing.B) {
	each(b, func(b *testing.B, c *corpus) {
		loop(b, c, func() {
			if _, err := mailbox.Scan([]string{c.dir}, mailbox.ScanOptions{}); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkLoad: ThreadRef.Load of every thread (bodies read and decoded),
// one at a time.
func BenchmarkLoad(b *testing.B) {
	each(b, func(b *testing.B, c *corpus) {
		batch := c.scan(b)
		loop(b, c, func() {
			for _, ref := range batch.Threads {
				if _, err := ref.Load(); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}

// BenchmarkDigest: what a thread's key hashes (ThreadRef.Digest into
// SHA-256), for every thread, with the files known by an id as
// pull-request mode knows them (ScanOptions.Known: git's blob ids), so that
// a thread alone in its file is named by that id. A pull-request run keys
// every thread twice.
func BenchmarkDigest(b *testing.B) {
	each(b, func(b *testing.B, c *corpus) {
		known := map[string]string{}
		filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				abs, _ := filepath.Abs(p)
				known[filepath.ToSlash(abs)] = "blob " + p
			}
			return nil
		})
		batch, err := mailbox.Scan([]string{c.dir}, mailbox.ScanOptions{Known: known})
		if err != nil {
			b.Fatal(err)
		}
		loop(b, c, func() {
			for _, ref := range batch.Threads {
				h := sha256.New()
				if err := ref.Digest(h); err != nil {
					b.Fatal(err)
				}
				h.Sum(nil)
			}
		})
	})
}

// BenchmarkExtract: delta extraction as compile does it, for every DELTA
// message body: the markdown parse (goldmark) and delta.Analyze.
func BenchmarkExtract(b *testing.B) {
	each(b, func(b *testing.B, c *corpus) {
		var bodies []string
		for _, t := range c.load(b) {
			for _, m := range t.Messages {
				if m.HasBody && subject.Parse(m.Subject).Kind == subject.Delta {
					bodies = append(bodies, m.Body)
				}
			}
		}
		blocks := 0
		loop(b, c, func() {
			blocks = 0
			for _, s := range bodies {
				bs, _ := delta.Analyze(body.Parse(s), limits.Parse{})
				blocks += len(bs)
			}
		})
		b.ReportMetric(float64(blocks)/float64(c.n), "blocks/thread")
	})
}

// mergeInput is one thread's valid deltas in merge order and the messages
// at which COMPILED snapshots are taken.
type mergeInput struct {
	id       string
	deltas   []artifact.Applied
	compiled []int // message indexes of COMPILED messages
}

// BenchmarkMerge: applying every valid delta of a thread to a new artifact
// in order, ending a round at every COMPILED message, as compile does
// (versions are rebuilt on demand, not copied); extraction is done
// beforehand.
func BenchmarkMerge(b *testing.B) {
	each(b, func(b *testing.B, c *corpus) {
		var ins []mergeInput
		for _, t := range c.compile(b) {
			in := mergeInput{id: t.ID()}
			for i, m := range t.Msgs {
				if m.Subject.Kind == subject.Compiled {
					in.compiled = append(in.compiled, i)
				}
				for j := range m.Blocks {
					if bl := &m.Blocks[j]; bl.Valid() {
						in.deltas = append(in.deltas, artifact.Applied{Delta: bl.Delta, Agent: m.From, At: m.Created, Msg: i, MsgID: m.ID, Block: j})
					}
				}
			}
			ins = append(ins, in)
		}
		loop(b, c, func() {
			for k := range ins {
				in := &ins[k]
				art := artifact.New(in.id)
				next := 0
				for _, ci := range in.compiled {
					for ; next < len(in.deltas) && in.deltas[next].Msg < ci; next++ {
						art.Apply(in.deltas[next])
					}
					art.EndRound()
				}
				for ; next < len(in.deltas); next++ {
					art.Apply(in.deltas[next])
				}
				_ = art.Check()
			}
		})
	})
}

// BenchmarkCompile: compile.Compile of every loaded thread (every body
// parsed, deltas extracted and merged, snapshots, section minimums).
func BenchmarkCompile(b *testing.B) {
	each(b, func(b *testing.B, c *corpus) {
		threads := c.load(b)
		loop(b, c, func() {
			for _, t := range threads {
				compile.Compile(t, compile.Options{})
			}
		})
	})
}

// BenchmarkRules: every enabled thread rule on every compiled thread, then
// the batch rules on the results.
func BenchmarkRules(b *testing.B) {
	each(b, func(b *testing.B, c *corpus) {
		threads := c.compile(b)
		eng := run.NewPlan(nil, nil, 0).Engine()
		findings := 0
		loop(b, c, func() {
			res := make([]rules.ThreadFacts, len(threads))
			findings = 0
			for i, t := range threads {
				r := eng.CheckThread(t, nil)
				res[i] = rules.ThreadFacts{Facts: r.Facts, File: r.Summary.File}
				findings += len(r.Findings)
			}
			fs, _ := eng.CheckBatch(&rules.Batch{Threads: res})
			findings += len(fs)
		})
		b.ReportMetric(float64(findings), "findings")
	})
}

// countWriter counts the bytes written to it.
type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// BenchmarkReporters: each reporter writing the report of the whole corpus
// (to a byte counter); MB is the report's size.
func BenchmarkReporters(b *testing.B) {
	for _, rep := range []struct {
		name  string
		write func(io.Writer, *diag.Report) error
	}{
		{"sarif", sarif.Write},
		{"junit", junit.Write},
		{"json", jsonreport.Write},
		{"markdown", func(w io.Writer, r *diag.Report) error { return markdown.Write(w, r, 65000) }},
		{"text", text.Write},
		{"github", github.Write},
	} {
		b.Run(rep.name, func(b *testing.B) {
			each(b, func(b *testing.B, c *corpus) {
				r := c.reportOf(b)
				var w countWriter
				loop(b, c, func() {
					w.n = 0
					if err := rep.write(&w, r); err != nil {
						b.Fatal(err)
					}
				})
				b.ReportMetric(float64(w.n)/1e6, "MB")
			})
		})
	}
}

// BenchmarkSARIFFiles: the SARIF report of the whole corpus made afresh
// (its paths not cached), each finding's file looked at the way a run
// does: read again from the disk (lines=reread) or taken from the lines
// the scan counted (lines=scan, diag.Report.Lines).
func BenchmarkSARIFFiles(b *testing.B) {
	for _, scanned := range []bool{false, true} {
		b.Run(map[bool]string{false: "lines=reread", true: "lines=scan"}[scanned], func(b *testing.B) {
			each(b, func(b *testing.B, c *corpus) {
				base := *c.reportOf(b)
				if scanned {
					batch, err := mailbox.Scan([]string{c.dir}, mailbox.ScanOptions{})
					if err != nil {
						b.Fatal(err)
					}
					base.Lines = batch.Lines
				}
				var w countWriter
				loop(b, c, func() {
					r := base // a new report: reporters.PathsFor looks at its files again
					if err := sarif.Write(&w, &r); err != nil {
						b.Fatal(err)
					}
				})
			})
		})
	}
}

// BenchmarkEngine: scan, compile and every rule (rules.Engine.Run) and the
// findings pipeline, without reports, with 1 and 2 jobs.
func BenchmarkEngine(b *testing.B) {
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			each(b, func(b *testing.B, c *corpus) {
				loop(b, c, func() {
					if _, _, err := run.NewPlan([]string{c.dir}, nil, jobs).Lint(); err != nil {
						b.Fatal(err)
					}
				})
			})
		})
	}
}

// BenchmarkCheck: the check command end to end, in-process, writing all
// four reports (SARIF, JUnit, markdown, JSON), with 1 and 2 jobs.
func BenchmarkCheck(b *testing.B) {
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			each(b, func(b *testing.B, c *corpus) {
				out := b.TempDir()
				args := append([]string{"check", c.dir, "--jobs", strconv.Itoa(jobs), "--repo-root", c.dir, "--fail-on", "none"}, fourReports(out)...)
				defer memlimit.Start()() // as the binary does (cli.Run)
				loop(b, c, func() {
					if code := cli.Main(args, io.Discard, io.Discard); code != 0 {
						b.Fatalf("check exited %d", code)
					}
				})
			})
		})
	}
}

// BenchmarkCompileBesideCheck measures issue 25's "compile at most the cost
// of check": each iteration runs check --jobs 2 with four reports and
// compile --jobs 2 --out into a fresh folder (every artifact file created,
// as in a CI job) on the same corpus, both with --repo-root (no git run),
// and reports both and the ratios compile/check of their wall (wall-ratio)
// and CPU time (cpu-ratio). The order alternates (check first in even
// iterations, compile first in odd ones), so that neither command always
// runs in the other's wake (the collector's, the page cache's) and a
// machine that speeds up or slows down during the run favours neither.
//
// Each iteration then runs the two again as the built binary, each in a
// process of its own, as CI runs them (the same order): cli-compile-cpu-s/op,
// cli-check-cpu-s/op (the child's user + system time, its start-up
// included) and their ratio, cli-cpu-ratio. In one process the two share a
// heap that is already there and each other's pools; as binaries each
// starts from nothing, and in the thirty-first round the binaries' ratio
// was lower (0.92-0.95 against 1.00-1.04 in the same runs).
//
// Creating a file costs what the file system makes it cost: on this
// machine's ext4, 10,000 new files took 0.4 s of system time in one minute
// and 4 s in the next; with TMPDIR on a tmpfs the ratios compare the work
// of the two commands.
func BenchmarkCompileBesideCheck(b *testing.B) {
	each(b, func(b *testing.B, c *corpus) {
		tmp := b.TempDir()
		bin := buildBinary(b)
		check := append([]string{"check", c.dir, "--jobs", "2", "--repo-root", c.dir, "--fail-on", "none"}, fourReports(tmp)...)
		out := filepath.Join(tmp, "out")
		compile := []string{"compile", c.dir, "--jobs", "2", "--repo-root", c.dir, "--out", out}
		// The folder compile wrote is removed outside the timer, and the
		// kernel given a quarter of a second to finish freeing its 10,000
		// files: it frees inodes and dentries after a grace period, in
		// interrupts that may be charged to whatever runs then. Removing
		// the files is the benchmark's doing, not either command's.
		removeOut := func() {
			if err := os.RemoveAll(out); err != nil {
				b.Fatal(err)
			}
			time.Sleep(250 * time.Millisecond)
		}
		defer memlimit.Start()() // as the binary does (cli.Run)
		var ck, cp, cliCk, cliCp pass
		// Each command starts as a fresh process would, without the other's
		// garbage to sweep: the collector runs between them, untimed.
		settle := func() {
			b.StopTimer()
			runtime.GC()
			b.StartTimer()
		}
		runCheck := func() {
			settle()
			ck.add(measure(func() {
				if code := cli.Main(check, io.Discard, io.Discard); code != 0 {
					b.Fatalf("check exited %d", code)
				}
			}))
		}
		runCompile := func() {
			settle()
			cp.add(measure(func() {
				// 1: error findings (the bench's corpus has faulted threads).
				if code := cli.Main(compile, io.Discard, io.Discard); code > 1 {
					b.Fatalf("compile exited %d", code)
				}
			}))
			b.StopTimer()
			removeOut()
			b.StartTimer()
		}
		cliCheck := func() {
			p, err := processPass(bin, check)
			if err != nil {
				b.Fatal(err)
			}
			cliCk.add(p)
		}
		cliCompile := func() {
			p, err := processPassUpTo(bin, compile, 1)
			if err != nil {
				b.Fatal(err)
			}
			cliCp.add(p)
			b.StopTimer()
			removeOut()
			b.StartTimer()
		}
		iters := 0
		for b.Loop() {
			if iters%2 == 0 {
				runCheck()
				runCompile()
				cliCheck()
				cliCompile()
			} else {
				runCompile()
				runCheck()
				cliCompile()
				cliCheck()
			}
			iters++
		}
		reportBeside(b, iters, cp, "compile", ck, "check", "wall-ratio", "cpu-ratio")
		reportBeside(b, iters, cliCp, "cli-compile", cliCk, "cli-check", "cli-wall-ratio", "cli-cpu-ratio")
	})
}

// reportBeside reports two commands measured beside each other in iters
// iterations: each one's wall and CPU time per iteration (NAME-s/op,
// NAME-cpu-s/op) and the first's over the second's, as wallRatio and
// cpuRatio.
func reportBeside(b *testing.B, iters int, x pass, xName string, y pass, yName string, wallRatio, cpuRatio string) {
	if iters == 0 {
		return
	}
	n := float64(iters)
	for _, p := range []struct {
		name string
		pass
	}{{xName, x}, {yName, y}} {
		b.ReportMetric(p.wall.Seconds()/n, p.name+"-s/op")
		b.ReportMetric(p.cpu.Seconds()/n, p.name+"-cpu-s/op")
	}
	if y.wall > 0 {
		b.ReportMetric(x.wall.Seconds()/y.wall.Seconds(), wallRatio)
	}
	if y.cpu > 0 {
		b.ReportMetric(x.cpu.Seconds()/y.cpu.Seconds(), cpuRatio)
	}
}

// BenchmarkFloor is the work any checker of these files does, measured the
// same way as BenchmarkCheck/jobs=2: read every file, decode it with
// encoding/json and parse every body with goldmark's GFM parser, two files
// at a time. Issue 11's first milestone is a check faster than this floor.
func BenchmarkFloor(b *testing.B) {
	each(b, func(b *testing.B, c *corpus) {
		var files []string
		filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
				files = append(files, p)
			}
			return nil
		})
		gfm := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()
		defer memlimit.Start()()
		loop(b, c, func() {
			iter.Iterator[string]{MaxGoroutines: 2}.ForEach(files, func(p *string) {
				data, err := os.ReadFile(*p)
				if err != nil {
					b.Error(err)
					return
				}
				var t struct {
					Messages []struct {
						ID      any    `json:"id"`
						Subject string `json:"subject"`
						From    string `json:"from"`
						Created string `json:"created_ts"`
						Body    string `json:"body_md"`
					} `json:"messages"`
				}
				if err := json.Unmarshal(data, &t); err != nil {
					b.Error(err)
					return
				}
				for _, m := range t.Messages {
					gfm.Parse(gtext.NewReader([]byte(m.Body)))
				}
			})
		})
	})
}

// BenchmarkRender: the persisted artifact of every compiled thread
// rendered (what compile --out and check --out write), one goroutine.
func BenchmarkRender(b *testing.B) {
	each(b, func(b *testing.B, c *corpus) {
		ts := c.compile(b)
		loop(b, c, func() {
			for _, t := range ts {
				t.Current.Render()
			}
		})
	})
}

// BenchmarkSecrets: the credential search (diag.FindSecrets, as SC-001 runs
// it) over every message body of the corpus; few hold a secret, so this is
// mostly the prefilter. "vector" is the AVX2 anchor search where the
// processor has it, "plain" the prefilter's IndexByte passes, in the same
// run (the benchmark turns the processor flag off for it).
func BenchmarkSecrets(b *testing.B) {
	each(b, func(b *testing.B, c *corpus) {
		var bodies []string
		size := 0
		for _, t := range c.load(b) {
			for _, m := range t.Messages {
				bodies = append(bodies, m.Body)
				size += len(m.Body)
			}
		}
		run := func(b *testing.B) {
			b.SetBytes(int64(size))
			found := 0
			for b.Loop() {
				found = 0
				for _, s := range bodies {
					found += len(diag.FindSecrets(s))
				}
			}
			b.ReportMetric(float64(found), "secrets")
		}
		if cpu.X86.HasAVX2 {
			b.Run("vector", run)
		}
		b.Run("plain", func(b *testing.B) {
			was := cpu.X86.HasAVX2
			cpu.X86.HasAVX2 = false
			defer func() { cpu.X86.HasAVX2 = was }()
			run(b)
		})
	})
}
