//go:build !linux

package memlimit

// adviseHugePages does nothing: transparent huge pages are asked for with
// madvise on Linux only.
func adviseHugePages(int) {}
