//go:build !unix

package bench

import "time"

// cpuTime is not measured here: loop reports no cpu-s/op.
func cpuTime() time.Duration { return 0 }
