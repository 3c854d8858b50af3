package reporters

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/diag"
)

// Paths resolves the paths of findings (Pos.File, as given on the command
// line) against the repository root, so that every format writes the same
// repo-relative, slash-separated paths. It caches what it learns; it is safe
// for concurrent use.
type Paths struct {
	given    string // the repository root as NewPaths was given it
	root     string // absolute, cleaned repository root
	rootReal string // root with symbolic links resolved
	// wd is the working directory when the Paths was made ("" if it
	// could not be read), which relative finding paths are resolved
	// against. filepath.Abs asks for it on every call, and os.Getwd
	// stats two folders a call: two system calls per input file, 20,000
	// of a 10,000-thread check's 30,000 stats.
	wd    string
	mu    sync.Mutex
	rel   map[string]relInfo
	files map[string]*FileInfo
	dirs  map[string]dirInfo    // evalSymlinks' cache of folders
	read  map[string]diag.Lines // the lines of files the run read whole (diag.Report.Lines)
}

type dirInfo struct {
	real string
	err  error
}

type relInfo struct {
	rel string
	ok  bool
	// shown is rel as a report may show it: rel with its credentials
	// redacted (diag.RedactSecrets), "" when rel holds none.
	shown string
}

// FileInfo is what Paths.File learns about one finding path.
type FileInfo struct {
	// Rel is the slash-separated path relative to the repository root, with
	// symbolic links resolved ("" when the path is empty or outside the root).
	Rel string
	// OK is true when the path names an existing regular file inside the
	// repository root, i.e. it can be a SARIF result location.
	OK bool
	// Reason says why OK is false.
	Reason string
	// Lines are the file's lines (diag.CountLines): how many, and the
	// code-point column just after the last one's last character.
	Lines diag.Lines
}

// NewPaths returns a resolver for repoRoot. An empty repoRoot means the
// current directory. Relative finding paths are resolved against the current
// directory, as the command line gave them.
func NewPaths(repoRoot string) *Paths {
	if repoRoot == "" {
		repoRoot = "."
	}
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		root = filepath.Clean(repoRoot)
	}
	real := root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		real = r
	}
	wd, _ := os.Getwd() // "" when it cannot be read: relative paths are then not resolved
	return &Paths{given: repoRoot, root: root, rootReal: real, wd: wd, rel: map[string]relInfo{}, files: map[string]*FileInfo{}, dirs: map[string]dirInfo{}}
}

// Root returns the absolute repository root with symbolic links resolved.
func (p *Paths) Root() string { return p.rootReal }

// RootURI returns the file URI of the repository root with a trailing slash
// (SARIF originalUriBaseIds %SRCROOT%), e.g. "file:///home/runner/work/r/r/".
func (p *Paths) RootURI() string {
	s := filepath.ToSlash(diag.RedactSecrets(p.rootReal))
	if !strings.HasPrefix(s, "/") {
		s = "/" + s // Windows drive letter: file:///C:/...
	}
	if !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return "file://" + EscapePath(s)
}

// Rel returns file relative to the repository root, slash separated, with
// no "./" and with symbolic links resolved when the file exists. ok is false
// when file is empty, names the root itself, or lies outside the root.
//
// A file or folder name can hold a credential, and Rel, Display, File and
// RootURI are where every report takes its paths from: a path that holds
// one is only ever given out redacted (diag.RedactSecrets), and Rel and File
// say it cannot be located (ok, OK false), so no link or code scanning
// result points at it.
func (p *Paths) Rel(file string) (rel string, ok bool) {
	ri := p.relInfo(file)
	if ri.shown != "" {
		return ri.shown, false
	}
	return ri.rel, ri.ok
}

// relInfo is what Rel learns of file, cached.
func (p *Paths) relInfo(file string) relInfo {
	if file == "" {
		return relInfo{}
	}
	p.mu.Lock()
	if ri, hit := p.rel[file]; hit {
		p.mu.Unlock()
		return ri
	}
	p.mu.Unlock()
	ri := relInfo{}
	ri.rel, ri.ok = p.computeRel(file)
	if ri.ok {
		if shown := diag.RedactSecrets(ri.rel); shown != ri.rel {
			ri.shown = shown
		}
	}
	p.mu.Lock()
	p.rel[file] = ri
	p.mu.Unlock()
	return ri
}

