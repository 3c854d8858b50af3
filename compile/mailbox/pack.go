package mailbox

import (
	"encoding/binary"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/brenner-ci/brenner-ci/compile/binenc"
	"github.com/brenner-ci/brenner-ci/compile/tempfile"
	"github.com/brenner-ci/brenner-ci/diag"
)

// Scan keeps the metadata of every message of the batch until its thread is
// checked: close to a million messages in a nightly audit. Held as Message
// structs (about 700 bytes each with their strings, a dozen pointers for the
// collector to follow) that was most of the run's memory. Instead, each
// file's records are packed into one byte slice as soon as the file is
// scanned (about 150 bytes a message, nothing for the collector to scan), and
// a message is unpacked again only when its thread is merged or loaded.

// packed is the packed records of one input file (or of 1 GiB of them: a
// huge JSON Lines dump is split, so offsets fit in 32 bits).
type packed struct {
	enc []byte
	// The strings shared by the file's records (project, thread id,
	// sender, …), end to end in one string, followed by where each ends
	// (nstr 4-byte little-endian offsets): one object and one pointer for
	// all of them, not one each. A nightly audit holds a pack per file
	// until its thread is checked, and the collector visits every object
	// and pointer it holds at every cycle.
	tab  string
	nstr uint32
	mems [][]byte // srcMem buffers (JSON text embedded in a string field)

	// A pack kept in a spill file (spill.go) holds enc only while it is in
	// use (view), guarded by mu.
	mu sync.Mutex
	sp *spill
	at tempfile.At
	// users counts the threads holding records of the pack until they are
	// released (ThreadRef.Release lets the records go with the last: see
	// release).
	users atomic.Int32
	// kept is set when the pack's records are read again after its threads
	// are released (Inputs.kept: a scan of the base revision reuses them):
	// release then keeps them.
	kept bool
	// file is the file's descriptor, kept open by the scan for the first
	// Load that reads records of the pack from it (keptFile.take), or nil.
	file *keptFile
	// preads is set when a record of the pack is a JSON object Load reads
	// back from the file at its offset (srcJSON): only then is the file kept.
	preads bool
}

