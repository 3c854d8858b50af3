package artifact_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// roundTripThreads compiles every thread under paths and round-trips the
// current artifact and every COMPILED snapshot through Render and
// ParseMarkdown. It returns the number of artifacts checked.
func roundTripThreads(t *testing.T, paths ...string) int {
	t.Helper()
	batch, err := mailbox.Scan(paths, mailbox.ScanOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ref := range batch.Threads {
		th, err := ref.Load()
		if err != nil {
			t.Errorf("%s: %v", ref.Key, err)
			continue
		}
		ct := compile.Compile(th, compile.Options{Agents: batch.Agents})
		if ct.Current != nil {
			artifact.CheckRoundTrip(t, ct.Current, ref.Key+".md", true)
			n++
		}
		for i, v := range ct.Versions {
			artifact.CheckRoundTrip(t, ct.VersionArtifact(i), fmt.Sprintf("%s-v%d.md", ref.Key, v.N), true)
			n++
		}
	}
	return n
}

func TestRoundTripCompiledThreads(t *testing.T) {
	root := testutil.ModuleRoot(t)
	t.Run("demo", func(t *testing.T) {
		if n := roundTripThreads(t, filepath.Join(root, "testdata", "demo", "mailbox")); n == 0 {
			t.Error("no demo thread compiled")
		}
	})
	t.Run("rules-testdata", func(t *testing.T) {
		dirs, _ := filepath.Glob(filepath.Join(root, "testdata", "rules", "*"))
		total := 0
		for _, d := range dirs {
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				total += roundTripThreads(t, d)
			}
		}
		t.Logf("%d compiled artifacts", total)
	})
	t.Run("corpus", func(t *testing.T) {
		dir := testutil.Shared(t, "corpus", "threads")
		if n := roundTripThreads(t, dir); n < 3 {
			t.Errorf("%d corpus artifacts", n)
		}
	})
}

// The persisted demo artifact reads back like the thread's compiled version
// it names (DR-001 relies on this).
func TestDemoPersistedArtifact(t *testing.T) {
	path := filepath.Join(testutil.ModuleRoot(t), "testdata", "demo", "artifacts", "RS-20260301-quorum-timing.md")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := artifact.ParseMarkdown(src, "RS-20260301-quorum-timing.md")
	if len(p.Findings) != 0 || p.Art.SessionID != "RS-20260301-quorum-timing" || !p.HasFrontMatter || p.Title == nil {
		t.Errorf("%v %+v", p.Findings, p.Art)
	}
}
