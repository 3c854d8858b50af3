package artifact

import (
	"math/rand"
	"os"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// BenchmarkParseMarkdown reads the golden example artifact (~17 KB, from
// the shared corpus) and a large merged artifact's rendering.
func BenchmarkParseMarkdown(b *testing.B) {
	b.Run("golden-example", func(b *testing.B) {
		path := testutil.Shared(b, "corpus", "artifacts", "golden-example-cell-fate.md")
		src, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		bench(b, src)
	})
	b.Run("rendered", func(b *testing.B) {
		// The largest rendering of a few hundred random merged artifacts.
		var src []byte
		for seed := int64(1); seed <= 300; seed++ {
			g := &rtGen{r: rand.New(rand.NewSource(seed))}
			if r := g.artifact().Render(); len(r) > len(src) {
				src = r
			}
		}
		bench(b, src)
	})
}

func bench(b *testing.B, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if p := ParseMarkdown(src, "bench.md"); len(p.Items) == 0 {
			b.Fatal("no items")
		}
	}
}
