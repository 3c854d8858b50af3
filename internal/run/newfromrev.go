package run

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/cache"
	"github.com/brenner-ci/brenner-ci/pipeline"
	"github.com/brenner-ci/brenner-ci/rules"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

// revCommit resolves rev to a commit of the repository at the run's root
// (a usage error when it is none).
func (p *Plan) revCommit(rev string) (string, error) {
	if c, ok := p.resolve(rev); ok {
		return c, nil
	}
	return "", usagef("--new-from-rev %s: not a commit of the repository at %s", rev, p.repoRoot)
}

// A revResolved is a revision as git resolved it: its commit, if any.
type revResolved struct {
	commit string
	ok     bool
}

// resolve returns the commit rev names in the repository at the run's root,
// asking git once per revision in a run: pull-request mode needs it for
// the configuration and the baseline at rev, for the run and for the
// base's read, and each git process took 30-60 ms on the benchmark
// machine. A revision is first resolved in setup, before anything runs
// beside it; the base's read, beside the run, only finds it resolved.
func (p *Plan) resolve(rev string) (string, bool) {
	if r, hit := p.commits[rev]; hit {
		return r.commit, r.ok
	}
	out, err := exec.Command("git", "-C", p.repoRoot, "rev-parse", "--verify", "--quiet", rev+"^{commit}").Output()
	r := revResolved{commit: string(bytes.TrimSpace(out))}
	r.ok = err == nil && r.commit != ""
	if p.commits == nil {
		p.commits = map[string]revResolved{}
	}
	p.commits[rev] = r
	return r.commit, r.ok
}

// revBase is the inputs as they were at a revision, read: written to a
// temporary folder and scanned (readRev), waiting to be checked
// (revFingerprints).
type revBase struct {
	tmp    string
	mapped map[string]string // path at rev (slash separated) → path as given
	batch  *mailbox.Batch    // nil: none of the paths is at rev
	extra  []diag.Finding    // about the run's paths at rev
}

// readRev reads the inputs as they were at git revision rev: `git archive`
// into a temporary folder (regular files only, no path may leave it), then
// the same scan as the run's (Plan), excluding the run's own output alike
// (revOutputs). It needs nothing of the run's own results, so it can go on
// while the working tree is checked. The caller removes b.tmp.
func (c *checker) readRev(run *Plan, rev string) (*revBase, error) {
	tmp, err := os.MkdirTemp("", "brenner-ci-rev-")
	if err != nil {
		return nil, err
	}
	b := &revBase{tmp: tmp, mapped: map[string]string{}}
	if _, err := run.revCommit(rev); err != nil {
		return b, err
	}
	var revPaths []string
	for _, p := range run.Paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return b, err
		}
		rel, ok := relInside(run.repoRoot, abs)
		if !ok {
			return b, usagef("--new-from-rev: %s is outside the repository %s", p, run.repoRoot)
		}
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rel = "" // the repository root: "REV:" is its tree ("REV:." is no object)
		}
		if err := exec.Command("git", "-C", run.repoRoot, "cat-file", "-e", rev+":"+rel).Run(); err != nil {
			continue // the path is new since rev: everything in it is new
		}
		var rels []string
		if rel != "" {
			rels = append(rels, rel)
		}
		if err := gitArchive(run.repoRoot, rev, tmp, rels...); err != nil {
			return b, fmt.Errorf("--new-from-rev: %v", err)
		}
		at := filepath.ToSlash(filepath.Join(tmp, filepath.FromSlash(rel)))
		if fi, err := os.Lstat(filepath.FromSlash(at)); err != nil || fi.Mode()&os.ModeSymlink != 0 {
			// At rev the path is a symbolic link (or a submodule, of
			// which git archive writes nothing), which is never followed.
			b.extra = append(b.extra, diag.Finding{Rule: ruleid.IN006, Severity: diag.Note,
				Message: fmt.Sprintf("%s is a symbolic link or a submodule at %s, which is not followed: every finding under it counts as new.", filepath.ToSlash(filepath.Clean(p)), rev),
				Pos:     diag.Pos{File: filepath.ToSlash(filepath.Clean(p)), Line: 1, Col: 1}, Anchor: "base path not followed " + rel})
			continue
		}
		revPaths = append(revPaths, at)
		b.mapped[at] = filepath.ToSlash(filepath.Clean(p))
	}
	if len(revPaths) == 0 {
		return b, nil
	}
	exclude, err := c.revOutputs(run.repoRoot, tmp)
	if err != nil {
		return b, err
	}
	opt := run.ScanOptions(exclude...)
	if t := c.revTree; t != nil {
		// The files are keyed by their blob ids, as the working tree's
		// that the change left alone are (overlay.go).
		opt.Known = make(map[string]string, len(t.blobs))
		at := filepath.ToSlash(tmp)
		for p, blob := range t.blobs {
			if rel, ok := strings.CutPrefix(p, t.root+"/"); ok && blob.regular {
				opt.Known[path.Join(at, rel)] = blob.key()
			}
		}
	}
	b.batch, err = mailbox.Scan(revPaths, opt)
	return b, err
}

