package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"-n", "3", "-out", dir, "-artifacts"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, sub := range []string{"threads", "artifacts"} {
		ents, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil || len(ents) != 3 {
			t.Errorf("%s: %d files, %v", sub, len(ents), err)
		}
	}
	if !strings.Contains(out.String(), "3 threads") {
		t.Errorf("output: %q", out.String())
	}
	if code := run([]string{"-n", "3"}, &out, &errb); code != 2 {
		t.Errorf("no -out: exit %d, want 2", code)
	}
}
