package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/brenner-ci/brenner-ci/reporters"
	"github.com/brenner-ci/brenner-ci/rules"
)

// writeUnder writes data to dir/rel atomically. It refuses a relative path
// that leaves dir and never follows a symbolic link inside dir, so nothing is
// ever written outside the chosen output folder.
func writeUnder(dir, rel string, write func(io.Writer) error) error {
	if rel == "" || filepath.IsAbs(rel) || strings.Contains(rel, "\x00") {
		return fmt.Errorf("refusing to write %q: not a relative path", rel)
	}
	clean := filepath.Clean(filepath.FromSlash(rel))
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return fmt.Errorf("refusing to write %q: it leaves the output folder", rel)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// Walk the components below dir: every existing one must be a real
	// directory (or, for the last, a regular file), never a link.
	cur := dir
	parts := strings.Split(clean, string(filepath.Separator))
	for i, p := range parts {
		cur = filepath.Join(cur, p)
		fi, err := os.Lstat(cur)
		if os.IsNotExist(err) {
			if i < len(parts)-1 {
				if err := os.Mkdir(cur, 0o755); err != nil {
					return err
				}
			}
			continue
		}
		if err != nil {
			return err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("refusing to write %s: %s is a symbolic link", filepath.Join(dir, clean), cur)
		}
		if i < len(parts)-1 && !fi.IsDir() {
			return fmt.Errorf("refusing to write %s: %s is not a directory", filepath.Join(dir, clean), cur)
		}
	}
	return reporters.WriteFileAtomic(filepath.Join(dir, clean), write)
}

// artifactName returns the file name for a thread's artifact, or an error
// when the thread id is not safe as a file name.
func artifactName(threadID string) (string, error) {
	if why := rules.UnsafeThreadID(threadID); why != "" {
		return "", fmt.Errorf("thread id %q is not safe as a file name: %s", threadID, why)
	}
	return threadID + ".md", nil
}

func bytesWriter(b []byte) func(io.Writer) error {
	return func(w io.Writer) error { _, err := w.Write(b); return err }
}
