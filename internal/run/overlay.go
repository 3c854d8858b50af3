package run

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
)

// Pull-request mode the quick way: the base revision as an overlay of the
// working tree's listing.
//
// A pull request changes a handful of files. Instead of writing the whole
// base revision out (git archive) and walking and scanning it again
// (readRev), the base revision's inputs are the run's own listing with the
// files the change touched put back as they were: a file added since the
// revision is left out, a modified one is read from its blob, written to a
// temporary folder; every other file is the working tree's, which git
// says holds the revision's bytes. Those files are keyed by their git blob
// id in both runs (mailbox.ScanOptions.Known), so the base revision's
// unchanged threads find the run's own results without being read again to
// be keyed.
//
// The overlay is used only where it gives the listing a walk of the
// revision would: every difference git reports is a regular file modified
// in place, a file or named entry (IN-006) the revision does not have, or
// a regular file the working tree no longer has (deleted, or renamed) that
// the overlay can put back where a walk lists it (one checked folder, no
// folder on its way now a link or a file, none hidden or an archive's);
// every other file of the revision under the checked paths is an entry of
// the listing, or lies in a folder the listing names without reading; no
// entry's treatment depends on its neighbours (an Agent Mail archive);
// every checked path is at the revision what it is now; the modified and
// deleted files' names fit on a command line. Anything else — a deletion under two checked
// paths, a type change, an archive, thousands of modified files — takes
// the long way (readRev), whose results the overlay's are held to
// (TestOverlayMatchesArchive).

// maxOverlayArgs bounds the bytes of modified files' names an overlay
// passes to git archive (a variable for tests); the system's limit on a
// command line is 128 KiB or more.
var maxOverlayArgs = 64 << 10

// revTree is what git says of the repository at a revision against the
// working tree, every path absolute and slash separated.
type revTree struct {
	root  string
	blobs map[string]revBlob // the revision's files
	dirs  map[string]bool    // the revision's folders (those with a file below)
	diff  map[string]string  // the files that differ: git's status letter (M, A, D, T, …)
}

type revBlob struct {
	id      string
	regular bool // mode 100644 or 100755 (not a link or a submodule)
}

// key names the blob's bytes for thread keys (mailbox.ScanOptions.Known),
// alike in the run, the overlay and readRev.
func (b revBlob) key() string { return "git blob " + b.id }

// readRevTree asks git for the revision's files (ls-tree) and what differs
// in the working tree (diff --raw), both limited to root; nil when git
// cannot tell (not a repository, say).
func readRevTree(root, commit string) *revTree {
	t := &revTree{root: filepath.ToSlash(root), blobs: map[string]revBlob{}, dirs: map[string]bool{}, diff: map[string]string{}}
	// The two git commands at once: each takes 30-60 ms, mostly starting.
	type out struct {
		b   []byte
		err error
	}
	diff := background(func() out {
		d, err := exec.Command("git", "-C", root, "diff", "--raw", "-z", "--no-renames", "--no-ext-diff", "--relative", commit, "--").Output()
		return out{d, err}
	})
	ls, err := exec.Command("git", "-C", root, "ls-tree", "-r", "-z", commit).Output()
	dr := diff()
	if err != nil {
		return nil
	}
	for rec := range bytes.SplitSeq(ls, []byte{0}) {
		// <mode> SP <type> SP <object> TAB <path>
		meta, name, ok := bytes.Cut(rec, []byte{'\t'})
		f := strings.Fields(string(meta))
		if !ok || len(f) != 3 {
			continue
		}
		p := t.abs(string(name))
		t.blobs[p] = revBlob{id: f[2], regular: f[1] == "blob" && regularMode(f[0])}
		for d := path.Dir(p); !t.dirs[d]; d = path.Dir(d) {
			t.dirs[d] = true
			if d == t.root || d == "/" || d == "." {
				break
			}
		}
	}
	if dr.err != nil {
		return nil
	}
	recs := bytes.Split(dr.b, []byte{0})
	for i := 0; i+1 < len(recs); i += 2 {
		// :<mode then> <mode now> <id then> <id now> <status> NUL <path>
		f := strings.Fields(string(recs[i]))
		if len(f) != 5 || !strings.HasPrefix(f[0], ":") {
			return nil
		}
		status := f[4]
		if (status == "M" || status == "T") && !(regularMode(strings.TrimPrefix(f[0], ":")) && regularMode(f[1])) {
			status = "T" // a link or submodule on one side
		}
		t.diff[t.abs(string(recs[i+1]))] = status
	}
	return t
}

func regularMode(m string) bool { return m == "100644" || m == "100755" }

