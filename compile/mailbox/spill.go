package mailbox

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/brenner-ci/brenner-ci/compile/tempfile"
)

// A scan of a large batch keeps its packed records in a temporary file
// instead of the heap. Packing made a message's metadata about 150 bytes,
// but a nightly audit of 200,000 threads still held 300 MB of it from the
// end of the scan until each thread was checked: the live heap alone was
// past the memory limit, and the collector ran without pause. Past
// spillAfter bytes of packed records, a scan writes each further file's
// records to the spill file and drops them (a pack's shared strings stay:
// the names a thread's results keep point into them); they are read back
// when its thread is merged or loaded (packed.view) and dropped again
// after the merge (packed.evict) and when the last thread holding records
// of the pack is released (ThreadRef.Release). The records read
// back are the bytes written, so nothing else changes
// (TestSpilledScanMatches); the spill file lives in the operating system's
// page cache, outside the process's memory, and is deleted as soon as it
// is made (where the system allows; else when the scan's packs are gone).

// spillAfter is how many bytes of packed records a scan keeps in memory
// before it spills the rest (a variable for tests).
var spillAfter int64 = 16 << 20

// maxSpilled is the largest pack spilled: a pack read back whole for each
// of its threads must be a thread file's, not a dump's of many threads.
const maxSpilled = 1 << 20

// spill is one scan's spill file.
type spill struct {
	file *tempfile.Spill
	kept atomic.Int64 // bytes of records packed by the scan so far
}

// newSpill returns a scan's spill. The packs that read it back go with
// the scan's batch, at no moment the scan knows: the file goes when the
// spill does.
func newSpill() *spill {
	s := &spill{file: &tempfile.Spill{Pattern: "brenner-ci-spill-*"}}
	runtime.AddCleanup(s, func(f *tempfile.Spill) { f.Close() }, s.file)
	return s
}

// keep spills the packs of a scanned file once the scan has packed more
// than spillAfter bytes; a pack that cannot be written stays in memory.
func (s *spill) keep(res *fileResult) {
	var last *packed
	for _, r := range res.refs {
		p := r.p
		if p == last || p.sp != nil {
			continue
		}
		last = p
		n := int64(len(p.enc))
		if s.kept.Add(n) <= spillAfter || n > maxSpilled || len(p.mems) > 0 {
			continue
		}
		at, ok := s.file.Write(p.enc)
		if !ok {
			continue // no file, or a full disk: this pack stays in memory
		}
		p.sp, p.at = s, at
		p.enc = nil
	}
}

// read reads a pack's records back. The file is the scan's own: a failure
// is a bug (or the disk lost what it held), and panics like a corrupt
// record; the thread's task turns it into an internal-error finding.
func (s *spill) read(at tempfile.At) []byte {
	buf, err := s.file.Read(at)
	if err != nil {
		panic(fmt.Sprintf("mailbox: reading back packed records: %v", err))
	}
	return buf
}