// revFingerprints checks the inputs read at git revision rev (readRev) and
// returns the fingerprints of their findings: with --new-from-rev, the
// findings already present at rev are old, like a baseline's. They go
// through the same engine and pipeline as the run's (Plan: the base
// revision's findings are comparable only when the inputs are read,
// compiled and checked alike), with their paths mapped back to the paths
// given, so fingerprints match. A thread whose inputs are at rev what they
// are in the working tree (the same bytes under the same name, or under the
// name a rename gave them) checks the same: with mem, the run's own
// results, it is not checked again (the batch rules still run on every
// thread of rev).
func (c *checker) revFingerprints(run *Plan, rev string, b *revBase, mem *cache.Memory) (map[string]bool, error) {
	run.extra = append(run.extra, b.extra...)
	fps := map[string]bool{}
	if b.batch == nil {
		return fps, nil
	}
	mapped := b.mapped
	back := func(file string) string {
		for at, given := range mapped {
			if file == at {
				return given
			}
			if rest, ok := strings.CutPrefix(file, at+"/"); ok {
				return path.Join(given, rest)
			}
		}
		return file
	}
	// backText maps every path at rev inside a text back (longest first, so
	// that a folder never replaces part of a longer path).
	ats := make([]string, 0, len(mapped))
	for at := range mapped {
		ats = append(ats, at)
	}
	sort.Slice(ats, func(i, j int) bool { return len(ats[i]) > len(ats[j]) || len(ats[i]) == len(ats[j]) && ats[i] < ats[j] })
	backText := func(s string) string {
		for _, at := range ats {
			// As back does (path.Join): below the repository root given as
			// ".", a path is "mailbox/x.json", never "./mailbox/x.json".
			// (Before, every finding whose anchor names its file, IN-001
			// and IN-006 among them, was new on ".", the Action's default.)
			if mapped[at] == "." {
				s = strings.ReplaceAll(s, at+"/", "")
			}
			s = strings.ReplaceAll(s, at, mapped[at])
		}
		return s
	}
	// A file the change renamed (git mv) is the same file: its findings at
	// rev are named as the file is named now, so they stay old.
	var renamed renames
	if c.renamesAt != nil && rev == c.NewFromRev {
		renamed = c.renamesAt()
	} else {
		renamed = renamesSince(run.repoRoot, rev)
	}
	back = renamed.file(back)
	backText = renamed.text(backText)
	batch := b.batch
	eng := run.Engine()
	ro := rules.RunOptions{Compile: run.CompileOptions(batch.Agents), Jobs: c.Jobs}
	if mem != nil {
		// Keys name rev's files as the working tree names them: a thread
		// left as it was is found under the run's own key.
		ro.Cache = mem.Reuser(c.threadSalt(eng, run, ro.Compile), back)
	}
	res := eng.Run(batch, ro)
	if mem != nil {
		c.revReused = mem.Hits.Load()
	}
	for i := range res.Findings {
		res.Findings[i].Pos.File = back(res.Findings[i].Pos.File)
		// Anchors and messages name files too ("<path> too large"), and
		// the anchor is part of the fingerprint.
		res.Findings[i].Anchor = backText(res.Findings[i].Anchor)
		res.Findings[i].Message = backText(res.Findings[i].Message)
		if fx := res.Findings[i].Fix; fx != nil {
			fx.Pos.File = back(fx.Pos.File)
		}
	}
	for i := range res.Comments {
		cm := &res.Comments[i]
		cm.Pos.File, cm.From.File, cm.To.File = back(cm.Pos.File), back(cm.From.File), back(cm.To.File)
		if cm.File != "" {
			cm.File = back(cm.File)
		}
	}
	out := pipeline.Run(&pipeline.Input{Findings: res.Findings, Comments: res.Comments, Config: run.Cfg, Ran: enabledSet(eng), Rules: run.reg()})
	for _, fp := range out.Fingerprints {
		fps[fp] = true
	}
	return fps, nil
}

// revOutputs puts the run's own output (--out, the report files, --cache:
// what list excludes) that exists inside the repository into the revision's
// tree at tmp, as an empty folder or file where the revision has nothing,
// and returns where: excluded alike, the base names it as the run does (an
// IN-006 note when the checked paths hold it, "." for one), so that note is
// old, not the change's. (Before, with the Action's default paths "." its
// reports folder was a new finding in every pull request.)
func (c *checker) revOutputs(root, tmp string) ([]string, error) {
	var at []string
	for _, o := range c.written() {
		if o == "" {
			continue
		}
		rel, ok := relInside(root, o)
		if !ok || rel == "." {
			continue
		}
		fi, err := os.Lstat(o)
		if err != nil || !fi.IsDir() && !fi.Mode().IsRegular() {
			continue // not there (yet): the run's walk does not name it either
		}
		p := filepath.Join(tmp, rel)
		if _, err := os.Lstat(p); err != nil {
			if fi.IsDir() {
				err = os.MkdirAll(p, 0o755)
			} else if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
				err = writeFileFrom(p, strings.NewReader(""))
			}
			if err != nil {
				return nil, fmt.Errorf("--new-from-rev: %v", err)
			}
		}
		at = append(at, p)
	}
	return at, nil
}

