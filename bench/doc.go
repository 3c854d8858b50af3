// Package bench holds brenner-ci's stage and end-to-end benchmarks on
// corpora from internal/gen (no ../shared needed): ingest (mailbox.Scan),
// thread loading, delta extraction, merge, compile, rules, every reporter,
// the engine and the check command in-process, each at the thread counts in
// $BRENNER_BENCH_THREADS (comma separated; default 1000). Every benchmark
// reports threads/s.
//
//	make bench                                    # 1,000 threads
//	make bench BENCH_THREADS=1000,10000 BENCHTIME=1x
//
// The corpora (typical threads, 20% with one fault, seed 1) are written once
// to $TMPDIR/brenner-ci-bench and reused. BenchmarkBesideReference runs the
// reference implementation's harness beside the check on a folder of thread
// files ($BRENNER_REFHARNESS, $BRENNER_BENCH_DIR; make bench-reference);
// BenchmarkCompileBesideCheck runs compile --out beside check (with TMPDIR
// on a tmpfs, it compares the two commands' work, not the disk's).
package bench
