package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/internal/run"
)

// runProducts is everything a check run gives its user: the report files,
// standard output, the job summary and step outputs, the exit code; and
// whether it was reused whole from the run cache.
type runProducts struct {
	files  map[string][]byte
	stdout string
	code   int
	reused bool
	stderr string
}

// checkProducts runs check on corpus (the working directory) writing the
// four reports and the baseline into out, with extra arguments, in a
// simulated GitHub Actions job (job summary and step output files of its
// own).
func checkProducts(t *testing.T, out string, extra ...string) runProducts {
	t.Helper()
	os.MkdirAll(out, 0o755)
	summary, outputs := filepath.Join(out, "summary.md"), filepath.Join(out, "outputs.txt")
	os.Remove(summary)
	os.Remove(outputs)
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	args := []string{"check", "--repo-root", ".", "--fail-on", "warning", "--github-output", outputs,
		"--sarif", filepath.Join(out, "r.sarif"), "--junit", filepath.Join(out, "r.xml"), "--markdown", filepath.Join(out, "r.md"),
		"--json", filepath.Join(out, "r.json"), "--write-baseline", filepath.Join(out, "b.json")}
	args = append(append(args, extra...), ".")
	code, stdout, stderr := runCLI(t, args...)
	p := runProducts{files: map[string][]byte{}, stdout: stdout, code: code, stderr: stderr,
		reused: strings.Contains(stderr, "the whole run reused")}
	for _, name := range []string{"r.sarif", "r.xml", "r.md", "r.json", "b.json", "summary.md", "outputs.txt"} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// The step outputs name the report paths, which differ between
		// the runs compared: those lines are compared without their folder.
		if name == "outputs.txt" {
			data = bytes.ReplaceAll(data, []byte(out), []byte("OUT"))
		}
		p.files[name] = data
	}
	return p
}

func sameProducts(t *testing.T, what string, want, got runProducts) {
	t.Helper()
	for name, w := range want.files {
		if !bytes.Equal(w, got.files[name]) {
			t.Errorf("%s: %s differs from a run without the cache", what, name)
		}
	}
	if got.stdout != want.stdout {
		t.Errorf("%s: standard output differs from a run without the cache", what)
	}
	if got.code != want.code {
		t.Errorf("%s: exit code %d, want %d", what, got.code, want.code)
	}
}

