package compile

import (
	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/pool"
)

// ordered runs tasks on at most jobs goroutines and calls the callback each
// returns one at a time, in the order the tasks were given (conc's stream,
// with more room). A callback waits here until every earlier one has run,
// and the tasks given after it run meanwhile while at most window callbacks
// wait. conc's stream keeps room for jobs+1: one thread that took long held
// back every worker that finished after it, and a check of 10,000 threads
// ran on 1.4-1.6 of its 2 processors for the first fifth of its compile
// phase (docs/performance.md, seventeenth round).
type ordered struct {
	pool  *pool.Pool
	queue chan turn
	calls conc.WaitGroup
}

// turn is one callback's place in the queue: the callback itself when it
// was ready when queued (Ready), else the channel its task hands it over
// on (Go).
type turn struct {
	ready func()
	ch    chan func()
}

// newOrdered starts the goroutine that calls the callbacks.
func newOrdered(jobs, window int) *ordered {
	o := &ordered{pool: pool.New().WithMaxGoroutines(jobs), queue: make(chan turn, window)}
	o.calls.Go(func() {
		// After a callback panics the rest are not called, but every
		// task's is still taken: a task waits to hand over its callback,
		// and Go waits for room in the queue, so stopping here would leave
		// the run waiting forever instead of failing. Wait re-panics.
		var failed any
		for t := range o.queue {
			f := t.ready
			if f == nil {
				f = <-t.ch
			}
			if failed == nil {
				failed = call(f)
			}
		}
		if failed != nil {
			panic(failed)
		}
	})
	return o
}

// call calls f and returns what it panicked with, or nil.
func call(f func()) (failed any) {
	defer func() { failed = recover() }()
	f()
	return nil
}

// Go runs task on the pool; its callback is called in turn. It blocks
// while window callbacks wait, or while jobs tasks run.
func (o *ordered) Go(task func() func()) {
	ch := make(chan func(), 1)
	o.queue <- turn{ch: ch}
	o.pool.Go(func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- func() {} // the later callbacks still run; Wait re-panics
				panic(r)
			}
		}()
		ch <- task()
	})
}

// Ready queues callback, whose task is done already, in turn. It blocks
// while window callbacks wait.
func (o *ordered) Ready(callback func()) {
	o.queue <- turn{ready: callback}
}

// Wait waits for every task and callback; a task's or a callback's panic
// is re-panicked.
func (o *ordered) Wait() {
	defer func() {
		close(o.queue)
		o.calls.Wait()
	}()
	o.pool.Wait()
}
