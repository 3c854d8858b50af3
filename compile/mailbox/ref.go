package mailbox

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/brenner-ci/brenner-ci/diag"
)

// ThreadRef is a thread found by Scan: message metadata and the location of
// every message's bytes, without bodies.
type ThreadRef struct {
	Key string
	// The thread's messages in protocol order: their packed metadata. When
	// every record is in one pack (a thread file, the common case) it is
	// pack and offs, which hold no pointer per message (the collector
	// skips them); else msgs.
	pack *packed
	offs []msgOffs
	msgs []msgEntry

	sums map[string]string // content hashes of files holding this thread alone (shared, read-only)
	// summed: every message of the thread is a JSON object of one file
	// whose hash is in sums (a thread file), so that its digest is that
	// file's name and hash, known without unpacking the messages' places.
	summed   bool
	threadID string         // first non-empty thread_id in protocol order
	project  string         // first non-empty project in protocol order
	findings []diag.Finding // IN-002 … IN-005, computed by Scan
	maxDepth int            // the JSON nesting limit Scan applied (0: the default)

	// A thread checked during the scan (Early) keeps no message: its
	// result, its file (read again when the result cannot be used) and
	// where its first message is.
	early any
	from  *inFile
	where diag.Pos
}

// msgEntry is one message of a thread: its packed metadata, and the packed
// record whose bytes Load reads (another copy of the message, with a body,
// when the same message was exported twice).
type msgEntry struct {
	meta, src msgRef
	seq       int
}

// msgOffs is a msgEntry whose records are in the thread's pack.
type msgOffs struct {
	meta, src, seq uint32
}

// setMsgs stores es, compactly when their records share one pack (and
// their input order fits in 32 bits), in memory from a.
func (r *ThreadRef) setMsgs(es []msgEntry, a *refAlloc) {
	r.pack, r.offs, r.msgs = nil, nil, nil
	if len(es) == 0 {
		return
	}
	p := es[0].meta.p
	for _, e := range es {
		if e.meta.p != p || e.src.p != p || e.seq < 0 || int64(e.seq) > math.MaxUint32 {
			r.msgs = es
			r.eachPack(func(p *packed) { p.users.Add(1) })
			return
		}
	}
	r.pack = p
	p.users.Add(1)
	r.offs = a.offs(len(es))
	for i, e := range es {
		r.offs[i] = msgOffs{e.meta.off, e.src.off, uint32(e.seq)}
	}
}

// A refAlloc hands out thread references and their message lists from
// shared arrays, a few hundred threads to an array: the references and
// lists of a nightly audit's 200,000 threads live from the merge until
// each thread is checked, and the collector marks every one of them at
// every cycle, which costs it about as much per object as per byte. Not
// safe for concurrent use (merge takes one from refAllocs per thread).
type refAlloc struct {
	refs []ThreadRef
	msgs []msgOffs
}

var refAllocs = sync.Pool{New: func() any { return new(refAlloc) }}

// ref returns a new zero thread reference.
func (a *refAlloc) ref() *ThreadRef { return nextOf(&a.refs) }

// nextOf returns a new zero T from the array *chunk, starting another
// array of 64 when it is full: objects that live long, many at once, in
// few arrays (see refAlloc).
func nextOf[T any](chunk *[]T) *T {
	if len(*chunk) == cap(*chunk) {
		*chunk = make([]T, 0, 64)
	}
	*chunk = (*chunk)[:len(*chunk)+1]
	return &(*chunk)[len(*chunk)-1]
}

// offs returns a message list of n entries (a long one is its own array).
func (a *refAlloc) offs(n int) []msgOffs {
	const chunk = 4096
	if n > chunk/8 {
		return make([]msgOffs, n)
	}
	if cap(a.msgs)-len(a.msgs) < n {
		a.msgs = make([]msgOffs, 0, chunk)
	}
	l := len(a.msgs)
	a.msgs = a.msgs[:l+n]
	return a.msgs[l : l+n : l+n]
}

// n is the number of messages (0 once released).
func (r *ThreadRef) n() int {
	if r.pack != nil {
		return len(r.offs)
	}
	return len(r.msgs)
}