// TestRunCacheReusesWholeRun: with --cache, a re-run whose inputs, options
// and environment are unchanged writes the recorded run's products again,
// byte for byte (reports, standard output, job summary, step outputs, exit
// code), wherever its reports go; any change is a miss with fresh results;
// a damaged entry is a miss; runs that are not functions of their inputs
// are not recorded.
func TestRunCacheReusesWholeRun(t *testing.T) {
	corpus := shardCorpus(t)
	t.Chdir(corpus)
	tmp := t.TempDir()
	cache := filepath.Join(tmp, "cache")
	cold := checkProducts(t, filepath.Join(tmp, "cold"))
	if cold.code != ExitFindings || cold.reused {
		t.Fatalf("cold run: exit %d (want %d: the corpus has findings), reused %t", cold.code, ExitFindings, cold.reused)
	}
	first := checkProducts(t, filepath.Join(tmp, "first"), "--cache", cache)
	if first.reused {
		t.Fatal("first run on an empty cache was reused")
	}
	sameProducts(t, "first cached run", cold, first)
	warm := checkProducts(t, filepath.Join(tmp, "warm"), "--cache", cache)
	if !warm.reused {
		t.Fatalf("unchanged re-run not reused:\n%s", warm.stderr)
	}
	sameProducts(t, "reused run", cold, warm)

	entries := func() []string {
		t.Helper()
		m, _ := filepath.Glob(filepath.Join(cache, "run", "*.run"))
		return m
	}
	if n := len(entries()); n != 1 {
		t.Fatalf("%d run entries, want 1", n)
	}

	// Every kind of change is a miss, whose products are a cold run's.
	misses := []struct {
		what   string
		change func() (undo func())
		extra  []string
	}{
		{what: "another category", extra: []string{"--category", "other/"}},
		{what: "another fail-on", extra: []string{"--fail-on", "error"}},
		{what: "another markdown size", extra: []string{"--markdown-max", "2000"}},
		{what: "another standard output", extra: []string{"--format", "github"}},
		{what: "another GITHUB_SHA", change: func() func() {
			t.Setenv("GITHUB_SHA", "0123456789abcdef0123456789abcdef01234567")
			return func() { os.Unsetenv("GITHUB_SHA") }
		}},
		{what: "one input byte changed", change: func() func() {
			f := filepath.Join(corpus, "p01", "RS-20260301-lineage-followup.json")
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(f, bytes.Replace(data, []byte("Lineage again"), []byte("Lineage agaiN"), 1), 0o644)
			return func() { os.WriteFile(f, data, 0o644) }
		}},
		{what: "an input added", change: func() func() {
			f := filepath.Join(corpus, "p01", "zz-new.json")
			os.WriteFile(f, []byte(`{"thread_id": "RS-20260301-new", "messages": [{"id": 1, "subject": "[RS-20260301-new] KICKOFF: x", "from": "A", "created_ts": "2026-03-01T10:00:00Z", "body_md": "x"}]}`), 0o644)
			return func() { os.Remove(f) }
		}},
		{what: "an input removed", change: func() func() {
			f := filepath.Join(corpus, "p01", "RS-20260301-lineage-followup.json")
			data, _ := os.ReadFile(f)
			os.Remove(f)
			return func() { os.WriteFile(f, data, 0o644) }
		}},
	}
	for i, m := range misses {
		undo := func() {}
		if m.change != nil {
			undo = m.change()
		}
		want := checkProducts(t, filepath.Join(tmp, fmt.Sprintf("miss%d-cold", i)), m.extra...)
		got := checkProducts(t, filepath.Join(tmp, fmt.Sprintf("miss%d", i)), append([]string{"--cache", cache}, m.extra...)...)
		if got.reused {
			t.Errorf("%s: the run was reused", m.what)
		}
		sameProducts(t, m.what, want, got)
		// Recorded now: the same run again is reused.
		again := checkProducts(t, filepath.Join(tmp, fmt.Sprintf("miss%d-again", i)), append([]string{"--cache", cache}, m.extra...)...)
		if !again.reused {
			t.Errorf("%s: the second run was not reused", m.what)
		}
		sameProducts(t, m.what+", again", want, again)
		undo()
	}
	if n := len(entries()); n != run.MaxRunEntriesPerShard {
		t.Errorf("%d run entries after %d recorded runs, want the newest %d", n, len(misses)+1, run.MaxRunEntriesPerShard)
	}

	// The first run's entry was the least recently used: it is gone, and
	// the run is recorded again.
	if back := checkProducts(t, filepath.Join(tmp, "back"), "--cache", cache); back.reused {
		t.Error("the least recently used entry was kept")
	}
	if back := checkProducts(t, filepath.Join(tmp, "back2"), "--cache", cache); !back.reused {
		t.Fatal("the original run, recorded again, is not reused")
	}

	// A damaged entry (a flipped byte anywhere, or cut short) is a miss,
	// and the run is recorded again.
	var entry string
	for _, e := range entries() {
		if st, _ := os.Stat(e); entry == "" || st.ModTime().After(mtime(t, entry)) {
			entry = e
		}
	}
	data, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	for i, damage := range []func([]byte) []byte{
		func(b []byte) []byte { b[len(b)/2] ^= 1; return b },
		func(b []byte) []byte { b[20] ^= 1; return b },
		func(b []byte) []byte { b[len(b)-1] ^= 0x80; return b },
		func(b []byte) []byte { return b[:len(b)-1] },
		func(b []byte) []byte { return b[:10] },
		func(b []byte) []byte { return append(b, 0) },
	} {
		os.WriteFile(entry, damage(bytes.Clone(data)), 0o644)
		got := checkProducts(t, filepath.Join(tmp, fmt.Sprintf("damaged%d", i)), "--cache", cache)
		if got.reused {
			t.Errorf("damage %d: the damaged entry was used", i)
		}
		sameProducts(t, fmt.Sprintf("damage %d", i), cold, got)
	}
	// An entry of another key is a miss too.
	os.WriteFile(entry, data, 0o644)
	other := entries()[0]
	if other == entry {
		other = entries()[1]
	}
	otherData, _ := os.ReadFile(other)
	os.WriteFile(entry, otherData, 0o644)
	if got := checkProducts(t, filepath.Join(tmp, "foreign"), "--cache", cache); got.reused {
		t.Error("another run's entry was used")
	} else {
		sameProducts(t, "foreign entry", cold, got)
	}

	// With --out (compiled artifacts are written) a run is never reused
	// whole; the thread cache still serves it.
	for i := 0; i < 2; i++ {
		code, _, stderr := runCLI(t, "check", "--repo-root", ".", "--out", filepath.Join(tmp, "out"), "--cache", cache, ".")
		if strings.Contains(stderr, "whole run reused") || code != cold.code {
			t.Errorf("--out run %d: exit %d, reused whole:\n%s", i, code, stderr)
		}
	}
	// A run with a thread over its time budget is not recorded.
	nocache := filepath.Join(tmp, "budget")
	for i := 0; i < 2; i++ {
		code, _, stderr := runCLI(t, "check", "--repo-root", ".", "--thread-timeout", "1ns", "--cache", nocache, "--json", filepath.Join(tmp, "budget.json"), ".")
		if code == 0 || strings.Contains(stderr, "whole run reused") {
			t.Errorf("run %d over its budget: exit %d, reused whole:\n%s", i, code, stderr)
		}
	}
}