func (p *Paths) computeRel(file string) (string, bool) {
	abs, ok := p.abs(filepath.FromSlash(file))
	if !ok {
		return "", false
	}
	if relShortcut && p.root == p.rootReal && p.linkFree(abs) {
		// No folder on the way to abs is a link: an existing file's
		// real path is abs, a missing one is placed lexically, and both
		// answer under(root, abs) (the file itself is never followed).
		return under(p.root, abs)
	}
	if real, err := p.evalSymlinks(abs); err == nil {
		if r, ok := under(p.rootReal, real); ok {
			return r, true
		}
		// A path through a folder link that leads outside the
		// repository: GitHub cannot show it, and the target is not in
		// the checkout.
		return "", false
	}
	// The file does not exist: decide lexically.
	for _, root := range []string{p.root, p.rootReal} {
		if r, ok := under(root, abs); ok {
			return r, true
		}
	}
	return "", false
}

// abs is filepath.Abs(path) against the working directory p was made in.
func (p *Paths) abs(path string) (string, bool) {
	if filepath.IsAbs(path) {
		return filepath.Clean(path), true
	}
	if p.wd == "" {
		return "", false
	}
	return filepath.Join(p.wd, path), true
}

// relShortcut enables linkFree's shortcut in computeRel (a test compares
// the answers with and without it).
var relShortcut = true

// linkFree reports whether the folder that holds the cleaned absolute path
// abs is its own real path (no link on the way to it). It is cached with
// evalSymlinks' folders: a report names every input file, and checking
// that each one exists cost a system call per file for the same answer.
func (p *Paths) linkFree(abs string) bool {
	dir, base := filepath.Split(abs)
	if base == "" || runtime.GOOS == "windows" {
		return false
	}
	d := p.dir(dir)
	return d.err == nil && d.real == filepath.Clean(dir)
}

// dir is filepath.EvalSymlinks(dir), cached.
func (p *Paths) dir(dir string) dirInfo {
	p.mu.Lock()
	d, ok := p.dirs[dir]
	p.mu.Unlock()
	if !ok {
		d.real, d.err = filepath.EvalSymlinks(dir)
		p.mu.Lock()
		p.dirs[dir] = d
		p.mu.Unlock()
	}
	return d
}

// evalSymlinks is filepath.EvalSymlinks for the folders of a cleaned
// absolute path, resolving each folder once: a report names thousands of
// files in a few folders, and resolving every path component of every file
// was a tenth of a cached run. A last component that is a symbolic link is
// not followed: brenner-ci never reads through one, so a finding at a link
// is about the link, and is reported at the link's own path. (On Windows,
// where EvalSymlinks also normalises case, a path that is not a link takes
// the full call.)
func (p *Paths) evalSymlinks(abs string) (string, error) {
	dir, base := filepath.Split(abs)
	if base == "" {
		return filepath.EvalSymlinks(abs)
	}
	if runtime.GOOS == "windows" {
		if st, err := os.Lstat(abs); err != nil || st.Mode()&os.ModeSymlink == 0 {
			return filepath.EvalSymlinks(abs)
		}
	}
	d := p.dir(dir)
	if d.err != nil {
		return "", d.err
	}
	full := filepath.Join(d.real, base)
	if _, err := os.Lstat(full); err != nil {
		return "", err
	}
	return full, nil
}

