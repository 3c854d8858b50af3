package run

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/gen"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// overlayRepo is a committed repository of generated threads and their
// artifacts, with a hidden file, a link and a nested folder, for changes
// to be made on.
func overlayRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	if _, err := gen.WriteCorpus(repo, gen.Options{Seed: 5, Threads: 24, FaultRate: 0.3}); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.WriteArtifacts(repo, 2); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(repo, "threads", "*.json"))
	if err := os.MkdirAll(filepath.Join(repo, "threads", "older"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files[:3] {
		if err := os.Rename(f, filepath.Join(repo, "threads", "older", filepath.Base(f))); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(repo, "threads", ".notes.json"), []byte("{}\n"), 0o644)
	if data, err := os.ReadFile(files[3]); err == nil {
		os.WriteFile(filepath.Join(repo, "threads", "two\nlines.json"), data, 0o644)
	}
	os.Symlink("older", filepath.Join(repo, "threads", "link"))
	git(t, repo, "init", "-q")
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-q", "-m", "base")
	return repo
}

// overlayChange is one kind of change a pull request makes; overlay says
// whether the base revision can still be read as an overlay after it.
type overlayChange struct {
	name    string
	overlay bool
	dir     string // the folder it changes a file in (for the long way: only a change under the checked paths counts)
	apply   func(t *testing.T, repo string, r *rand.Rand)
}

func pick(t *testing.T, repo, glob string, r *rand.Rand) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(repo, glob))
	if len(files) == 0 {
		t.Fatalf("no %s", glob)
	}
	return files[r.IntN(len(files))]
}

func rewrite(t *testing.T, f string, edit func(string) string) {
	t.Helper()
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, []byte(edit(string(data))), 0o644); err != nil {
		t.Fatal(err)
	}
}

var overlayChanges = []overlayChange{
	{"edit a subject", true, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		rewrite(t, pick(t, repo, "threads/*.json", r), func(s string) string {
			return strings.Replace(s, `"subject": "KICKOFF: `, `"subject": "Re: KICKOFF: `, 1)
		})
	}},
	{"edit a thread id", true, "threads/older", func(t *testing.T, repo string, r *rand.Rand) {
		rewrite(t, pick(t, repo, "threads/older/*.json", r), func(s string) string {
			return strings.ReplaceAll(s, `"thread_id": "`, `"thread_id": "Z`)
		})
	}},
	{"break a file", true, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		rewrite(t, pick(t, repo, "threads/*.json", r), func(s string) string { return s[:len(s)/2] })
	}},
	{"edit an artifact", true, "artifacts", func(t *testing.T, repo string, r *rand.Rand) {
		rewrite(t, pick(t, repo, "artifacts/*.md", r), func(s string) string {
			return strings.Replace(s, "\n## ", "\n## Extra\n\nText.\n\n## ", 1)
		})
	}},
	{"add a copy under a new thread id", true, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		data, _ := os.ReadFile(pick(t, repo, "threads/*.json", r))
		os.WriteFile(filepath.Join(repo, "threads", fmt.Sprintf("added-%d.json", r.IntN(1000))), bytes.Replace(data, []byte(`"thread_id": "`), []byte(`"thread_id": "Y`), 1), 0o644)
	}},
	{"add a file in a new folder, staged", true, "threads/new", func(t *testing.T, repo string, r *rand.Rand) {
		os.MkdirAll(filepath.Join(repo, "threads", "new"), 0o755)
		data, _ := os.ReadFile(pick(t, repo, "threads/*.json", r))
		os.WriteFile(filepath.Join(repo, "threads", "new", "n.json"), data[:len(data)/3], 0o644)
		git(t, repo, "add", "threads/new")
	}},
	{"add a hidden file and a link", true, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		os.WriteFile(filepath.Join(repo, "threads", ".draft.json"), []byte("[]"), 0o644)
		os.Symlink("/etc/passwd", filepath.Join(repo, "threads", "passwd"))
	}},
	{"edit a file with a line break in its name", true, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		p := filepath.Join(repo, "threads", "two\nlines.json")
		if _, err := os.Stat(p); err != nil {
			return // no line breaks in file names here: nothing to edit
		}
		rewrite(t, p, func(s string) string {
			return strings.Replace(s, `"subject": "KICKOFF: `, `"subject": "Re: KICKOFF: `, 1)
		})
	}},
	{"edit the hidden file", true, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		os.WriteFile(filepath.Join(repo, "threads", ".notes.json"), []byte(`{"a": 1}`), 0o644)
	}},
	{"delete a thread", false, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		git(t, repo, "rm", "-q", pick(t, repo, "threads/RS-*.json", r))
	}},
	{"rename a thread", false, "threads/older", func(t *testing.T, repo string, r *rand.Rand) {
		git(t, repo, "mv", pick(t, repo, "threads/older/*.json", r), filepath.Join(repo, "threads", "older", "moved.json"))
	}},
	{"replace the link by a folder", false, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		os.Remove(filepath.Join(repo, "threads", "link"))
		os.MkdirAll(filepath.Join(repo, "threads", "link"), 0o755)
		os.WriteFile(filepath.Join(repo, "threads", "link", "x.json"), []byte("{}"), 0o644)
	}},
}

