//go:build linux

package memlimit

import (
	"bytes"
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// adviseHugePages asks the kernel to back the first n bytes the heap
// hands out with transparent huge pages. It takes n bytes of fresh heap as
// one allocation (the runtime maps them and, knowing them zero, does not
// touch them), advises their 2 MiB-aligned interior with
// madvise(MADV_HUGEPAGE), and frees them with a collection. The runtime's
// page allocator hands out the lowest free addresses first, so the run's
// objects then fill the advised range, where one fault brings in 2 MiB.
//
// The advice changes no byte of memory. Where the machine has huge pages
// turned off ("never" in /sys/kernel/mm/transparent_hugepage/enabled), or
// has none free, or the runtime places objects elsewhere, memory is as it
// would have been and only the saving is lost.
func adviseHugePages(n int) {
	if !roomFor() {
		return
	}
	const huge = 2 << 20
	b := make([]byte, n)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	// The first and last 2 MiB boundaries inside the block, compared as
	// addresses: a block of less than 4 MiB may hold no whole huge page
	// (then last is before first; as offsets, last-p wrapped around and
	// sliced past the block).
	first, last := (p+huge-1)&^(huge-1), (p+uintptr(n))&^(huge-1)
	if first < last {
		_ = syscall.Madvise(b[first-p:last-p], syscall.MADV_HUGEPAGE) // advice: an error leaves memory as it was
	}
	b = nil
	runtime.GC()
}

// roomFor reports whether the block adviseHugePages takes is safe to ask
// for. The runtime cannot recover from a failed allocation: under a limit
// on address space or data (RLIMIT_AS, RLIMIT_DATA: ulimit -v, ulimit -d)
// or strict overcommit (vm.overcommit_memory 2) the block could end the
// process with "out of memory" where the run itself would fit, as it did
// under ulimit -v 2000000. Then there is no advice: the saving is lost,
// nothing else.
func roomFor() bool {
	for _, res := range []int{syscall.RLIMIT_AS, syscall.RLIMIT_DATA} {
		var l syscall.Rlimit
		if err := syscall.Getrlimit(res, &l); err != nil || l.Cur != unlimited {
			return false
		}
	}
	mode, err := os.ReadFile("/proc/sys/vm/overcommit_memory")
	return err == nil && string(bytes.TrimSpace(mode)) != "2"
}

// unlimited is RLIM_INFINITY as the Rlimit fields hold it.
const unlimited = ^uint64(0)