func mtime(t *testing.T, p string) time.Time {
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st.ModTime()
}

// TestRunCacheShard: a shard run is reused whole too; its shard file is
// byte-identical.
func TestRunCacheShard(t *testing.T) {
	corpus := shardCorpus(t)
	t.Chdir(corpus)
	tmp := t.TempDir()
	cache := filepath.Join(tmp, "cache")
	shard := func(cache string) ([]byte, string, bool) {
		t.Helper()
		p := filepath.Join(tmp, "s.json")
		args := []string{"check", "--shard", "2/3", "--json", p, "."}
		if cache != "" {
			args = append(args, "--cache", cache)
		}
		code, stdout, stderr := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("shard run: exit %d\n%s", code, stderr)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return data, stdout, strings.Contains(stderr, "whole run reused")
	}
	want, wantOut, _ := shard("")
	for i, wantReused := range []bool{false, true, true} {
		got, out, reused := shard(cache)
		if reused != wantReused {
			t.Errorf("shard run %d: reused %t, want %t", i, reused, wantReused)
		}
		if !bytes.Equal(got, want) || out != wantOut {
			t.Errorf("shard run %d: shard file or output differs from a run without the cache", i)
		}
	}
}

// TestRunCachePruned: night after night a run whose inputs or options
// changed records a new entry; the run cache keeps only the newest
// run.MaxRunEntriesPerShard of each shard (the unsharded runs are one), so
// the folder stays bounded, another shard's entries are not pushed out, and
// the newest runs are still reused.
func TestRunCachePruned(t *testing.T) {
	corpus := shardCorpus(t)
	t.Chdir(corpus)
	tmp := t.TempDir()
	cache := filepath.Join(tmp, "cache")
	check := func(args ...string) bool {
		t.Helper()
		args = append(append([]string{"check", "--repo-root", ".", "--cache", cache}, args...), ".")
		code, _, stderr := runCLI(t, args...)
		if code != ExitOK && code != ExitFindings {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
		return strings.Contains(stderr, "the whole run reused")
	}
	shardJSON := filepath.Join(tmp, "shard.json")
	if check("--shard", "2/2", "--json", shardJSON) {
		t.Fatal("the shard run on an empty cache was reused")
	}
	const runs = 10
	for i := 0; i < runs; i++ {
		// Another category: another run (as another night's inputs are).
		if check("--category", fmt.Sprintf("night%d/", i)) {
			t.Fatalf("run %d was reused", i)
		}
	}
	count := func(prefix string) int {
		m, _ := filepath.Glob(filepath.Join(cache, "run", prefix+"*.run"))
		return len(m)
	}
	if n := count("all-"); n > run.MaxRunEntriesPerShard {
		t.Errorf("%d entries of unsharded runs after %d runs, want at most %d", n, runs, run.MaxRunEntriesPerShard)
	}
	if n := count("shard-2-of-2-"); n != 1 {
		t.Errorf("%d entries of shard 2/2, want its 1: another shard's runs pushed it out", n)
	}
	// The newest are kept and reused (a hit records nothing, so nothing
	// is pushed out by these checks)…
	for i := runs - 1; i >= runs-run.MaxRunEntriesPerShard; i-- {
		if !check("--category", fmt.Sprintf("night%d/", i)) {
			t.Errorf("run %d, among the newest %d, was not reused", i, run.MaxRunEntriesPerShard)
		}
	}
	if !check("--shard", "2/2", "--json", shardJSON) {
		t.Error("the shard run was not reused")
	}
	// … the oldest are gone.
	if check("--category", "night0/") {
		t.Error("the oldest run was still reused")
	}
}
