package mailbox

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/brenner-ci/brenner-ci/compile/chunk"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

// msgNodes are the nodes of a message object's known fields (-1: absent).
type msgNodes struct {
	id, tid, subj, cts, created, body, to, cc, bcc, ack, imp, proj int32
	from                                                           [4]int32 // senderKeys order
}

// fieldsOf finds the known fields of message object n. A repeated known
// key keeps its first value (what a reader of the file sees first); the
// repeated keys' nodes are returned for IN-007.
func fieldsOf(d *jdoc, n int32) (msgNodes, []int32) {
	f := msgNodes{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, [4]int32{-1, -1, -1, -1}}
	var dups []int32
	nodes := d.nodes
	set := func(slot *int32, k, v int32) {
		if *slot >= 0 {
			dups = append(dups, k)
			return
		}
		*slot = v
	}
	for k := nodes[n].Child; k >= 0; {
		v := nodes[k].Next
		var key string
		if !nodes[k].Esc {
			key = bytesKey(d.src[nodes[k].Start+1 : nodes[k].End-1])
		} else {
			key = d.text(k)
		}
		switch key {
		case "id":
			set(&f.id, k, v)
		case "thread_id":
			set(&f.tid, k, v)
		case "subject":
			set(&f.subj, k, v)
		case senderKeys[0], senderKeys[1], senderKeys[2], senderKeys[3]:
			set(&f.from[senderIndex(key)], k, v)
		case "created_ts":
			set(&f.cts, k, v)
		case "created":
			set(&f.created, k, v)
		case "body_md":
			set(&f.body, k, v)
		case "to":
			set(&f.to, k, v)
		case "cc":
			set(&f.cc, k, v)
		case "bcc":
			set(&f.bcc, k, v)
		case "ack_required":
			set(&f.ack, k, v)
		case "importance":
			set(&f.imp, k, v)
		case "project":
			set(&f.proj, k, v)
		}
		k = nodes[v].Next
	}
	return f, dups
}

// duplicateKey reports key node k of an object, a repeat of an earlier key
// whose first value is used (IN-007). It is the one report of a repeated key
// for everything the scanner reads: message fields (fieldsOf) and the keys
// of the objects around messages (containerKeys).
func (s *scanner) duplicateKey(d *jdoc, k int32, msg, anchor string) {
	s.res.findings = append(s.res.findings, diag.Finding{
		Rule: ruleid.IN007, Code: "DUPLICATE_KEY", Severity: diag.Error,
		Message: msg, Hint: "Keep one of the two fields.", Pos: d.span(int(d.nodes[k].Start), int(d.nodes[k].End)),
		Anchor: anchor})
}

// containerKeys reports the repeats among keys of object n, an object
// around messages (an export, an envelope, a delivery, a content element):
// as for message fields, the first value is used (jdoc.get).
func (s *scanner) containerKeys(d *jdoc, n int32, keys ...string) {
	for _, k := range d.repeats(n, keys) {
		key := d.text(k)
		s.duplicateKey(d, k, fmt.Sprintf("Key %q appears twice in one object; the first value is used, but other tools may take the last, so a reviewer may read other messages than the ones that are checked.", key),
			"duplicate "+key)
	}
}

// message ingests message object n: its metadata, where its bytes are, its
// timestamp and whether it has a body. Bodies are not decoded here.
func (s *scanner) message(d *jdoc, n int32, c ctx) {
	f, dups := fieldsOf(d, n)
	for _, k := range dups {
		key := d.text(k)
		s.duplicateKey(d, k, fmt.Sprintf("Message field %q appears twice in one message; the first value is used, but other tools may take the last, so a reviewer may read another message than the one that is checked.", key),
			"duplicate "+key+" "+scalarText(d, f.id))
	}
	// The message and its record stay on the stack: they are packed before
	// message returns (s.keep), and nothing keeps them.
	m := &Message{Importance: "normal"}
	r := &recInfo{}
	s.metadata(d, f, c, m)
	if why := badID(d, f.id); why != "" {
		s.res.findings = append(s.res.findings, diag.Finding{Rule: ruleid.IN012, Code: "INVALID_MESSAGE_ID", Severity: diag.Error,
			Message: "Message id " + why + "; messages are matched, referenced and suppressed by id.",
			Hint:    "Export each message with its Agent Mail id: a positive integer or a short string.",
			Pos:     d.span(int(d.nodes[f.id].Start), int(d.nodes[f.id].End)), Anchor: "bad id " + why})
	}
	m.Src = sourceOf(d, n, c)
	msgPos := diag.Pos{File: m.Src.File, Line: m.Src.Line, Col: m.Src.Col}.Normalize()
	timestamp(d, f, c, m, r, msgPos)
	if m.ThreadID != "" {
		m.ThreadKey = threadKey(m.ThreadID)
	}
	if m.ThreadKey == "" {
		m.ThreadKey = m.ID
	}
	if m.ThreadKey == "" {
		s.fileIssue(msgPos, "no-id "+m.Subject, "Message has neither an id nor a thread_id, so it cannot be placed in a thread.",
			"Export messages with their id and thread_id fields.")
		return
	}
	s.body(d, f, c, m, r)
	r.meta = metaHash(m)
	s.keep(m, r)
}

