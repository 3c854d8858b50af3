package run_test

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/internal/run"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
	"github.com/brenner-ci/brenner-ci/rules"
)

// TestReferenceSuite runs every case of testdata/reference/<area>/<case>/
// through the real check flow (scan, compile, every rule, the findings
// pipeline, the configuration found as check finds it) and holds the
// findings to the case's expect.txt. The cases translate the facts of the
// reference implementation's unit tests (nikolaef43/brenner_bot,
// apps/web/src/lib/*.test.ts) into brenner-ci inputs: see
// testdata/reference/README.md for the format of expect.txt.
func TestReferenceSuite(t *testing.T) {
	root := filepath.Join(testutil.ModuleRoot(t), "testdata", "reference")
	cases := referenceCases(t, root)
	if len(cases) == 0 {
		t.Fatal("testdata/reference holds no case")
	}
	for _, dir := range cases {
		name := filepath.ToSlash(strings.TrimPrefix(dir, root+string(filepath.Separator)))
		t.Run(name, func(t *testing.T) {
			exp := readExpect(t, filepath.Join(dir, "expect.txt"))
			tmp := t.TempDir()
			copyCase(t, dir, tmp)
			got := referenceFindings(t, tmp, exp.ignore)
			want := append([]string(nil), exp.findings...)
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("findings differ from expect.txt\n got:\n  %s\nwant:\n  %s\n(all findings with messages:\n%s)",
					orNone(got), orNone(want), strings.Join(referenceMessages(t, tmp), "\n"))
			}
			if len(exp.contains)+len(exp.order) > 0 {
				md := referenceRender(t, tmp)
				for _, seq := range exp.order {
					at := -1
					for _, s := range seq {
						i := strings.Index(md, s)
						if i <= at {
							t.Errorf("the rendered artifact does not hold %q in this order:\n%s", seq, md)
							break
						}
						at = i
					}
				}
				for _, c := range exp.contains {
					absent := strings.HasPrefix(c, "!")
					s := strings.TrimPrefix(c, "!")
					if strings.Contains(md, s) == absent {
						t.Errorf("the rendered artifact (un)expectedly contains %q:\n%s", c, md)
					}
				}
			}
		})
	}
}