func (t *revTree) abs(rel string) string { return path.Join(t.root, rel) }

// known are the ids of the revision's files that the working tree holds
// unchanged.
func (t *revTree) known() map[string]string {
	k := make(map[string]string, len(t.blobs))
	for p, b := range t.blobs {
		if _, changed := t.diff[p]; !changed && b.regular {
			k[p] = b.key()
		}
	}
	return k
}

// overlayPlan is how the revision's listing differs from the run's (in):
// the entries it does not have, and the modified files to read from their
// blobs (by index); ok is false when the overlay would not be the
// revision's listing (see above).
type overlayPlan struct {
	gone     map[int]bool
	modified map[int]string // index → path relative to the repository root, slash separated
	deleted  []deletedFile  // files of the revision the working tree no longer has
}

// deletedFile is a file deleted (or renamed) since the revision, to be
// read from its blob and listed where a walk of the revision lists it.
type deletedFile struct {
	before int    // the entry of the run's listing it comes before
	rel    string // relative to the repository root, slash separated
	abs    string // where it was, absolute, slash separated
	disp   string // as a walk of the revision names it
}

// plan is the overlay of the run's listing in, of the checked paths, that
// gives the revision's listing, or false.
func (t *revTree) plan(paths []string, in *mailbox.Inputs, written []string) (*overlayPlan, bool) {
	var checked []string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, false
		}
		abs = filepath.ToSlash(abs)
		fi, err := os.Lstat(p)
		if err != nil {
			return nil, false
		}
		switch b, isFile := t.blobs[abs]; {
		case fi.Mode().IsRegular() && isFile && b.regular:
		case fi.IsDir() && !isFile && t.dirs[abs]:
		default:
			return nil, false // new, or another kind of entry, at the revision
		}
		checked = append(checked, abs)
	}
	pl := &overlayPlan{gone: map[int]bool{}, modified: map[int]string{}}
	listed := map[string]bool{}
	var folders []string // entries named without reading that are folders
	entries := in.Entries()
	keys := make([]string, len(entries)) // each entry's absolute path
	for i, e := range entries {
		if e.Archive || e.Broken {
			return nil, false
		}
		abs := e.Abs
		if abs == "" {
			a, err := filepath.Abs(filepath.FromSlash(e.Disp))
			if err != nil {
				return nil, false
			}
			abs = filepath.ToSlash(a)
		}
		listed[abs] = true
		keys[i] = abs
		status, changed := t.diff[abs]
		b, atRev := t.blobs[abs]
		switch {
		case e.Output:
			// The run's own output: named alike at the revision (as
			// revOutputs has it).
		case changed && status != "M" && status != "A":
			return nil, false // deleted, type changed, unmerged: the long way
		case e.Note:
			if fi, err := os.Lstat(filepath.FromSlash(abs)); err == nil && fi.IsDir() {
				folders = append(folders, abs)
				if !t.dirs[abs] {
					pl.gone[i] = true
				}
			} else if !atRev {
				pl.gone[i] = true
			}
		case !atRev:
			pl.gone[i] = true // added since the revision
		case !b.regular:
			return nil, false
		case changed:
			rel, ok := strings.CutPrefix(abs, t.root+"/")
			if !ok {
				return nil, false
			}
			pl.modified[i] = rel
		}
	}
	// Every file of the revision under the checked paths is listed, or is
	// in a folder the listing names, or is one a walk passes over, or was
	// deleted since (or renamed) where the overlay can list it again.
	var deleted []string
	for p := range t.blobs {
		if !under(p, checked) || listed[p] {
			continue
		}
		name := path.Base(p)
		if name == mailbox.ConfigFiles[0] || name == mailbox.ConfigFiles[1] {
			continue
		}
		if under(p, folders) {
			continue
		}
		if len(checked) != 1 || !t.relistable(p, checked[0], written) {
			return nil, false // listed otherwise now, or deleted where a walk would not read it alike
		}
		deleted = append(deleted, p)
	}
	if len(deleted) > 0 {
		// The listing of one folder is in walk order (walkCompare): a
		// deleted file goes before the first entry that comes after it.
		if !slices.IsSortedFunc(keys, walkCompare) {
			return nil, false
		}
		slices.SortFunc(deleted, walkCompare)
		for _, p := range deleted {
			i, _ := slices.BinarySearchFunc(keys, p, walkCompare)
			fromChecked, _ := strings.CutPrefix(p, checked[0]+"/")
			rel, _ := strings.CutPrefix(p, t.root+"/")
			pl.deleted = append(pl.deleted, deletedFile{before: i, rel: rel, abs: p,
				disp: filepath.ToSlash(filepath.Join(paths[0], filepath.FromSlash(fromChecked)))})
		}
	}
	// The modified and deleted files are named on git archive's command
	// line: past its length limit, the long way (a pull request that
	// rewrites thousands of files gains nothing from the overlay anyway).
	n := 0
	for _, rel := range pl.modified {
		n += len(rel) + 1
	}
	for _, d := range pl.deleted {
		n += len(d.rel) + 1
	}
	if n > maxOverlayArgs {
		return nil, false
	}
	return pl, true
}

