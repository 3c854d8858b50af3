package config

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: any configuration file either parses or gives a *Error with a
// message; it never panics (a YAML alias bomb or deep nesting included).
// Seeds: the configurations in testdata.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "*", "*", "*", ".brenner-ci.yaml"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "demo", ".brenner-ci.yaml"))
	for _, p := range append(files, more...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("fail-on: warning\nrules:\n  MB-001: off\n"))
	f.Add([]byte("a: &a [*a, *a]\n"))
	f.Add([]byte("overrides:\n  - paths: [\"[\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.yaml", data, func(string) bool { return true })
		if err == nil && c == nil {
			t.Fatal("no config and no error")
		}
		if err != nil && err.Error() == "" {
			t.Fatal("empty error")
		}
	})
}
