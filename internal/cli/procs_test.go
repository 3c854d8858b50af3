package cli

import (
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/alecthomas/kong"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules"
)

// These tests change GOMAXPROCS: none of them is parallel, so none runs
// beside the package's parallel tests.

// procsNow is the scheduler's processors.
func procsNow() int { return runtime.GOMAXPROCS(0) }

func TestUseProcs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	want := func(what string, n int) {
		t.Helper()
		if got := procsNow(); got != n {
			t.Fatalf("%s: GOMAXPROCS %d, want %d", what, got, n)
		}
	}
	one := useProcs(1)
	want("one run of --jobs 1", 1)
	two := useProcs(2)
	want("beside it, a run of --jobs 2", 2)
	all := useProcs(0)
	want("and a run of every processor", 4)
	all()
	want("the run of every processor ended", 2)
	two()
	two() // a second call changes nothing
	want("the run of --jobs 2 ended", 1)
	more := useProcs(9)
	want("a run of more jobs than processors", 4)
	more()
	want("it ended", 1)
	one()
	want("every run ended", 4)
	runtime.GOMAXPROCS(3) // changed between runs: the next run starts from it
	defer useProcs(1)()
	want("a run of --jobs 1 after GOMAXPROCS 3", 1)
	if procs.before != 3 {
		t.Fatalf("the processors before the runs: %d, want 3", procs.before)
	}
}

// TestUseProcsConcurrent: runs that start and end at the same time, each
// with its own --jobs, leave the process as they found it, and none runs
// with fewer processors than it asked for.
func TestUseProcsConcurrent(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(6))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				jobs := (g+i)%8 + 1 // 1 … 8, above the 6 processors too
				done := useProcs(jobs)
				if got := procsNow(); got < min(jobs, 6) {
					t.Errorf("a run of --jobs %d runs with GOMAXPROCS %d", jobs, got)
				}
				done()
			}
		}()
	}
	wg.Wait()
	if got := procsNow(); got != 6 {
		t.Fatalf("after every run: GOMAXPROCS %d, want 6", got)
	}
}

// TestJobsCommands: every command with a --jobs flag hands its value to
// MainRules (jobsCommand), and no other command claims to.
func TestJobsCommands(t *testing.T) {
	var a cliArgs
	parser, err := newParser(&a, kong.Exit(func(int) { t.Fatal("the parser exited") }))
	if err != nil {
		t.Fatal(err)
	}
	with := 0
	for _, cmd := range parser.Model.Leaves(true) {
		hasJobs := false
		for _, f := range cmd.Flags {
			hasJobs = hasJobs || f.Name == "jobs"
		}
		path := strings.Fields(cmd.Path())
		if !hasJobs {
			if _, ok := cmd.Target.Addr().Interface().(jobsCommand); ok {
				t.Errorf("%s has no --jobs flag but is a jobsCommand", cmd.Path())
			}
			continue
		}
		with++
		ctx, err := parser.Parse(append(path, "--jobs", "3"))
		if err != nil {
			t.Fatalf("%s --jobs 3: %v", cmd.Path(), err)
		}
		j, ok := selectedCommand(ctx).(jobsCommand)
		if !ok {
			t.Errorf("%s has a --jobs flag but is not a jobsCommand: its run would use every processor", cmd.Path())
			continue
		}
		if got := j.jobs(); got != 3 {
			t.Errorf("%s --jobs 3: jobs() is %d", cmd.Path(), got)
		}
	}
	if with < 3 {
		t.Fatalf("%d commands with --jobs, want at least check, compile and graph", with)
	}
}

// TestCheckUsesJobsProcessors: a check of --jobs N runs its rules with N
// processors when the process has more, and gives them back at the end.
func TestCheckUsesJobsProcessors(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var seen atomic.Int64 // the most processors a rule ran with
	probe := &rules.Rule{
		ID: "PROBE-001", Name: "processors", Code: "PROBE-001", Family: "PROBE",
		Scope: rules.ScopeThread, Severity: diag.Note, Short: "Records GOMAXPROCS.",
		Check: func(*rules.Ctx) {
			n := int64(procsNow())
			for {
				old := seen.Load()
				if n <= old || seen.CompareAndSwap(old, n) {
					return
				}
			}
		},
	}
	reg, err := rules.Builtin().With(probe)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		jobs string
		want int64
	}{{"1", 1}, {"2", 2}, {"0", 4}, {"8", 4}} {
		seen.Store(0)
		args := []string{"check", demo(t), "--jobs", c.jobs, "--fail-on", "none", "--repo-root", demo(t)}
		if code := MainRules(reg, args, nil, io.Discard, io.Discard); code != ExitOK {
			t.Fatalf("check --jobs %s: exit %d", c.jobs, code)
		}
		if got := seen.Load(); got != c.want {
			t.Errorf("check --jobs %s: its rules ran with GOMAXPROCS %d, want %d", c.jobs, got, c.want)
		}
		if n := procsNow(); n != 4 {
			t.Fatalf("after check --jobs %s: GOMAXPROCS %d, want 4 back", c.jobs, n)
		}
	}
}
