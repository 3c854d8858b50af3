package mailbox

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/iter"

	"github.com/brenner-ci/brenner-ci/compile/chunk"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

// ScanOptions control Scan.
type ScanOptions struct {
	Jobs int // files read in parallel; 0 = GOMAXPROCS
	// Exclude lists files and directories that are never read, even when
	// a walk reaches them or they are named: brenner-ci's own output
	// folder and report files, so that output is never input.
	Exclude []string
	// MaxFileBytes is the largest input file read (0: DefaultMaxFileBytes);
	// a larger one is an IN-009 finding and is not read.
	MaxFileBytes int64
	// Ignored lists files and folders the repository ignores (.gitignore,
	// as git says): a walk names each once (IN-006) and reads nothing in
	// it. A path named on the command line is read all the same.
	Ignored []string
	// JSONDepth is the deepest JSON nesting accepted (0:
	// limits.DefaultJSONDepth); a deeper file is an IN-001 syntax error.
	JSONDepth int
	// Cache, when set, reuses the scan of files that did not change.
	Cache *ScanCache
	// Known names files (absolute, slash separated) whose bytes are known
	// by an id (a git blob id): a thread alone in such a file is keyed by
	// it instead of its bytes read again (ThreadRef.Digest). A scan cache's
	// hash of the file comes first.
	Known map[string]string
}

// maxFileBytes is the largest input file read: MaxFileBytes, or the default.
func (opt ScanOptions) maxFileBytes() int64 {
	if opt.MaxFileBytes <= 0 {
		return DefaultMaxFileBytes
	}
	return opt.MaxFileBytes
}

// DefaultMaxFileBytes is the default largest input file: far above real
// exports, below what would exhaust a CI runner's memory.
const DefaultMaxFileBytes = limits.DefaultFileBytes

// Scan finds every message in paths (files or directories, walked
// recursively) and groups them into threads. It keeps metadata and the
// location of every message's bytes, never bodies (see ThreadRef.Load).
//
// The error is non-nil only when a path cannot be stat'ed (for example it
// does not exist). Every other problem, such as a file that is not JSON, a
// truncated export or an unsupported shape, becomes an IN-001 finding in
// Batch.Findings, and the other files are still read.
//
// How files are chosen (content decides the format, never the extension).
// Nothing is skipped silently but .git: every other file or folder that
// is not read is named once in an IN-006 note, or is an IN-001 error where
// its content is mail brenner-ci cannot read.
//
//   - A directory is walked in byte-wise name order. Symbolic links are
//     never followed (so a walk never leaves the tree) and are named at
//     their own path, as are hidden entries (names starting with "."; a
//     hidden folder is named as a whole, .git is passed over in silence)
//     and the excluded output (ScanOptions.Exclude).
//   - A path named on the command line is what a walk makes of it (a link
//     or output is named, not read), except that a hidden name is read.
//   - Agent Mail archive layout, in a project directory (one holding
//     messages/ or agents/): attachments/ and file_reservations/ are named
//     once each, not walked; messages/threads/ is named once (per-thread
//     digests, lossy, never messages) and only what in it is JSON or an
//     archive message is read; the agents/<name>/inbox and outbox copies
//     are compared byte for byte with their messages/ original (List,
//     dropCopies): a copy identical to an original that is an input too
//     is not read and gets no finding (the original is checked), any
//     other copy is read. agents/<name>/profile.json files give
//     Batch.Agents (only the name is kept, never tokens).
//   - A file starting with a "---json" line is an archive message.
//   - A file whose first non-space byte is '{' or '[', or that is named
//     *.json, *.jsonl or *.ndjson, is JSON or JSON Lines.
//   - Other .md/.markdown files go to Batch.Markdown; empty ones get an
//     IN-006 note, except at an artifact path (IsArtifactPath), where they
//     go to Batch.Markdown too.
//   - A JSON artifact object {metadata, sections} goes to Batch.ArtifactJSON.
//   - Other files (text that is not JSON, not named like JSON) are passed
//     over when found by a walk, and are IN-001 when named explicitly;
//     binary data found by a walk is an IN-006 note. An empty *.json /
//     *.jsonl / *.ndjson file is IN-001 either way (the extension is only
//     used to decide whether a note is enough, never to choose a parser).
//   - JSON with no recognizable export shape: Agent Mail content in it (a
//     message object, an MCP or JSON-RPC response, a thread whose messages
//     are not a list) is IN-001 at that content, in a walk as when named.
//     JSON with no mail in it (a generator manifest, package metadata) is
//     an IN-006 note when found by a walk (none for an evidence pack beside
//     an artifact or an archive's project.json, which are read elsewhere)
//     and IN-001 "unsupported shape" when named explicitly.
//   - An export that holds no message (an empty thread or inbox) is an
//     IN-006 note, never taken for "nothing found".
func Scan(paths []string, opt ScanOptions) (*Batch, error) {
	in, err := List(paths, opt)
	if err != nil {
		return nil, err
	}
	return in.Scan(), nil
}

// Inputs are the files a scan reads: found (walked), and, with a cache,
// hashed. List makes them, Scan reads them; between the two, Digest tells
// whether every input is exactly as in an earlier run.
type Inputs struct {
	opt   ScanOptions
	jobs  int
	files []inFile
	keys  []fileKey    // with a cache: one per file
	all   bool         // with a cache: every file has a key
	sums  []string     // after Scan: the content id each file was keyed by ("": its bytes)
	keep  bool         // KeepScans
	kept  []fileResult // after Scan, with keep: each file's scan, as merge found it
	early *Early       // CheckEarly
}

// KeepScans has Scan keep every file's scan for an Overlay of the inputs
// to reuse (their packed records then live as long as the Inputs).
func (in *Inputs) KeepScans() { in.keep = true }

// fileKey is a file's scan cache key and what its metadata was when it
// was hashed, so that a file that changes during the run is noticed.
type fileKey struct {
	key   string // "": the file is not cached
	size  int64
	mtime int64
}