// view returns the pack's records and shared strings (tab), read back from
// the spill file when they are not in memory (they stay until evict).
func (p *packed) view() ([]byte, string) {
	if p.sp == nil {
		return p.enc, p.tab
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.enc == nil {
		p.enc = p.sp.read(p.at)
	}
	return p.enc, p.tab
}

// evict drops a spilled pack's records from memory (view reads them back).
func (p *packed) evict() {
	if p.sp == nil {
		return
	}
	p.mu.Lock()
	p.enc = nil
	p.mu.Unlock()
}

// release lets the pack's records go once the last thread holding them is
// released: a spilled pack's leave memory (evict; nothing reads them
// again), and an unspilled pack forgets them unless it is kept. Packs are
// allocated 64 to an array (packer.packs), so a pack outlives its threads
// while any pack of its array is in use: a check of 10,000 threads held
// every thread's records (16 MB) until the last thread was checked, and
// the collector let the heap grow to three times that. The shared strings
// stay: a thread's key and the strings of its findings are views of them.
func (p *packed) release() {
	if p.sp != nil {
		p.evict()
		return
	}
	if !p.kept {
		p.enc, p.mems = nil, nil
	}
}

// nstrs is the number of shared strings.
func (p *packed) nstrs() int { return int(p.nstr) }

// str is shared string i (0 <= i < nstrs) of tab, the pack's (view).
func (p *packed) str(tab string, i int) string {
	ends := len(tab) - 4*int(p.nstr)
	start := uint32(0)
	if i > 0 {
		start = le32(tab[ends+4*(i-1):])
	}
	return tab[start:le32(tab[ends+4*i:])]
}

func le32(s string) uint32 {
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// setStrs stores list as the shared strings.
func (p *packed) setStrs(list []string) {
	n := 0
	for _, s := range list {
		n += len(s)
	}
	b := make([]byte, 0, n+4*len(list))
	for _, s := range list {
		b = append(b, s...)
	}
	end := uint32(0)
	for _, s := range list {
		end += uint32(len(s))
		b = binary.LittleEndian.AppendUint32(b, end)
	}
	p.tab, p.nstr = unsafe.String(unsafe.SliceData(b), len(b)), uint32(len(list))
}

// msgRef is one packed record.
type msgRef struct {
	p   *packed
	off uint32
}

// packer packs the records of one file; packers are pooled.
type packer struct {
	p     *packed
	packs []packed // where reset takes the next file's pack from (see refAlloc)
	buf   []byte   // the records so far; copied to p.enc by finish
	strs  []string // the shared strings so far; stored in p by finish
	tab   map[string]uint32
	last  []byte // the last srcMem buffer seen, and its index
	lidx  uint32
}

func (pk *packer) reset() {
	pk.p = nextOf(&pk.packs)
	if pk.tab == nil {
		pk.tab = map[string]uint32{}
	}
	clear(pk.tab)
	pk.last, pk.lidx = nil, 0
	pk.buf = pk.buf[:0]
	pk.strs = pk.strs[:0]
}

// finish stores the packed records in their exact size.
func (pk *packer) finish() {
	pk.p.enc = append([]byte(nil), pk.buf...)
	pk.p.setStrs(pk.strs)
	clear(pk.strs) // the pooled packer keeps no file's strings
	pk.strs = pk.strs[:0]
	if cap(pk.buf) > 1<<20 {
		pk.buf = nil
	}
	pk.p = nil
}

func (pk *packer) uvarint(v uint64) { pk.buf = binary.AppendUvarint(pk.buf, v) }
func (pk *packer) varint(v int64)   { pk.buf = binary.AppendVarint(pk.buf, v) }

// str packs a string that is likely unique to the record.
func (pk *packer) str(s string) { pk.buf = appendString(pk.buf, s) }

// shared packs a string that the file's records are likely to repeat,
// and returns its index among the shared strings.
func (pk *packer) shared(s string) uint32 {
	i, ok := pk.tab[s]
	if !ok {
		i = uint32(len(pk.strs))
		pk.strs = append(pk.strs, s)
		pk.tab[s] = i
	}
	pk.uvarint(uint64(i))
	return i
}

func (pk *packer) list(l []string) {
	pk.uvarint(uint64(len(l)))
	for _, s := range l {
		pk.shared(s)
	}
}

func (pk *packer) pos(p diag.Pos) {
	pk.shared(p.File)
	pk.varint(int64(p.Line))
	pk.varint(int64(p.Col))
	pk.varint(int64(p.EndLine))
	pk.varint(int64(p.EndCol))
}

const (
	flRecipients = 1 << iota
	flAckRequired
	flAckSet
	flHasBody
	flCreated
	flLazyHash
)

// add packs message m and its record r and returns where they are, and
// the index of the thread key among the shared strings (fileResult.keys).
func (pk *packer) add(m *Message, r *recInfo) (ref msgRef, key uint32) {
	off := uint32(len(pk.buf))
	pk.str(m.ID)
	pk.shared(m.Project)
	pk.shared(m.ThreadID)
	key = pk.shared(m.ThreadKey)
	pk.str(m.Subject)
	pk.shared(m.From)
	pk.list(m.To)
	pk.list(m.CC)
	pk.list(m.BCC)
	var fl byte
	if m.RecipientsKnown {
		fl |= flRecipients
	}
	if m.AckRequired {
		fl |= flAckRequired
	}
	if m.AckSet {
		fl |= flAckSet
	}
	if m.HasBody {
		fl |= flHasBody
	}
	if !m.Created.IsZero() {
		fl |= flCreated
	}
	if m.Src.lazyHash {
		fl |= flLazyHash
	}
	pk.buf = append(pk.buf, fl)
	pk.shared(m.Importance)
	pk.str(m.CreatedRaw)
	if !m.Created.IsZero() {
		pk.varint(m.Created.Unix())
		pk.uvarint(uint64(m.Created.Nanosecond()))
	}
	pk.shared(m.TimeStyle)
	s := &m.Src
	pk.shared(s.File)
	pk.varint(int64(s.Line))
	pk.varint(int64(s.Col))
	pk.buf = append(pk.buf, byte(s.kind))
	pk.p.preads = pk.p.preads || s.kind == srcJSON
	pk.varint(s.off)
	pk.varint(s.end)
	pk.buf = binary.LittleEndian.AppendUint64(pk.buf, s.hash)
	pk.buf = binary.LittleEndian.AppendUint32(pk.buf, s.sum)
	pk.varint(int64(s.lit0))
	pk.varint(int64(s.lit1))
	pk.varint(int64(s.litLine))
	pk.varint(int64(s.litCol))
	switch {
	case s.mem == nil:
		pk.uvarint(0)
	default:
		if pk.lidx == 0 || len(pk.last) != len(s.mem) || unsafe.SliceData(pk.last) != unsafe.SliceData(s.mem) {
			pk.p.mems = append(pk.p.mems, s.mem)
			pk.last, pk.lidx = s.mem, uint32(len(pk.p.mems))
		}
		pk.uvarint(uint64(pk.lidx))
	}
	pk.pos(r.tsPos)
	pk.shared(r.tsKey)
	pk.shared(r.tsIssue)
	pk.shared(r.bodyIssue)
	pk.buf = binary.LittleEndian.AppendUint64(pk.buf, r.meta)
	return msgRef{pk.p, off}, key
}

var packerPool = sync.Pool{New: func() any { return &packer{} }}

// maxPacked is where a file's records start a new packed slice.
var maxPacked = 1 << 30 // a variable for tests

// packRecs replaces the records of a scanned file by their packed form.
func packRecs(res *fileResult) {
	res.flush()
	// The result lives until merge, with every other file's: its emptied
	// list of records goes, and the list of packed ones holds no spare
	// room (a nightly audit's scan held 60 MB of the two).
	res.recycle()
	switch {
	case len(res.refs) == 0:
		res.refs, res.keys = nil, nil
	case cap(res.refs) > len(res.refs):
		res.refs, res.keys = slices.Clone(res.refs), slices.Clone(res.keys)
	}
	if res.pk != nil {
		res.pk.finish()
		packerPool.Put(res.pk)
		res.pk = nil
	}
}

// flush packs the records held unpacked (scanRecs keeps them; scanFile
// packs each as it reads it).
func (res *fileResult) flush() {
	if len(res.recs) == 0 {
		return
	}
	if res.pk == nil {
		res.pk = packerPool.Get().(*packer)
		res.pk.reset()
	}
	res.refs = slices.Grow(res.refs, len(res.recs))
	res.keys = slices.Grow(res.keys, len(res.recs))
	for i, r := range res.recs {
		res.pack(r.m, &r.recInfo)
		res.recs[i] = nil
	}
	res.recs = res.recs[:0]
}

// pack packs message m and its record r with the file's others; a pack
// grown past maxPacked is finished and the next one started.
func (res *fileResult) pack(m *Message, r *recInfo) {
	if len(res.pk.buf) > maxPacked {
		res.pk.finish()
		res.pk.reset()
	}
	ref, key := res.pk.add(m, r)
	res.refs, res.keys = append(res.refs, ref), append(res.keys, key)
}

// reader reads the varint-framed fields of packed records and scan cache
// entries.
type reader = binenc.Reader

// appendString appends s with its length.
func appendString(b []byte, s string) []byte { return binenc.AppendString(b, s) }

// unpacker reads one packed record.
type unpacker struct {
	reader
	p    *packed
	tab  string // p's shared strings (view)
	mode decodeMode
}

// unpack starts reading the record at ref.
func (ref msgRef) unpack(mode decodeMode) unpacker {
	enc, tab := ref.p.view()
	return unpacker{reader{B: enc[ref.off:]}, ref.p, tab, mode}
}

// decodeMode says which of a record's own strings are read.
type decodeMode uint8

const (
	decodeFull  decodeMode = iota // every field
	decodeMerge                   // no subject and no recipients: what merge reads
	// decodeLite skips every string of the record itself (id, subject,
	// time text, recipients): reading where a message is, or checking
	// that a record unpacks, allocates nothing.
	decodeLite
)

// strs sets the record's own strings (id, subject, time text) from their
// packed bytes as the mode wants them: none (decodeLite); for merge, the id
// and time text as views of the pack's bytes, which never change once
// packed (the merged records live only while their thread is merged, and
// what merge keeps of an id, in findings, it copies); else copies, the
// three in one allocation.
func (u *unpacker) strs(m *Message, id, subject, created []byte) {
	switch u.mode {
	case decodeLite:
	case decodeMerge:
		m.ID = unsafe.String(unsafe.SliceData(id), len(id))
		m.CreatedRaw = unsafe.String(unsafe.SliceData(created), len(created))
	default:
		n := len(id) + len(subject) + len(created)
		if n == 0 {
			return
		}
		b := append(append(append(make([]byte, 0, n), id...), subject...), created...)
		all := unsafe.String(unsafe.SliceData(b), n)
		i, j := len(id), len(id)+len(subject)
		m.ID, m.Subject, m.CreatedRaw = all[:i], all[i:j], all[j:]
	}
}

func (u *unpacker) shared() string {
	i := u.Uvarint()
	if i >= uint64(u.p.nstrs()) {
		u.Bad = true
		return ""
	}
	return u.p.str(u.tab, int(i))
}

func (u *unpacker) list(keep bool) []string {
	n := u.Count()
	if n == 0 {
		return nil
	}
	if !keep {
		for range n {
			u.shared()
		}
		return nil
	}
	l := make([]string, n)
	for i := range l {
		l[i] = u.shared()
	}
	return l
}

func (u *unpacker) pos() diag.Pos {
	return diag.Pos{File: u.shared(), Line: int(u.Varint()), Col: int(u.Varint()), EndLine: int(u.Varint()), EndCol: int(u.Varint())}
}

// recInto unpacks the message of the record at ref into m. The packed
// form is written by add in the same process (or read from a checksummed
// scan cache entry, which decodeScan checks with source first), so a
// decoding failure is a bug; it panics, which the thread's task turns into
// an internal-error finding.
func (ref msgRef) recInto(m *Message) {
	r := rec{m: m}
	if !ref.decode(decodeFull, &r) {
		panic("mailbox: corrupt packed message record")
	}
}

// source is where the record's message is (its Src and whether it has a
// body), read without the record's own strings and without allocating;
// ok is false when the record does not unpack.
func (ref msgRef) source() (src Src, hasBody, ok bool) {
	var m Message
	r := rec{m: &m}
	ok = ref.decode(decodeLite, &r)
	return m.Src, m.HasBody, ok
}

// decode unpacks the record at ref into r and r.m; the strings mode
// leaves out stay empty (the shared strings, flags, times and the source
// are always read). It reports whether the record unpacked.
func (ref msgRef) decode(mode decodeMode, r *rec) bool {
	u := ref.unpack(mode)
	m := r.m
	id := u.Bytes()
	m.Project = u.shared()
	m.ThreadID = u.shared()
	m.ThreadKey = u.shared()
	subject := u.Bytes()
	m.From = u.shared()
	m.To = u.list(mode == decodeFull)
	m.CC = u.list(mode == decodeFull)
	m.BCC = u.list(mode == decodeFull)
	fl := u.Byte()
	m.RecipientsKnown = fl&flRecipients != 0
	m.AckRequired = fl&flAckRequired != 0
	m.AckSet = fl&flAckSet != 0
	m.HasBody = fl&flHasBody != 0
	m.Importance = u.shared()
	created := u.Bytes()
	if fl&flCreated != 0 {
		sec := u.Varint()
		m.Created = time.Unix(sec, int64(u.Uvarint())).UTC()
	}
	m.TimeStyle = u.shared()
	s := &m.Src
	s.File = u.shared()
	s.Line = int(u.Varint())
	s.Col = int(u.Varint())
	s.kind = srcKind(u.Byte())
	s.off = u.Varint()
	s.end = u.Varint()
	s.hash = u.U64()
	s.lazyHash = fl&flLazyHash != 0
	s.sum = u.U32()
	s.lit0, s.lit1 = int32(u.Varint()), int32(u.Varint())
	s.litLine, s.litCol = int32(u.Varint()), int32(u.Varint())
	if i := u.Uvarint(); i > 0 && i <= uint64(len(u.p.mems)) {
		s.mem = u.p.mems[i-1]
	}
	r.tsPos = u.pos()
	r.tsKey = u.shared()
	r.tsIssue = u.shared()
	r.bodyIssue = u.shared()
	r.meta = u.U64()
	u.strs(m, id, subject, created)
	return !u.Bad
}

// keyIndex is the index of the record's thread key among its pack's
// shared strings, read without unpacking the rest; ok is false when the
// record does not hold one.
func (ref msgRef) keyIndex() (i uint32, ok bool) {
	u := ref.unpack(decodeLite)
	u.Bytes()  // id
	u.shared() // project
	u.shared() // thread id
	k := u.Uvarint()
	return uint32(k), !u.Bad && k < uint64(ref.p.nstrs())
}
