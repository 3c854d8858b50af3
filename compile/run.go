package compile

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/sourcegraph/conc/stream"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
)

// Each runs work on every thread of the batch concurrently (at most jobs at
// a time) and calls collect with the results in thread-key order, whatever
// the scheduling. A thread is loaded, compiled, handed to work and then
// dropped, so bodies of at most about jobs threads are in memory at once.
//
// A panic while loading, compiling or in work is caught: collect then gets
// the zero R and the error (an internal error).
func Each[R any](b *mailbox.Batch, opt Options, jobs int, work func(*Thread) R, collect func(ref *mailbox.ThreadRef, r R, err error)) {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	s := stream.New().WithMaxGoroutines(jobs)
	for _, ref := range b.Threads {
		ref := ref
		s.Go(func() stream.Callback {
			r, err := safely(func() (R, error) {
				mt, err := ref.Load()
				if err != nil {
					var zero R
					return zero, err
				}
				return work(Compile(mt, opt)), nil
			})
			return func() { collect(ref, r, err) }
		})
	}
	s.Wait()
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
	f := diag.Finding{Rule: "IN-001", Code: "UNREADABLE_INPUT", Severity: diag.Error, Thread: ref.Key,
		Message: fmt.Sprintf("Thread %s could not be read back from its input: %v.", ref.Key, err), Anchor: "load " + ref.Key}
	if len(ref.Msgs) > 0 {
		m := ref.Msgs[0]
		f.Pos.File, f.Pos.Line, f.Pos.Col = m.Src.File, m.Src.Line, m.Src.Col
		f.Pos = f.Pos.Normalize()
	}
	return f
}