// List finds the files of paths (see Scan) and, with a cache, hashes each
// of them (in parallel). The error is non-nil only when a path cannot be
// stat'ed.
func List(paths []string, opt ScanOptions) (*Inputs, error) {
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	w := walker{seen: map[string]bool{}, notRead: map[string]reason{}}
	for _, set := range []struct {
		paths []string
		why   reason
	}{{opt.Ignored, reason{noteIgnored, hintIgnored}}, {opt.Exclude, reason{noteOutput, hintOutput}}} { // output wins
		for _, x := range set.paths {
			if abs, err := filepath.Abs(x); err == nil && x != "" {
				w.notRead[filepath.ToSlash(abs)] = set.why
			}
		}
	}
	for _, p := range paths {
		fi, err := os.Lstat(p)
		if err != nil {
			return nil, err
		}
		disp := filepath.ToSlash(filepath.Clean(p))
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		abs = filepath.ToSlash(abs)
		// A path named on the command line is what a walk would make of
		// it (output and links are named, not read), except that a name
		// starting with "." is read: it was named.
		if w.skipped(disp, abs, fi.Mode()) {
			continue
		}
		if fi.IsDir() {
			w.dir(p, disp, abs, dirCtx{})
			continue
		}
		if w.seen[abs] {
			continue // the same file named twice, or already found by a walk
		}
		w.seen[abs] = true
		w.out = append(w.out, newInFile(p, disp, abs, true))
	}
	maxBytes := opt.maxFileBytes()
	files := dropCopies(w.out, jobs, maxBytes)
	for i := range files {
		files[i].maxBytes, files[i].maxDepth = maxBytes, opt.JSONDepth
		if files[i].abs != "" {
			files[i].sum = opt.Known[files[i].abs]
		}
	}
	in := &Inputs{opt: opt, jobs: jobs, files: files}
	if c := opt.Cache; c != nil {
		in.keys = make([]fileKey, len(files))
		iter.Iterator[fileKey]{MaxGoroutines: jobs}.ForEachIdx(in.keys, func(i int, k *fileKey) {
			*k = c.key(&files[i])
		})
		in.all = true
		for i, k := range in.keys {
			if k.key == "" && files[i].skip == "" && files[i].dirErr == nil {
				in.all = false // not hashed: too large or unreadable
			}
		}
	}
	return in, nil
}

// Digest is a hash of every input, in order: its path and place, and its
// content hash or why it is not read (a symbolic link, a hidden or output
// entry, a folder that cannot be listed). An archive copy identical to its
// original is no input (dropCopies): when it changes, it becomes one. ok
// is false without a cache, or when a file could not be hashed (over the
// cache's size limit, or unreadable): such a run's inputs have no digest.
func (in *Inputs) Digest() (sum []byte, ok bool) {
	if in.opt.Cache == nil || !in.all {
		return nil, false
	}
	h := sha256.New()
	fmt.Fprintf(h, "brenner-ci inputs %d\n%s\n%d\n", scanCacheFormat, in.opt.Cache.Salt, len(in.files))
	for i := range in.files {
		f := &in.files[i]
		dirErr := ""
		if f.dirErr != nil {
			dirErr = f.dirErr.Error()
		}
		fmt.Fprintf(h, "%q %q %q %x\n", f.disp, f.skip, dirErr, in.keys[i].key)
	}
	return h.Sum(nil), true
}

// Unchanged reports whether every hashed input still has the size and
// modification time it had when List hashed it (always false without a
// digest): a run whose input changed under it is not one to reuse.
func (in *Inputs) Unchanged() bool {
	if _, ok := in.Digest(); !ok {
		return false
	}
	for i, k := range in.keys {
		if k.key == "" {
			continue
		}
		st, err := os.Stat(in.files[i].osPath)
		if err != nil || st.Size() != k.size || st.ModTime().UnixNano() != k.mtime {
			return false
		}
	}
	return true
}

// Files is the number of inputs.
func (in *Inputs) Files() int { return len(in.files) }

// Scan reads the inputs (see the package function Scan).
func (in *Inputs) Scan() *Batch {
	files := in.files
	var results []*fileResult
	sp := newSpill()
	if c := in.opt.Cache; c != nil {
		defer c.Store.Close()
		results = make([]*fileResult, len(files))
		iter.Iterator[*fileResult]{MaxGoroutines: in.jobs}.ForEachIdx(results, func(i int, r **fileResult) {
			*r = c.scanCached(&files[i], in.keys[i])
			sp.keep(*r)
		})
	} else {
		// The largest files first, by a stat of each (in parallel; the
		// scan uses it instead of its own): a huge document scanned last
		// kept one worker busy alone at the end of the scan, and its
		// transient memory (its nodes, a few times its size) came on top
		// of the metadata of every thread scanned before it. Room in the
		// descriptor table for the files the scan keeps open is made
		// beside the stats, which open none (reserveKept); an open that
		// needs the table grown while it grows waits in the kernel.
		var reserved conc.WaitGroup
		reserved.Go(func() { reserveKept(len(files)) })
		defer reserved.Wait()
		iter.Iterator[inFile]{MaxGoroutines: in.jobs}.ForEach(files, (*inFile).stat)
		order := make([]int, len(files))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(files[b].st.size, files[a].st.size) })
		results = make([]*fileResult, len(files))
		iter.Iterator[int]{MaxGoroutines: in.jobs}.ForEach(order, func(i *int) {
			if f := &files[*i]; f.kept != nil {
				results[*i] = f.kept.again()
			} else if in.early != nil {
				results[*i] = scanEarly(f, in.early)
				sp.keep(results[*i])
			} else {
				results[*i] = scanFile(f)
				sp.keep(results[*i])
			}
		})
		if in.early != nil {
			again := earlyAgain(results)
			iter.Iterator[int]{MaxGoroutines: in.jobs}.ForEach(again, func(i *int) {
				if drop := in.early.Drop; drop != nil {
					drop(results[*i].early.early)
				}
				results[*i] = scanFile(&files[*i])
				sp.keep(results[*i])
			})
		}
	}
	in.sums = make([]string, len(results))
	for i, r := range results {
		in.sums[i] = r.sum
	}
	if in.keep {
		in.kept = make([]fileResult, len(results))
		for i, r := range results {
			in.kept[i] = *r // before merge takes its records
			for _, ref := range r.refs {
				ref.p.kept = true // read again when they are reused (again)
			}
		}
	}
	b := merge(results, in.jobs)
	for _, t := range b.Threads {
		t.maxDepth = in.opt.JSONDepth // Load parses its messages again
	}
	return b
}

