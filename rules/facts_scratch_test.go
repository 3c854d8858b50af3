package rules

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// TestFactsScratchReused: CollectFacts makes a thread's item lists in
// pooled scratch lists (itemScratch): the facts of each thread, collected
// one after another in lists the one before used and released, are those
// collected in fresh lists.
func TestFactsScratchReused(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(testutil.ModuleRoot(t), "testdata", "rules", "*", "*", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no rule fixtures: %v", err)
	}
	var threads []*compile.Thread
	for _, p := range paths {
		if th := compileOne(t, p); th != nil && th.Current != nil && len(th.Current.Section("hypothesis_slate")) > 0 {
			threads = append(threads, th)
		}
	}
	if len(threads) < 5 {
		t.Fatalf("%d fixtures with hypotheses: the test compares less than it says", len(threads))
	}
	want := make([]Facts, len(threads))
	for i, th := range threads {
		want[i] = collectFacts(th, new(itemScratch))
	}
	// One set of lists goes round every thread, twice.
	sc := new(itemScratch)
	for round := range 2 {
		for i, th := range threads {
			if got := collectFacts(th, sc); !reflect.DeepEqual(got, want[i]) {
				t.Fatalf("round %d, thread %d (%s): the facts collected in reused lists differ:\n got %+v\nwant %+v", round, i, th.Key, got, want[i])
			}
			sc.release()
			sc = itemScratchPool.Get().(*itemScratch)
		}
	}
}

// compileOne compiles the thread of a file that holds exactly one, else
// returns nil.
func compileOne(t *testing.T, path string) *compile.Thread {
	t.Helper()
	b, err := mailbox.Scan([]string{path}, mailbox.ScanOptions{Jobs: 1})
	if err != nil || len(b.Threads) != 1 {
		return nil
	}
	mt, err := b.Threads[0].Load()
	if err != nil {
		t.Fatal(err)
	}
	return compile.Compile(mt, compile.Options{}) // not released: the thread's values are read later
}
