package mailbox

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/brenner-ci/brenner-ci/diag"
)

// ThreadRef is a thread found by Scan: message metadata and the location of
// every message's bytes, without bodies.
type ThreadRef struct {
	Key  string
	Msgs []*Message // metadata only (Body empty), in protocol order

	threadID string         // first non-empty thread_id in protocol order
	project  string         // first non-empty project in protocol order
	findings []diag.Finding // IN-002 … IN-005, computed by Scan
}

// Findings returns the thread's input findings (IN-002 … IN-005) without
// loading it; Load returns the same findings in Thread.Findings.
func (r *ThreadRef) Findings() []diag.Finding {
	return append([]diag.Finding(nil), r.findings...)
}

// ThreadID is the thread's thread_id ("" when its messages name none).
func (r *ThreadRef) ThreadID() string { return r.threadID }

// Release drops the thread's message metadata once it has been loaded and
// checked, so that a batch of many threads does not keep every message's
// metadata to the end of the run. Key, ThreadID and Findings stay.
func (r *ThreadRef) Release() { r.Msgs = nil }

// Digest writes to w everything the thread's results depend on in its
// input: for each message, its file, its position there and its bytes (the
// JSON object, the archive file, or the embedded JSON text). Two threads
// with the same digest (and the same configuration) check the same.
func (r *ThreadRef) Digest(w io.Writer) error {
	fmt.Fprintf(w, "thread %q %q %q %d\n", r.Key, r.threadID, r.project, len(r.Msgs))
	files := map[string]*os.File{}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	var buf []byte
	for _, m := range r.Msgs {
		s := &m.Src
		fmt.Fprintf(w, "msg %q %d %d %d %d %d\n", s.File, s.Line, s.Col, s.kind, s.off, s.end)
		switch s.kind {
		case srcMem:
			w.Write(s.mem[s.off:s.end])
			continue
		case srcArchive:
			data, err := os.ReadFile(filepath.FromSlash(s.File))
			if err != nil {
				return err
			}
			w.Write(data)
			continue
		}
		f := files[s.File]
		if f == nil {
			var err error
			if f, err = os.Open(filepath.FromSlash(s.File)); err != nil {
				return err
			}
			files[s.File] = f
		}
		n := int(s.end - s.off)
		if cap(buf) < n {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if k, err := f.ReadAt(buf, s.off); k < n {
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
		w.Write(buf)
	}
	return nil
}
