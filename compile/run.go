package compile

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/chunk"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/compile/subject"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

// Each runs work on every thread of the batch concurrently (at most jobs at
// a time) and calls collect with the results in thread-key order, whatever
// the scheduling. A thread is loaded, compiled, handed to work and then
// dropped, so bodies of at most about jobs threads are in memory at once.
//
// A panic while loading, compiling or in work is caught: collect then gets
// the zero R and the error (an internal error).
//
// The thread handed to work is valid during the call only: its delta
// blocks' JSON values are in the worker's jsonv.Arena, reset for the next
// thread when work returns, and its message bodies in a slab the next
// thread's bodies are loaded into (mailbox.Thread.Release). R must hold
// nothing reachable from the thread that is not copied out of it, and no
// substring of a body (diag.Finding.Detach, diag.Comment.Detach);
// TestArenaReuseIsInvisible holds the engine and the compile command to
// it.
func Each[R any](b *mailbox.Batch, opt Options, jobs int, work func(*Thread) R, collect func(ref *mailbox.ThreadRef, r R, err error)) {
	EachWith(b, opt, jobs, nil, work, collect)
}

// EachWith is Each with pre, called first in the worker: when it returns
// true, its result stands for the thread, which is neither loaded nor
// compiled (a cache hit).
func EachWith[R any](b *mailbox.Batch, opt Options, jobs int, pre func(*mailbox.ThreadRef) (R, bool), work func(*Thread) R, collect func(ref *mailbox.ThreadRef, r R, err error)) {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	s := newOrdered(jobs, 32*jobs)
	for _, ref := range b.Threads {
		ref := ref
		tried := false
		// A thread the scan has checked (mailbox.ThreadRef.Early) whose
		// result pre takes is handed to collect in its turn without a
		// task, while the run has time left: a task each (a pool
		// goroutine, a runner, a timer) was most of the time between the
		// scan and the batch rules.
		if pre != nil && ref.Early() != nil {
			if budget, _ := opt.budget(); budget >= 0 {
				r, ok, err := preSafely(pre, ref)
				if ok || err != nil {
					s.Ready(func() { collect(ref, r, err); ref.Release() })
					continue
				}
				tried = true
			}
		}
		s.Go(func() func() {
			var early func() (R, bool)
			if pre != nil && !tried {
				early = func() (R, bool) { return pre(ref) }
			}
			r, err := runThread(opt, early, ref.Load, work)
			return func() {
				collect(ref, r, err)
				if _, late := err.(*TimeoutError); !late {
					// Done with it (a thread past its budget may still be
					// running in the background: its metadata stays).
					ref.Release()
				}
			}
		})
	}
	s.Wait()
}

// preSafely calls pre on ref, a panic returned as an InternalError (as
// runThread returns one).
func preSafely[R any](pre func(*mailbox.ThreadRef) (R, bool), ref *mailbox.ThreadRef) (r R, ok bool, err error) {
	ok = true
	r, err = safely(func() (R, error) {
		r, taken := pre(ref)
		ok = taken
		return r, nil
	})
	return r, ok, err
}

// One compiles the loaded thread mt and hands it to work as Each does a
// thread of its batch: within the thread's time budget, a panic returned
// as an InternalError, mt released when work returns (the rules of Each's
// result hold). A scan calls it for a thread it checks while it holds the
// thread's file (mailbox.Early).
func One[R any](mt *mailbox.Thread, opt Options, work func(*Thread) R) (R, error) {
	return runThread(opt, nil, func() (*mailbox.Thread, error) { return mt, nil }, work)
}

// runThread is the work on one thread: pre (a cache hit stands for the
// thread), else load, compile and work, within the thread's budget.
func runThread[R any](opt Options, pre func() (R, bool), load func() (*mailbox.Thread, error), work func(*Thread) R) (R, error) {
	budget, run := opt.budget()
	stop := new(atomic.Bool)
	return withBudget(budget, run, stop, func() (R, error) {
		return safely(func() (R, error) {
			if pre != nil {
				if r, ok := pre(); ok {
					return r, nil
				}
			}
			mt, err := load()
			if err != nil {
				var zero R
				return zero, err
			}
			arena := arenas.Get().(*workArena)
			t := compile(mt, opt, stop, arena)
			r := work(t)
			// Its read buffers go to the next thread's Load (a position
			// asked for later reads the file again), its values' and
			// Docs' memory to the next thread's: work's result holds
			// none of them (it is the thread's findings, facts and
			// rendered artifact).
			mt.Release()
			arena.keepDeltas(t.deltas)
			t.arena, t.blocks, t.docs, t.arts, t.deltas = nil, nil, nil, nil, nil
			arena.values.Reset()
			arena.blocks.Reset()
			arena.docs.Reset()
			arena.arts.Reset()
			arena.msgs.Reset(PoisonOnReset, poisonMsg)
			arenas.Put(arena)
			return r, nil
		})
	})
}

// workArena is what a worker compiles a thread in: its delta blocks,
// their values and its bodies' Docs (see Thread.arena, Thread.blocks,
// Thread.docs), its artifacts' items and writes (Thread.arts), its
// messages (Thread.Msgs) and the list of its valid deltas (Thread.deltas).
type workArena struct {
	values jsonv.Arena
	blocks delta.Arena
	docs   body.Arena
	arts   artifact.Arena
	msgs   chunk.Chunk[Msg]
	deltas []pending
}

// keepDeltas keeps the list of a thread's deltas, cleared, for the next
// thread's, unless it grew past chunk.MaxKept.
func (w *workArena) keepDeltas(d []pending) {
	if cap(d) > chunk.MaxKept {
		w.deltas = nil
		return
	}
	clear(d)
	w.deltas = d[:0]
}