// preStat is what a stat of an input said before it was scanned.
type preStat struct {
	done bool
	err  error
	mode fs.FileMode
	size int64
}

// stat fills f.st (nothing for an entry the scan does not read).
func (f *inFile) stat() {
	if f.skip != "" || f.kept != nil {
		return
	}
	st, err := os.Stat(f.osPath)
	f.st = preStat{done: true, err: err}
	if err == nil {
		f.st.mode, f.st.size = st.Mode(), st.Size()
	}
}

// inFile is one file to read, or one entry a walk names without reading
// it (skip).
type inFile struct {
	disp     string // path for positions: as given, cleaned, slash separated
	osPath   string
	abs      string      // absolute, slash separated ("" for an entry not read)
	explicit bool        // named on the command line
	role     fileRole    // what its place in an archive says
	dirErr   error       // a directory that could not be listed
	skip     string      // the IN-006 note naming an entry that is not read, e.g. a symbolic link
	skipHint string      // its hint
	copyOf   string      // an archive copy (agents/*/inbox|outbox): its messages/ original, absolute, slash separated
	maxBytes int64       // the largest file read (IN-009)
	maxDepth int         // the deepest JSON nesting accepted (0: the default)
	agentDir string      // roleProfile: the agent directory name
	st       preStat     // its stat before the scan, when Scan made one
	sum      string      // an id of its bytes known before it is read (ScanOptions.Known, Inputs.Overlay), or ""
	kept     *fileResult // its scan by another run of the same bytes (Inputs.Overlay), or nil
}

type fileRole uint8

const (
	roleAny        fileRole = iota
	roleProfile             // projects/<slug>/agents/<name>/profile.json
	roleArchiveMsg          // projects/<slug>/messages/YYYY/MM/<file>.md, or its agents/<name>/inbox|outbox copy
	roleDigest              // projects/<slug>/messages/threads/<file>, found by a walk: a per-thread digest
	roleProject             // projects/<slug>/project.json, found by a walk: the project's slug and key
)

func newInFile(osPath, disp, abs string, explicit bool) inFile {
	return placeOf(path.Dir(abs)).file(osPath, disp, abs, path.Base(abs), explicit)
}

// place is what a folder's place in an Agent Mail archive says of the
// files in it: the same for each, so a walk works it out once a folder.
type place struct {
	agent string // the folder is agents/<agent>: "" when it is not
	month bool   // the folder is an archive's YYYY/MM message folder
}

// placeOf is the place of folder dir (absolute, slash separated, clean).
func placeOf(dir string) place {
	var pl place
	if path.Base(path.Dir(dir)) == "agents" {
		pl.agent = path.Base(dir)
	}
	pl.month = isMonth(path.Base(dir)) && isYear(path.Base(path.Dir(dir))) && isMessageRoot(path.Dir(path.Dir(dir)))
	return pl
}

// file is the input at abs, a file named base in a folder of this place.
func (pl place) file(osPath, disp, abs, base string, explicit bool) inFile {
	f := inFile{disp: disp, osPath: osPath, abs: abs, explicit: explicit}
	switch {
	case base == "profile.json" && pl.agent != "":
		f.role = roleProfile
		f.agentDir = pl.agent
	case pl.month:
		f.role = roleArchiveMsg
	}
	return f
}

// isMessageRoot reports whether dir holds an archive's YYYY/MM message
// folders: a project's messages/, or an agent's inbox/ or outbox/ copies.
func isMessageRoot(dir string) bool {
	switch path.Base(dir) {
	case "messages":
		return true
	case "inbox", "outbox":
		return path.Base(path.Dir(path.Dir(dir))) == "agents"
	}
	return false
}

func isYear(s string) bool  { return len(s) == 4 && digits(s) }
func isMonth(s string) bool { return len(s) == 2 && digits(s) }

// The notes of the entries a walk names without reading them (IN-006).
const (
	noteLink       = "This file is a symbolic link, which brenner-ci never follows; it is not checked."
	noteHiddenFile = `This file's name starts with ".", and brenner-ci does not read hidden files it finds in a folder; it is not checked.`
	noteHiddenDir  = `This folder's name starts with ".", and brenner-ci does not walk hidden folders; nothing in it is checked.`
	noteIgnored    = "This %s is ignored by the repository (.gitignore), so it is not checked."
	hintIgnored    = "Check it with --no-gitignore, or name it on the command line."
	noteOutput     = "This %s is an output of brenner-ci (an --out or --cache folder, or a report file), and output is never read as input; it is not checked."
	noteAttach     = "This folder holds the attachments of an Agent Mail archive project (images, manifests, audit logs), which are not thread exports; nothing in it is checked."
	noteReserve    = "This folder holds the file reservations of an Agent Mail archive project, which are not thread exports; nothing in it is checked."
	noteDigests    = "This folder holds the per-thread digests of an Agent Mail archive project: Markdown summaries, cut short, of the messages/ files, which are checked instead; its Markdown files are not checked (a JSON export or an archive message file in it is)."

	hintDefault = "Remove it from the checked paths, or replace it with the file it stands for."
	hintHidden  = `Rename it without the leading ".", or name it on the command line, to have it checked.`
	hintOutput  = "Keep thread exports out of the output folders, or write the reports elsewhere."
	hintArchive = "Nothing to do: keep thread exports out of this folder, where they would not be checked."
)

// ConfigFiles are the names of brenner-ci's configuration file
// (internal/config.FileNames): a walk passes over it in silence, as it is
// read as the configuration, not as an input.
var ConfigFiles = [...]string{".brenner-ci.yaml", ".brenner-ci.yml"}