// under returns path relative to root (slash separated) when it lies
// strictly inside root.
func under(root, path string) (string, bool) {
	r, err := filepath.Rel(root, path)
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// Display returns the path to show for file: repo-relative when it lies
// inside the repository root, else file as given; credentials redacted.
func (p *Paths) Display(file string) string {
	switch ri := p.relInfo(file); {
	case ri.shown != "":
		return ri.shown
	case ri.ok:
		return ri.rel
	}
	return diag.RedactSecrets(file)
}

// File reports whether file can be a SARIF result location (an existing
// regular file inside the repository root, not reached through a symbolic
// link that leaves it) and, when it can, how many lines it has. A file the
// run read whole as input is not read again (diag.Report.Lines); another
// is read once. The answer is cached.
func (p *Paths) File(file string) FileInfo {
	p.mu.Lock()
	if fi, hit := p.files[file]; hit {
		p.mu.Unlock()
		return *fi
	}
	p.mu.Unlock()
	fi := p.computeFile(file)
	p.mu.Lock()
	p.files[file] = &fi
	p.mu.Unlock()
	return fi
}

func (p *Paths) computeFile(file string) FileInfo {
	if file == "" {
		return FileInfo{Reason: "it has no file"}
	}
	ri := p.relInfo(file)
	rel := ri.rel
	switch {
	case ri.shown != "":
		return FileInfo{Rel: ri.shown, Reason: "its path holds a credential"}
	case !ri.ok:
		return FileInfo{Reason: "its file is outside the repository root"}
	}
	if n, ok := p.read[file]; ok && n.N > 0 {
		// The run read it as a regular file (scanned inputs are never
		// links), so it exists; reading it again took 5 system calls and
		// a pass over its bytes for each finding's file at the end of a run.
		return FileInfo{Rel: rel, OK: true, Lines: n}
	}
	full := filepath.Join(p.rootReal, filepath.FromSlash(rel))
	st, err := os.Lstat(full)
	switch {
	case err != nil:
		return FileInfo{Rel: rel, Reason: "its file does not exist in the repository"}
	case !st.Mode().IsRegular():
		return FileInfo{Rel: rel, Reason: "its path is not a regular file"}
	}
	f, err := openRead(full, st.Size())
	if err != nil {
		return FileInfo{Rel: rel, Reason: "its file cannot be read: " + err.Error()}
	}
	// Streamed: an input file may be a 1 GB JSON Lines dump.
	lines, lastEnd, err := countLinesFrom(f, 64<<10)
	f.Close()
	if err != nil {
		return FileInfo{Rel: rel, Reason: "its file cannot be read: " + err.Error()}
	}
	if lines == 0 {
		return FileInfo{Rel: rel, Reason: "its file is empty, so no region can point into it"}
	}
	return FileInfo{Rel: rel, OK: true, Lines: diag.Lines{N: lines, LastEnd: lastEnd}}
}

var lineBufs = sync.Pool{New: func() any { return new([]byte) }}

// countLinesFrom is diag.CountLines on a reader, read chunk bytes at a time.
func countLinesFrom(r io.Reader, chunk int) (lines, lastEnd int, err error) {
	bp := lineBufs.Get().(*[]byte)
	defer lineBufs.Put(bp)
	if cap(*bp) < chunk+utf8.UTFMax {
		*bp = make([]byte, chunk+utf8.UTFMax)
	}
	var (
		buf     = (*bp)[:chunk+utf8.UTFMax]
		carry   int  // bytes of an incomplete rune kept at the start of buf
		any     bool // something was read
		cur     int  // runes of the line being read
		curCR   bool // … and whether its last byte is '\r'
		prev    int  // runes of the line the last '\n' ended, without a '\r' before it
		endedNL bool // the last byte read is '\n'
	)
	for {
		n, rerr := io.ReadFull(r, buf[carry:carry+chunk])
		data := buf[:carry+n]
		eof := rerr == io.EOF || rerr == io.ErrUnexpectedEOF
		if rerr != nil && !eof {
			return 0, 0, rerr
		}
		if n > 0 {
			any = true
			endedNL = data[len(data)-1] == '\n'
		}
		cut := len(data)
		if !eof { // keep back a rune split by the chunk boundary
			for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
				if utf8.RuneStart(data[i]) {
					if !utf8.FullRune(data[i:]) {
						cut = i
					}
					break
				}
			}
		}
		// Only the runes of the last two lines matter (the end column of
		// the last line, or of the line before a final "\n"): the lines
		// are counted, the runes of the lines before are not.
		seg := data[:cut]
		if last := bytes.LastIndexByte(seg, '\n'); last < 0 {
			if len(seg) > 0 {
				cur += diag.RuneCount(seg)
				curCR = seg[len(seg)-1] == '\r'
			}
		} else {
			lines += bytes.Count(seg, []byte{'\n'})
			before := seg[:last] // the line the last "\n" ends, from this chunk on
			k := bytes.LastIndexByte(before, '\n')
			part := before[k+1:]
			n, cr := diag.RuneCount(part), len(part) > 0 && part[len(part)-1] == '\r'
			if k < 0 { // the line started in an earlier chunk
				n += cur
				if len(part) == 0 {
					cr = curCR
				}
			}
			prev = n
			if cr {
				prev--
			}
			tail := seg[last+1:]
			cur, curCR = diag.RuneCount(tail), len(tail) > 0 && tail[len(tail)-1] == '\r'
		}
		carry = copy(buf, data[cut:])
		if eof {
			break
		}
	}
	if !any {
		return 0, 1, nil
	}
	if endedNL {
		return lines, prev + 1, nil
	}
	if curCR {
		cur--
	}
	return lines + 1, cur + 1, nil
}

