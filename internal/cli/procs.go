package cli

import (
	"runtime"
	"sync"

	"github.com/alecthomas/kong"
)

// --jobs N is how many processors a run uses, not only how many threads it
// works on at once: the Go scheduler is given N processors (GOMAXPROCS)
// while the run lasts, when that is fewer than it has. The processors a run
// cannot keep busy cost it more than they give. Each thread is handed to a
// runner goroutine and its result handed back (compile.withBudget); with a
// processor idle, every handoff wakes a system thread for it, which spins,
// finds nothing to do and sleeps again. On the 2-core machine of
// docs/performance.md, check --jobs 1 of 10,000 threads made 30,855 futex
// calls and took 3.5 CPU-s; with one processor, 2.6 CPU-s and a fifth less
// wall time.
//
// The collector then runs on the run's processors too: the run uses N
// processors in all, as --jobs promises. A limit that GOMAXPROCS already
// sets lower stands.

// jobsCommand is a command with a --jobs flag: MainRules gives its run the
// processors it asks for (TestJobsCommands holds every such command to it).
type jobsCommand interface{ jobs() int }

func (f *checkFlags) jobs() int   { return f.Jobs }
func (f *compileFlags) jobs() int { return f.Jobs }
func (c *graphCmd) jobs() int     { return c.Jobs }

// selectedCommand is the command struct ctx selected (nil when none).
func selectedCommand(ctx *kong.Context) any {
	if n := ctx.Selected(); n != nil && n.Target.CanAddr() {
		return n.Target.Addr().Interface()
	}
	return nil
}

// procs holds the runs of this process and the processors each asked for
// (an in-process caller, such as the tests, may run several at once). The
// scheduler has the most any of them asked for, and what it had before
// once the last one ends.
var procs struct {
	sync.Mutex
	before int         // GOMAXPROCS when the first of the runs started
	asked  map[int]int // processors asked for → runs asking
}

// useProcs gives the scheduler jobs processors (0 or less: all it had) for
// a run, and returns what ends the run's claim.
func useProcs(jobs int) (done func()) {
	procs.Lock()
	defer procs.Unlock()
	if len(procs.asked) == 0 {
		procs.before = runtime.GOMAXPROCS(0)
		procs.asked = map[int]int{}
	}
	if jobs <= 0 || jobs > procs.before {
		jobs = procs.before
	}
	procs.asked[jobs]++
	setProcs()
	var once sync.Once
	return func() {
		once.Do(func() {
			procs.Lock()
			defer procs.Unlock()
			if procs.asked[jobs]--; procs.asked[jobs] == 0 {
				delete(procs.asked, jobs)
			}
			setProcs()
		})
	}
}

// setProcs sets GOMAXPROCS to the most any run asks for, or to what it was
// before the runs when none is left. procs is locked.
func setProcs() {
	n := procs.before
	if len(procs.asked) > 0 {
		n = 0
		for k := range procs.asked {
			n = max(n, k)
		}
	}
	if runtime.GOMAXPROCS(0) != n {
		runtime.GOMAXPROCS(n)
	}
}
