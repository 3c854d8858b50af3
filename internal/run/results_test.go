package run

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/internal/gen"
)

// bigRunRoots are the trees the large-run tests check: generated threads
// with faults, persisted artifacts and a custom rule, and the shared corpus
// when it is there.
func bigRunRoots(t *testing.T) []string {
	repo := t.TempDir()
	if _, err := gen.WriteCorpus(repo, gen.Options{Seed: 5, Threads: 60, FaultRate: 0.3}); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.WriteArtifacts(repo, 3); err != nil {
		t.Fatal(err)
	}
	cfg := `custom-rules:
  - {id: LAB-001, name: ends-in-zero, scope: thread, severity: warning, short: s,
     when: 'thread.applied > 0 && thread.id.endsWith("0")', message: "{{ thread.id }} ends in 0."}
`
	if err := os.WriteFile(filepath.Join(repo, ".brenner-ci.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	// The rules' golden inputs: every kind of input and finding, and
	// suppression comments in bodies.
	rulesDir, err := filepath.Abs("../../testdata/rules")
	if err != nil {
		t.Fatal(err)
	}
	roots := []string{repo, rulesDir}
	if shared, err := filepath.Abs("../../../shared/corpus"); err == nil {
		if _, err := os.Stat(shared); err == nil {
			roots = append(roots, shared)
		} else {
			t.Log("../shared/corpus is absent: checking the generated threads only")
		}
	}
	return roots
}

// checkReports checks root with jobs workers, the four reports and the
// compiled artifacts (--out), and returns them all with standard output.
func checkReports(t *testing.T, root string, jobs int) []byte {
	t.Helper()
	return checkReportsInto(t, root, jobs, false)
}

// checkReportsInto is checkReports, with existing: into an output folder
// whose artifacts/ exists (written file by file, not built whole as a new
// folder is).
func checkReportsInto(t *testing.T, root string, jobs int, existing bool) []byte {
	t.Helper()
	out := t.TempDir()
	if existing {
		if err := os.MkdirAll(filepath.Join(out, "out", "artifacts"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var so, se bytes.Buffer
	e := &Env{Stdout: &so, Stderr: &se}
	c := &checker{CheckOptions: CheckOptions{Paths: []string{root}, RepoRoot: root, Format: "text", Jobs: jobs,
		JSON: filepath.Join(out, "r.json"), Sarif: filepath.Join(out, "r.sarif"), Markdown: filepath.Join(out, "r.md"),
		Junit: filepath.Join(out, "r.xml"), Out: filepath.Join(out, "out")}, env: e}
	if err := c.run(e); err != nil {
		if ee, ok := err.(*ExitError); !ok || ee.Code > 1 {
			t.Fatalf("%s: %v\n%s", root, err, se.String())
		}
	}
	all := append(readReports(t, out, "r.json", "r.sarif", "r.md", "r.xml"), so.Bytes()...)
	arts, _ := filepath.Glob(filepath.Join(out, "out", "artifacts", "*.md"))
	if len(arts) == 0 {
		t.Fatalf("%s: no artifact written", root)
	}
	if tmps, _ := filepath.Glob(filepath.Join(out, "out", ".*.tmp-*")); len(tmps) > 0 {
		t.Errorf("%s: left: %v", root, tmps)
	}
	for _, a := range arts {
		all = append(all, readReports(t, filepath.Dir(a), filepath.Base(a))...)
	}
	return all
}

// TestSpilledResultsMatch: a check whose every thread's results go through
// the temporary file (cache.Results with nothing kept first) writes the
// reports of one that keeps them all.
func TestSpilledResultsMatch(t *testing.T) {
	defer func(v int) { keepResults = v }(keepResults)
	t.Setenv("SOURCE_DATE_EPOCH", "")
	roots := bigRunRoots(t)
	for _, root := range roots {
		keepResults = 1 << 30
		kept := checkReports(t, root, 2)
		keepResults = 0
		if !bytes.Equal(kept, checkReports(t, root, 2)) {
			t.Errorf("%s: the reports differ with the results kept and spilled", root)
		}
		if root == roots[0] && !bytes.Contains(kept, []byte("[LAB-001]")) {
			t.Errorf("the custom rule found nothing: the test shows less than it says")
		}
	}
}

// TestArenaReuseIsInvisible: the delta blocks, their values, the parsed
// bodies' Docs and the compiled messages live in a worker's arenas, reset
// when each thread's results are made (compile.Each), the bodies in a slab
// that the next thread loads into, and the records of a file's thread
// checked during the scan in arrays the next file's take. With the arenas
// poisoned on reset and the slabs and arrays on release, anything that read a
// thread's values or bodies after that (a result, a report, an artifact
// written later, a suppression comment read by the pipeline) would show
// the poison or panic: the reports of check and the output of compile are
// those of a run without poison, with one worker and with two.
func TestArenaReuseIsInvisible(t *testing.T) {
	poison := func(on bool) {
		jsonv.PoisonOnReset, delta.PoisonOnReset, body.PoisonOnReset, mailbox.PoisonOnRelease, compile.PoisonOnReset, artifact.PoisonOnReset = on, on, on, on, on, on
	}
	defer poison(false)
	t.Setenv("SOURCE_DATE_EPOCH", "")
	for _, root := range bigRunRoots(t) {
		for _, jobs := range []int{1, 2} {
			poison(false)
			plain, plainCompiled := checkReports(t, root, jobs), compileOutput(t, root, jobs)
			poison(true)
			if poisoned := checkReports(t, root, jobs); !bytes.Equal(plain, poisoned) {
				t.Errorf("check %s, %d jobs: a thread's values were read after its arena was reset", root, jobs)
			}
			if poisoned := compileOutput(t, root, jobs); !bytes.Equal(plainCompiled, poisoned) {
				t.Errorf("compile %s, %d jobs: a thread's values were read after its arena was reset", root, jobs)
			}
		}
	}
}

// TestCompileArtifactOnlyMatch: compile leaves unparsed the bodies nothing
// it writes reads (compile.Options.ArtifactOnly); its output is that of a
// compile that parses every body, on the generated threads, the rules'
// golden inputs (IN-008 refusals and suppression comments among them) and
// the shared corpus.
func TestCompileArtifactOnlyMatch(t *testing.T) {
	defer func() { artifactOnly = true }()
	t.Setenv("SOURCE_DATE_EPOCH", "")
	for _, root := range bigRunRoots(t) {
		artifactOnly = false
		want := compileOutput(t, root, 2)
		artifactOnly = true
		if got := compileOutput(t, root, 2); !bytes.Equal(got, want) {
			t.Errorf("%s: compile's output differs with the bodies it does not read left unparsed", root)
			diffLines(t, want, got)
		}
	}
}

// compileOutput runs compile on root with jobs workers and returns its
// standard output and error and every file it wrote.
func compileOutput(t *testing.T, root string, jobs int) []byte {
	t.Helper()
	return compileOutputInto(t, root, jobs, false)
}

// compileOutputInto is compileOutput, with existing: into an output folder
// whose artifacts/ and compiled/ exist (written file by file, not built
// whole as new folders are).
func compileOutputInto(t *testing.T, root string, jobs int, existing bool) []byte {
	t.Helper()
	out := t.TempDir()
	if existing {
		for _, sub := range []string{"artifacts", "compiled"} {
			if err := os.Mkdir(filepath.Join(out, sub), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	var so, se bytes.Buffer
	err := Compile(CompileOptions{Paths: []string{root}, Out: out, CompiledBody: true, Jobs: jobs}, &Env{Stdout: &so, Stderr: &se})
	if ee, ok := err.(*ExitError); err != nil && (!ok || ee.Code > 1) {
		t.Fatalf("compile %s: %v\n%s", root, err, se.String())
	}
	all := append(so.Bytes(), se.Bytes()...)
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("compile %s: a temporary file is left: %s", root, p)
		}
		return nil
	})
	for _, sub := range []string{"artifacts", "compiled"} {
		files, _ := filepath.Glob(filepath.Join(out, sub, "*.md"))
		for _, f := range files {
			all = append(all, readReports(t, filepath.Dir(f), filepath.Base(f))...)
		}
	}
	return all
}
