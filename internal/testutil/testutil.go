// Package testutil holds helpers shared by tests.
package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// ModuleRoot returns the directory holding go.mod.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test directory")
		}
		dir = parent
	}
}

// Shared returns the path of ../shared beside the project, or skips the test
// with a printed reason when it is absent (it is not part of the repository).
func Shared(t testing.TB, elem ...string) string {
	t.Helper()
	root := os.Getenv("BRENNER_SHARED")
	if root == "" {
		root = filepath.Join(ModuleRoot(t), "..", "shared")
	}
	p := filepath.Join(append([]string{root}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("skipping: %s is absent (the shared corpus lives beside the project, not in it)", p)
	}
	return p
}

// WriteTree writes files (slash-separated path relative to dir → content)
// into dir, creating folders as needed.
func WriteTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
