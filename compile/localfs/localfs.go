// Package localfs says whether a folder's files are kept on this machine,
// and makes the short system calls on such files directly.
//
// A system call made the ordinary way (syscall.Read, syscall.Open) tells
// the Go scheduler that it may block: the runtime's monitor thread, which
// wakes every 20 µs or more while calls go on, hands the processor of a
// call it sees twice to another thread, and the calling thread has to get
// one back when the call returns. A run that reads or writes thousands of
// small files paid for that in wake-ups and thread switches: 6-7% of a
// 10,000-thread check's CPU time for its reads (docs/performance.md,
// seventeenth round), and 3-4% of compile --out's for the 30,000 calls
// that create, write and close its artifacts (twenty-eighth round).
// A call on a file of a local file system returns within the time the
// disk takes, so it may be made the way the runtime makes its own short
// calls (syscall.RawSyscall): Read, Pread, Write, Open and Close, for a
// file Dir says is local and at most DirectMax bytes at a time. On a
// network or FUSE file system a call can wait as long as the server does,
// and holds its processor (and the collector's stops) meanwhile: those
// stay ordinary.
package localfs

// DirectMax is the most one direct read or write moves: a larger transfer
// holds its processor longer, and is made the ordinary way.
const DirectMax = 1 << 20
