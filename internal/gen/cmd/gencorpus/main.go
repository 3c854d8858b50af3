// Command gencorpus writes a synthetic corpus of Brenner Protocol threads
// (see package gen) for manual measurements:
//
//	go run ./internal/gen/cmd/gencorpus -n 10000 -out /tmp/corpus-10k [-seed 1] [-faults 0.2] [-artifacts]
//
// Threads go to OUT/threads/<thread_id>.json; with -artifacts, their
// compiled artifacts to OUT/artifacts/<thread_id>.md.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/brenner-ci/brenner-ci/internal/gen"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gencorpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 1000, "number of threads")
	out := fs.String("out", "", "output directory (required)")
	seed := fs.Uint64("seed", 1, "seed: the same seed and n give the same bytes")
	faults := fs.Float64("faults", 0.2, "fraction of threads with one deliberate mistake (0..1)")
	rounds := fs.Int("rounds", 0, "delta rounds per thread (1..4; 0: 1-3, varying)")
	arts := fs.Bool("artifacts", false, "also write OUT/artifacts/<thread_id>.md, compiled from each thread")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || *n < 0 || *faults < 0 || *faults > 1 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: gencorpus -n N -out DIR [-seed S] [-faults F] [-rounds R] [-artifacts]")
		return 2
	}
	start := time.Now()
	st, err := gen.WriteCorpus(*out, gen.Options{Seed: *seed, Threads: *n, FaultRate: *faults, Rounds: *rounds})
	if err != nil {
		fmt.Fprintln(stderr, "gencorpus:", err)
		return 1
	}
	fmt.Fprintf(stdout, "gencorpus: %d threads (%d with a fault), %d messages, %d delta blocks, %.1f MB in %s -> %s/threads\n",
		st.Threads, st.Faulted, st.Messages, st.Blocks, float64(st.Bytes)/1e6, time.Since(start).Round(time.Millisecond), *out)
	if *arts {
		k, err := gen.WriteArtifacts(*out, 0)
		if err != nil {
			fmt.Fprintln(stderr, "gencorpus:", err)
			return 1
		}
		fmt.Fprintf(stdout, "gencorpus: %d artifacts -> %s/artifacts\n", k, *out)
	}
	return 0
}
