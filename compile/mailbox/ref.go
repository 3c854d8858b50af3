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
	msgs []msgEntry // packed metadata, in protocol order

	threadID string         // first non-empty thread_id in protocol order
	project  string         // first non-empty project in protocol order
	findings []diag.Finding // IN-002 … IN-005, computed by Scan
}

// msgEntry is one message of a thread: its packed metadata, and the packed
// record whose bytes Load reads (another copy of the message, with a body,
// when the same message was exported twice).
type msgEntry struct {
	meta, src msgRef
	seq       int
}

func (e msgEntry) message() *Message {
	m := e.meta.rec().m
	if e.src != e.meta {
		m.HasBody, m.Src = true, e.src.rec().m.Src
	}
	m.Seq = e.seq
	return m
}

// Len is the number of messages of the thread (0 once released).
func (r *ThreadRef) Len() int { return len(r.msgs) }

// Messages returns the thread's messages in protocol order, metadata only
// (no bodies), unpacked afresh at each call. Nil once released.
func (r *ThreadRef) Messages() []*Message {
	if len(r.msgs) == 0 {
		return nil
	}
	out := make([]*Message, len(r.msgs))
	for i, e := range r.msgs {
		out[i] = e.message()
	}
	return out
}

// First returns the thread's first message (metadata only), or nil.
func (r *ThreadRef) First() *Message {
	if len(r.msgs) == 0 {
		return nil
	}
	return r.msgs[0].message()
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
func (r *ThreadRef) Release() { r.msgs = nil }

// Digest writes to w everything the thread's results depend on in its
// input: for each message, its file, its position there and its bytes (the
// JSON object, the archive file, or the embedded JSON text). Two threads
// with the same digest (and the same configuration) check the same.
func (r *ThreadRef) Digest(w io.Writer) error {
	fmt.Fprintf(w, "thread %q %q %q %d\n", r.Key, r.threadID, r.project, len(r.msgs))
	files := map[string]*os.File{}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	var buf []byte
	for _, m := range r.Messages() {
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
