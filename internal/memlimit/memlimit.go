// Package memlimit gives the brenner-ci binary a soft memory limit that
// backs off instead of thrashing.
//
// With the Go default (GOGC=100) the heap may grow to twice what is live
// before a collection: a nightly audit whose live heap peaks at 300 MB ran
// at 800 MB of RSS. A soft limit (debug.SetMemoryLimit) makes the collector
// run earlier instead — but a fixed limit below what is live makes it run
// continuously (a 448 MiB limit once turned a 74 s audit into 280 s). So the
// limit starts at Default and, whenever the live heap passes two thirds of
// it, is raised to one and a half times the live heap: the collector always
// has a third of the limit to work in, and memory stays near Default while
// the live heap is below ~300 MB. When the live heap falls below a third of
// a raised limit, the limit comes back down to one and a half times the
// live heap (not below Default): one large input read whole early in a run
// (a 196 MB JSON document, a live heap of 522 MB) no longer lets every
// later collection wait for a heap that large.
//
// With the limit bounding memory, the collector need not run at every
// doubling of the heap: unless GOGC is set, the GC percentage is GCPercent,
// so the heap may grow to three times what is live, up to the limit. A
// higher percentage means fewer collections but a higher peak, and each
// page of the peak costs a page fault when it is first touched (about
// 12 µs on the machine measured). On 10,000 threads, 400 took 3.98 CPU-s
// and 46,900 faults, 200 took 3.74 CPU-s and 31,200 faults (medians of ten
// alternated runs; docs/performance.md, thirteenth round). Past about
// 150 MB live the limit, not the percentage, decides when the collector
// runs.
//
// Each page of the peak costs a fault because the heap is backed by 4 KiB
// pages: a fault cost 7-14 µs on the machine measured (a virtual machine), and a
// check of 10,000 threads took 30,000 of them, 12% of its CPU time. Linux
// backs memory with 2 MiB pages where the process asks for them with
// madvise (the default setting on most machines, "madvise" in
// /sys/kernel/mm/transparent_hugepage/enabled), and the Go runtime asks
// only for some of its own metadata. So the first Start of a process asks
// for them for the first hint() bytes of heap (adviseHugePages): the same
// check then took 3,500 faults and 10-13% less CPU time, with the same peak
// RSS (docs/performance.md, seventeenth round). It does not ask under a
// limit on address space or data, or strict overcommit, where the block it
// takes to learn the heap's addresses could end the process.
package memlimit

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// Default is the starting limit: with the Go runtime's own memory a run
// stays under 512 MiB of RSS.
const Default = 448 << 20

// GCPercent is the GC percentage used when GOGC is not set.
const GCPercent = 200

// hint is how much of the heap the first Start of a process asks to have
// backed by huge pages: the default limit, or GOMEMLIMIT when that is
// lower. It is address space, not memory: pages count only once they are
// touched. Half the limit, as it once was, left a heap that grew past it
// on 4 KiB pages: a check of one thread of 40,000 messages (a 370 MB heap)
// took 36,000 faults and 2.0 CPU-s, against 3,500 faults and 1.25 CPU-s
// with the whole limit advised (docs/performance.md, eighteenth round).
func hint() int {
	return int(min(Default, debug.SetMemoryLimit(-1)))
}

var hugeOnce sync.Once

// Start sets the limit and watches the live heap until stop is called. It
// sets no limit (and stop is a no-op) when GOMEMLIMIT is set: the user's
// limit stands (and so does the GC percentage). The first Start of a
// process also asks for huge pages (see the package comment).
func Start() (stop func()) {
	hugeOnce.Do(func() { adviseHugePages(hint()) })
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prevGC := -1
	if os.Getenv("GOGC") == "" {
		prevGC = debug.SetGCPercent(GCPercent)
	}
	limit := int64(Default)
	prev := debug.SetMemoryLimit(limit)
	var done atomic.Bool
	go func() {
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for !done.Load() {
			time.Sleep(20 * time.Millisecond)
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return
			}
			if next := Next(limit, sample[0].Value.Uint64()); next != limit {
				limit = next
				debug.SetMemoryLimit(limit)
			}
		}
	}()
	return func() {
		done.Store(true)
		debug.SetMemoryLimit(prev)
		if prevGC >= 0 {
			debug.SetGCPercent(prevGC)
		}
	}
}

// Next is the limit after a live heap of live bytes under limit: 1.5 × live
// when live is past two thirds of limit; when limit is above Default and
// live under a third of it, the larger of Default and 1.5 × live; else limit
// itself. Between a third and two thirds it stays, so that a live heap
// moving a little does not move the limit.
func Next(limit int64, live uint64) int64 {
	if live > math.MaxInt64/2 {
		return math.MaxInt64
	}
	// In uint64 both products fit: live ≤ MaxInt64/2 and 0 ≤ limit ≤ MaxInt64.
	l, lim := live, uint64(max(limit, 0))
	switch {
	case l*3 > lim*2:
		return int64(l * 3 / 2)
	case limit > Default && l*3 < lim:
		return max(Default, int64(l*3/2))
	}
	return limit
}