// keep packs a scanned message and its record (scanFile), or keeps a copy
// of them unpacked (scanRecs). Packing them at once spares the heap a
// Message and a record per message.
func (s *scanner) keep(m *Message, r *recInfo) {
	res := s.res
	if res.pk == nil {
		kept := res.newRec()
		kept.recInfo, *kept.m = *r, *m
		// views of the file's bytes (jdoc.view), which the next read reuses,
		// copied (the two in one allocation), and the scanner's recipient
		// arrays, which the next message reuses
		if n := len(m.Subject) + len(m.CreatedRaw); n > 0 {
			b := append(append(make([]byte, 0, n), m.Subject...), m.CreatedRaw...)
			both := unsafe.String(unsafe.SliceData(b), n)
			kept.m.Subject, kept.m.CreatedRaw = both[:len(m.Subject)], both[len(m.Subject):]
		}
		kept.m.To, kept.m.CC, kept.m.BCC = res.ownList(m.To), res.ownList(m.CC), res.ownList(m.BCC)
		res.recs = append(res.recs, kept)
		return
	}
	res.pack(m, r)
}

// metadata reads the id, project, thread, subject, sender, recipients,
// ack_required and importance of a message.
func (s *scanner) metadata(d *jdoc, f msgNodes, c ctx, m *Message) {
	m.ID = scalarText(d, f.id)
	if m.ID == "" && c.arch != nil {
		m.ID = c.arch.nameID
	}
	m.Project = c.project
	if f.proj >= 0 && d.kind(f.proj) == jStr {
		if p := s.internText(d, f.proj); p != "" {
			m.Project = p
		}
	}
	if f.tid >= 0 {
		if d.kind(f.tid) == jStr {
			m.ThreadID = s.internText(d, f.tid)
		} else {
			m.ThreadID = scalarText(d, f.tid)
		}
	}
	if m.ThreadID == "" {
		m.ThreadID = c.threadID
	}
	if f.subj >= 0 && d.kind(f.subj) == jStr {
		m.Subject = d.view(f.subj)
	}
	for _, fn := range f.from {
		if fn >= 0 && d.kind(fn) == jStr {
			if v := s.internText(d, fn); v != "" {
				m.From = v
				break
			}
		}
	}
	for i, rn := range [3]int32{f.to, f.cc, f.bcc} {
		list, ok := s.recipients(d, rn, s.lists[i][:0])
		if cap(list) > cap(s.lists[i]) {
			s.lists[i] = list[:0] // grown: reused from now on
		}
		if !ok {
			continue
		}
		m.RecipientsKnown = true
		switch i {
		case 0:
			m.To = list
		case 1:
			m.CC = list
		case 2:
			m.BCC = list
		}
	}
	if f.ack >= 0 {
		m.AckRequired, m.AckSet = ackValue(d, f.ack)
	}
	if f.imp >= 0 && d.kind(f.imp) == jStr {
		if v := s.internText(d, f.imp); v != "" {
			m.Importance = v
		}
	}
}

// sourceOf is the position and location of message object n's bytes.
func sourceOf(d *jdoc, n int32, c ctx) Src {
	st, end := d.nodes[n].Start, d.nodes[n].End
	switch {
	case d.mem != nil:
		return Src{File: d.file, Line: d.approx.Line, Col: d.approx.Col, kind: srcMem, off: int64(st), end: int64(end), mem: d.mem}
	case c.arch != nil:
		return Src{File: d.file, Line: 1, Col: 1, kind: srcArchive, off: 0, end: c.arch.size}
	}
	line, col := d.pos(int(st))
	return Src{File: d.file, Line: line, Col: col, kind: srcJSON, off: d.fileOff + int64(st), end: d.fileOff + int64(end),
		sum: crc32.Checksum(d.src[st:end], castagnoli)}
}

