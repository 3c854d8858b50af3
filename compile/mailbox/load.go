package mailbox

import (
	"bytes"
	"cmp"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/brenner-ci/brenner-ci/compile/chunk"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
)

// Load reads the thread's messages again, with bodies: for each message it
// re-reads only the bytes Scan recorded (the JSON object of the message, the
// JSON Lines line, or the archive file; a positioned read, with neighbouring
// ranges of one file read in one go), decodes them, checks that the body
// still has the content hash seen by Scan, and fills Body, Fields (computed
// on first use) and the body position mapping used by BodyPos. The returned
// messages are copies; the ThreadRef keeps its packed metadata.
//
// Messages that came from JSON embedded in a JSON string (MCP
// contents[].text) are decoded from the copy Scan kept; their positions are
// those of the string field.
func (r *ThreadRef) Load() (*Thread, error) {
	if r.from != nil {
		return r.loadAgain()
	}
	t := &Thread{Key: r.Key, ThreadID: r.threadID, Project: r.project, Findings: r.Findings(),
		Messages: r.Messages()}
	type want struct {
		i        int
		off, end int64
	}
	var files []string
	byFile := map[string][]want{}
	kept := map[string]*keptFile{} // the scan's open descriptor of a file, when it kept one
	ld := loaderPool.Get().(*loader)
	ld.p.MaxDepth = r.maxDepth
	t.bodies = getSlab()
	ld.bodies = t.bodies
	defer ld.release()
	// The field regions and body maps of the messages Load's shortcut
	// fills, one array each for the thread (fillScanned).
	slots := make([]loadSlot, len(t.Messages))
	for i, cp := range t.Messages {
		switch cp.Src.kind {
		case srcMem:
			if err := ld.fillJSON(cp, cp.Src.mem[cp.Src.off:cp.Src.end], nil); err != nil {
				return nil, err
			}
		case srcArchive:
			data, err := os.ReadFile(filepath.FromSlash(cp.Src.File))
			if err != nil {
				return nil, err
			}
			if err := ld.fillArchive(cp, data); err != nil {
				return nil, err
			}
		default:
			if _, ok := byFile[cp.Src.File]; !ok {
				files = append(files, cp.Src.File)
				kept[cp.Src.File] = r.entry(i).src.p.file
			}
			byFile[cp.Src.File] = append(byFile[cp.Src.File], want{i, cp.Src.off, cp.Src.end})
		}
	}
	const gap = 64 << 10 // read neighbouring ranges closer than this together
	for _, name := range files {
		ws := byFile[name]
		slices.SortFunc(ws, func(a, b want) int { return cmp.Compare(a.off, b.off) })
		f := kept[name].take()
		if f == nil {
			var err error
			if f, err = openInput(filepath.FromSlash(name)); err != nil {
				return nil, err
			}
		}
		for i := 0; i < len(ws); {
			j, end := i, ws[i].end
			for j+1 < len(ws) && ws[j+1].off <= end+gap {
				j++
				if ws[j].end > end {
					end = ws[j].end
				}
			}
			base := ws[i].off
			// A pooled buffer the thread holds until it is released: its
			// messages' positions are read from it until then.
			h := &held{base: base, buf: getReadBuf(int(end - base))}
			t.held = append(t.held, h)
			buf := h.buf
			if n, err := f.ReadAt(buf, base); n < len(buf) {
				f.Close()
				if err == io.EOF || err == nil {
					return nil, changed(t.Messages[ws[i].i])
				}
				return nil, err
			}
			for k := i; k <= j; k++ {
				w := ws[k]
				t.Messages[w.i].Src.held = h
				if err := ld.fillJSON(t.Messages[w.i], buf[w.off-base:w.end-base:w.end-base], &slots[w.i]); err != nil {
					f.Close()
					return nil, err
				}
			}
			i = j + 1
		}
		f.Close()
	}
	return t, nil
}

func changed(m *Message) error {
	return fmt.Errorf("%s:%d: message %s changed on disk after the scan", m.Src.File, m.Src.Line, m.ID)
}

