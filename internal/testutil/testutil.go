// Package testutil holds helpers shared by tests.
package testutil

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// BreakKickoff rewrites the export at file so that its KICKOFF subject is
// one no more ("Re: KICKOFF: …"): the one new mistake the pull-request
// tests make. It fails the test when file has no KICKOFF subject.
func BreakKickoff(t testing.TB, file string) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(src), `"subject": "KICKOFF: `, `"subject": "Re: KICKOFF: `, 1)
	if changed == string(src) {
		t.Fatalf("%s has no KICKOFF subject to break", file)
	}
	if err := os.WriteFile(file, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FirstDiff describes the first line where got differs from want ("(same
// lines)" when none does).
func FirstDiff(want, got []byte) string {
	wl := strings.Split(string(want), "\n")
	gl := strings.Split(string(got), "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\n  want: %q\n  got:  %q", i+1, w, g)
		}
	}
	return "(same lines)"
}
