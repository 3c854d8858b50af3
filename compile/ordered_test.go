package compile

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
)

// TestOrderedCallsInOrder: callbacks run one at a time in the order the
// tasks (and the callbacks queued ready, Ready) were given, whatever order
// the tasks finish in, and at most jobs tasks run at once.
func TestOrderedCallsInOrder(t *testing.T) {
	const n, jobs = 300, 3
	o := newOrdered(jobs, 8)
	var running, most, inCall atomic.Int32
	var got []int
	r := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		if i%3 == 2 { // a callback ready when queued (an early result) between tasks
			o.Ready(func() { got = append(got, i) })
			continue
		}
		d := time.Duration(r.IntN(300)) * time.Microsecond
		o.Go(func() func() {
			k := running.Add(1)
			for m := most.Load(); k > m && !most.CompareAndSwap(m, k); m = most.Load() {
			}
			time.Sleep(d)
			running.Add(-1)
			return func() {
				if inCall.Add(1) != 1 {
					t.Error("two callbacks ran at once")
				}
				got = append(got, i)
				inCall.Add(-1)
			}
		})
	}
	o.Wait()
	if len(got) != n {
		t.Fatalf("%d callbacks ran, want %d", len(got), n)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("callback %d ran in place %d", v, i)
		}
	}
	if m := most.Load(); m > jobs {
		t.Errorf("%d tasks ran at once, want at most %d", m, jobs)
	}
}

// TestOrderedRunsAheadOfSlowTask: while the first task runs, the tasks
// after it run and finish, their callbacks waiting, up to the window (with
// conc's stream, room for jobs+1, this waits for ever).
func TestOrderedRunsAheadOfSlowTask(t *testing.T) {
	const jobs, window, after = 2, 16, 12
	o := newOrdered(jobs, window)
	var later sync.WaitGroup
	later.Add(after)
	done := make(chan bool, 1)
	go func() {
		o.Go(func() func() {
			ok := make(chan struct{})
			go func() { later.Wait(); close(ok) }()
			select {
			case <-ok:
				done <- true
			case <-time.After(10 * time.Second):
				done <- false
			}
			return func() {}
		})
		for range after {
			o.Go(func() func() { later.Done(); return func() {} })
		}
		o.Wait()
	}()
	if !<-done {
		t.Fatalf("the %d tasks after a slow one did not run while it ran", after)
	}
}

// TestOrderedPanic: a task's panic comes back from Wait, after every other
// callback has run.
func TestOrderedPanic(t *testing.T) {
	o := newOrdered(2, 4)
	var calls atomic.Int32
	for i := range 10 {
		o.Go(func() func() {
			if i == 3 {
				panic("boom")
			}
			return func() { calls.Add(1) }
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("Wait did not re-panic the task's panic")
		}
		if c := calls.Load(); c != 9 {
			t.Errorf("%d callbacks ran, want the other 9", c)
		}
	}()
	o.Wait()
}

// TestOrderedCallbackPanic: a callback's panic comes back from Wait; it
// does not leave the tasks after it waiting forever to hand over theirs
// (with a window of 2, the twelve tasks below would block in Go).
func TestOrderedCallbackPanic(t *testing.T) {
	o := newOrdered(2, 2)
	var calls atomic.Int32
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		for i := range 12 {
			o.Go(func() func() {
				return func() {
					calls.Add(1)
					if i == 2 {
						panic("boom")
					}
				}
			})
		}
		o.Wait()
	}()
	select {
	case r := <-done:
		if r == nil {
			t.Error("Wait did not re-panic the callback's panic")
		}
		if c := calls.Load(); c != 3 {
			t.Errorf("%d callbacks ran, want the 3 up to the one that panicked", c)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the tasks after a callback's panic were left waiting")
	}
}

// TestEachWithEarlyResults: the results the scan made (ThreadRef.Early)
// that pre takes reach collect in thread order without a task, pre called
// once for each; a thread whose early result pre does not take is loaded
// and worked on; a panic in pre is the thread's InternalError, and the
// run goes on.
func TestEachWithEarlyResults(t *testing.T) {
	dir := t.TempDir()
	keys := []string{"RS-20260101-a", "RS-20260101-b", "RS-20260101-c", "RS-20260101-d", "RS-20260101-e", "RS-20260101-f"}
	for _, k := range keys {
		msg := fmt.Sprintf(`{"id": 1, "thread_id": %q, "subject": "KICKOFF: x", "from": "A", "to": ["B"], "created_ts": "2026-01-01T00:00:00Z", "body_md": "Kickoff."}`, k)
		if err := os.WriteFile(filepath.Join(dir, k+".json"), []byte("{\"messages\": [\n"+msg+"]}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in, err := mailbox.List([]string{dir}, mailbox.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in.CheckEarly(&mailbox.Early{Check: func(th *mailbox.Thread) (any, bool) { return "early " + th.Key, true }})
	b := in.Scan()
	if len(b.Threads) != len(keys) {
		t.Fatalf("%d threads", len(b.Threads))
	}
	var pres sync.Map
	pre := func(ref *mailbox.ThreadRef) (string, bool) {
		if n, _ := pres.LoadOrStore(ref.Key, 0); n.(int) > 0 {
			t.Errorf("pre called twice for %s", ref.Key)
		}
		pres.Store(ref.Key, 1)
		switch ref.Key {
		case keys[1]:
			panic("boom")
		case keys[3]:
			return "", false // e.g. an artifact it owns: loaded again
		}
		s, ok := ref.Early().(string)
		return s, ok
	}
	work := func(th *Thread) string { return "worked " + th.Key }
	var got []string
	EachWith(b, Options{}, 2, pre, work, func(ref *mailbox.ThreadRef, r string, err error) {
		if _, ok := err.(*InternalError); ok {
			r = "internal error"
		} else if err != nil {
			t.Errorf("%s: %v", ref.Key, err)
		}
		got = append(got, ref.Key+": "+r)
	})
	want := []string{
		keys[0] + ": early " + keys[0], keys[1] + ": internal error", keys[2] + ": early " + keys[2],
		keys[3] + ": worked " + keys[3], keys[4] + ": early " + keys[4], keys[5] + ": early " + keys[5],
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("collected:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