// walker lists the inputs of a run: the files to read, and an entry for
// everything it does not read, which the scan names (IN-006).
type walker struct {
	out  []inFile
	seen map[string]bool // absolute paths listed, walked or named
	// notRead are the absolute paths a walk names and does not read:
	// brenner-ci's own output, what the repository ignores (.gitignore).
	notRead map[string]reason
}

// reason is why a walk does not read an entry: a note whose %s is "file"
// or "folder", and a hint.
type reason struct{ note, hint string }

// dirCtx is what a folder's place in an archive says of what is inside.
type dirCtx struct {
	copyOf string // under agents/<name>/inbox|outbox: the matching folder of messages/ (absolute, slash separated)
	digest bool   // under messages/threads
}

// note lists an entry that is not read, named once.
func (w *walker) note(disp, abs, msg, hint string) {
	if w.seen[abs] {
		return
	}
	w.seen[abs] = true
	w.out = append(w.out, inFile{disp: disp, skip: msg, skipHint: hint})
}

// skipped names an entry that is brenner-ci's output, ignored by the
// repository or a symbolic link, and reports whether it did.
func (w *walker) skipped(disp, abs string, mode fs.FileMode) bool {
	switch {
	case len(w.notRead) > 0 && w.notRead[abs] != reason{}:
		what, why := "file", w.notRead[abs]
		if mode.IsDir() {
			what = "folder"
		}
		w.note(disp, abs, fmt.Sprintf(why.note, what), why.hint)
	case mode&fs.ModeSymlink != 0:
		// Never followed, so a walk never leaves the tree; said, not silent.
		w.note(disp, abs, noteLink, hintDefault)
	default:
		return false
	}
	return true
}

// dir lists the files under a folder in byte-wise order of names. Only
// .git is passed over in silence; every other entry is listed or named.
func (w *walker) dir(osDir, disp, abs string, c dirCtx) {
	if w.seen[abs] {
		return
	}
	w.seen[abs] = true
	ents, err := os.ReadDir(osDir) // sorted by name
	if err != nil {
		w.out = append(w.out, inFile{disp: disp, osPath: osDir, dirErr: err})
	}
	project, files := false, 0
	for _, e := range ents {
		if e.IsDir() && (e.Name() == "messages" || e.Name() == "agents") {
			project = true
		}
		if !e.IsDir() {
			files++
		}
	}
	// Room for the folder's files at once: a folder of 10,000 threads
	// grew the list (250 bytes an entry) fourteen times, nearly 1% of a
	// check.
	w.out = slices.Grow(w.out, files)
	base := path.Base(abs)
	parent := path.Base(path.Dir(abs))
	pl := placeOf(abs) // every file's (newInFile)
	// A name joined to a clean folder path is clean already: the join
	// without filepath.Join's cleaning (a fifth of listing 10,000 files).
	// ReadDir's names hold no separator and are never "." or "..".
	sep := string(filepath.Separator)
	cleanDir := osDir != "." && osDir == filepath.Clean(osDir) && !strings.HasSuffix(osDir, sep)
	for _, e := range ents {
		name := e.Name()
		if name == ".git" || (name == ConfigFiles[0] || name == ConfigFiles[1]) && !e.IsDir() {
			// The repository's own data (a folder, or a worktree's file),
			// and the configuration, which is read as such.
			continue
		}
		// Each path made once when it reads like another (a walk of an
		// absolute path, or of "."): a nightly audit lists every file
		// before reading one, and three copies of each name were a
		// quarter of the listing's memory.
		childOS := osDir + sep + name
		if !cleanDir {
			childOS = filepath.Join(osDir, name)
		}
		childDisp := sameOr(disp == osDir, childOS, func() string { return path.Join(disp, name) })
		childAbs := sameOr(abs == disp, childDisp, func() string { return path.Join(abs, name) })
		if w.skipped(childDisp, childAbs, e.Type()) {
			continue
		}
		if strings.HasPrefix(name, ".") {
			if e.IsDir() {
				w.note(childDisp, childAbs, noteHiddenDir, hintHidden)
			} else {
				w.note(childDisp, childAbs, noteHiddenFile, hintHidden)
			}
			continue
		}
		if e.IsDir() {
			cc := dirCtx{digest: c.digest}
			if c.copyOf != "" {
				cc.copyOf = path.Join(c.copyOf, name)
			}
			switch {
			case project && name == "attachments":
				w.note(childDisp, childAbs, noteAttach, hintArchive)
				continue
			case project && name == "file_reservations":
				w.note(childDisp, childAbs, noteReserve, hintArchive)
				continue
			case base == "messages" && name == "threads":
				// Digests are lossy, never messages; the folder is named
				// once, and whatever in it is not a digest is read.
				w.out = append(w.out, inFile{disp: childDisp, skip: noteDigests, skipHint: hintArchive})
				cc.digest = true
			case parent == "agents" && (name == "inbox" || name == "outbox"):
				// Copies of messages/ files, compared with them (dropCopies).
				cc.copyOf = path.Join(path.Dir(path.Dir(abs)), "messages")
			}
			w.dir(childOS, childDisp, childAbs, cc)
			continue
		}
		if w.seen[childAbs] {
			continue
		}
		if !e.Type().IsRegular() {
			w.out = append(w.out, inFile{disp: childDisp, skip: "This file is a special file (" + specialKind(e.Type()) + "), which brenner-ci never reads; it is not checked.", skipHint: hintDefault})
			continue
		}
		w.seen[childAbs] = true
		f := pl.file(childOS, childDisp, childAbs, name, false)
		switch {
		case c.copyOf != "":
			f.copyOf = path.Join(c.copyOf, name)
		case c.digest:
			f.role = roleDigest
		case project && name == "project.json":
			f.role = roleProject
		}
		w.out = append(w.out, f)
	}
}

