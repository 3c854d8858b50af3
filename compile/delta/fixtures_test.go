package delta

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite testdata/delta/*.golden")

// TestFixtures analyzes each testdata/delta/*.md body and compares a summary
// (blocks, validity, every problem with its rule, severity, exact body text
// and fix) with the .golden file next to it.
func TestFixtures(t *testing.T) {
	dir := filepath.Join(testutil.ModuleRoot(t), "testdata", "delta")
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s: %v", dir, err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".md")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			src := string(data)
			blocks, probs := Analyze(body.Parse(src), limits.Parse{})
			var b strings.Builder
			line := func(scope string, p diag.Local) {
				fmt.Fprintf(&b, "%s %s %s %s\n  %s\n", scope, p.Rule, p.Severity, strconv.Quote(src[p.Start:p.End]), p.Message)
				if p.Fix != nil {
					fmt.Fprintf(&b, "  fix: %s: %s -> %s\n", p.Fix.Description, strconv.Quote(src[p.Fix.Start:p.Fix.End]), strconv.Quote(p.Fix.Text))
				}
			}
			for _, p := range probs {
				line("message", p)
			}
			for _, bl := range blocks {
				d := "rejected"
				if bl.Valid() {
					d = fmt.Sprintf("valid %s %s target=%q", bl.Delta.Op, bl.Delta.Section, bl.Delta.Target)
				}
				fmt.Fprintf(&b, "block %d (%c fence at %d): %s\n", bl.Index, bl.Fence.Char, bl.Fence.Start, d)
				for _, p := range bl.Problems {
					line(fmt.Sprintf("block %d", bl.Index), p)
				}
			}
			got := b.String()
			golden := filepath.Join(dir, name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestFixtures -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("analysis of %s differs from %s:\n--- got\n%s--- want\n%s", filepath.Base(path), filepath.Base(golden), got, want)
			}
		})
	}
}