// loader holds the buffers one Load reuses for all its messages; loaders
// are pooled so concurrent Loads of many threads do not regrow them.
type loader struct {
	p       jparser
	lm      diag.LineIndex
	scratch []byte
	bodies  *slab // the loaded thread's (Thread.bodies)
	// scanned is set when the bytes fillJSON is given are the very buffer
	// the scan read the records from (an early check, scanner.load): their
	// checksum holds without computing it again (0.7% of a check of
	// 10,000 threads, thirty-fourth round).
	scanned bool
}

// held is a range of a file that Load read for a thread. Its loaded
// messages' positions are computed from it while the thread holds it; once
// the thread is released (Thread.Release) the buffer goes back to the pool
// and positions read the file again (Src.reread).
type held struct {
	base     int64
	buf      []byte
	released bool
	scan     bool // buf is the scan's buffer of the whole file (Early): not a pooled one
}

// Release gives the thread's read buffers and the memory of its bodies
// back for other threads to load into. Call it when the thread is done
// with: its messages' metadata stays usable (a position asked for after it
// reads the file again), but no string of a body may be used after it.
func (t *Thread) Release() {
	for _, h := range t.held {
		h.released = true
		if !h.scan {
			putReadBuf(h.buf)
		}
		h.buf = nil
	}
	t.held = nil
	if t.bodies != nil {
		putSlab(t.bodies)
		t.bodies = nil
	}
}

// A slab holds the decoded bodies of one loaded thread, end to end, until
// the thread is released; it is then reused for the next thread's. Bodies
// were a fifth of everything a check allocated, all of it garbage once
// the thread was checked. When a slab is full, a larger one takes its
// place (the bodies already in the old one keep it alive until they are
// garbage).
type slab struct {
	buf []byte
}

// PoisonOnRelease is for tests: Release fills the slab's bytes with 0xFF
// (never in UTF-8 text) and does not reuse it, so that a string of a body
// used after its thread was released shows the poison in a report, where
// the next thread's text at the same place could pass unnoticed.
var PoisonOnRelease bool

// maxSlabKept is the largest slab kept for reuse: a thread with far larger
// bodies does not leave its slab that large in the pool.
const maxSlabKept = 4 << 20

var slabs = sync.Pool{New: func() any { return new(slab) }}

func getSlab() *slab { return slabs.Get().(*slab) }

func putSlab(s *slab) {
	if PoisonOnRelease {
		b := s.buf[:cap(s.buf)]
		for i := range b {
			b[i] = 0xFF
		}
		return
	}
	if cap(s.buf) > maxSlabKept {
		return
	}
	s.buf = s.buf[:0]
	slabs.Put(s)
}

// room returns the slab's free space, at least n bytes of capacity and
// length 0, for a body to be appended to; take then keeps those bytes. A
// new array is twice the size of the full one, up to chunk.MaxGrowBytes:
// only the last array has room to spare (the full ones are in use), and
// a thread of 100,000 messages left half of its 32 MB of bodies' memory
// unused.
func (s *slab) room(n int) []byte {
	if cap(s.buf)-len(s.buf) < n {
		s.buf = make([]byte, 0, max(min(2*cap(s.buf), chunk.MaxGrowBytes), n, 64<<10))
	}
	return s.buf[len(s.buf):len(s.buf)]
}

