package artifact

import (
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// FuzzParseMarkdown checks that the parser never panics, that every position
// is a valid region of the input, that the indexes agree with the items, and
// that reading a rendering of what was read is stable: after one
// render/parse step, render∘parse changes nothing.
//
// Seeds: testdata/fuzz/FuzzParseMarkdown (crashers kept as regressions),
// the fixtures of testdata/artifact-parse, the golden renderings of
// testdata/artifact, a few random merged artifacts, and, when the shared
// corpus is present, its artifacts (read at test time, never copied into
// the repository).
func FuzzParseMarkdown(f *testing.F) {
	root := testutil.ModuleRoot(f)
	var seeds []string
	for _, pat := range []string{
		filepath.Join(root, "testdata", "artifact-parse", "*.md"),
		filepath.Join(root, "testdata", "artifact", "*", "expected.md"),
		filepath.Join(root, "testdata", "demo", "artifacts", "*.md"),
	} {
		m, _ := filepath.Glob(pat)
		seeds = append(seeds, m...)
	}
	shared := os.Getenv("BRENNER_SHARED")
	if shared == "" {
		shared = filepath.Join(root, "..", "shared")
	}
	for _, pat := range []string{"corpus/artifacts/*.md", "corpus/artifacts/*/*.md", "corpus/upstream-outputs/*/artifact.md"} {
		m, _ := filepath.Glob(filepath.Join(shared, pat))
		seeds = append(seeds, m...)
	}
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	for seed := int64(1); seed <= 8; seed++ {
		g := &rtGen{r: rand.New(rand.NewSource(seed))}
		f.Add(g.artifact().Render())
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p := parseMarkdown(src, "f.md")
		checkInvariants(t, src, p)
		m1 := p.Art.Render()
		p1 := parseMarkdown(m1, "f1.md")
		checkInvariants(t, m1, p1)
		m2 := p1.Art.Render()
		// Items without an id (human artifacts only; the merge never makes
		// one) are not stable: render.go's title() strips a leading
		// separator from their names at every rendering.
		if string(m1) != string(m2) && allIDs(p1.Art) {
			p2 := parseMarkdown(m2, "f2.md")
			if d := artDiff(p1.Art, p2.Art); len(d) > 0 || string(p2.Art.Render()) != string(m2) {
				t.Errorf("render∘parse is not stable:\n%s\n--- first rendering:\n%s", testutil.FirstDiff(m1, m2), m1)
			}
		}
	})
}

func allIDs(a *Artifact) bool {
	for _, items := range a.Items {
		for _, it := range items {
			if it.ID == "" {
				return false
			}
		}
	}
	return true
}

// checkInvariants checks a parse of src.
func checkInvariants(t *testing.T, src []byte, p *Parsed) {
	t.Helper()
	li := diag.NewLineIndex(src)
	lines := li.Lines()
	checkPos := func(what string, pos diag.Pos) {
		if pos.File != p.File {
			t.Fatalf("%s: file %q", what, pos.File)
		}
		if pos.Line < 1 || pos.EndLine < pos.Line || pos.EndLine > lines || pos.Col < 1 || pos.EndCol < 1 ||
			(pos.EndLine == pos.Line && pos.EndCol < pos.Col) {
			t.Fatalf("%s: bad region %+v (%d lines)", what, pos, lines)
		}
		// The columns exist on their lines.
		for _, lc := range [][2]int{{pos.Line, pos.Col}, {pos.EndLine, pos.EndCol}} {
			start := li.LineStart(lc[0])
			end := len(src)
			if lc[0] < lines {
				end = li.LineStart(lc[0]+1) - 1
			}
			if n := utf8.RuneCount(src[start:end]) + 1; lc[1] > n+1 {
				t.Fatalf("%s: column %d past the end of line %d (%d code points)", what, lc[1], lc[0], n-1)
			}
		}
	}
	if p.Art == nil || p.ByID == nil {
		t.Fatal("nil Art or ByID")
	}
	if p.HasFrontMatter {
		checkPos("front matter", p.FrontPos)
	}
	for _, f := range p.Front {
		checkPos("front key "+f.Key, f.KeyPos)
		checkPos("front value "+f.Key, f.Pos)
	}
	for _, f := range p.Findings {
		if f.Pos.Line != 0 {
			checkPos("finding", f.Pos)
		}
	}
	if p.Title != nil {
		checkPos("title", *p.Title)
	}
	prev := -1
	for _, s := range p.Sections {
		checkPos("section "+s.Title, s.Pos)
		if s.Start < prev || s.Start > s.End || s.End > len(src) {
			t.Fatalf("section %q range %d-%d (prev %d, len %d)", s.Title, s.Start, s.End, prev, len(src))
		}
		prev = s.End
	}
	known := 0
	nID := 0
	prevStart := -1
	for _, it := range p.Items {
		checkPos("item "+it.ID, it.Pos)
		if it.Start > it.End || it.End > len(src) || it.Start < prevStart {
			t.Fatalf("item %q range %d-%d", it.ID, it.Start, it.End)
		}
		prevStart = it.Start
		for _, f := range it.Fields {
			checkPos("field "+f.Label+" of "+it.ID, f.Pos)
			checkPos("value "+f.Label+" of "+it.ID, f.ValuePos)
		}
		if it.Section != delta.ResearchThread {
			known++
		}
		if it.ID != "" {
			nID++
		}
	}
	n := 0
	for _, its := range p.ByID {
		n += len(its)
	}
	if n != nID {
		t.Fatalf("ByID holds %d items, %d have ids", n, nID)
	}
	total := 0
	for _, items := range p.Art.Items {
		total += len(items)
	}
	if total != known {
		t.Fatalf("Art holds %d items, the sections %d", total, known)
	}
	if p.Table != nil {
		checkPos("table", p.Table.Pos)
	}
}
