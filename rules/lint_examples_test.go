package rules

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// TestArtifactRuleExamples: every artifact rule's Bad example triggers it
// and its Good example does not, parsed by the real parser, so the help
// text cannot drift from the checks. EV-002…EV-004 examples are
// evidence.json contents, placed beside an artifact citing EV-001.
func TestArtifactRuleExamples(t *testing.T) {
	n := 0
	for _, m := range All() {
		if m.Scope != ScopeArtifact {
			continue
		}
		n++
		fires := func(example string) []string {
			src := example
			var ev *EvidencePack
			if strings.HasPrefix(m.ID, "EV-") && m.ID != "EV-001" {
				dir := t.TempDir()
				md := filepath.Join(dir, "artifacts", "RS-20251230-cell-fate.md")
				src = "## 2. Hypothesis Slate\n\n### H1: PAR polarity\n**Claim**: PAR proteins segregate fate determinants.\n**Anchors**: EV-001\n"
				writeFile(t, md, src)
				writeFile(t, filepath.Join(dir, "artifacts", "RS-20251230-cell-fate", "evidence.json"), example)
				ev, _ = LoadEvidence(osFiles{}, filepath.ToSlash(md), limits.Parse{})
			}
			p := artifact.ParseMarkdown([]byte(src), "artifacts/RS-20251230-cell-fate.md")
			var out []string
			for _, f := range lint(t, m.ID, p, ev) {
				out = append(out, f.Message)
			}
			return out
		}
		if got := fires(m.Bad); len(got) == 0 {
			t.Errorf("%s: the Bad example does not trigger the rule:\n%s", m.ID, m.Bad)
		}
		if got := fires(m.Good); len(got) > 0 {
			t.Errorf("%s: the Good example triggers the rule: %v\n%s", m.ID, got, m.Good)
		}
	}
	if n != len(artifactChecks) {
		t.Errorf("%d artifact rules in the registry, %d checks", n, len(artifactChecks))
	}
}

// TestArtifactRulesOnMangledInputs: every artifact rule runs without
// panicking on truncated and line-shuffled versions of the fixtures and of
// the corpus artifacts (the parser gives partial Parsed values).
func TestArtifactRulesOnMangledInputs(t *testing.T) {
	var files []string
	for _, pat := range []string{"../testdata/rules/E[SHPX]-00[1-3]/*/artifacts/*.md", "../testdata/rules/EV-001/*/artifacts/*/*.md"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	corpus := os.Getenv("BRENNER_SHARED")
	if corpus == "" {
		corpus = filepath.Join(testutil.ModuleRoot(t), "..", "shared")
	}
	m, _ := filepath.Glob(filepath.Join(corpus, "corpus", "artifacts", "*.md"))
	files = append(files, m...)
	if len(files) < 10 {
		t.Fatalf("only %d inputs", len(files))
	}
	rng := rand.New(rand.NewPCG(7, 11))
	runAll := func(name string, src []byte) {
		p := artifact.ParseMarkdown(src, "artifacts/RS-20260310-x.md")
		for id, chk := range artifactChecks {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("%s panicked on %s: %v\n%s", id, name, r, src)
					}
				}()
				chk(&Ctx{P: p, Thread: "RS-20260310-x", rule: Lookup(id)})
			}()
		}
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for cut := 0; cut < len(src); cut += 1 + len(src)/40 {
			runAll(fmt.Sprintf("%s[:%d]", f, cut), src[:cut])
		}
		lines := strings.SplitAfter(string(src), "\n")
		for k := 0; k < 20; k++ {
			rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
			runAll(f+" shuffled", []byte(strings.Join(lines[:rng.IntN(len(lines)+1)], "")))
		}
	}
}
