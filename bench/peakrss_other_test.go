//go:build !linux

package bench

// watchPeakRSS: outside Linux there is no VmHWM to follow; referencePass
// falls back to the finished child's rusage.
func watchPeakRSS(int) (stop func() int64) { return func() int64 { return 0 } }