// gitArchive extracts rev:rels (relative to repo; none: the whole tree)
// into dir: regular files, folders and links (pointing nowhere).
func gitArchive(repo, rev, dir string, rels ...string) error {
	args := []string{"--literal-pathspecs", "-C", repo, "archive", "--format=tar", rev}
	if len(rels) > 0 {
		args = append(append(args, "--"), rels...)
	}
	cmd := exec.Command("git", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	tr := tar.NewReader(stdout)
	var xerr error
	made := map[string]bool{}  // folders made: one stat per folder, not per file
	links := map[string]bool{} // links made (slash separated, relative to dir)
	mkdir := func(d string) error {
		if made[d] {
			return nil
		}
		made[d] = true
		return os.MkdirAll(d, 0o755)
	}
	for xerr == nil {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			xerr = err
			break
		}
		name := path.Clean(h.Name)
		if path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") || belowLink(name, links) {
			continue // never outside dir, never through a link
		}
		target := filepath.Join(dir, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			xerr = mkdir(target)
		case tar.TypeReg:
			if xerr = mkdir(filepath.Dir(target)); xerr == nil {
				xerr = writeFileFrom(target, tr)
			}
		case tar.TypeSymlink:
			// A link is named, never followed, by the walk (IN-006), as in
			// the working tree: it points nowhere here.
			if xerr = mkdir(filepath.Dir(target)); xerr == nil {
				xerr = os.Symlink(danglingLink, target)
				links[name] = true
			}
		}
	}
	io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil && xerr == nil {
		xerr = fmt.Errorf("git archive %s -- %s: %v: %s", rev, strings.Join(rels, " "), err, strings.TrimSpace(stderr.String()))
	}
	return xerr
}

// danglingLink is where the links gitArchive makes point: nowhere.
const danglingLink = "brenner-ci: a link at the base revision, not followed"

// belowLink reports whether name (slash separated) lies below one of
// links.
func belowLink(name string, links map[string]bool) bool {
	for d := path.Dir(name); d != "." && d != "/"; d = path.Dir(d) {
		if links[d] {
			return true
		}
	}
	return false
}

func writeFileFrom(name string, r io.Reader) error {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// renames are the files renamed between a revision and the working tree:
// absolute path then → absolute path now.
type renames map[string]string

// renamesSince asks git which tracked files were renamed since rev
// (similarity 50% or more, git's default); none when git cannot tell.
func renamesSince(root, rev string) renames {
	out, err := exec.Command("git", "-C", root, "diff", "-M", "--name-status", "-z", rev, "--").Output()
	if err != nil {
		return nil
	}
	r := renames{}
	f := strings.Split(string(out), "\x00")
	for i := 0; i+2 < len(f); {
		if strings.HasPrefix(f[i], "R") {
			r[filepath.Join(root, filepath.FromSlash(f[i+1]))] = filepath.Join(root, filepath.FromSlash(f[i+2]))
			i += 3
			continue
		}
		if strings.HasPrefix(f[i], "C") {
			i += 3 // a copy: both files exist
			continue
		}
		i += 2
	}
	return r
}

// as writes now in the form of then: absolute when then is, else relative
// to the working directory wd ("": not known, absolute).
func as(wd, then, now string) string {
	if filepath.IsAbs(filepath.FromSlash(then)) || wd == "" {
		return filepath.ToSlash(now)
	}
	if rel, err := filepath.Rel(wd, now); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(now)
}

// file is back followed by the renames. The working directory is asked
// for once: a run maps every finding of the revision through this, and
// os.Getwd stats two folders a call.
func (r renames) file(back func(string) string) func(string) string {
	if len(r) == 0 {
		return back
	}
	wd, err := os.Getwd()
	if err != nil {
		wd = ""
	}
	return func(file string) string {
		p := back(file)
		abs := filepath.FromSlash(p)
		if !filepath.IsAbs(abs) {
			if wd == "" {
				return p
			}
			abs = filepath.Join(wd, abs)
		}
		if now, ok := r[filepath.Clean(abs)]; ok {
			return as(wd, p, now)
		}
		return p
	}
}

// text is backText followed by the renames, in both forms a report may
// name a file (relative to the working directory, absolute).
func (r renames) text(backText func(string) string) func(string) string {
	if len(r) == 0 {
		return backText
	}
	wd, err := os.Getwd()
	if err != nil {
		wd = ""
	}
	olds := make([]string, 0, len(r))
	for old := range r {
		olds = append(olds, old)
	}
	sort.Strings(olds)
	type rename struct{ old, now, relOld, relNow string }
	rs := make([]rename, len(olds))
	for i, old := range olds {
		now := r[old]
		rs[i] = rename{filepath.ToSlash(old), filepath.ToSlash(now), as(wd, "x", old), as(wd, "x", now)}
	}
	return func(s string) string {
		s = backText(s)
		for _, x := range rs {
			s = strings.ReplaceAll(s, x.old, x.now)
			if x.relOld != x.old {
				s = strings.ReplaceAll(s, x.relOld, x.relNow)
			}
		}
		return s
	}
}
