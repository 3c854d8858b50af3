package run

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/gen"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@t", "-c", "user.name=t", "-c", "commit.gpgsign=false"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestNewFromRevReusesUnchangedThreads: in pull-request mode the base
// revision's threads that the pull request left as they were are not
// checked again (their results are the run's own); the reports are
// byte-identical to checking the revision in full, for a change that edits
// a thread, renames one, deletes one, adds one and breaks a reference
// across sessions, with paths given as "." and as a folder.
func TestNewFromRevReusesUnchangedThreads(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipping: git is not installed")
	}
	repo := t.TempDir()
	if _, err := gen.WriteCorpus(repo, gen.Options{Seed: 11, Threads: 30, FaultRate: 0.3}); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.WriteArtifacts(repo, 2); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q")
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-q", "-m", "base")
	files, _ := filepath.Glob(filepath.Join(repo, "threads", "*.json"))
	edit := func(f, from, to string) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), from) {
			t.Fatalf("%s has no %q", f, from)
		}
		os.WriteFile(f, []byte(strings.Replace(string(data), from, to, 1)), 0o644)
	}
	edit(files[0], `"subject": "KICKOFF: `, `"subject": "Re: KICKOFF: `)
	git(t, repo, "mv", files[1], filepath.Join(repo, "threads", "renamed.json"))
	git(t, repo, "rm", "-q", files[2])
	data, _ := os.ReadFile(files[3])
	os.WriteFile(filepath.Join(repo, "threads", "added.json"), bytes.Replace(data, []byte(`"thread_id": "`), []byte(`"thread_id": "X`), 1), 0o644)
	t.Chdir(repo)
	t.Setenv("SOURCE_DATE_EPOCH", "")
	for _, path := range []string{".", "threads"} {
		var reports [2][]byte
		for i, noReuse := range []bool{false, true} {
			out := t.TempDir()
			var so, se bytes.Buffer
			e := &Env{Stdout: &so, Stderr: &se}
			c := &checker{CheckOptions: CheckOptions{Paths: []string{path}, RepoRoot: repo, NewFromRev: "HEAD", Format: "text", JSON: filepath.Join(out, "r.json"),
				Sarif: filepath.Join(out, "r.sarif"), Markdown: filepath.Join(out, "r.md")}, env: e, noReuse: noReuse}
			if err := c.run(e); err != nil {
				if ee, ok := err.(*ExitError); !ok || ee.Code > 1 {
					t.Fatalf("%s, noReuse %v: %v\n%s", path, noReuse, err, se.String())
				}
			}
			if !noReuse && c.revReused < 20 {
				t.Errorf("paths %q: %d threads of the revision reused, want the 26 unchanged ones or so", path, c.revReused)
			}
			reports[i] = append(readReports(t, out, "r.json", "r.sarif", "r.md"), so.Bytes()...)
		}
		if !bytes.Equal(reports[0], reports[1]) {
			t.Errorf("paths %q: the reports differ with and without reusing the run's threads for the revision", path)
		}
		if !bytes.Contains(reports[0], []byte(`"baseline_state": "new"`)) || !bytes.Contains(reports[0], []byte(`"baseline_state": "unchanged"`)) {
			t.Errorf("paths %q: no new finding, or no old one: the test shows nothing", path)
		}
	}
}

// readReports is the report files names in dir, end to end.
func readReports(t *testing.T, dir string, names ...string) []byte {
	t.Helper()
	var all []byte
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}