// sameOr returns s when same, else make(): the joins of equal folders with
// one name are equal, so one string serves both (filepath.Join and
// path.Join agree only where "/" is the separator).
func sameOr(same bool, s string, make func() string) string {
	if same && filepath.Separator == '/' {
		return s
	}
	return make()
}

// dropCopies removes the archive copies (agents/<name>/inbox|outbox files)
// whose bytes are those of their messages/ original when that original is
// an input too: the original is checked, and the copy would only repeat
// it, so it gets no finding at all. A copy that differs, or whose original
// is missing or not among the inputs, stays an input and is checked. Each
// copy is compared once, in parallel; only archives have copies.
func dropCopies(files []inFile, jobs int, maxBytes int64) []inFile {
	var copies []int
	for i := range files {
		if files[i].copyOf != "" {
			copies = append(copies, i)
		}
	}
	if len(copies) == 0 {
		return files
	}
	listed := make(map[string]bool, len(files))
	for i := range files {
		if f := &files[i]; f.abs != "" && f.copyOf == "" {
			listed[f.abs] = true
		}
	}
	same := make([]bool, len(copies))
	iter.Iterator[int]{MaxGoroutines: jobs}.ForEachIdx(copies, func(k int, i *int) {
		f := &files[*i]
		same[k] = listed[f.copyOf] && sameBytes(f.osPath, filepath.FromSlash(f.copyOf), maxBytes)
	})
	out := files[:0]
	k := 0
	for i := range files {
		if k < len(copies) && copies[k] == i {
			k++
			if same[k-1] {
				continue
			}
		}
		out = append(out, files[i])
	}
	return out
}

// sameBytes reports whether regular files a and b (neither a link) hold
// the same bytes, at most max of them, read in pieces.
func sameBytes(a, b string, max int64) bool {
	sa, err := os.Lstat(a)
	if err != nil || !sa.Mode().IsRegular() {
		return false
	}
	sb, err := os.Lstat(b)
	if err != nil || !sb.Mode().IsRegular() || sa.Size() != sb.Size() || sa.Size() > max {
		return false
	}
	fa, err := openInput(a)
	if err != nil {
		return false
	}
	defer fa.Close()
	fb, err := openInput(b)
	if err != nil {
		return false
	}
	defer fb.Close()
	n := int(min(sa.Size()+1, 64<<10))
	ba, bb := make([]byte, n), make([]byte, n)
	for {
		na, ea := io.ReadFull(fa, ba)
		nb, eb := io.ReadFull(fb, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false
		}
		if ea != nil || eb != nil {
			return ea == eb && (ea == io.EOF || ea == io.ErrUnexpectedEOF)
		}
	}
}

// rec is a message found by Scan plus what merge needs to know about it.
type rec struct {
	m *Message
	recInfo
}

// recInfo is a record without its message. The scanner hands a message
// and its recInfo to the packer apart: a pointer to the message in a
// struct that the packer reads strings from would make the message
// escape to the heap.
type recInfo struct {
	tsPos     diag.Pos  // position of the timestamp value (or of the message)
	tsKey     string    // created_ts / created / "" (file-name stamp or missing)
	tsIssue   string    // "" when the timestamp is valid
	bodyIssue string    // "" when body_md is a string
	meta      uint64    // hash of thread key, subject, sender and instant
	eff       time.Time // instant used for ordering
	ref, src  msgRef    // where merge found it packed, and where its bytes are (another copy of it with a body)
}

type fileResult struct {
	disp     string
	recs     []*rec   // scanned, not packed yet
	refs     []msgRef // the records packed
	keys     []uint32 // aligned with refs: the index of each record's thread key among its pack's shared strings
	pk       *packer  // packing the file's records (scanFile), or nil (scanRecs)
	sum      string   // a hash of the file's bytes (and path) by a scan cache, or its known id (inFile.sum), or ""
	findings []diag.Finding
	agents   []string
	markdown bool
	artifact bool // a JSON artifact object {metadata, sections}
	read     bool
	lines    diag.Lines // the file's lines, when counted is set: it was read whole
	counted  bool
	unpacked *unpacked  // what its records kept unpacked are made of, until recycle
	early    *ThreadRef // the file's thread, checked during the scan (Early), or nil
	earlyKey string     // its thread key
	rescan   bool       // the early check gave up: scan the file again
}

// unpacked is what a file's records kept unpacked (newRec) are made of,
// while the file is scanned and checked: a fileResult lives until the
// merge, every file's at once (200,000 in a nightly audit), so it holds
// only a pointer to this, which recycle lets go.
type unpacked struct {
	recArr []rec               // where newRec takes records from
	msgArr []Message           // and their messages
	arrays []*recArrays        // the pairs they were taken from (recycle)
	slots  *[]loadSlot         // the load slots of the file's thread checked early (recycle)
	names  chunk.Chunk[string] // where the kept records' recipient lists are (ownList)
}

// unp returns the file's unpacked parts, made when first needed.
func (res *fileResult) unp() *unpacked {
	if res.unpacked == nil {
		res.unpacked = unpackedPool.Get().(*unpacked)
	}
	return res.unpacked
}

// scanner holds the per-worker buffers used while reading one file.
type scanner struct {
	f      *inFile
	res    *fileResult
	p      jparser
	lm     diag.LineIndex
	dec    []byte
	intern map[string]string
	br     *bufio.Reader
	line   []byte
	fbuf   []byte      // file contents, reused (nothing retains it after the file is scanned, but an early check past its budget: see Early)
	whole  []byte      // the file's contents when it was read whole as one JSON document (fbuf), for an early check
	open   inputFile   // with hold: the file, kept open until the early check is decided
	hold   bool        // an early check follows the scan of the file (Early)
	lists  [3][]string // a message's to, cc and bcc until it is packed (recipients)
	// tooLarge is the file's size when it is over the limit: only JSON
	// Lines are read then, a line at a time, each line within the limit.
	tooLarge int64
	longLine bool      // the line readLine returned was cut: it is over the limit
	lineLen  int64     // the length in the file of the line readLine returned
	pos      int64     // the file offset of the next line readLine reads
	fh       inputFile // the file being read
}