// take keeps b, which room returned and the caller filled, and returns it
// as a string. If b outgrew the room, it is a new array of its own.
func (s *slab) take(b []byte) string {
	if len(b) > 0 && unsafe.SliceData(b) == unsafe.SliceData(s.buf[len(s.buf):cap(s.buf)]) {
		s.buf = s.buf[:len(s.buf)+len(b)]
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// readBufs are Load's read buffers, reused across threads (a fresh buffer
// per thread was 260 MB per 10,000 threads).
var readBufs sync.Pool // of *[]byte

func getReadBuf(n int) []byte {
	if bp, _ := readBufs.Get().(*[]byte); bp != nil && cap(*bp) >= n {
		return (*bp)[:n]
	}
	return make([]byte, n)
}

func putReadBuf(b []byte) {
	if cap(b) == 0 || cap(b) > 4<<20 {
		return // do not keep a large file's buffer
	}
	readBufs.Put(&b)
}

var loaderPool = sync.Pool{New: func() any { return &loader{} }}

func (ld *loader) release() {
	if cap(ld.p.Nodes) > 1<<16 {
		ld.p.Nodes = nil
	}
	if cap(ld.scratch) > 1<<20 {
		ld.scratch = nil
	}
	ld.lm.Reset(nil)
	ld.bodies = nil
	ld.scanned = false
	loaderPool.Put(ld)
}

// loadSlot holds what fillScanned makes for one message: its field
// regions and its body map.
type loadSlot struct {
	fields lazyFields
	bm     bodyMap
}

// fillJSON decodes message object src (at m.Src.off of the file, which is at
// m.Src.Line:Col) and fills Body, Fields and the body mapping; the shortcut
// (fillScanned) puts the last two in slot.
func (ld *loader) fillJSON(m *Message, src []byte, slot *loadSlot) error {
	if m.Src.kind == srcJSON && m.Src.sum != 0 && loadShortcut && slot != nil {
		return ld.fillScanned(m, src, slot)
	}
	if m.Src.kind != srcMem {
		src = bytes.Clone(src) // kept by the body map and the fields: not the reused buffer
	}
	root, err := ld.p.parse(src, 0, len(src))
	if err != nil || ld.p.Nodes[root].Kind != jObj {
		return changed(m)
	}
	ld.lm.Reset(src)
	d := &jdoc{src: src, nodes: ld.p.Nodes, buf: &ld.scratch, file: m.Src.File,
		fileOff: m.Src.off, line0: m.Src.Line, col0: m.Src.Col, lm: &ld.lm, maxDepth: ld.p.MaxDepth}
	if m.Src.kind == srcMem {
		d.mem = m.Src.mem
		d.approx = diag.Pos{File: m.Src.File, Line: m.Src.Line, Col: m.Src.Col}.Normalize()
	}
	_, f := fieldPos(d, root, false)
	m.fields = lazyJSONFields(src, d)
	if f.id >= 0 && scalarText(d, f.id) != m.ID {
		return changed(m)
	}
	bodyN := f.body
	if bodyN < 0 || d.kind(bodyN) != jStr {
		if m.HasBody {
			return changed(m)
		}
		return nil
	}
	if !m.HasBody {
		return changed(m)
	}
	nd := d.nodes[bodyN]
	lit := src[nd.Start:nd.End]
	body := lit[1 : len(lit)-1]
	if nd.Esc || !isASCII(body) && !utf8.Valid(body) {
		ld.scratch = decodeString(ld.scratch[:0], lit, nil)
		body = ld.scratch
	}
	if h, ok := m.Src.bodyHash(); !ok || hashBody(body) != h {
		return changed(m)
	}
	m.Body = string(body)
	line, col := d.pos(int(nd.Start)) // the literal's start; the body starts after the quote
	m.Src.bm = &bodyMap{line: line, col: col + 1, lit: lit, approx: d.mem != nil}
	if d.mem != nil {
		m.Src.bm.col = col
	}
	return nil
}

// loadShortcut enables fillScanned (tests compare it with the full path).
var loadShortcut = true

// fillScanned is fillJSON for an object whose checksum and body literal
// Scan recorded: when the bytes are the ones Scan read (their CRC-32C is
// the same), everything Scan derived from them holds, so the body is
// decoded from where Scan saw it, without tokenising the object again.
func (ld *loader) fillScanned(m *Message, src []byte, slot *loadSlot) error {
	s := &m.Src
	if !ld.scanned && crc32.Checksum(src, castagnoli) != s.sum {
		return changed(m)
	}
	// src is in a buffer the thread holds until it is released: the fields
	// and the body map read the object again through s (Src.reread) when a
	// position is first asked for (a few messages in a hundred).
	slot.fields.from, slot.fields.depth = s, ld.p.MaxDepth
	m.fields = &slot.fields
	if !m.HasBody {
		return nil
	}
	if s.lit1 <= s.lit0 || int(s.lit1) > len(src) || s.lit0 < 0 {
		return changed(m) // not expected: Scan records the literal of every JSON body
	}
	lit := src[s.lit0:s.lit1]
	body := lit[1 : len(lit)-1]
	// Scan left the body's hash for later (lazyHash) exactly when the
	// literal needs decoding: it has an escape, or bytes that are not
	// UTF-8. These are the bytes it read (the same CRC-32C), so the body is
	// not searched for a backslash again.
	// The body goes to the thread's slab (no second copy): valid until
	// the thread is released.
	if s.lazyHash {
		m.Body = ld.bodies.take(decodeString(ld.bodies.room(len(body)+jsonv.DecodeSlack), lit, nil))
	} else {
		m.Body = ld.bodies.take(append(ld.bodies.room(len(body)), body...))
	}
	slot.bm.line, slot.bm.col, slot.bm.from = int(s.litLine), int(s.litCol)+1, s
	s.bm = &slot.bm
	return nil
}

// reread returns the message object's bytes [off, end) of its file: from
// the buffer Load read them into while the thread holds it, else read
// again; nil when they are no longer the bytes Scan read (their CRC-32C
// differs). The result may be the held buffer: copy what is kept.
func (s *Src) reread() []byte {
	if h := s.held; h != nil && !h.released {
		return h.buf[s.off-h.base : s.end-h.base]
	}
	f, err := openInput(filepath.FromSlash(s.File))
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, s.end-s.off)
	if n, _ := f.ReadAt(b, s.off); n < len(b) || crc32.Checksum(b, castagnoli) != s.sum {
		return nil
	}
	return b
}

// rereadFields computes the field regions of the message object at s from
// its bytes read again (nil when they changed), parsed within depth.
func (s *Src) rereadFields(depth int) map[string]diag.Pos {
	if obj := s.reread(); obj != nil {
		return jsonFieldPos(obj, &jdoc{file: s.File, fileOff: s.off, line0: s.Line, col0: s.Col, maxDepth: depth})
	}
	return nil
}

// lazyJSONFields returns what computes the field regions of the message
// object src (as d places it) when a position is first asked for: a map
// of sixteen regions per message cost more than anything else in Load, and
// only messages with findings need one.
func lazyJSONFields(src []byte, d *jdoc) *lazyFields {
	at := *d // its place only
	return &lazyFields{compute: func() map[string]diag.Pos { return jsonFieldPos(src, &at) }}
}

// jsonFieldPos computes the field regions of message object src, placed
// as at says (file, offsets, embedding).
func jsonFieldPos(src []byte, at *jdoc) map[string]diag.Pos {
	p := jparser{jsonv.Scanner{MaxDepth: at.maxDepth}}
	root, err := p.parse(src, 0, len(src))
	if err != nil {
		return nil
	}
	var lm diag.LineIndex
	lm.Reset(src)
	var scratch []byte
	d := &jdoc{src: src, nodes: p.Nodes, buf: &scratch, file: at.file, fileOff: at.fileOff,
		line0: at.line0, col0: at.col0, lm: &lm, mem: at.mem, approx: at.approx}
	fp, _ := fieldPos(d, root, true)
	return fp
}

// fillArchive decodes an archive message file.
func (ld *loader) fillArchive(m *Message, data []byte) error {
	js, je, bodyOff, ok, _, _ := frontMatter(data)
	if !ok {
		return changed(m)
	}
	root, err := ld.p.parse(data, js, je)
	if err != nil || ld.p.Nodes[root].Kind != jObj {
		return changed(m)
	}
	ld.lm.Reset(data)
	d := &jdoc{src: data, nodes: ld.p.Nodes, buf: &ld.scratch, file: m.Src.File, line0: 1, col0: 1, lm: &ld.lm}
	body := data[bodyOff:]
	if hashBody(body) != m.Src.hash {
		return changed(m)
	}
	file, depth := m.Src.File, ld.p.MaxDepth
	m.fields = &lazyFields{compute: func() map[string]diag.Pos {
		p := jparser{jsonv.Scanner{MaxDepth: depth}}
		root, err := p.parse(data, js, je)
		if err != nil {
			return nil
		}
		var lm diag.LineIndex
		lm.Reset(data)
		var scratch []byte
		d := &jdoc{src: data, nodes: p.Nodes, buf: &scratch, file: file, line0: 1, col0: 1, lm: &lm}
		fp, _ := fieldPos(d, root, true)
		fp["body_md"] = d.span(bodyOff, len(data))
		return fp
	}}
	if !m.HasBody {
		return nil // a blank body (IN-002): nothing to map
	}
	m.Body = string(body)
	line, col := d.pos(bodyOff)
	m.Src.bm = &bodyMap{line: line, col: col, verbatim: true, idx: diag.NewLineIndex(body)}
	return nil
}

// posFields are the message fields whose value regions Fields records.
var posFields = map[string]bool{
	"id": true, "thread_id": true, "subject": true, "from": true, "sender_name": true, "sender": true,
	"from_agent": true, "to": true, "cc": true, "bcc": true, "importance": true, "ack_required": true,
	"created_ts": true, "created": true, "body_md": true, "project": true,
}

// msgFields are the value nodes of a message object that Load needs.
type msgFields struct{ id, body int32 }

// fieldPos records the region of the value of every message field (see
// posFields), keyed by the field name as written, plus two aliases: "from"
// for the sender field actually used (sender_name, sender, from_agent) and
// "created_ts" for "created" when created_ts is absent or null.
//
// Without withPos only the value nodes are found (the map is nil).
func fieldPos(d *jdoc, n int32, withPos bool) (map[string]diag.Pos, msgFields) {
	var fp map[string]diag.Pos
	if withPos {
		// Room for the object's members, at most the len(posFields)
		// kept: a map made for sixteen holds 1.2 KB, and a thread of
		// 100,000 messages with findings on most of them kept 21 MB of
		// them for messages of six fields.
		fp = make(map[string]diag.Pos, min(int(d.nodes[n].N/2), len(posFields)))
	}
	f := msgFields{id: -1, body: -1}
	var from [4]int32 = [4]int32{-1, -1, -1, -1}
	cts := int32(-1)
	for k := d.nodes[n].Child; k >= 0; {
		v := d.nodes[k].Next
		nk := &d.nodes[k]
		var key string
		if nk.Esc {
			key = d.text(k)
		} else {
			key = bytesKey(d.src[nk.Start+1 : nk.End-1])
		}
		// A repeated key keeps its first value, as in Scan (fieldsOf).
		if _, seen := fp[key]; withPos && posFields[key] && !seen {
			fp[key] = d.span(int(d.nodes[v].Start), int(d.nodes[v].End))
		}
		first := func(slot *int32) {
			if *slot < 0 {
				*slot = v
			}
		}
		switch key {
		case "id":
			first(&f.id)
		case "body_md":
			first(&f.body)
		case "created_ts":
			first(&cts)
		case senderKeys[0], senderKeys[1], senderKeys[2], senderKeys[3]:
			first(&from[senderIndex(key)])
		}
		k = d.nodes[v].Next
	}
	if !withPos {
		return nil, f
	}
	if from[0] < 0 || d.kind(from[0]) != jStr || d.nodes[from[0]].End-d.nodes[from[0]].Start <= 2 {
		for i, alt := range []string{"", "sender_name", "sender", "from_agent"} {
			if v := from[i]; i > 0 && v >= 0 && d.kind(v) == jStr && d.nodes[v].End-d.nodes[v].Start > 2 {
				fp["from"] = fp[alt]
				break
			}
		}
	}
	if cts < 0 || d.kind(cts) == jNull {
		if p, ok := fp["created"]; ok {
			fp["created_ts"] = p
		}
	}
	return fp, f
}

// BodyPos maps the byte range [start, end) of m.Body to a file region
// (1-based lines, columns in code points). For JSON exports the body is a
// string literal, so decoded offsets are mapped through the escapes to the
// raw literal (\n, \", \uXXXX and surrogate pairs take more raw bytes than
// they decode to); an offset inside an escape maps to the escape's start
// (for start) or end (for end). For archive files the body is verbatim after
// the front matter. For bodies that came from JSON embedded in a string only
// the string's position is known. Before Load (no body mapping) the message
// position is returned.
func (m *Message) BodyPos(start, end int) diag.Pos {
	bm := m.Src.bm
	if bm == nil {
		return m.Pos("body_md")
	}
	if start < 0 {
		start = 0
	}
	if start > len(m.Body) {
		start = len(m.Body)
	}
	if end < start {
		end = start
	}
	if end > len(m.Body) {
		end = len(m.Body)
	}
	p := diag.Pos{File: m.Src.File}
	switch {
	case bm.approx:
		p.Line, p.Col = bm.line, bm.col
	case bm.verbatim:
		l, c := bm.idx.LineCol(start)
		p.Line, p.Col = bm.line+l-1, c
		if l == 1 {
			p.Col += bm.col - 1
		}
		l, c = bm.idx.LineCol(end)
		p.EndLine, p.EndCol = bm.line+l-1, c
		if l == 1 {
			p.EndCol += bm.col - 1
		}
	default:
		p.Line, p.EndLine = bm.line, bm.line
		cs, ce, ok := bm.walk(start, end)
		if !ok {
			bm.once.Do(bm.build)
			cs = bm.rawCols(jsonv.RawOffset(bm.esc, start, false))
			ce = bm.rawCols(jsonv.RawOffset(bm.esc, end, true))
		}
		p.Col, p.EndCol = bm.col+cs, bm.col+ce
	}
	return p.Normalize()
}

// maxWalks is how many positions of one body BodyPos finds by walking its
// literal (jsonv.RawOffsets) before it builds the escape table: most
// bodies with a finding have one or two, and a table costs an entry per
// escaped line break; a body with many findings gets the table, so that
// finding their positions stays linear.
const maxWalks = 4

// walk returns the columns of decoded offsets start <= end, found by
// walking the literal, while the literal is at hand without reading the
// file and the body has had fewer than maxWalks positions; ok is false
// otherwise (use the table).
func (bm *bodyMap) walk(start, end int) (cs, ce int, ok bool) {
	if bm.walks.Add(1) > maxWalks {
		return 0, 0, false
	}
	lit := bm.lit
	if s := bm.from; lit == nil && s != nil {
		if h := s.held; h != nil && !h.released {
			lit = h.buf[s.off-h.base : s.end-h.base][s.lit0:s.lit1]
		}
	}
	if len(lit) < 2 {
		return 0, 0, false
	}
	rs, re, ok := jsonv.RawOffsets(lit, start, end)
	if !ok {
		return 0, 0, false
	}
	raw := lit[1 : len(lit)-1]
	rs, re = min(rs, len(raw)), min(re, len(raw)) // as rawCols clamps: never past the literal
	return diag.RuneCount(raw[:rs]), diag.RuneCount(raw[:re]), true
}

// build computes the escape table of a JSON body literal.
func (bm *bodyMap) build() {
	if bm.lit == nil && bm.from != nil {
		if obj := bm.from.reread(); obj != nil {
			bm.lit = bytes.Clone(obj[bm.from.lit0:bm.from.lit1]) // kept: not the held buffer
		}
		bm.from = nil
	}
	if len(bm.lit) < 2 {
		bm.lit, bm.ascii = nil, true // the file changed: offsets in the body stand for columns
		return
	}
	bm.ascii = isASCII(bm.lit)
	if bytes.IndexByte(bm.lit, '\\') >= 0 || !bm.ascii {
		jsonv.Escapes(bm.lit, &bm.esc) // the table only, not a decoded copy
	}
}

// rawCols counts the code points of the first n raw bytes.
func (bm *bodyMap) rawCols(n int) int {
	if bm.ascii || len(bm.lit) < 2 {
		return n
	}
	raw := bm.lit[1 : len(bm.lit)-1]
	if n > len(raw) {
		n = len(raw)
	}
	return diag.RuneCount(raw[:n])
}

// BodyEncoding says how a message body's bytes are written in its file,
// which decides how a fix to the body must be written there.
type BodyEncoding int

const (
	// BodyUnknown: no body position is known (no fix can be placed).
	BodyUnknown BodyEncoding = iota
	// BodyVerbatim: the body's bytes appear as they are (archive files).
	BodyVerbatim
	// BodyJSONString: the body is a JSON string literal; replacement text
	// must be JSON-string-escaped.
	BodyJSONString
	// BodyApproximate: the body came from JSON embedded in a string; only
	// its line is known, so no fix can be placed.
	BodyApproximate
)

// Encoding returns how m's body is written in its file.
func (m *Message) Encoding() BodyEncoding {
	bm := m.Src.bm
	switch {
	case bm == nil:
		return BodyUnknown
	case bm.approx:
		return BodyApproximate
	case bm.verbatim:
		return BodyVerbatim
	}
	return BodyJSONString
}