// relistable reports whether p, a regular file of the revision under the
// checked folder dir that the working tree no longer has (git: deleted, or
// renamed), is one a walk of the revision lists and reads as any thread
// file: in folders the working tree still has or no longer has at all
// (none is now a link or a file), none hidden, none an Agent Mail
// archive's, and none the run's own output.
func (t *revTree) relistable(p, dir string, written []string) bool {
	if b := t.blobs[p]; !b.regular || t.diff[p] != "D" {
		return false
	}
	rest, ok := strings.CutPrefix(p, dir+"/")
	if !ok {
		return false
	}
	for _, w := range written {
		if p == w || strings.HasPrefix(p, w+"/") {
			return false
		}
	}
	parts := strings.Split(rest, "/")
	at := dir
	for i, name := range parts {
		if strings.HasPrefix(name, ".") || name == "messages" || name == "agents" {
			return false
		}
		if i == len(parts)-1 {
			break
		}
		at += "/" + name
		fi, err := os.Lstat(filepath.FromSlash(at))
		if err == nil && !fi.IsDir() || err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false
		}
	}
	return true
}

// walkCompare orders absolute slash-separated paths as a walk lists them:
// a folder's entries by name, each folder's own entries right after its
// name, before the next name.
func walkCompare(a, b string) int {
	for {
		na, ra, moreA := strings.Cut(a, "/")
		nb, rb, moreB := strings.Cut(b, "/")
		if c := strings.Compare(na, nb); c != 0 {
			return c
		}
		switch {
		case !moreA && !moreB:
			return 0
		case !moreA:
			return -1
		case !moreB:
			return 1
		}
		a, b = ra, rb
	}
}

// under reports whether p is one of dirs or lies below one.
func under(p string, dirs []string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, d+"/") || d == "/" {
			return true
		}
	}
	return false
}

// overlay reads the revision's inputs as an overlay of the run's own (in,
// scanned): the modified files' blobs are written under a temporary folder
// (git archive, as readRev writes them), everything else is the working
// tree's.
func (c *checker) overlay(run *Plan, commit string, in *mailbox.Inputs, pl *overlayPlan) (*revBase, error) {
	tmp, err := os.MkdirTemp("", "brenner-ci-rev-")
	if err != nil {
		return nil, err
	}
	b := &revBase{tmp: tmp, mapped: map[string]string{}}
	then := make(map[int]mailbox.Then, len(pl.gone)+len(pl.modified))
	for i := range pl.gone {
		then[i] = mailbox.Then{Gone: true}
	}
	var added []mailbox.Added
	if len(pl.modified)+len(pl.deleted) > 0 {
		entries := in.Entries()
		rels := make([]string, 0, len(pl.modified)+len(pl.deleted))
		for _, rel := range pl.modified {
			rels = append(rels, rel)
		}
		for _, d := range pl.deleted {
			rels = append(rels, d.rel)
		}
		if err := gitArchive(run.repoRoot, commit, tmp, rels...); err != nil {
			return b, fmt.Errorf("--new-from-rev: %v", err)
		}
		extracted := func(rel string) (string, error) {
			at := filepath.Join(tmp, filepath.FromSlash(rel))
			if fi, err := os.Lstat(at); err != nil || !fi.Mode().IsRegular() {
				return "", fmt.Errorf("--new-from-rev: git archive wrote no %s", rel)
			}
			return at, nil
		}
		for i, rel := range pl.modified {
			at, err := extracted(rel)
			if err != nil {
				return b, err
			}
			then[i] = mailbox.Then{At: at}
			b.mapped[filepath.ToSlash(at)] = entries[i].Disp
		}
		for _, d := range pl.deleted {
			at, err := extracted(d.rel)
			if err != nil {
				return b, err
			}
			added = append(added, mailbox.Added{Before: d.before, At: at, Abs: d.abs})
			b.mapped[filepath.ToSlash(at)] = d.disp
		}
	}
	b.batch = in.Overlay(then, added).Scan()
	return b, nil
}