var scannerPool = sync.Pool{New: func() any {
	return &scanner{intern: map[string]string{}, br: bufio.NewReaderSize(nil, 64<<10)}
}}

func scanFile(f *inFile) *fileResult {
	res := scan(f, true, nil)
	packRecs(res)
	return res
}

// scanRecs reads one file into records, none packed.
func scanRecs(f *inFile) *fileResult { return scan(f, false, nil) }

// scan reads one file into records, packed as they are read when pack is
// set. With e, the records are not packed while the file is read: its
// thread is checked at once when it can be (scanner.early), else they are
// packed then.
func scan(f *inFile, pack bool, e *Early) *fileResult {
	s := scannerPool.Get().(*scanner)
	s.f = f
	s.p.MaxDepth = f.maxDepth
	s.res = &fileResult{disp: f.disp}
	if pack {
		s.res.pk = packerPool.Get().(*packer)
		s.res.pk.reset()
	}
	res := s.res
	s.hold = e != nil
	s.run()
	if e != nil {
		if s.early(e) {
			if s.open != nil {
				s.open.Close()
			}
		} else {
			res.flush()
			if s.open != nil {
				s.keepOrClose(s.open)
			}
		}
		s.open, s.whole, s.hold = nil, nil, false
	}
	if res.read {
		res.sum = f.sum // a scan cache's own hash replaces it (scanCached)
	}
	clear(s.intern)
	for i := range s.lists {
		clear(s.lists[i][:cap(s.lists[i])]) // no file's names kept alive by the pool
	}
	s.f, s.res, s.tooLarge, s.longLine = nil, nil, 0, false
	s.br.Reset(nil)
	if cap(s.line) > 1<<20 {
		s.line = nil
	}
	if cap(s.dec) > 1<<20 {
		s.dec = nil
	}
	if cap(s.fbuf) > 16<<20 {
		s.fbuf = nil
	}
	if cap(s.p.Nodes) > 1<<16 {
		s.p.Nodes = nil
	}
	s.lm.Reset(nil)
	scannerPool.Put(s)
	return res
}

// keepOrClose keeps the scanned file open for the Load of its JSON
// records (packed.file), when it has some and the budget of kept files
// allows; else it closes it.
func (s *scanner) keepOrClose(fh inputFile) {
	if pk := s.res.pk; pk != nil && pk.p != nil && pk.p.preads {
		if pk.p.file = keep(fh); pk.p.file != nil {
			return
		}
	}
	fh.Close()
}

// done keeps or closes the scanned file (keepOrClose), or leaves it open
// in s.open when an early check follows (scan).
func (s *scanner) done(fh inputFile) {
	if s.hold {
		s.open = fh
		return
	}
	s.keepOrClose(fh)
}

func (s *scanner) run() {
	f := s.f
	if diag.HasControl(f.disp) {
		s.res.findings = append(s.res.findings, diag.Finding{Rule: ruleid.IN013, Code: "UNSAFE_FILE_NAME", Severity: diag.Warning,
			Message: "This file's path holds control characters, invisible (bidirectional) characters or invalid UTF-8: reports show them escaped, and code scanning cannot place findings in it.",
			Hint:    "Rename the file with printable characters only.",
			Pos:     diag.Pos{File: f.disp}, Anchor: f.disp + " unsafe name"})
	}
	if f.skip != "" {
		s.note(f.skip, f.skipHint, "skipped")
		return
	}
	// A special file (a FIFO would block the run forever, a device could
	// be endless) is never opened, even when named on the command line.
	st := f.st
	if !st.done {
		f.stat()
		st = f.st
	}
	if st.err == nil && !st.mode.IsRegular() && !st.mode.IsDir() {
		s.fileIssue(diag.Pos{}, "special", fmt.Sprintf("Input %s is a special file (%s); brenner-ci reads only regular files.", f.disp, specialKind(st.mode.Type())),
			"Name the export files or their folder, not a pipe or a device.")
		return
	} else if st.err == nil && f.maxBytes > 0 && st.size > f.maxBytes {
		// Too large to hold in memory — unless it turns out to be JSON
		// Lines, which is read one line at a time (see json).
		s.tooLarge = st.size
	}
	if f.dirErr != nil {
		s.fileIssue(diag.Pos{}, "dir", fmt.Sprintf("Directory %s cannot be read: %v.", f.disp, PlainErr(f.dirErr)),
			"Check the directory's permissions.")
		return
	}
	fh, err := openInput(f.osPath)
	if err != nil {
		s.fileIssue(diag.Pos{}, "open", fmt.Sprintf("Input file %s cannot be read: %v.", f.disp, PlainErr(err)),
			"Check that the file exists and is readable.")
		return
	}
	defer s.done(fh)
	s.fh, s.pos = fh, 0
	defer func() { s.fh = nil }()
	var size int64 // the size stat gave before the file was opened (a hint: the file is read to its end)
	if st.err == nil {
		size = st.size
	}
	s.res.read = true
	s.br.Reset(&sizedReader{r: fh, left: size})
	head, err := s.br.Peek(512)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		s.fileIssue(diag.Pos{}, "read", fmt.Sprintf("Input file %s cannot be read: %v.", f.disp, PlainErr(err)),
			"Check that the file is readable.")
		return
	}
	kind := sniff(head)
	if s.tooLarge > 0 && (kind != sniffJSON || f.role == roleProfile) {
		s.fileTooLarge()
		return
	}
	switch kind {
	case sniffEmpty:
		switch {
		case f.explicit || hasExt(f.disp, ".json", ".jsonl", ".ndjson"):
			s.fileIssue(diag.Pos{}, "empty", fmt.Sprintf("Input file %s is empty.", f.disp),
				"Re-export the thread; an export always holds at least one JSON value.")
		case IsArtifactPath(f.disp):
			// An emptied artifacts/<thread_id>.md is not skipped: the
			// engine reports it and still compares its thread (DR-003).
			s.res.markdown = true
		case f.role == roleDigest:
			// a digest: its folder's note names it
		case hasExt(f.disp, ".md", ".markdown"):
			s.skipNote("is empty")
		}
	case sniffBinary:
		if bytes.HasPrefix(head, []byte("\xFF\xFE")) || bytes.HasPrefix(head, []byte("\xFE\xFF")) {
			data, err := s.readAll(size)
			if err != nil {
				s.fileIssue(diag.Pos{}, "read", fmt.Sprintf("Input file %s cannot be read: %v.", f.disp, PlainErr(err)), "")
				return
			}
			s.utf16(data)
			return
		}
		why := "holds NUL bytes in its first 512 bytes (binary data)"
		if f.explicit || hasExt(f.disp, ".json", ".jsonl", ".ndjson", ".md", ".markdown") {
			s.fileIssue(diag.Pos{}, "binary", fmt.Sprintf("Input file %s %s.", f.disp, why), "Give brenner-ci UTF-8 JSON exports.")
		} else {
			s.skipNote(why)
		}
	case sniffArchive:
		data, err := s.readAll(size)
		if err != nil {
			s.fileIssue(diag.Pos{}, "read", fmt.Sprintf("Input file %s cannot be read: %v.", f.disp, PlainErr(err)), "")
			return
		}
		s.archive(data)
	case sniffJSON:
		if f.role == roleProfile {
			data, err := s.readAll(size)
			if err != nil {
				s.fileIssue(diag.Pos{}, "read", fmt.Sprintf("Input file %s cannot be read: %v.", f.disp, PlainErr(err)), "")
				return
			}
			s.profile(data)
			return
		}
		s.json(size)
	default:
		switch {
		case f.role == roleArchiveMsg:
			s.fileIssue(diag.Pos{Line: 1}, "frontmatter", fmt.Sprintf("Archive message file %s does not start with a ---json front-matter line.", f.disp),
				"An Agent Mail archive message is the line ---json, a JSON object, the line ---, a blank line and the body; restore the file from the archive.")
		case hasExt(f.disp, ".json", ".jsonl", ".ndjson"):
			// Named like JSON: read as JSON (a bare number, string or
			// literal is JSON of no export shape; anything else is a
			// syntax error), never passed over.
			s.json(size)
		case f.role == roleDigest:
			// a digest: its folder's note names it
		case hasExt(f.disp, ".md", ".markdown"):
			s.res.markdown = true
		case f.explicit:
			what := "is not JSON"
			hint := "Give brenner-ci Agent Mail exports: thread JSON, a message array, JSON Lines, an MCP response, or an archive folder."
			switch {
			case bytes.HasPrefix(head, []byte("SQLite format 3\x00")):
				what = "is a SQLite database, which brenner-ci does not read"
				hint = "Export the threads as JSON (resource://thread/{id}?include_bodies=true) or point brenner-ci at the Git archive folder."
			case bytes.HasPrefix(head, []byte("PK\x03\x04")):
				what = "is a zip file, which brenner-ci does not read"
				hint = "Unzip it and give brenner-ci the storage_repo/ archive folder or the JSON exports inside."
			}
			s.fileIssue(diag.Pos{}, "not-json", fmt.Sprintf("Input file %s %s.", f.disp, what), hint)
		}
	}
}

