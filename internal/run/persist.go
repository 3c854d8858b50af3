package run

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters"
	"github.com/brenner-ci/brenner-ci/rules"
)

// safeDirs are the output folders checked in this run: real folders, not
// links. The value is true for a folder this run made itself.
var safeDirs sync.Map

// writeUnder writes data to dir/rel atomically. It refuses a relative path
// that leaves dir and never follows a symbolic link inside dir, so nothing is
// ever written outside the chosen output folder.
//
// It writes through reporters.WriteFileAtomic, not
// github.com/google/renameio/v2's WithRoot (issue 26), which would write
// inside an os.Root: renameio has no Windows implementation (see
// reporters/atomic.go), and os.Root.Rename, which it needs, is Go 1.25
// (go.mod: 1.24). When the module moves to 1.25, an os.Root over dir (stdlib
// alone) could replace the Lstat walk below.
func writeUnder(dir, rel string, write func(io.Writer) error) error {
	s, err := stageUnder(dir, rel, write)
	if err != nil {
		return err
	}
	return s.Commit()
}

// stageUnder is writeUnder's checks and write, staged (reporters.StageFile)
// for the caller to commit or discard.
func stageUnder(dir, rel string, write func(io.Writer) error) (*reporters.Set, error) {
	if rel == "" || filepath.IsAbs(rel) || strings.Contains(rel, "\x00") {
		return nil, fmt.Errorf("refusing to write %q: not a relative path", rel)
	}
	clean := filepath.Clean(filepath.FromSlash(rel))
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("refusing to write %q: it leaves the output folder", rel)
	}
	if _, ok := safeDirs.Load(dir); !ok {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		safeDirs.Store(dir, false) // made or found: no stat of it for every file
	}
	// Walk the components below dir: every existing one must be a real
	// directory (or, for the last, a regular file), never a link. A folder
	// checked (or made) once is not checked again in this run: the output
	// folder is brenner-ci's, not the input's.
	cur := dir
	parts := strings.Split(clean, string(filepath.Separator))
	for i, p := range parts {
		cur = filepath.Join(cur, p)
		last := i == len(parts)-1
		if !last {
			if _, ok := safeDirs.Load(cur); ok {
				continue
			}
		} else if made, _ := safeDirs.Load(filepath.Dir(cur)); made == true {
			// In a folder this run made, the file is new or this run's
			// own (and a link put there meanwhile is replaced by the
			// rename, not followed): no stat of each file.
			continue
		}
		fi, err := os.Lstat(cur)
		if os.IsNotExist(err) {
			if !last {
				if err := os.Mkdir(cur, 0o755); err == nil {
					safeDirs.Store(cur, true)
					continue
				} else if !os.IsExist(err) {
					return nil, err
				}
				// Made meanwhile by another writer: check it as found.
				if fi, err = os.Lstat(cur); err != nil {
					return nil, err
				}
			} else {
				continue
			}
		}
		if err != nil {
			return nil, err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return nil, fmt.Errorf("refusing to write %s: %s is a symbolic link", filepath.Join(dir, clean), cur)
		}
		if !last && !fi.IsDir() {
			return nil, fmt.Errorf("refusing to write %s: %s is not a directory", filepath.Join(dir, clean), cur)
		}
		if !last {
			safeDirs.Store(cur, false)
		}
	}
	return reporters.StageFile(filepath.Join(dir, clean), write)
}

// artifactName returns the file name for a thread's artifact (every file
// compile and check --out write for a thread is named from it), or an
// error when the thread id is not safe as a file name or holds a
// credential, which the file name (and the artifact's title) would publish
// in the output folder a CI job uploads.
func artifactName(threadID string) (string, error) {
	if why := rules.UnsafeThreadID(threadID); why != "" {
		return "", fmt.Errorf("thread id %q is not safe as a file name: %s", threadID, why)
	}
	if s := diag.FindSecrets(threadID); s != nil {
		return "", fmt.Errorf("thread id %q holds a credential (%s), which its file name would publish", diag.RedactSecrets(threadID), s[0].Kind)
	}
	return threadID + ".md", nil
}

func bytesWriter(b []byte) func(io.Writer) error {
	return func(w io.Writer) error { _, err := w.Write(b); return err }
}

// safeOutDir refuses an output folder that is a symbolic link or is reached
// through one, from the working directory down (a pull request can commit
// `brenner-ci-reports -> /elsewhere`). Only existing components are
// checked; the ones that do not exist yet are created as real folders.
func safeOutDir(dir string) error {
	if dir == "" {
		return nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	start := filepath.VolumeName(abs) + string(filepath.Separator)
	if cwd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(cwd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			start = cwd
		}
	}
	rel, err := filepath.Rel(start, abs)
	if err != nil || rel == "." {
		return nil
	}
	cur := start
	for _, p := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, p)
		fi, err := os.Lstat(cur)
		if os.IsNotExist(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return &UsageError{Msg: fmt.Sprintf("refusing to write into %s: %s is a symbolic link, which could lead outside the workspace", dir, cur), unsafeOut: true}
		}
	}
	return nil
}

// nameClaims makes sure no two threads write one artifact path, also on a
// case-insensitive file system: the first thread to claim a name (compared
// in lower case) keeps it.
type nameClaims map[string]string

// owns reports (nil) whether key holds the claim on name, or the clash.
func (c nameClaims) owns(name, key string) error {
	if prev, ok := c[strings.ToLower(name)]; ok && prev != key {
		return fmt.Errorf("%s would be the same file as thread %s's on a case-insensitive file system", name, prev)
	}
	return nil
}

func (c nameClaims) claim(name, key string) error {
	k := strings.ToLower(name)
	if prev, ok := c[k]; ok && prev != key {
		return fmt.Errorf("%s would be the same file as thread %s's on a case-insensitive file system", name, prev)
	}
	c[k] = key
	return nil
}