// PoisonOnReset is for tests: a worker's messages (Thread.Msgs) are set
// to poisonMsg when its thread's work returns, so that a message read
// after that shows in a report, where a zero value could pass unnoticed.
var PoisonOnReset bool

var poisonMsg = func() Msg {
	const p = "☠ arena reset ☠"
	return Msg{Message: &mailbox.Message{ID: p, Subject: p, From: p, ThreadKey: p, Body: p, Src: mailbox.Src{File: p}},
		Subject: subject.Parse(p), agent: p, agentKey: p}
}()

// arenas are the workers' arenas.
var arenas = sync.Pool{New: func() any { return new(workArena) }}

// TimeoutError says a thread went past its time budget, or (Run) past the
// end of the run's.
type TimeoutError struct {
	Budget time.Duration
	Run    bool
}

func (e *TimeoutError) Error() string {
	if e.Run {
		return "past the end of the run's time budget"
	}
	return fmt.Sprintf("over the time budget of %s", e.Budget)
}

// budget is the time a thread starting now may take: the thread budget,
// or less when the run's deadline comes first (run is then true); a
// negative budget when the deadline has passed.
func (opt Options) budget() (budget time.Duration, run bool) {
	budget = opt.ThreadTimeout
	if opt.Deadline.IsZero() {
		return budget, false
	}
	left := time.Until(opt.Deadline)
	if left <= 0 {
		return -1, true
	}
	if budget <= 0 || left < budget {
		return left, true
	}
	return budget, false
}

// withBudget runs f, giving up after budget (0: no budget; negative: at
// once, without running f). When a thread goes over, stop is set, so its
// compiling and checking stop at the next message or rule; its result is
// dropped. run says the budget is what remains of the run's.
func withBudget[R any](budget time.Duration, run bool, stop *atomic.Bool, f func() (R, error)) (R, error) {
	if budget < 0 {
		var zero R
		return zero, &TimeoutError{Run: true}
	}
	if budget == 0 {
		return f()
	}
	type res struct {
		r   R
		err error
	}
	done := make(chan res, 1)
	onRunner(func() {
		r, err := f()
		done <- res{r, err}
	})
	start := time.Now()
	timer := time.NewTimer(budget)
	defer timer.Stop()
	select {
	case x := <-done:
		// A thread that finished after its budget went over it, whichever
		// of the two the scheduler noticed first.
		if time.Since(start) <= budget {
			return x.r, x.err
		}
	case <-timer.C:
	}
	stop.Store(true)
	var zero R
	return zero, &TimeoutError{Budget: budget, Run: run}
}

// A runner is a goroutine that runs budgeted calls one at a time and then
// waits for the next, so that a thread's work runs on a stack already grown
// by the threads before it: a fresh goroutine per thread spent 2% of a
// check growing and copying its stack. A runner whose call went past its
// budget is still busy when withBudget returns; another one takes the
// next call, and it becomes idle again when its call ends.
type runner chan func()

// maxIdle bounds the runners kept waiting (each holds its grown stack).
const maxIdle = 64

var idle struct {
	sync.Mutex
	runners []runner
}

// onRunner starts f on an idle runner, or on a new one when none is idle.
func onRunner(f func()) {
	idle.Lock()
	var r runner
	if n := len(idle.runners); n > 0 {
		r = idle.runners[n-1]
		idle.runners = idle.runners[:n-1]
	}
	idle.Unlock()
	if r == nil {
		r = make(runner)
		go r.loop()
	}
	r <- f
}

func (r runner) loop() {
	for f := range r {
		f()
		idle.Lock()
		if len(idle.runners) >= maxIdle {
			idle.Unlock()
			return
		}
		idle.runners = append(idle.runners, r)
		idle.Unlock()
	}
}

// TimeoutFinding reports a thread that went past its time budget (IN-010).
func TimeoutFinding(ref *mailbox.ThreadRef, err *TimeoutError) diag.Finding {
	f := diag.Finding{Rule: ruleid.IN010, Severity: diag.Error, Thread: ref.Key,
		Message: fmt.Sprintf("Thread %s was not checked: it went %s; the other threads were checked.", ref.Key, err.Error()),
		Hint:    "Raise --thread-timeout, or look for a pathological message in the thread.", Anchor: "timeout " + ref.Key}
	if err.Run {
		f.Message = fmt.Sprintf("Thread %s was not checked: the run's time budget (--timeout) ran out before it was done.", ref.Key)
		f.Hint, f.Anchor = "Raise --timeout, split the run into shards (check --shard I/N), or look for a pathological thread.", "run timeout "+ref.Key
	}
	f.Pos = ref.Where()
	return f
}

// InternalError is a recovered panic.
type InternalError struct {
	Value any
	Stack string
}

func (e *InternalError) Error() string { return fmt.Sprintf("internal error: %v", e.Value) }

func safely[R any](f func() (R, error)) (r R, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &InternalError{Value: v, Stack: string(debug.Stack())}
		}
	}()
	return f()
}

// LoadError turns a failure to load a thread into a finding.
func LoadError(ref *mailbox.ThreadRef, err error) diag.Finding {
	f := diag.Finding{Rule: ruleid.IN001, Code: "UNREADABLE_INPUT", Severity: diag.Error, Thread: ref.Key,
		Message: fmt.Sprintf("Thread %s could not be read back from its input: %v.", ref.Key, err), Anchor: "load " + ref.Key}
	f.Pos = ref.Where()
	return f
}