// timestamp reads created_ts, else created, else the archive file-name
// stamp.
func timestamp(d *jdoc, f msgNodes, c ctx, m *Message, r *recInfo, msgPos diag.Pos) {
	tsN := f.cts
	r.tsKey = "created_ts"
	if tsN < 0 || d.kind(tsN) == jNull {
		tsN, r.tsKey = f.created, "created"
	}
	switch {
	case tsN >= 0 && d.kind(tsN) != jNull:
		if d.kind(tsN) == jStr {
			m.CreatedRaw = d.view(tsN)
		} else {
			m.CreatedRaw = string(d.raw(tsN))
		}
		r.tsPos = d.span(int(d.nodes[tsN].Start), int(d.nodes[tsN].End))
		var ok bool
		if d.kind(tsN) == jStr || d.kind(tsN) == jNum {
			m.Created, m.TimeStyle, ok = ParseTime(m.CreatedRaw)
		}
		if !ok {
			r.tsIssue = "invalid"
			m.TimeStyle = ""
		}
	case c.arch != nil && c.arch.stamp != "":
		r.tsKey = ""
		m.CreatedRaw = c.arch.stamp
		m.Created, m.TimeStyle, _ = ParseTime(c.arch.stamp)
		r.tsPos = msgPos
	default:
		r.tsKey = ""
		r.tsIssue = "missing"
		r.tsPos = msgPos
	}
}

// body notes whether the message has a body and hashes it.
func (s *scanner) body(d *jdoc, f msgNodes, c ctx, m *Message, r *recInfo) {
	switch {
	case c.arch != nil:
		// An archive file cannot say "no body": the body is whatever follows
		// the front matter. Nothing there is how a message without a body
		// ends up in an archive (gen_corpus writes MISSING_BODY this way), so
		// a blank archive body counts as missing, not as an empty body.
		m.Src.hash = hashBody(c.arch.body)
		if len(bytes.TrimSpace(c.arch.body)) == 0 {
			r.bodyIssue = "archive-empty"
		} else {
			m.HasBody = true
		}
	case f.body >= 0 && d.kind(f.body) == jStr:
		m.HasBody = true
		nd := &d.nodes[f.body]
		inner := d.src[nd.Start+1 : nd.End-1]
		if m.Src.kind == srcJSON {
			// Load's shortcut: where the literal is in the object.
			rel := d.fileOff + int64(nd.Start) - m.Src.off
			if rel >= 0 && rel+int64(nd.End-nd.Start) <= m.Src.end-m.Src.off && m.Src.end-m.Src.off <= math.MaxInt32 {
				line, col := d.pos(int(nd.Start))
				m.Src.lit0, m.Src.lit1 = int32(rel), int32(rel)+int32(nd.End-nd.Start)
				m.Src.litLine, m.Src.litCol = int32(line), int32(col)
			}
		}
		escaped := nd.Esc || !isASCII(inner) && !utf8.Valid(inner)
		if escaped && m.Src.lit1 > 0 && m.Src.sum != 0 {
			// The content hash only tells two copies of one message
			// apart; decoding every body for it cost as much as Load's
			// decoding. It is computed when merge meets a copy. Load's
			// shortcut (fillScanned) decodes exactly the bodies left lazy.
			m.Src.lazyHash = true
			break
		}
		if escaped {
			s.dec = decodeString(s.dec[:0], d.src[nd.Start:nd.End], nil)
			inner = s.dec
		}
		m.Src.hash = hashBody(inner)
	case f.body >= 0 && d.kind(f.body) != jNull:
		r.bodyIssue = "body_md is " + kindName(d.kind(f.body)) + ", not a string"
	default:
		r.bodyIssue = "missing"
	}
}

// threadKey maps a thread_id to the grouping key: msg:<id> becomes <id>.
func threadKey(tid string) string {
	if rest, ok := strings.CutPrefix(tid, "msg:"); ok && rest != "" {
		return rest
	}
	return tid
}

// bytesKey returns the message field name spelled by b as a constant
// string (so no allocation), or "" for any other key.
func bytesKey(b []byte) string {
	switch string(b) {
	case "id":
		return "id"
	case "thread_id":
		return "thread_id"
	case "subject":
		return "subject"
	case "from":
		return "from"
	case "sender_name":
		return "sender_name"
	case "sender":
		return "sender"
	case "from_agent":
		return "from_agent"
	case "created_ts":
		return "created_ts"
	case "created":
		return "created"
	case "body_md":
		return "body_md"
	case "to":
		return "to"
	case "cc":
		return "cc"
	case "bcc":
		return "bcc"
	case "ack_required":
		return "ack_required"
	case "importance":
		return "importance"
	case "project":
		return "project"
	}
	return ""
}