// fileTooLarge reports a file over the size limit that is not read (IN-009).
func (s *scanner) fileTooLarge() {
	f := s.f
	s.res.findings = append(s.res.findings, diag.Finding{Rule: ruleid.IN009, Code: "INPUT_TOO_LARGE", Severity: diag.Error,
		Message: fmt.Sprintf("Input file is %d bytes, over the limit of %d, and is not JSON Lines (which is read a line at a time); it is not read.", s.tooLarge, f.maxBytes),
		Hint:    "Split the export, export it as JSON Lines, or raise limits: file-bytes in .brenner-ci.yaml.",
		Pos:     diag.Pos{File: f.disp}, Anchor: f.disp + " too large"})
}

type sniffKind uint8

const (
	sniffEmpty sniffKind = iota
	sniffJSON
	sniffArchive
	sniffText
	sniffBinary
)

func sniff(head []byte) sniffKind {
	b := bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF"))
	if bytes.IndexByte(b, 0) >= 0 {
		return sniffBinary
	}
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	if i == len(b) {
		return sniffEmpty
	}
	switch b[i] {
	case '{', '[':
		return sniffJSON
	}
	// archive front matter: the first non-blank line is ---json
	line := b[i:]
	if j := bytes.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	if string(bytes.TrimRight(line, " \t\r")) == "---json" && (i == 0 || b[i-1] == '\n') {
		return sniffArchive
	}
	return sniffText
}

func hasExt(name string, exts ...string) bool {
	e := strings.ToLower(path.Ext(name))
	for _, x := range exts {
		if e == x {
			return true
		}
	}
	return false
}

// sizedReader reads a regular file whose size stat gave. A read that
// returns less than it was asked for, with exactly that size read in all,
// has met the end of the file: it returns io.EOF with its bytes, and the
// read that would only have said so is not made. (Each system call costs
// microseconds on the CI machine class; that read was one of the three
// per file.) A file that has grown or shrunk since the stat is read to
// its end as before.
type sizedReader struct {
	r    io.Reader
	left int64 // the stat's size less what was read
}

func (z *sizedReader) Read(p []byte) (int, error) {
	n, err := z.r.Read(p)
	z.left -= int64(n)
	if err == nil && n < len(p) && z.left == 0 {
		err = io.EOF
	}
	return n, err
}

