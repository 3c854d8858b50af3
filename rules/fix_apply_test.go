package rules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// offset converts a 1-based line and code-point column to a byte offset.
func offset(src []byte, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(string(src[off:]), '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	for c := 1; c < col && off < len(src); c++ {
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	return off
}

// TestFixesLandValid: every fix brenner-ci offers, applied to its file,
// leaves a file that still parses with the same messages, and removes the
// finding it was offered for. (In a JSON export the replacement must be
// JSON-string-escaped: a fence with quotes and line breaks pasted raw would
// break the export.)
func TestFixesLandValid(t *testing.T) {
	root := testutil.ModuleRoot(t)
	inputs, _ := filepath.Glob(filepath.Join(root, "testdata", "rules", "*", "fail"))
	inputs = append(inputs, filepath.Join(root, "testdata", "demo", "mailbox"))
	applied := 0
	for _, in := range inputs {
		res := check(t, loadCfg(t, in), in)
		for _, f := range res.Findings {
			if f.Fix == nil || !strings.HasSuffix(f.Fix.Pos.File, ".json") && !strings.HasSuffix(f.Fix.Pos.File, ".jsonl") {
				continue
			}
			src, err := os.ReadFile(f.Fix.Pos.File)
			if err != nil {
				t.Fatal(err)
			}
			p := f.Fix.Pos
			a, b := offset(src, p.Line, p.Col), offset(src, p.EndLine, p.EndCol)
			fixed := append(append(append([]byte(nil), src[:a]...), f.Fix.Text...), src[b:]...)
			dir := t.TempDir()
			name := filepath.Join(dir, filepath.Base(f.Fix.Pos.File))
			os.WriteFile(name, fixed, 0o644)
			before := countMessages(t, f.Fix.Pos.File)
			after := countMessages(t, name)
			if after != before {
				t.Errorf("%s: applying the fix %q (%s) leaves %d messages of %d:\n%s", f.String(), f.Fix.Text, f.Fix.Description, after, before, fixed[max(0, a-80):min(len(fixed), a+len(f.Fix.Text)+80)])
				continue
			}
			again := check(t, nil, dir)
			for _, g := range again.Findings {
				if g.Rule == f.Rule && g.Anchor == f.Anchor && g.MsgID == f.MsgID {
					t.Errorf("%s: the fix %q did not remove the finding", f.String(), f.Fix.Text)
				}
			}
			applied++
		}
	}
	if applied < 5 {
		t.Fatalf("only %d fixes applied: the fixtures offer more", applied)
	}
	t.Logf("%d fixes applied and re-parsed", applied)
}

func countMessages(t *testing.T, path string) int {
	b, err := mailbox.Scan([]string{path}, mailbox.ScanOptions{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, th := range b.Threads {
		n += th.Len()
	}
	for _, f := range b.Findings {
		if f.Rule == "IN-001" {
			return -1
		}
	}
	return n
}
