package rules

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// TestPanickingRuleIsIsolated: a rule that panics becomes an internal-error
// notification; the other rules and threads still report.
func TestPanickingRuleIsIsolated(t *testing.T) {
	r := Lookup("MB-002")
	saved := r.Check
	r.Check = func(c *Ctx) { panic("boom") }
	defer func() { r.Check = saved }()

	res := demoRun(t, 2)
	if !res.Internal {
		t.Fatal("a panicking rule did not mark the run as internal error")
	}
	var note string
	for _, n := range res.Notifications {
		note += n.Message
	}
	if !strings.Contains(note, "MB-002") || !strings.Contains(note, "boom") {
		t.Errorf("notification does not name the rule and the panic: %q", note)
	}
	seen := map[string]bool{}
	for _, f := range res.Findings {
		seen[f.Rule] = true
	}
	for _, id := range []string{"MB-001", "MB-003", "DL-002", "MB-005"} {
		if !seen[id] {
			t.Errorf("rule %s reported nothing after MB-002 panicked", id)
		}
	}
}

// TestPanicsResumeAtTheNextMessage: a message rule that panics on some
// messages still checks every other message, each panic is one internal
// error naming its rule and message, and the rules after it still run.
func TestPanicsResumeAtTheNextMessage(t *testing.T) {
	msgRule, threadRule := Lookup("MB-002"), Lookup("TH-002")
	if msgRule.Scope != ScopeMessage || threadRule.Scope != ScopeThread {
		t.Fatalf("scopes changed: %v %v", msgRule.Scope, threadRule.Scope)
	}
	savedMsg, savedThread := msgRule.Check, threadRule.Check
	defer func() { msgRule.Check, threadRule.Check = savedMsg, savedThread }()
	var seen, panicked []string
	var mu sync.Mutex
	msgRule.Check = func(c *Ctx) {
		mu.Lock()
		seen = append(seen, c.Thread+" "+c.M.ID)
		odd := len(seen)%2 == 1
		if odd {
			panicked = append(panicked, "thread "+c.Thread+" message "+c.M.ID+":")
		}
		mu.Unlock()
		if odd {
			panic("odd call")
		}
		savedMsg(c)
	}
	threadRule.Check = func(c *Ctx) { panic("thread rule") }

	res := demoRun(t, 1)
	msgs, threads := 0, 0
	for _, th := range res.Threads {
		msgs += th.Messages
		threads++
	}
	if len(seen) != msgs || msgs < 2 {
		t.Errorf("MB-002 was called on %d messages of %d", len(seen), msgs)
	}
	var notes []string
	for _, n := range res.Notifications {
		notes = append(notes, n.Message)
	}
	all := strings.Join(notes, "\n")
	for _, want := range panicked {
		if !strings.Contains(all, "rule MB-002 panicked on "+want+" odd call") {
			t.Errorf("no internal error %q in:\n%s", want, all)
		}
	}
	if got := strings.Count(all, "rule MB-002 panicked"); got != len(panicked) {
		t.Errorf("%d MB-002 internal errors for %d panics", got, len(panicked))
	}
	if got := strings.Count(all, "rule TH-002 panicked on thread "); got != threads {
		t.Errorf("%d TH-002 internal errors for %d threads", got, threads)
	}
	later := false
	for _, f := range res.Findings {
		later = later || f.Rule == "MB-005" || f.Rule == "DL-002"
	}
	if !later {
		t.Error("the rules after the panicking ones reported nothing")
	}
}

// TestNilPanicStepsOn: with GODEBUG=panicnil=1 a rule's panic(nil) reaches
// the engine's recover as nil; the checks must still step past it (they
// once started the same step again, forever). The test runs itself in a
// child process with that setting, under a deadline.
func TestNilPanicStepsOn(t *testing.T) {
	if os.Getenv("BRENNER_NIL_PANIC_CHILD") == "1" {
		r := Lookup("TH-002")
		saved := r.Check
		r.Check = func(c *Ctx) { panic(nil) }
		defer func() { r.Check = saved }()
		res := demoRun(t, 1)
		for _, n := range res.Notifications {
			if strings.Contains(n.Message, "TH-002") {
				t.Errorf("panic(nil) under panicnil=1 became an error: %s", n.Message)
			}
		}
		if len(res.Findings) == 0 {
			t.Error("no findings: the checks after TH-002 did not run")
		}
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestNilPanicStepsOn$", "-test.count=1")
	cmd.Env = append(os.Environ(), "BRENNER_NIL_PANIC_CHILD=1", "GODEBUG=panicnil=1")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("the check did not finish within 2 minutes after a panic(nil):\n%s", out)
	}
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

// demoRun checks the demo mailbox with every rule.
func demoRun(t *testing.T, jobs int) *Output {
	t.Helper()
	demo := filepath.Join(testutil.ModuleRoot(t), "testdata", "demo", "mailbox")
	batch, err := mailbox.Scan([]string{demo}, mailbox.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return NewEngine(All(), osFiles{}, limits.Parse{}).Run(batch, RunOptions{Jobs: jobs})
}

// TestOutputListsAreMadeAtTheirSize: RunThreads makes its output's lists of
// thread summaries and findings at their size once every thread's results
// are in. Grown by appends, they ended up to twice that, and each doubling
// held the old list beside the new one at a nightly audit's live peak.
func TestOutputListsAreMadeAtTheirSize(t *testing.T) {
	dir := t.TempDir()
	const n = 300
	for i := range n {
		id := fmt.Sprintf("RS-20260101-list-%03d", i)
		thread := fmt.Sprintf(`{"thread_id": %q, "messages": [{"id": %d, "thread_id": %q, "subject": "DELTA[gpt]: x", "from": "GreenDog", "created_ts": "2026-01-01T00:00:00Z", "body_md": "`+"```delta\\n{not json\\n```"+`\n"}]}`, id, i+1, id)
		if err := os.WriteFile(filepath.Join(dir, id+".json"), []byte(thread), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	batch, err := mailbox.Scan([]string{dir}, mailbox.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := NewEngine(All(), osFiles{}, limits.Parse{}).RunThreads(batch, RunOptions{Jobs: 2})
	if len(out.Threads) != n || len(out.Findings) < n {
		t.Fatalf("%d threads and %d findings, want %d and at least one a thread", len(out.Threads), len(out.Findings), n)
	}
	// At most a page of room to spare: what the allocator rounds a list up to.
	if spare := (cap(out.Threads) - len(out.Threads)) * int(unsafe.Sizeof(diag.Thread{})); spare > 8192 {
		t.Errorf("the summaries' list has room for %d more (%d bytes spare)", cap(out.Threads)-len(out.Threads), spare)
	}
	if spare := (cap(out.Findings) - len(out.Findings)) * int(unsafe.Sizeof(diag.Finding{})); spare > 8192 {
		t.Errorf("the findings' list has room for %d more (%d bytes spare)", cap(out.Findings)-len(out.Findings), spare)
	}
}