// TestOverlayMatchesArchive: reading the base revision as an overlay of the
// working tree's listing (overlay.go) gives reports byte-identical to
// writing the revision out and scanning it (readRev), for random pull
// requests of one to three changes, paths given as ".", as folders, with
// the repository root at git's top level or below it, with and without a
// cache, and the reports' folder inside the repository; and the overlay
// is used exactly when every change allows it.
func TestOverlayMatchesArchive(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipping: git is not installed")
	}
	t.Setenv("SOURCE_DATE_EPOCH", "")
	r := rand.New(rand.NewPCG(7, 7))
	overlaid := 0
	for round := range 16 {
		repo := overlayRepo(t)
		paths := [][]string{{"."}, {"threads", "artifacts"}, {"threads/older"}, {"."}}[round%4]
		var names []string
		want := true
		for range 1 + r.IntN(3) {
			ch := overlayChanges[r.IntN(len(overlayChanges))]
			ch.apply(t, repo, r)
			names = append(names, ch.name)
			checked := false
			for _, p := range paths {
				checked = checked || p == "." || ch.dir == p || strings.HasPrefix(ch.dir, p+"/")
			}
			want = want && (ch.overlay || !checked)
		}
		root := repo
		if round%4 == 3 {
			root = filepath.Join(repo, "threads") // --repo-root below git's top level
		}
		t.Run(fmt.Sprintf("%d %s in %v under %s", round, strings.Join(names, ", "), paths, filepath.Base(root)), func(t *testing.T) {
			t.Chdir(root)
			var reports [2][]byte
			cacheDir := ""
			if round%2 == 1 {
				cacheDir = t.TempDir() // cold for the overlay, warm for the long way
			}
			for i, noOverlay := range []bool{false, true} {
				out := filepath.Join(repo, "reports")
				os.RemoveAll(out)
				var so, se bytes.Buffer
				e := &Env{Stdout: &so, Stderr: &se}
				c := &checker{CheckOptions: CheckOptions{Paths: paths, RepoRoot: root, NewFromRev: "HEAD", Format: "text", Out: out, Cache: cacheDir}, env: e, noOverlay: noOverlay}
				if err := c.run(e); err != nil {
					if ee, ok := err.(*ExitError); !ok || ee.Code > 1 {
						t.Fatalf("noOverlay %v: %v\n%s", noOverlay, err, se.String())
					}
				}
				if !noOverlay {
					if c.revOverlaid != want {
						t.Errorf("overlay used: %v, want %v", c.revOverlaid, want)
					}
					if c.revOverlaid {
						overlaid++
					}
				}
				reports[i] = append(readReports(t, out, "brenner-ci.json", "brenner-ci.sarif", "brenner-ci.md", "brenner-ci.junit.xml"), so.Bytes()...)
			}
			if !bytes.Equal(reports[0], reports[1]) {
				t.Errorf("the reports differ between the overlay (want) and the revision written out (got) at %s", testutil.FirstDiff(reports[0], reports[1]))
			}
		})
	}
	if overlaid < 4 {
		t.Errorf("the overlay was used in %d rounds only: the test compares too little", overlaid)
	}
}

// TestOverlayTooManyModified: a pull request whose modified files' names
// would not fit on git archive's command line takes the long way, with the
// same reports.
func TestOverlayTooManyModified(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipping: git is not installed")
	}
	t.Setenv("SOURCE_DATE_EPOCH", "")
	repo := overlayRepo(t)
	r := rand.New(rand.NewPCG(1, 2))
	overlayChanges[0].apply(t, repo, r) // edit a subject
	t.Chdir(repo)
	var outs [2]string
	for i, limit := range []int{maxOverlayArgs, 8} {
		defer func(v int) { maxOverlayArgs = v }(maxOverlayArgs)
		maxOverlayArgs = limit
		var so, se bytes.Buffer
		e := &Env{Stdout: &so, Stderr: &se}
		c := &checker{CheckOptions: CheckOptions{Paths: []string{"."}, RepoRoot: repo, NewFromRev: "HEAD", Format: "text"}, env: e}
		if err := c.run(e); err != nil {
			if ee, ok := err.(*ExitError); !ok || ee.Code > 1 {
				t.Fatalf("limit %d: %v\n%s", limit, err, se.String())
			}
		}
		if c.revOverlaid != (i == 0) {
			t.Errorf("limit %d: overlay used %v, want %v", limit, c.revOverlaid, i == 0)
		}
		outs[i] = so.String()
	}
	if outs[0] != outs[1] || !strings.Contains(outs[0], ": new: ") {
		t.Errorf("the reports differ, or nothing is new:\n%s\n---\n%s", outs[0], outs[1])
	}
}
