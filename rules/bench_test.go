package rules_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules"
)

// BenchmarkCheck measures the whole pipeline — ingest, compile, every rule,
// configuration, sorting and fingerprints — on a gen_corpus typical corpus
// of 1,000 threads (files layout), and reports threads/s.
func BenchmarkCheck(b *testing.B) {
	for _, jobs := range []int{1, 2} {
		jobs := jobs
		b.Run(map[int]string{1: "jobs1", 2: "jobs2"}[jobs], func(b *testing.B) {
			dir := filepath.Join(os.TempDir(), "brenner-ci-bench-1000")
			if _, err := os.Stat(filepath.Join(dir, "corpus")); err != nil {
				genCorpus(b, filepath.Join(dir, "corpus"), "--threads", "1000", "--seed", "3", "--size", "typical", "--fault-rate", "0.2")
			}
			var n int
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				batch, err := mailbox.Scan([]string{filepath.Join(dir, "corpus")}, mailbox.ScanOptions{Jobs: jobs})
				if err != nil {
					b.Fatal(err)
				}
				eng := rules.NewEngine(nil)
				res := eng.Run(batch, rules.RunOptions{Compile: compile.Options{ArchiveAgents: batch.Agents}, Jobs: jobs})
				_ = diag.Fingerprints(res.Findings)
				n = len(batch.Threads)
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "threads/s")
		})
	}
}