// entry is message i.
func (r *ThreadRef) entry(i int) msgEntry {
	if r.pack != nil {
		o := r.offs[i]
		return msgEntry{msgRef{r.pack, o.meta}, msgRef{r.pack, o.src}, int(o.seq)}
	}
	return r.msgs[i]
}

func (e msgEntry) message() *Message {
	m := new(Message)
	e.messageInto(m)
	return m
}

// messageInto unpacks the message into m (the zero Message): its record,
// and where its body is when another copy of it has the body.
func (e msgEntry) messageInto(m *Message) {
	e.meta.recInto(m)
	if e.src != e.meta {
		src, _, ok := e.src.source()
		if !ok {
			panic("mailbox: corrupt packed message record")
		}
		m.HasBody, m.Src = true, src
	}
	m.Seq = e.seq
}

// Len is the number of messages of the thread (0 once released).
func (r *ThreadRef) Len() int { return r.n() }

// Messages returns the thread's messages in protocol order, metadata only
// (no bodies), unpacked afresh at each call. Nil once released.
func (r *ThreadRef) Messages() []*Message {
	if r.n() == 0 {
		return nil
	}
	// One array holds the thread's messages: they are loaded, checked
	// and dropped together.
	msgs := make([]Message, r.n())
	out := make([]*Message, len(msgs))
	for i := range out {
		r.entry(i).messageInto(&msgs[i])
		out[i] = &msgs[i]
	}
	return out
}

// sources returns where the thread's messages are, in protocol order
// (see msgRef.source).
func (r *ThreadRef) sources() []Src {
	out := make([]Src, r.n())
	for i := range out {
		e := r.entry(i)
		s, _, ok := e.meta.source()
		if e.src != e.meta {
			s, _, ok = e.src.source()
		}
		if !ok {
			panic("mailbox: corrupt packed message record")
		}
		out[i] = s
	}
	return out
}

// Where is the position of the thread's first message (the zero Pos when
// it has none).
func (r *ThreadRef) Where() diag.Pos {
	if r.from != nil {
		return r.where
	}
	if r.n() == 0 {
		return diag.Pos{}
	}
	m := r.entry(0).message()
	return diag.Pos{File: m.Src.File, Line: m.Src.Line, Col: m.Src.Col}.Normalize()
}

// Findings returns the thread's input findings (IN-002 … IN-005) without
// loading it; Load returns the same findings in Thread.Findings.
func (r *ThreadRef) Findings() []diag.Finding {
	return append([]diag.Finding(nil), r.findings...)
}

// ThreadID is the thread's thread_id ("" when its messages name none).
func (r *ThreadRef) ThreadID() string { return r.threadID }

// ID is the thread's id, or its key when it has none: what its artifact
// file is named after (compile.Thread.ID of the compiled thread).
func (r *ThreadRef) ID() string {
	if r.threadID != "" {
		return r.threadID
	}
	return r.Key
}

// Release drops the thread's message metadata once it has been loaded and
// checked, so that a batch of many threads does not keep every message's
// metadata to the end of the run. Key, ThreadID and Findings stay.
func (r *ThreadRef) Release() {
	// A pack's records go when the last thread using it is released: the
	// pack itself may outlive its threads in its packer's array.
	r.eachPack(func(p *packed) {
		if p.users.Add(-1) == 0 {
			p.release()
		}
	})
	r.pack, r.offs, r.msgs = nil, nil, nil
	r.early = nil
}

// eachPack calls f once for each pack holding a record of the thread.
func (r *ThreadRef) eachPack(f func(*packed)) {
	if r.pack != nil {
		f(r.pack)
		return
	}
	seen := map[*packed]bool{}
	for _, e := range r.msgs {
		for _, p := range [2]*packed{e.meta.p, e.src.p} {
			if !seen[p] {
				seen[p] = true
				f(p)
			}
		}
	}
}

// Digest writes to w everything the thread's results depend on in its
// input: for each message, its file, its position there and its bytes (the
// JSON object, the archive file, or the embedded JSON text); a file that
// holds the thread alone and whose bytes the scan hashed is written once,
// as its name and hash, for all its messages. Two threads with the same
// digest (and the same configuration) check the same. The
// bytes of a file's messages are read in one go when they lie within 16 MiB
// of each other (a thread file: one read), else message by message.
func (r *ThreadRef) Digest(w io.Writer) error { return r.DigestAs(w, nil) }

