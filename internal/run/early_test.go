package run

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/internal/cache"
	"github.com/brenner-ci/brenner-ci/internal/gen"
	"github.com/brenner-ci/brenner-ci/rules"
)

// TestEarlyChecksMatch: a check that checks threads while the scan holds
// their files (rules.Engine.Early) writes the reports, standard output and
// artifacts of one that checks every thread after the scan, and a compile
// that compiles them so (and stages their files) writes what one that
// compiles every thread after the scan writes, on generated
// threads with faults whose artifacts are persisted for half of them (by
// file name, and one by session id only), a thread key held by two files,
// a batch that lists agents, minified exports (a file of one line), threads
// with a custom rule, the rules' golden inputs and the shared corpus; with
// one worker and with two.
func TestEarlyChecksMatch(t *testing.T) {
	counting, plain, checked := earlySeams(t)
	t.Setenv("SOURCE_DATE_EPOCH", "")
	keep := keepResults
	defer func() { keepResults = keep }()

	repo := t.TempDir()
	if _, err := gen.WriteCorpus(repo, gen.Options{Seed: 9, Threads: 40, FaultRate: 0.3}); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.WriteArtifacts(repo, 2); err != nil {
		t.Fatal(err)
	}
	arts, _ := filepath.Glob(filepath.Join(repo, "artifacts", "*.md"))
	sort.Strings(arts)
	for i, a := range arts {
		switch {
		case i%2 == 0:
			os.Remove(a)
		case i == 1:
			// Paired by its front matter's session id only.
			os.Rename(a, filepath.Join(repo, "artifacts", "renamed.md"))
		}
	}
	threads, _ := filepath.Glob(filepath.Join(repo, "threads", "*.json"))
	sort.Strings(threads)
	data, err := os.ReadFile(threads[0])
	if err != nil {
		t.Fatal(err)
	}
	// Another export of the first thread, one body changed: the two
	// files' messages are merged into one thread (never checked early).
	other := bytes.Replace(data, []byte(`"body_md": "`), []byte(`"body_md": "Edited. `), 1)
	if err := os.WriteFile(filepath.Join(repo, "threads", "zz-copy.json"), other, 0o644); err != nil {
		t.Fatal(err)
	}

	// Two threads whose artifact names clash on a case-insensitive file
	// system: the second in key order writes nothing (its staged file is
	// removed).
	for _, id := range []string{"RS-20260101-case", "RS-20260101-CASE"} {
		msg := fmt.Sprintf(`{"id": 1, "thread_id": %q, "subject": "KICKOFF: case", "from": "A", "to": ["B"], "created_ts": "2026-01-01T00:00:00Z", "body_md": "Kickoff."}`, id)
		if err := os.WriteFile(filepath.Join(repo, "threads", id+".json"), []byte("{\"messages\": [\n"+msg+"]}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// A suppression comment naming an unknown rule (SP-004, which compile
	// reports too): a result that lost its comments would lose it.
	supp := `{"messages": [
{"id": 1, "thread_id": "RS-20260101-suppression", "subject": "KICKOFF: suppression", "from": "A", "to": ["B"], "created_ts": "2026-01-01T00:00:00Z", "body_md": "Kickoff.\n\n<!-- brenner-ci-disable MB-06: a typo -->\n"}]}`
	if err := os.WriteFile(filepath.Join(repo, "threads", "RS-20260101-suppression.json"), []byte(supp), 0o644); err != nil {
		t.Fatal(err)
	}

	agents := t.TempDir()
	if _, err := gen.WriteCorpus(agents, gen.Options{Seed: 3, Threads: 6, FaultRate: 0.5}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(agents, "agents.json"), []byte("{\"agents\": [\n{\"name\": \"BlueLake\"}]}"), 0o644); err != nil {
		t.Fatal(err)
	}

	// Minified exports: each thread file one line (read as JSON Lines),
	// with and without a final newline, one after a blank line, one with
	// a second line (JSON Lines proper: never checked early).
	minified := t.TempDir()
	if _, err := gen.WriteCorpus(minified, gen.Options{Seed: 13, Threads: 12, FaultRate: 0.4}); err != nil {
		t.Fatal(err)
	}
	mins, _ := filepath.Glob(filepath.Join(minified, "threads", "*.json"))
	sort.Strings(mins)
	for i, p := range mins {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var one bytes.Buffer
		if err := json.Compact(&one, data); err != nil {
			t.Fatal(err)
		}
		switch i % 4 {
		case 0:
			one.WriteByte('\n')
		case 1:
			one = *bytes.NewBuffer(append([]byte("\n"), one.Bytes()...))
		case 2:
			one.WriteString("\n" + `{"id": 999999, "thread_id": "RS-20260101-second-line", "subject": "KICKOFF: x", "from": "A", "to": ["B"], "created_ts": "2026-01-01T00:00:00Z", "body_md": "Kickoff."}` + "\n")
		}
		if err := os.WriteFile(p, one.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// bigRunRoots: generated threads with a custom rule and every
	// thread's artifact persisted (none checked early: TestEarlyChecksBudgets
	// has custom rules checked early), the rules' golden inputs, the shared
	// corpus.
	big := bigRunRoots(t)
	roots := append([]string{repo, agents, minified}, big...)
	for _, root := range roots {
		for _, jobs := range []int{1, 2} {
			// check: the artifacts written file by file into a folder
			// that exists, against a new folder built whole.
			earlyCheck = plain
			want := checkReportsInto(t, root, jobs, true)
			earlyCheck = counting
			before := checked.Load()
			got := checkReports(t, root, jobs)
			inMemory := checked.Load() - before
			if !bytes.Equal(got, want) {
				t.Errorf("%s, %d jobs: the reports differ with early checks", root, jobs)
				diffLines(t, want, got)
			}
			// A run past keepResults files: the early results are kept
			// in a temporary file (cache.Held), and every result is
			// spilled (cache.Results).
			keepResults = 0
			before = checked.Load()
			var written, taken int64
			heldDone = func(h *cache.Held) { written, taken = h.Written.Load(), h.Taken.Load() }
			got = checkReports(t, root, jobs)
			keepResults, heldDone = keep, nil
			// Every early result is written; those of threads merged
			// with another file's (or of a batch with agents) are not
			// taken back.
			held := checked.Load() - before
			if held != inMemory || written != held || taken > written || (taken == 0 && (root == repo || root == minified || root == big[1])) {
				t.Errorf("%s, %d jobs: %d threads checked early, %d results held, %d taken back", root, jobs, held, written, taken)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, %d jobs: the reports differ with the early results held in a file", root, jobs)
				diffLines(t, want, got)
			}
			// compile: every thread after the scan, each file written on
			// its own into folders that exist, against early threads and
			// new folders built whole (newFolder), and each of the two
			// alone.
			earlyCompile = false
			want = compileOutputInto(t, root, jobs, true)
			for _, early := range []bool{true, false} {
				for _, existing := range []bool{false, true} {
					if !early && existing {
						continue // want
					}
					earlyCompile = early
					if got := compileOutputInto(t, root, jobs, existing); !bytes.Equal(got, want) {
						t.Errorf("%s, %d jobs: compile's output differs with early threads %v, into existing folders %v", root, jobs, early, existing)
						diffLines(t, want, got)
					}
				}
			}
			// Past keepResults files: into new folders, the early
			// results held in a temporary file (compileHeld); into
			// folders that exist, no thread compiled early.
			earlyCompile, keepResults = true, 0
			for _, existing := range []bool{false, true} {
				var written, taken int64
				compileHeldDone = func(h *compileHeld) { written, taken = h.written.Load(), h.taken.Load() }
				got := compileOutputInto(t, root, jobs, existing)
				compileHeldDone = nil
				if !bytes.Equal(got, want) {
					t.Errorf("%s, %d jobs: compile's output differs past keepResults files, into existing folders %v", root, jobs, existing)
					diffLines(t, want, got)
				}
				if existing && written > 0 || taken > written || (!existing && taken == 0 && (root == repo || root == minified || root == big[1])) {
					t.Errorf("%s, %d jobs, into existing folders %v: %d compiled results held, %d taken back", root, jobs, existing, written, taken)
				}
			}
			keepResults = keep
			earlyCompile = true
			// The shared corpus persists every thread's artifact: none
			// of its threads is checked early.
			n := checked.Load() - before
			if n == 0 && (root == repo || root == minified || root == big[1]) {
				t.Errorf("%s: no thread was checked early: the test shows less than it says", root)
			}
			t.Logf("%s, %d jobs: %d threads checked early", root, jobs, n)
		}
	}
}

// diffLines logs the first line where two outputs differ.
func diffLines(t *testing.T, want, got []byte) {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) && i < len(g); i++ {
		if w[i] != g[i] {
			t.Logf("line %d:\nwant %s\n got %s", i+1, w[i], g[i])
			return
		}
	}
	t.Logf("%d lines against %d", len(w), len(g))
}

// TestCompileEarlyPastDeadline: when the run's time runs out between the
// scan and the threads' turn, the threads compiled early are not taken, and
// the files they staged are removed: nothing is written, no temporary file
// is left, and every thread is reported as not compiled in time.
func TestCompileEarlyPastDeadline(t *testing.T) {
	defer func() { afterCompileScan = nil }()
	repo := t.TempDir()
	if _, err := gen.WriteCorpus(repo, gen.Options{Seed: 4, Threads: 5}); err != nil {
		t.Fatal(err)
	}
	const budget = 2 * time.Second
	start := time.Now()
	afterCompileScan = func() { time.Sleep(time.Until(start.Add(budget + 100*time.Millisecond))) }
	out := t.TempDir()
	var so, se bytes.Buffer
	err := Compile(CompileOptions{Paths: []string{repo}, Out: out, Jobs: 2, Timeout: budget}, &Env{Stdout: &so, Stderr: &se})
	if time.Since(start) < budget {
		t.Fatal("the run ended before its time ran out: the test shows nothing")
	}
	if ee, ok := err.(*ExitError); !ok || ee.Code != 1 {
		t.Fatalf("compile past its time: %v, want exit 1\n%s", err, se.String())
	}
	if n := strings.Count(so.String(), "IN-010"); n != 5 {
		t.Errorf("%d IN-010 findings, want one for each of the 5 threads:\n%s", n, so.String())
	}
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && (!d.IsDir() || strings.Contains(d.Name(), ".tmp-")) {
			t.Errorf("written past the run's time: %s", p)
		}
		return nil
	})
}

// TestEarlyChecksBudgets: custom rules' run budgets give the findings and
// withdrawals of a run without early checks, whatever the budget: a check
// during the scan charges nothing, and its result's cost is charged when
// the run takes it. Budgets doubling from 1 pass the two runs' total cost,
// so one of them lies between half the total and the total, where a
// thread counted twice (checked early, its result dropped, checked again)
// would stop a rule that a run without early checks does not stop. On
// generated threads with one thread in two files, and on the same threads
// with a listing of agents (every early result dropped).
func TestEarlyChecksBudgets(t *testing.T) {
	counting, plain, checked := earlySeams(t)
	t.Setenv("SOURCE_DATE_EPOCH", "")

	repo, agents := t.TempDir(), t.TempDir()
	for _, dir := range []string{repo, agents} {
		if _, err := gen.WriteCorpus(dir, gen.Options{Seed: 11, Threads: 30, FaultRate: 0.3}); err != nil {
			t.Fatal(err)
		}
		threads, _ := filepath.Glob(filepath.Join(dir, "threads", "*.json"))
		sort.Strings(threads)
		data, err := os.ReadFile(threads[0])
		if err != nil {
			t.Fatal(err)
		}
		other := bytes.Replace(data, []byte(`"body_md": "`), []byte(`"body_md": "Edited. `), 1)
		if err := os.WriteFile(filepath.Join(dir, "threads", "zz-copy.json"), other, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(agents, "agents.json"), []byte("{\"agents\": [\n{\"name\": \"BlueLake\"}]}"), 0o644); err != nil {
		t.Fatal(err)
	}
	config := func(budget uint64) string {
		return fmt.Sprintf(`limits: {custom-rule-budget: %d}
custom-rules:
  - {id: LAB-001, name: delta-cites, scope: message, severity: warning, short: s,
     when: 'message.type == "DELTA" && !message.body.contains("§")', message: "no section"}
  - {id: LAB-002, name: ends-in-zero, scope: thread, severity: warning, short: s,
     when: 'thread.applied > 0 && thread.id.endsWith("0")', message: "{{ thread.id }} ends in 0."}
`, budget)
	}
	const withdrawn = "spent its run budget"
	for _, root := range []string{repo, agents} {
		sawWithdrawn, kept := false, 0
		before := checked.Load()
		// Up to the second budget in a row with nothing withdrawn.
		for budget := uint64(1); budget <= 1<<24 && kept < 2; budget *= 2 {
			if err := os.WriteFile(filepath.Join(root, ".brenner-ci.yaml"), []byte(config(budget)), 0o644); err != nil {
				t.Fatal(err)
			}
			earlyCheck = plain
			want := checkReports(t, root, 2)
			earlyCheck = counting
			if got := checkReports(t, root, 2); !bytes.Equal(got, want) {
				t.Errorf("%s, budget %d: the reports differ with early checks", root, budget)
				diffLines(t, want, got)
			}
			if bytes.Contains(want, []byte(withdrawn)) {
				sawWithdrawn, kept = true, 0
			} else {
				kept++
			}
			t.Logf("%s, budget %d: withdrawn %v", root, budget, kept == 0)
		}
		if !sawWithdrawn || kept == 0 {
			t.Errorf("%s: withdrawn at some budget %v, kept at the last %v: the budgets do not cross the run's cost", root, sawWithdrawn, kept > 0)
		}
		if checked.Load() == before {
			t.Errorf("%s: no thread was checked early: the test shows less than it says", root)
		}
	}
}

// earlySeams returns what earlyCheck is set to in these tests: the
// engine's early checks counted in checked, and none (plain); earlyCheck
// is restored when the test ends.
func earlySeams(t *testing.T) (counting, plain func(*rules.Engine, rules.RunOptions, []string) *mailbox.Early, checked *atomic.Int64) {
	saved := earlyCheck
	t.Cleanup(func() { earlyCheck = saved })
	checked = new(atomic.Int64)
	counting = func(e *rules.Engine, opt rules.RunOptions, md []string) *mailbox.Early {
		x := e.Early(opt, md)
		if x != nil {
			check := x.Check
			x.Check = func(th *mailbox.Thread) (any, bool) { checked.Add(1); return check(th) }
		}
		return x
	}
	plain = func(*rules.Engine, rules.RunOptions, []string) *mailbox.Early { return nil }
	return counting, plain, checked
}

// TestShardEarlyResultsHeld: a shard past keepResults files keeps its
// early results in a temporary file (cache.Held), and writes the shard
// file it writes when it keeps them in memory, for each of three shards,
// with one worker and with two.
func TestShardEarlyResultsHeld(t *testing.T) {
	keep := keepResults
	defer func() { keepResults, heldDone = keep, nil }()
	t.Setenv("SOURCE_DATE_EPOCH", "")
	repo := t.TempDir()
	if _, err := gen.WriteCorpus(repo, gen.Options{Seed: 21, Threads: 30, FaultRate: 0.3}); err != nil {
		t.Fatal(err)
	}
	shardFile := func(spec string, jobs int) []byte {
		out := t.TempDir()
		var so, se bytes.Buffer
		err := Check(CheckOptions{Paths: []string{repo}, RepoRoot: repo, Jobs: jobs, Shard: spec, Out: out}, &Env{Stdout: &so, Stderr: &se})
		if err != nil {
			t.Fatalf("shard %s: %v\n%s", spec, err, se.String())
		}
		data, err := os.ReadFile(filepath.Join(out, "brenner-ci.shard.json"))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	var taken int64
	for i := 1; i <= 3; i++ {
		for _, jobs := range []int{1, 2} {
			spec := fmt.Sprintf("%d/3", i)
			keepResults, heldDone = keep, nil
			want := shardFile(spec, jobs)
			keepResults = 0
			heldDone = func(h *cache.Held) { taken += h.Taken.Load() }
			if got := shardFile(spec, jobs); !bytes.Equal(got, want) {
				t.Errorf("shard %s, %d jobs: the shard file differs with the early results held in a file", spec, jobs)
				diffLines(t, want, got)
			}
		}
	}
	if taken == 0 {
		t.Error("no early result was taken from the file: the test shows less than it says")
	}
}