// EscapePath percent-encodes a slash-separated path for use in a URI:
// unreserved characters, "/" and the sub-delimiters other than ":" stay,
// everything else (spaces, "%", "#", "?", ":", non-ASCII bytes) is encoded.
// ":" is encoded so that a relative path never reads as a URI scheme.
func EscapePath(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			strings.IndexByte("-._~/!$&'()*+,;=@", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// Region is a complete, valid region (1-based; end column just after the
// last character) as SARIF and GitHub need it.
type Region struct {
	StartLine, StartColumn, EndLine, EndColumn int
}

// ClampRegion turns a finding position into a complete region that lies
// inside a file of fi.Lines.N lines: a position with no line (the file as a
// whole) becomes line 1, column 1 to 1; missing columns and ends are filled
// in; an end past the last line is moved to the end of the last line.
func ClampRegion(line, col, endLine, endCol int, fi FileInfo) Region {
	if line <= 0 {
		return Region{1, 1, 1, 1}
	}
	if col <= 0 {
		col = 1
	}
	if endLine < line {
		endLine, endCol = line, col
	}
	if endCol <= 0 {
		endCol = col
	}
	if endLine == line && endCol < col {
		endCol = col
	}
	if n := fi.Lines.N; n > 0 {
		if line > n {
			line, col = n, 1
		}
		if endLine > n {
			endLine, endCol = n, fi.Lines.LastEnd
		}
		if endLine < line {
			endLine, endCol = line, col
		}
		if endLine == line && endCol < col {
			endCol = col
		}
	}
	return Region{line, col, endLine, endCol}
}

// pathsCache keeps the resolver of the report being written, so that the
// reporters of one run resolve each path (EvalSymlinks, line counts) once,
// not once per format.
var pathsCache struct {
	sync.Mutex
	r     *diag.Report
	root  string
	paths *Paths
}

// Adopt makes p, made by NewPaths(r.RepoRoot) before r existed, the shared
// path resolver of report r (PathsFor(r) returns it, and it reads the
// lines of r.Lines): a run resolves its threads' paths while its batch
// rules run, on the processor they leave idle, and hands them to its
// report. A p made for another root is not adopted. p must not be in use.
func Adopt(r *diag.Report, p *Paths) {
	root := r.RepoRoot
	if root == "" {
		root = "."
	}
	if p == nil || p.given != root {
		return
	}
	pathsCache.Lock()
	defer pathsCache.Unlock()
	p.read = r.Lines
	pathsCache.r, pathsCache.root, pathsCache.paths = r, r.RepoRoot, p
}

// PathsFor returns the shared path resolver of report r.
func PathsFor(r *diag.Report) *Paths {
	pathsCache.Lock()
	defer pathsCache.Unlock()
	if pathsCache.r != r || pathsCache.root != r.RepoRoot || pathsCache.paths == nil {
		pathsCache.r, pathsCache.root, pathsCache.paths = r, r.RepoRoot, NewPaths(r.RepoRoot)
		pathsCache.paths.read = r.Lines
	}
	return pathsCache.paths
}