// DigestAs is Digest with every file named by name (nil: as it is), for
// comparing the threads of two copies of a tree: a revision's files,
// written elsewhere, named by the paths they have in the working tree.
func (r *ThreadRef) DigestAs(w io.Writer, name func(string) string) error {
	if r.from != nil {
		return errEarly
	}
	if name == nil {
		name = func(s string) string { return s }
	}
	fmt.Fprintf(w, "thread %q %q %q %d\n", name(r.Key), r.threadID, r.project, r.n())
	if r.summed && r.n() > 0 {
		// What the loop below writes for such a thread, from its first
		// message's place alone.
		s, _, ok := r.entry(0).src.source()
		if !ok {
			panic("mailbox: corrupt packed message record")
		}
		fmt.Fprintf(w, "file %q %x\n", name(s.File), r.sums[s.File])
		return nil
	}
	srcs := r.sources()
	type span struct {
		f        *os.File
		off, end int64 // the bytes of the thread's messages in the file
		buf      []byte
	}
	spans := map[string]*span{}
	named := map[string]bool{} // files named by their content hash
	for i := range srcs {
		if s := &srcs[i]; s.kind == srcJSON && r.sums[s.File] == "" {
			if sp := spans[s.File]; sp == nil {
				spans[s.File] = &span{off: s.off, end: s.end}
			} else {
				sp.off, sp.end = min(sp.off, s.off), max(sp.end, s.end)
			}
		}
	}
	defer func() {
		for _, sp := range spans {
			if sp.f != nil {
				sp.f.Close()
			}
		}
	}()
	pooled := digestBufs.Get().(*[]byte)
	defer digestBufs.Put(pooled)
	bufp := pooled
	var line []byte
	quoted, qfile := 0, ""
	for i := range srcs {
		s := &srcs[i]
		if sum := r.sums[s.File]; sum != "" && s.kind == srcJSON {
			// The file holds this thread alone and its bytes were hashed
			// by the scan: its hash stands for every message in it, their
			// places included (the scan finds them in those bytes).
			if !named[s.File] {
				named[s.File] = true
				fmt.Fprintf(w, "file %q %x\n", name(s.File), sum)
			}
			continue
		}
		if s.File != qfile || quoted == 0 {
			// A thread's messages are mostly in one file: its name is
			// quoted once.
			line = strconv.AppendQuote(append(line[:0], "msg "...), name(s.File))
			quoted, qfile = len(line), s.File
		}
		line = line[:quoted]
		for _, v := range [...]int64{int64(s.Line), int64(s.Col), int64(s.kind), s.off, s.end} {
			line = append(line, ' ')
			line = strconv.AppendInt(line, v, 10)
		}
		w.Write(append(line, '\n'))
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
		sp := spans[s.File]
		if sp.f == nil {
			f, err := os.Open(filepath.FromSlash(s.File))
			if err != nil {
				return err
			}
			sp.f = f
			if sp.end-sp.off <= 16<<20 {
				own := bufp // the first file's span uses the pooled buffer
				if bufp == nil {
					own = new([]byte)
				}
				bufp = nil
				if sp.buf, err = readRange(f, sp.off, sp.end, own); err != nil {
					return err
				}
			}
		}
		if sp.buf != nil {
			w.Write(sp.buf[s.off-sp.off : s.end-sp.off])
			continue
		}
		var one []byte
		data, err := readRange(sp.f, s.off, s.end, &one)
		if err != nil {
			return err
		}
		w.Write(data)
	}
	return nil
}

// digestBufs are Digest's read buffers.
var digestBufs = sync.Pool{New: func() any { return new([]byte) }}

// readRange reads bytes [off, end) of f into *buf (grown as needed).
func readRange(f *os.File, off, end int64, buf *[]byte) ([]byte, error) {
	n := int(end - off)
	if cap(*buf) < n {
		*buf = make([]byte, n)
	}
	b := (*buf)[:n]
	if k, err := f.ReadAt(b, off); k < n {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return b, nil
}
