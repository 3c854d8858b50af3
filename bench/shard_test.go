package bench

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/cli"
	"github.com/brenner-ci/brenner-ci/internal/memlimit"
)

// BenchmarkShard: one shard of four (check --shard 1/4, its shard file
// written) beside the whole check of the same corpus with the JSON report,
// both --jobs 2, in each iteration: shard-s/op, shard-cpu-s/op, full-s/op,
// full-cpu-s/op and their ratios (shard/full, shard/full-cpu). A nightly
// audit on a matrix of four runners takes about the slowest shard's time
// and a merge; a shard that took a quarter of the check would be 0.25.
// Every shard scans every input, so it takes more than that.
//
//	BRENNER_BENCH_DIR=/tmp/brenner-ci-c10k go test ./bench -run '^$' -bench Shard -benchtime 5x
func BenchmarkShard(b *testing.B) {
	each(b, func(b *testing.B, c *corpus) {
		tmp := b.TempDir()
		full := []string{"check", c.dir, "--jobs", "2", "--repo-root", c.dir, "--fail-on", "none", "--json", filepath.Join(tmp, "full.json")}
		shard := []string{"check", c.dir, "--jobs", "2", "--repo-root", c.dir, "--shard", "1/4", "--json", filepath.Join(tmp, "shard.json")}
		defer memlimit.Start()() // as the binary does (cli.Run)
		runs := []struct {
			args []string
			p    pass
		}{{args: shard}, {args: full}}
		iters := 0
		for b.Loop() {
			// Alternated: the first of two runs of a pair may find the
			// machine in another state than the second.
			for k := range runs {
				r := &runs[(k+iters)%2]
				r.p.add(measure(func() {
					if code := cli.Main(r.args, io.Discard, io.Discard); code != 0 {
						b.Fatalf("%v: exit %d", r.args, code)
					}
				}))
			}
			iters++
		}
		reportBeside(b, iters, runs[0].p, "shard", runs[1].p, "full", "shard/full", "shard/full-cpu")
	})
}
