//go:build !unix

package bench

import (
	"os"
	"time"
)

// cpuTime is not measured here: loop reports no cpu-s/op.
func cpuTime() time.Duration { return 0 }

// childCPUTime is not measured here: BenchmarkPullRequest reports no CPU ratio.
func childCPUTime() time.Duration { return 0 }

// peakRSS is not measured here: the reference reports no ref-rss-MB.
func peakRSS(*os.ProcessState) int64 { return 0 }
