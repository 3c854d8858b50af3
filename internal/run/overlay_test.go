package run

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
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
	// A second export of a thread, listed before it: which copy of each
	// message is kept, and so where its findings are, is decided by the
	// order of the listing.
	if data, err := os.ReadFile(files[4]); err == nil {
		os.WriteFile(filepath.Join(repo, "threads", "AA-copy.json"), data, 0o644)
	}
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
	// relists: it deletes a file (a rename does too), which the overlay
	// lists again only when one folder is checked.
	relists bool
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
	}, false},
	{"edit a thread id", true, "threads/older", func(t *testing.T, repo string, r *rand.Rand) {
		rewrite(t, pick(t, repo, "threads/older/*.json", r), func(s string) string {
			return strings.ReplaceAll(s, `"thread_id": "`, `"thread_id": "Z`)
		})
	}, false},
	{"break a file", true, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		rewrite(t, pick(t, repo, "threads/*.json", r), func(s string) string { return s[:len(s)/2] })
	}, false},
	{"edit an artifact", true, "artifacts", func(t *testing.T, repo string, r *rand.Rand) {
		rewrite(t, pick(t, repo, "artifacts/*.md", r), func(s string) string {
			return strings.Replace(s, "\n## ", "\n## Extra\n\nText.\n\n## ", 1)
		})
	}, false},
	{"add a copy under a new thread id", true, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		data, _ := os.ReadFile(pick(t, repo, "threads/*.json", r))
		os.WriteFile(filepath.Join(repo, "threads", fmt.Sprintf("added-%d.json", r.IntN(1000))), bytes.Replace(data, []byte(`"thread_id": "`), []byte(`"thread_id": "Y`), 1), 0o644)
	}, false},
	{"add a file in a new folder, staged", true, "threads/new", func(t *testing.T, repo string, r *rand.Rand) {
		os.MkdirAll(filepath.Join(repo, "threads", "new"), 0o755)
		data, _ := os.ReadFile(pick(t, repo, "threads/*.json", r))
		os.WriteFile(filepath.Join(repo, "threads", "new", "n.json"), data[:len(data)/3], 0o644)
		git(t, repo, "add", "threads/new")
	}, false},
	{"add a hidden file and a link", true, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		os.WriteFile(filepath.Join(repo, "threads", ".draft.json"), []byte("[]"), 0o644)
		os.Symlink("/etc/passwd", filepath.Join(repo, "threads", "passwd"))
	}, false},
	{"edit a file with a line break in its name", true, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		p := filepath.Join(repo, "threads", "two\nlines.json")
		if _, err := os.Stat(p); err != nil {
			return // no line breaks in file names here: nothing to edit
		}
		rewrite(t, p, func(s string) string {
			return strings.Replace(s, `"subject": "KICKOFF: `, `"subject": "Re: KICKOFF: `, 1)
		})
	}, false},
	{"edit the hidden file", true, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		os.WriteFile(filepath.Join(repo, "threads", ".notes.json"), []byte(`{"a": 1}`), 0o644)
	}, false},
	{"delete a thread", true, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		git(t, repo, "rm", "-q", pick(t, repo, "threads/RS-*.json", r))
	}, true},
	{"rename a thread", true, "threads/older", func(t *testing.T, repo string, r *rand.Rand) {
		git(t, repo, "mv", pick(t, repo, "threads/older/*.json", r), filepath.Join(repo, "threads", "older", "moved.json"))
	}, true},
	{"delete a thread without git", true, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		os.Remove(pick(t, repo, "threads/RS-*.json", r))
	}, true},
	{"rename a thread into the other folder", true, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		git(t, repo, "mv", pick(t, repo, "threads/RS-*.json", r), filepath.Join(repo, "threads", "older", "Z-moved.json"))
	}, true},
	{"delete the second export", true, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		git(t, repo, "rm", "-q", filepath.Join(repo, "threads", "AA-copy.json"))
	}, true},
	{"delete a whole folder", true, "threads/older", func(t *testing.T, repo string, r *rand.Rand) {
		git(t, repo, "rm", "-q", "-r", filepath.Join(repo, "threads", "older"))
	}, true},
	{"replace the link by a folder", false, "threads", func(t *testing.T, repo string, r *rand.Rand) {
		os.Remove(filepath.Join(repo, "threads", "link"))
		os.MkdirAll(filepath.Join(repo, "threads", "link"), 0o755)
		os.WriteFile(filepath.Join(repo, "threads", "link", "x.json"), []byte("{}"), 0o644)
	}, false},
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
	// Sixteen rounds of random changes, then each deletion and rename alone
	// and with an edit, under each shape of paths.
	var fixed [][]int
	for i, ch := range overlayChanges {
		if ch.relists {
			for range 4 {
				fixed = append(fixed, []int{i}, []int{i, 0})
			}
		}
	}
	for round := range 16 + len(fixed) {
		shape := round % 4 // the paths, and where the repository root is
		changes := []int{}
		if round < 16 {
			for range 1 + r.IntN(3) {
				changes = append(changes, r.IntN(len(overlayChanges)))
			}
		} else {
			changes, shape = fixed[round-16], (round-16)/2%4
			if overlayChanges[changes[0]].dir == "threads/older" && strings.HasPrefix(overlayChanges[changes[0]].name, "delete") && shape == 2 {
				continue // the checked folder itself deleted: not a run
			}
		}
		repo := overlayRepo(t)
		paths := [][]string{{"."}, {"threads", "artifacts"}, {"threads/older"}, {"."}}[shape]
		var names []string
		want := true
		for _, c := range changes {
			ch := overlayChanges[c]
			ch.apply(t, repo, r)
			names = append(names, ch.name)
			checked := false
			for _, p := range paths {
				checked = checked || p == "." || ch.dir == p || strings.HasPrefix(ch.dir, p+"/")
			}
			want = want && (ch.overlay && !(ch.relists && len(paths) > 1) || !checked)
		}
		root := repo
		if shape == 3 {
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

// TestWalkCompareIsTheListingOrder: a folder's listing (mailbox.List) is
// in walkCompare's order, and each file of it, left out, is found again
// at its own place by the search the overlay puts a deleted file back
// with: names that sort differently as whole paths and as folder entries
// ("a-b.json", "a.json", "a/x.json"), nested folders, hidden entries and
// a link.
func TestWalkCompareIsTheListingOrder(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a-b.json", "a.json", "a/x.json", "a/b/y.json", "a/c.json", "ab/z.json", "A.json", "b.json",
		".hidden.json", ".dir/w.json", "z/é.json", "z/e.json", "z/e-f/g.json", "z/e/h.json"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("[]"), 0o644)
	}
	os.Symlink("a", filepath.Join(dir, "l"))
	in, err := mailbox.List([]string{dir}, mailbox.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range in.Entries() {
		abs := e.Abs
		if abs == "" {
			abs = filepath.ToSlash(e.Disp)
		}
		keys = append(keys, abs)
	}
	if len(keys) < 14 {
		t.Fatalf("%d entries listed: %q", len(keys), keys)
	}
	if !slices.IsSortedFunc(keys, walkCompare) {
		t.Fatalf("the listing is not in walk order: %q", keys)
	}
	for i, k := range keys {
		rest := slices.Delete(slices.Clone(keys), i, i+1)
		if j, _ := slices.BinarySearchFunc(rest, k, walkCompare); j != i {
			t.Errorf("%s, left out, goes back at %d, not %d", k, j, i)
		}
	}
}
