package gen_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/run"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/gen"
	"github.com/brenner-ci/brenner-ci/rules"
)

func TestDeterministicAndDistinct(t *testing.T) {
	opt := gen.Options{Seed: 7, FaultRate: 0.3}
	ids := map[string]bool{}
	bodies := map[string]bool{}
	for i := 0; i < 40; i++ {
		a, b := gen.Generate(opt, i), gen.Generate(opt, i)
		if !bytes.Equal(a.JSON, b.JSON) || a.ID != b.ID {
			t.Fatalf("thread %d differs between two runs", i)
		}
		if ids[a.ID] {
			t.Errorf("thread %d: id %s repeats", i, a.ID)
		}
		ids[a.ID] = true
		// Without its id, a thread's content is still its own.
		key := strings.ReplaceAll(string(a.JSON), a.ID, "")
		if bodies[key] {
			t.Errorf("thread %d has the content of an earlier thread", i)
		}
		bodies[key] = true
	}
	other := gen.Generate(gen.Options{Seed: 8, FaultRate: 0.3}, 0)
	if bytes.Equal(other.JSON, gen.Generate(opt, 0).JSON) {
		t.Error("seeds 7 and 8 give the same thread 0")
	}
}

// TestShape: the export is the Agent Mail shape, with the message kinds of a
// research session.
func TestShape(t *testing.T) {
	th := gen.Generate(gen.Options{Seed: 1, Rounds: 2}, 3)
	var ex struct {
		Project  string `json:"project"`
		ThreadID string `json:"thread_id"`
		Messages []struct {
			ID       int      `json:"id"`
			ThreadID string   `json:"thread_id"`
			Subject  string   `json:"subject"`
			From     string   `json:"from"`
			To       []string `json:"to"`
			Created  string   `json:"created_ts"`
			Body     string   `json:"body_md"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(th.JSON, &ex); err != nil {
		t.Fatal(err)
	}
	if ex.ThreadID != th.ID || len(ex.Messages) != th.Messages || th.Messages < 10 {
		t.Fatalf("thread %s: %d messages", ex.ThreadID, len(ex.Messages))
	}
	kinds := map[string]int{}
	for _, m := range ex.Messages {
		kinds[strings.SplitN(m.Subject, ":", 2)[0]]++
		if m.ThreadID != th.ID || m.From == "" || len(m.To) == 0 || m.Created == "" || m.Body == "" {
			t.Errorf("message %d: %+v", m.ID, m)
		}
	}
	if kinds["KICKOFF"] != 1 || kinds["DELTA[gpt]"] != 2 || kinds["DELTA[opus]"] != 2 || kinds["DELTA[gemini]"] != 2 || kinds["COMPILED"] != 2 || kinds["CRITIQUE"] < 1 {
		t.Errorf("message kinds: %v", kinds)
	}
	for _, op := range []string{`"operation": "ADD"`, `"operation": "EDIT"`, `"operation": "KILL"`} {
		if !bytes.Contains(th.JSON, []byte(strings.ReplaceAll(op, `"`, `\"`))) {
			t.Errorf("no %s block", op)
		}
	}
}

// TestCompilesClean: a corpus without faults is read, compiled and checked
// without a single finding; with faults every faulted thread has one.
func TestCompilesClean(t *testing.T) {
	dir := t.TempDir()
	st, err := gen.WriteCorpus(dir, gen.Options{Seed: 3, Threads: 12})
	if err != nil {
		t.Fatal(err)
	}
	if st.Threads != 12 || st.Faulted != 0 || st.Blocks == 0 {
		t.Fatalf("stats: %+v", st)
	}
	if fs, n := check(t, dir); len(fs) != 0 || n != 12 {
		t.Errorf("%d threads, findings on a clean corpus:\n%s", n, lines(fs))
	}

	faulty := t.TempDir()
	st, err = gen.WriteCorpus(faulty, gen.Options{Seed: 3, Threads: 30, FaultRate: 1})
	if err != nil {
		t.Fatal(err)
	}
	fs, _ := check(t, faulty)
	with := map[string]bool{}
	for _, f := range fs {
		if f.Severity != diag.Note {
			with[f.Thread] = true
		}
	}
	if st.Faulted != 30 || len(with) != 30 {
		t.Errorf("%d faulted threads, %d with an error or warning:\n%s", st.Faulted, len(with), lines(fs))
	}
}

func TestWriteArtifacts(t *testing.T) {
	dir := t.TempDir()
	if _, err := gen.WriteCorpus(dir, gen.Options{Seed: 5, Threads: 3}); err != nil {
		t.Fatal(err)
	}
	n, err := gen.WriteArtifacts(dir, 1)
	if err != nil || n != 3 {
		t.Fatalf("WriteArtifacts: %d, %v", n, err)
	}
	th := gen.Generate(gen.Options{Seed: 5}, 1)
	data, err := os.ReadFile(filepath.Join(dir, "artifacts", th.ID+".md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("session_id: \""+th.ID+"\"")) || !bytes.Contains(data, []byte("## 2. Hypothesis Slate")) {
		t.Errorf("artifact of %s:\n%s", th.ID, data)
	}
}

func check(t *testing.T, dir string) ([]diag.Finding, int) {
	t.Helper()
	batch, err := mailbox.Scan([]string{dir}, mailbox.ScanOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	plan := run.NewPlan([]string{dir}, nil, 2)
	res := plan.Engine().Run(batch, rules.RunOptions{Compile: plan.CompileOptions(batch.Agents), Jobs: 2})
	if res.Internal {
		t.Fatalf("internal error: %+v", res.Notifications)
	}
	return res.Findings, len(batch.Threads)
}

func lines(fs []diag.Finding) string {
	var b strings.Builder
	for i := range fs {
		b.WriteString(fs[i].String() + "\n")
	}
	return b.String()
}

func TestCached(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	opt := gen.Options{Seed: 11, Threads: 4}
	dir, err := gen.Cached(opt)
	if err != nil {
		t.Fatal(err)
	}
	again, err := gen.Cached(opt)
	if err != nil || again != dir {
		t.Fatalf("second call: %s, %v; want %s", again, err, dir)
	}
	ents, err := os.ReadDir(filepath.Join(dir, "threads"))
	if err != nil || len(ents) != 4 {
		t.Fatalf("%d threads, %v", len(ents), err)
	}
	if other, _ := gen.Cached(gen.Options{Seed: 12, Threads: 4}); other == dir {
		t.Error("another seed shares the folder")
	}
}
