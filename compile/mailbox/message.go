// Package mailbox ingests Agent Mail exports (thread JSON, arrays, JSON Lines,
// MCP/JSON-RPC envelopes, Git-archive folders), detected by content, into
// messages grouped by thread.
//
// Ingest is two-pass so that a batch never holds every body at once: Scan
// records each message's metadata and where its bytes are, without bodies;
// ThreadRef.Load re-reads the bodies of one thread when it is compiled.
package mailbox

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/brenner-ci/brenner-ci/diag"
)

// Message is one normalized Agent Mail message.
type Message struct {
	ID        string // id as text: 418 → "418"; string ids kept as given
	Project   string // project (human key) when known
	ThreadID  string // thread_id as given; "" when null or absent
	ThreadKey string // the thread it is grouped into (see package doc)
	Subject   string
	From      string // from, else sender_name, sender, from_agent
	To        []string
	CC        []string
	BCC       []string
	// RecipientsKnown is false when the export left out to/cc/bcc
	// (Python thread resources do), so "no recipients" is unknown, not empty.
	RecipientsKnown bool
	AckRequired     bool
	AckSet          bool // ack_required was present in the export
	Importance      string
	CreatedRaw      string    // created_ts / created as written (or the archive file-name stamp)
	Created         time.Time // UTC instant; zero when CreatedRaw is missing or invalid
	TimeStyle       string    // format family of CreatedRaw (see TimeStyles), "" when invalid
	HasBody         bool      // body_md was present as a string (archive: the text after the front matter is not blank)
	Body            string    // body_md; only set on messages returned by ThreadRef.Load
	Seq             int       // global input order: file order, then order inside the file
	Src             Src
	// fields gives, once Load has filled it, the file region of a field's
	// value (see Fields), computed on first use.
	fields *lazyFields
}

// lazyFields computes a loaded message's field regions on first use.
type lazyFields struct {
	once    sync.Once
	compute func() map[string]diag.Pos
	from    *Src // or, without compute: the message object read again from here
	depth   int  // from: the JSON nesting limit of the scan (0: the default)
	fp      map[string]diag.Pos
}

// Fields gives the file region of a field's value, keyed by the export's
// field name as written ("subject", "thread_id", "ack_required",
// "created_ts" or "created", "id", "from", "body_md"; also "to", "cc",
// "bcc", "importance", "project", "sender_name", "sender", "from_agent"
// when present). Two aliases are added: "from" for the sender field
// actually used, and "created_ts" for "created" when created_ts is absent.
// For archive files the keys are inside the ---json block, and "body_md"
// is the body text after it. For JSON embedded in a string (MCP
// contents[].text) every region is that string's. Nil before Load;
// computed on the first call (the message's bytes are parsed again), as
// most messages never need a position.
func (m *Message) Fields() map[string]diag.Pos {
	lf := m.fields
	if lf == nil {
		return nil
	}
	lf.once.Do(func() {
		if lf.compute != nil {
			lf.fp, lf.compute = lf.compute(), nil
		} else if lf.from != nil {
			lf.fp, lf.from = lf.from.rereadFields(lf.depth), nil
		}
	})
	return lf.fp
}

// Pos returns the region of field name (falling back to the message start).
func (m *Message) Pos(name string) diag.Pos {
	if p, ok := m.Fields()[name]; ok && p.Line > 0 {
		return p
	}
	return diag.Pos{File: m.Src.File, Line: m.Src.Line, Col: m.Src.Col}.Normalize()
}