// internText returns the text of string node n, shared with equal strings
// of the same file.
func (s *scanner) internText(d *jdoc, n int32) string {
	nd := &d.nodes[n]
	b := d.src[nd.Start+1 : nd.End-1]
	if nd.Esc || !isASCII(b) && !utf8.Valid(b) {
		s.dec = decodeString(s.dec[:0], d.src[nd.Start:nd.End], nil)
		b = s.dec
	}
	if v, ok := s.intern[string(b)]; ok {
		return v
	}
	v := string(b)
	s.intern[v] = v
	return v
}

// ownList copies a recipient list out of the scanner's arrays (nil when
// empty, as a list unpacked from a record is) into the file's chunk of
// names, which holds the lists of many messages, each capped at its
// length (chunk.Copy), and is reset with the records (recycle).
func (res *fileResult) ownList(l []string) []string {
	if len(l) == 0 {
		return nil
	}
	return chunk.Copy(&res.unp().names, l, false)
}

// recipients reads to/cc/bcc, an array of names or a comma-joined string,
// appended to list (the scanner's own array for the field: the message is
// packed before the next one is read, and keep copies the lists of records
// it holds unpacked). ok is false when the field is absent or null.
func (s *scanner) recipients(d *jdoc, n int32, list []string) ([]string, bool) {
	if n < 0 {
		return nil, false
	}
	switch d.kind(n) {
	case jArr:
		for e := d.nodes[n].Child; e >= 0; e = d.nodes[e].Next {
			if d.kind(e) == jStr {
				if v := s.internText(d, e); v != "" {
					list = append(list, v)
				}
			}
		}
		return list, true
	case jStr:
		for _, part := range strings.Split(d.text(n), ",") {
			if part = strings.TrimSpace(part); part != "" {
				if v, ok := s.intern[part]; ok {
					part = v
				} else {
					s.intern[part] = part
				}
				list = append(list, part)
			}
		}
		return list, true
	}
	return nil, false
}

// ackValue reads ack_required: a boolean, 0/1 (any number: non-zero is
// true) or the strings "true"/"false"/"1"/"0". set is false for null and
// unrecognized values.
func ackValue(d *jdoc, n int32) (val, set bool) {
	switch d.kind(n) {
	case jTrue:
		return true, true
	case jFalse:
		return false, true
	case jNum:
		f, err := strconv.ParseFloat(string(d.raw(n)), 64)
		return err == nil && f != 0, true
	case jStr:
		switch strings.ToLower(strings.TrimSpace(d.text(n))) {
		case "true", "1":
			return true, true
		case "false", "0":
			return false, true
		}
	}
	return false, false
}

// numberText renders a JSON number as an id: integers as written, integral
// floats (1.0, 4.18e2) in decimal, anything else as written.
func numberText(raw []byte) string {
	integer := true
	for _, c := range raw {
		if c == '.' || c == 'e' || c == 'E' {
			integer = false
			break
		}
	}
	if integer {
		return string(raw)
	}
	var f float64
	if _, err := fmt.Sscan(string(raw), &f); err == nil && f == float64(int64(f)) && f < 1<<53 && f > -(1<<53) {
		return fmt.Sprint(int64(f))
	}
	return string(raw)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// senderKeys are the sender fields in fallback order: from, else
// sender_name, sender, from_agent.
var senderKeys = [4]string{"from", "sender_name", "sender", "from_agent"}

func senderIndex(key string) int {
	for i, k := range senderKeys {
		if k == key {
			return i
		}
	}
	return -1
}

// badID says what is wrong with a message's id node, or "" (absent ids are
// judged elsewhere: a message needs an id or a thread id).
func badID(d *jdoc, n int32) string {
	if n < 0 {
		return ""
	}
	switch d.kind(n) {
	case jStr:
		t := d.text(n)
		switch {
		case strings.TrimSpace(t) == "":
			return "is an empty string"
		case len(t) > 200:
			return fmt.Sprintf("is %d bytes long (at most 200)", len(t))
		case strings.IndexFunc(t, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0:
			return "holds a control character"
		}
		return ""
	case jNum:
		raw := string(d.raw(n))
		// Integral values written as floats (902.0, 1e3) are accepted, as
		// some exporters write them; fractions and negatives are not.
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil || v < 0 || v != math.Trunc(v) {
			return "is " + raw + ", not a non-negative integer"
		}
		if len(raw) > 20 {
			return "is a " + strconv.Itoa(len(raw)) + "-digit number"
		}
		return ""
	}
	return "is " + kindName(d.kind(n)) + ", not a number or a string"
}