// referenceCases lists the folders holding an expect.txt, sorted.
func referenceCases(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "expect.txt" {
			dirs = append(dirs, filepath.Dir(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(dirs)
	return dirs
}

// An expectation: the findings ("RULE-ID path:line", sorted later), the
// rule ids not compared, and the texts the rendered artifact must (or,
// with "!", must not) contain.
type expectation struct {
	reference   string
	divergences []string
	ignore      map[string]bool
	findings    []string
	contains    []string
	order       [][]string
	none        bool
}

func readExpect(t *testing.T, path string) expectation {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	single := singleInput(t, filepath.Dir(path))
	exp := expectation{ignore: map[string]bool{}}
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), " \t")
		switch {
		case n == 1:
			ref, ok := strings.CutPrefix(line, "# reference: ")
			if !ok || !strings.Contains(ref, ".test.ts: ") {
				ex, isEx := strings.CutPrefix(line, "# divergence example: ")
				if !isEx || filepath.Base(filepath.Dir(filepath.Dir(path))) != "divergences" {
					t.Fatalf("%s:1: the first line must be \"# reference: <test file>: <test name>\" (or, under divergences/, \"# divergence example: <what it shows>\"), not %q", path, line)
				}
				ref = ex
			}
			exp.reference = ref
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "divergence: "):
			exp.divergences = append(exp.divergences, strings.TrimPrefix(line, "divergence: "))
		case strings.HasPrefix(line, "ignore: "):
			for _, id := range strings.Fields(strings.TrimPrefix(line, "ignore: ")) {
				exp.ignore[id] = true
			}
		case strings.HasPrefix(line, "contains: "):
			exp.contains = append(exp.contains, unescape(strings.TrimPrefix(line, "contains: ")))
		case strings.HasPrefix(line, "!contains: "):
			exp.contains = append(exp.contains, "!"+unescape(strings.TrimPrefix(line, "!contains: ")))
		case strings.HasPrefix(line, "order: "):
			exp.order = append(exp.order, strings.Split(strings.TrimPrefix(line, "order: "), " | "))
		case line == "none":
			exp.none = true
		default:
			id, loc, ok := strings.Cut(line, " ")
			if !ok || !rules.Known(id) {
				t.Fatalf("%s:%d: %q is not \"RULE-ID line\" (or \"RULE-ID path:line\") with a known rule id", path, n, line)
			}
			if _, err := strconv.Atoi(loc); err == nil {
				if single == "" {
					t.Fatalf("%s:%d: the case has several input files: write %s path:line", path, n, id)
				}
				loc = single + ":" + loc
			}
			exp.findings = append(exp.findings, id+" "+loc)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if filepath.Base(filepath.Dir(filepath.Dir(path))) == "divergences" && len(exp.divergences) == 0 {
		t.Fatalf("%s: a divergence example names the row it executes (divergence: <heading> > <key>)", path)
	}
	if exp.none == (len(exp.findings) > 0) {
		t.Fatalf("%s: list the expected findings, or write none (not both)", path)
	}
	return exp
}

// singleInput is the case's input file when it has exactly one.
func singleInput(t *testing.T, dir string) string {
	t.Helper()
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != "expect.txt" {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if len(files) == 1 {
		return files[0]
	}
	return ""
}

// copyCase copies the case's inputs (everything but expect.txt) into dst,
// so that the run reads no configuration or .gitignore of the repository.
func copyCase(t *testing.T, src, dst string) {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "expect.txt" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	testutil.WriteTree(t, dst, files)
}

// lintCase runs check's flow on dir (every rule, the configuration found
// from dir with dir as the repository root) and returns its findings.
func lintCase(t *testing.T, dir string) []diag.Finding {
	t.Helper()
	_, out, err := run.LintTree(dir, dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	return out.Findings
}

// referenceFindings are the run's findings as "RULE-ID path:line", sorted,
// without the ignored rule ids.
func referenceFindings(t *testing.T, dir string, ignore map[string]bool) []string {
	t.Helper()
	var got []string
	for _, f := range lintCase(t, dir) {
		if ignore[f.Rule] {
			continue
		}
		rel, err := filepath.Rel(dir, filepath.FromSlash(f.Pos.File))
		if err != nil || f.Pos.File == "" {
			rel = "<input>"
		}
		got = append(got, fmt.Sprintf("%s %s:%d", f.Rule, filepath.ToSlash(rel), f.Pos.Line))
	}
	sort.Strings(got)
	return got
}

// referenceMessages are every finding in the text format (for failures).
func referenceMessages(t *testing.T, dir string) []string {
	t.Helper()
	var all []string
	for _, f := range lintCase(t, dir) {
		all = append(all, f.String())
	}
	return all
}

// referenceRender compiles every thread of dir and returns their rendered
// artifacts, one after the other.
func referenceRender(t *testing.T, dir string) string {
	t.Helper()
	resolved, err := config.Resolve("", dir, dir, rules.Known)
	if err != nil {
		t.Fatal(err)
	}
	p := run.NewPlan([]string{dir}, resolved, 1)
	batch, err := mailbox.Scan(p.Paths, p.ScanOptions())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	compile.Each(batch, p.CompileOptions(batch.Agents), 1, func(th *compile.Thread) string {
		return string(th.Current.Render())
	}, func(ref *mailbox.ThreadRef, md string, err error) {
		if err != nil {
			t.Errorf("thread %s: %v", ref.Key, err)
			return
		}
		out = append(out, md)
	})
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// unescape reads "\\n" in an expected text as a line break.
func unescape(s string) string { return strings.ReplaceAll(s, `\n`, "\n") }

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, "\n  ")
}