// Src says where a message came from.
type Src struct {
	File string // input path as given on the command line, slash separated
	Line int    // 1-based line of the message object (JSON) or of the file's first line (archive)
	Col  int

	// Where the message's bytes are, recorded by Scan and used by Load.
	kind srcKind
	off  int64  // byte range of the message object (JSON), or [0, size) of an archive file
	end  int64  //
	hash uint64 // content hash of the body (normalized), checked again by Load
	// lazyHash: hash is not computed yet (see bodyHash).
	lazyHash bool
	// srcJSON: CRC-32C of the object's bytes (0: not recorded), and where
	// its body_md string literal is (quotes included, relative to off; lit1
	// is 0 without one) with the file position of its opening quote. Load
	// takes the body from there when the bytes have not changed.
	sum             uint32
	lit0, lit1      int32
	litLine, litCol int32
	mem             []byte // srcMem: the JSON text that was embedded in a string field (rare, small)

	// Body position mapping, filled by Load (nil on Scan metadata).
	bm *bodyMap
	// held is the buffer Load read the object into (see Src.reread).
	held *held
}

type srcKind uint8

const (
	srcJSON    srcKind = iota // a JSON object at [off, end) of File (thread file, array, JSON Lines line)
	srcArchive                // an archive message file: ---json front matter, then the verbatim body
	srcMem                    // JSON decoded from a string field (MCP contents[].text); positions approximate
)

// bodyMap maps byte offsets of Message.Body to file positions. For archive
// files the body is verbatim text starting at line:col; for JSON exports the
// body is a string literal whose raw bytes (after the opening quote) start at
// line:col. The escape table of a JSON literal is built on the first BodyPos
// call, so messages that never need a position do not pay for it.
type bodyMap struct {
	line, col int
	lit       []byte // JSON: the string literal as written, quotes included
	// from, when lit is nil, is where the literal is read again (Load
	// reuses its read buffer); lit stays nil when the file changed since.
	from     *Src
	verbatim bool // archive: body bytes appear verbatim in the file
	idx      *diag.LineIndex
	approx   bool // body came from JSON text embedded in a string: only its line is known

	walks atomic.Int32 // positions asked for (BodyPos walks the literal for the first few)
	once  sync.Once
	ascii bool     // JSON: the literal is pure ASCII, so columns equal byte offsets
	esc   []escape // JSON: escapes in document order
}

// TimeStyles lists the timestamp families IN-004 distinguishes.
var TimeStyles = []string{
	"rfc3339-z",      // 2026-01-14T15:09:41.003Z / …41Z
	"rfc3339-offset", // 2026-01-14T15:09:41.003117+00:00
	"naive-t",        // 2026-01-14T15:09:41.003117 (UTC assumed)
	"naive-space",    // 2026-01-14 15:09:41.003117 (UTC assumed)
	"epoch",          // 1768403381, …ms, …µs
	"date",           // 2026-01-14
	"archive-name",   // 2026-01-14T15-09-41Z from an archive file name
}

// Thread is one thread with its messages in protocol order: by instant, ties
// by input order. Messages carry bodies.
type Thread struct {
	Key      string // grouping key (thread_id, or the root message id)
	ThreadID string // thread_id as given by the messages ("" for id-keyed threads)
	Project  string
	Messages []*Message
	// Findings are input problems of this thread (IN-002 … IN-005).
	Findings []diag.Finding

	held   []*held // Load's read buffers (see Release)
	bodies *slab   // where Load decoded the bodies (see Release)
}

// Batch is the result of Scan: every thread found in the inputs (bodies not
// loaded), and problems that belong to no thread.
type Batch struct {
	Threads []*ThreadRef // sorted by Key
	// Findings are input problems not tied to a thread: IN-001 unreadable
	// input, unsupported shapes, toon exports, archive oddities.
	Findings []diag.Finding
	// Agents are agent names known from archive agents/*/profile.json files.
	Agents []string
	// Markdown lists input files that are not mailbox data but markdown
	// (persisted artifacts and other .md files outside an archive's messages/
	// tree), in walk order, for the artifact linter.
	Markdown []string
	// ArtifactJSON lists JSON artifact objects ({metadata, sections}, the
	// upstream linter's input) among the inputs, for the artifact linter.
	ArtifactJSON []string
	// Files counts the input files read.
	Files int
	// Lines holds the lines of the files read whole (JSON documents), by
	// path as positions name it, for the first 65,536 of them (maxLines):
	// a SARIF report clamps its regions to them without reading each file
	// again.
	Lines map[string]diag.Lines
}