// readRest appends everything left in r to buf (which already holds what
// was read before); size is the file size, to allocate once.
func readRest(r io.Reader, buf []byte, size int64) ([]byte, error) {
	if need := int(size) + 512; cap(buf) < need {
		nb := make([]byte, len(buf), need)
		copy(nb, buf)
		buf = nb
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		k, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// readAll reads the rest of the file into the scanner's reusable buffer.
func (s *scanner) readAll(size int64) ([]byte, error) {
	data, err := readRest(s.br, s.fbuf[:0], size)
	s.fbuf = data
	return data, err
}

// PlainErr drops the path from *fs.PathError, which a message naming the
// file already shows ("Input file x.json cannot be read: is a directory.").
func PlainErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ---------------------------------------------------------------------------
// Findings

func (s *scanner) fileIssue(pos diag.Pos, tag, msg, hint string) {
	pos.File = s.f.disp
	s.res.findings = append(s.res.findings, diag.Finding{
		Rule: ruleid.IN001, Code: "UNREADABLE_INPUT", Severity: diag.Error,
		Message: msg, Hint: hint, Pos: pos.Normalize(),
		Anchor: s.f.disp + " " + tag,
	})
}

// syntaxIssue reports invalid JSON with jsonv's explanation, worded as for
// every other JSON input.
func (s *scanner) syntaxIssue(d *jdoc, se *jsonv.SyntaxError, what string) {
	msg := fmt.Sprintf("%s is not valid JSON: %s.", what, se.Error())
	hint := "Fix the JSON or export it again."
	switch {
	case se.EOF:
		hint = "The export was cut off; export the thread again."
	case eventStream(d.src):
		hint = "This is a Server-Sent Events stream (text/event-stream), as an MCP server streams a response; brenner-ci reads the response itself: save the JSON-RPC message of its data: line as the file."
	}
	s.fileIssue(d.span(se.Off, se.Off), "syntax "+se.Msg, msg, hint)
}

// eventStream reports whether src begins as a Server-Sent Events stream:
// its first line that is not blank is an "event:", "data:", "id:" or
// "retry:" field or a ":" comment.
func eventStream(src []byte) bool {
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		for _, f := range []string{"event:", "data:", "id:", "retry:", ":"} {
			if bytes.HasPrefix(line, []byte(f)) {
				return true
			}
		}
		return false
	}
	return false
}

// skipNote says why a file found by a walk is not read (IN-006): nothing
// the walk sees is skipped silently.
func (s *scanner) skipNote(why string) {
	s.note(fmt.Sprintf("This file %s; it is not checked.", why), hintDefault, "skipped")
}

// note is an IN-006 note at the file or folder: what in it is not checked.
func (s *scanner) note(msg, hint, tag string) {
	s.res.findings = append(s.res.findings, diag.Finding{
		Rule: ruleid.IN006, Code: "SKIPPED_INPUT", Severity: diag.Note,
		Message: msg, Hint: hint,
		Pos: diag.Pos{File: s.f.disp}, Anchor: s.f.disp + " " + tag,
	})
}

// specialKind names the kind of a non-regular file.
func specialKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}

// utf16 reads an export written in UTF-16 with a byte order mark: it is
// decoded to UTF-8 and read like JSON held in memory. Positions inside it
// are approximated by the file's first line (the file's bytes are not the
// decoded text's), and a note says so.
func (s *scanner) utf16(data []byte) {
	text := decodeUTF16(data)
	i := 0
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n') {
		i++
	}
	at := diag.Pos{File: s.f.disp, Line: 1, Col: 1}.Normalize()
	if i == len(text) || (text[i] != '{' && text[i] != '[') {
		s.fileIssue(at, "utf16-not-json", fmt.Sprintf("Input file %s is UTF-16 text that is not JSON.", s.f.disp), "Give brenner-ci Agent Mail exports.")
		return
	}
	p := jparser{jsonv.Scanner{MaxDepth: s.f.maxDepth}}
	root, err := p.parse(text, 0, len(text))
	if err != nil {
		se := err.(*jsonv.SyntaxError)
		s.fileIssue(at, "utf16-syntax "+se.Msg, fmt.Sprintf("Input file %s (UTF-16) is not valid JSON at byte %d of its UTF-8 text: %s.", s.f.disp, se.Off, se.Error()), "Re-export the thread as UTF-8 JSON.")
		return
	}
	s.res.findings = append(s.res.findings, diag.Finding{
		Rule: ruleid.IN006, Code: "SKIPPED_INPUT", Severity: diag.Note,
		Message: "This file is UTF-16; it was decoded and checked, but positions inside it are given as its first line.",
		Hint:    "Re-export it as UTF-8 for exact positions.", Pos: at, Anchor: s.f.disp + " utf16"})
	inner := &jdoc{src: text, nodes: p.Nodes, buf: &s.dec, mem: text, approx: at, file: s.f.disp}
	nf := len(s.res.findings)
	if s.shape(inner, root, ctx{}) {
		s.emptyExport(nf)
	} else {
		s.unknownShape(inner, root)
	}
}

// decodeUTF16 decodes UTF-16 with a byte order mark to UTF-8 (an odd last
// byte is dropped; unpaired surrogates become U+FFFD).
func decodeUTF16(data []byte) []byte {
	bigEndian := data[0] == 0xFE
	data = data[2:]
	u := make([]uint16, len(data)/2)
	for i := range u {
		if bigEndian {
			u[i] = uint16(data[2*i])<<8 | uint16(data[2*i+1])
		} else {
			u[i] = uint16(data[2*i+1])<<8 | uint16(data[2*i])
		}
	}
	return []byte(string(utf16.Decode(u)))
}

// IsArtifactPath reports whether path is where the protocol persists an
// artifact: artifacts/<name>.md or artifacts/<name>/artifact.md (slash or
// OS separators). Whether <name> is a thread id is for the caller to say.
func IsArtifactPath(path string) bool {
	p := strings.ReplaceAll(path, "\\", "/")
	dir, base := "", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, base = p[:i], p[i+1:]
	}
	parent := func(d string) string {
		if i := strings.LastIndexByte(d, '/'); i >= 0 {
			return d[i+1:]
		}
		return d
	}
	switch {
	case base == "artifact.md":
		if i := strings.LastIndexByte(dir, '/'); i >= 0 {
			return parent(dir[:i]) == "artifacts"
		}
		return false
	case strings.HasSuffix(base, ".md") && len(base) > len(".md"):
		return parent(dir) == "artifacts"
	}
	return false
}
