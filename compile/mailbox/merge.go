package mailbox

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/sourcegraph/conc/iter"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// hashBody hashes a body ignoring leading and trailing white space and CR
// before LF, so the same message exported by different surfaces (archive
// files end with one newline; CRLF checkouts) hashes the same. It is CRC-32C
// (hardware accelerated) of the normalized text, with its length.
func hashBody(b []byte) uint64 {
	b = bytes.TrimSpace(b)
	var c uint32
	n := 0
	for {
		i := bytes.Index(b, crlf)
		if i < 0 {
			c = crc32.Update(c, castagnoli, b)
			n += len(b)
			return uint64(c)<<32 | uint64(uint32(n))
		}
		c = crc32.Update(c, castagnoli, b[:i])
		n += i
		b = b[i+1:] // drop the CR, keep the LF
	}
}

var crlf = []byte("\r\n")

// sameBody reports whether two scanned messages have the same body
// content (hashBody), computing a hash Scan left for later.
func sameBody(a, b *Src) bool {
	ha, oka := a.bodyHash()
	hb, okb := b.bodyHash()
	return oka && okb && ha == hb
}

// bodyHash is the content hash of the body, read again from the file
// when Scan did not compute it (a JSON body with escapes); false when the
// message is no longer what Scan read.
func (s *Src) bodyHash() (uint64, bool) {
	if !s.lazyHash {
		return s.hash, true
	}
	f, err := openInput(filepath.FromSlash(s.File))
	if err != nil {
		return 0, false
	}
	defer f.Close()
	buf := make([]byte, s.end-s.off)
	if n, _ := f.ReadAt(buf, s.off); n < len(buf) || crc32.Checksum(buf, castagnoli) != s.sum ||
		s.lit0 < 0 || s.lit1 <= s.lit0 || int(s.lit1) > len(buf) {
		return 0, false
	}
	return hashBody(decodeString(nil, buf[s.lit0:s.lit1], nil)), true
}

func hashString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	h ^= 0xff // separator
	h *= fnvPrime
	return h
}

func metaHash(m *Message) uint64 {
	h := uint64(fnvOffset)
	h = hashString(h, m.ThreadKey)
	h = hashString(h, m.Subject)
	h = hashString(h, m.From)
	if m.TimeStyle != "" {
		var buf [64]byte // the instant as RFC 3339 text, without allocating it
		t := m.Created.AppendFormat(buf[:0], time.RFC3339Nano)
		h = hashString(h, unsafe.String(unsafe.SliceData(t), len(t)))
	} else {
		h = hashString(h, m.CreatedRaw)
	}
	return h
}

// ---------------------------------------------------------------------------
// Merge

// maxLines is the most files whose lines a batch keeps (Batch.Lines):
// about 2.4 MB. A nightly audit of 200,000 files keeps its memory for the
// threads' results instead (its live heap peaks while the batch rules read
// them back), and the SARIF report reads the files past the first
// maxLines again, as it did before the scan counted them.
var maxLines = 1 << 16 // a variable for tests

func merge(results []*fileResult, jobs int) *Batch {
	b := &Batch{}
	// Group the packed records by thread key, in input order; Seq is the
	// global input order.
	threads := make(map[string][]member, len(results)) // most exports hold one thread a file
	// Files whose content hash is known and whose messages all have one
	// thread key: such a file is named by its hash in the cache key of its
	// thread (ThreadRef.Digest).
	sums := map[string]string{}
	seq := 0
	// The packs of the records, in input order (a pack once per run of
	// records in it): members name theirs by index, so that grouping the
	// batch's records holds no pointer per record for the collector to
	// follow (a nightly audit groups millions of them).
	var packs []*packed
	// The threads checked during the scan, by key: no other file holds a
	// thread of theirs (earlyAgain).
	early := map[string]*ThreadRef{}
	for _, res := range results {
		if res.read {
			b.Files++
		}
		if res.counted && len(b.Lines) < maxLines {
			if b.Lines == nil {
				b.Lines = make(map[string]diag.Lines, min(len(results), maxLines))
			}
			b.Lines[res.disp] = res.lines
		}
		b.Findings = append(b.Findings, res.findings...)
		b.Agents = append(b.Agents, res.agents...)
		if res.markdown {
			b.Markdown = append(b.Markdown, res.disp)
		}
		if res.artifact {
			b.ArtifactJSON = append(b.ArtifactJSON, res.disp)
		}
		if res.early != nil {
			early[res.earlyKey] = res.early
			res.early = nil
		}
		first, single := "", true
		// A file's records come in runs of one thread (a thread file is
		// one run): each run is one lookup of its key and one append.
		for i := 0; i < len(res.refs); {
			p, key := res.refs[i].p, res.keys[i]
			j := i + 1
			for j < len(res.refs) && res.refs[j].p == p && res.keys[j] == key {
				j++
			}
			// The key's index was recorded when the record was packed: the
			// shared strings are always in memory, so a spilled pack's
			// records are not read back for it.
			k := p.str(p.tab, int(key))
			if len(packs) == 0 || packs[len(packs)-1] != p {
				packs = append(packs, p)
			}
			g := threads[k]
			if g == nil {
				g = make([]member, 0, j-i)
			}
			for _, ref := range res.refs[i:j] {
				g = append(g, member{uint32(len(packs) - 1), ref.off, seq})
				seq++
			}
			threads[k] = g
			if i == 0 {
				first = k
			}
			single = single && k == first
			i = j
		}
		if res.sum != "" && len(res.refs) > 0 && single {
			sums[res.disp] = res.sum
		}
		res.refs, res.keys = nil, nil
	}
	keys := make([]string, 0, len(threads)+len(early))
	for k := range threads {
		keys = append(keys, k)
	}
	for k := range early {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	groups := make([][]member, len(keys))
	for i, k := range keys {
		groups[i] = threads[k]
	}
	clear(threads)
	// Threads are merged independently of each other, jobs at a time, and
	// listed in key order.
	merged := make([][]*ThreadRef, len(keys))
	iter.Iterator[string]{MaxGoroutines: jobs}.ForEachIdx(keys, func(i int, k *string) {
		if ref := early[*k]; ref != nil {
			merged[i] = []*ThreadRef{ref}
			return
		}
		merged[i] = mergeThread(*k, groups[i], packs, sums)
		groups[i] = nil
	})
	b.Threads = make([]*ThreadRef, 0, len(keys))
	for _, refs := range merged {
		b.Threads = append(b.Threads, refs...)
	}
	sort.Strings(b.Agents)
	b.Agents = compact(b.Agents)
	return b
}

// member is a packed record of a thread (its pack's index in merge's
// list of packs, and its offset there) and its place in the input.
type member struct {
	pack, off uint32
	seq       int
}

// mergeThread unpacks the records of thread key k, keeps one copy of a
// message exported twice, reports ids used twice and orders the messages;
// a thread whose messages name two projects becomes one thread per project.
func mergeThread(k string, members []member, packs []*packed, sums map[string]string) []*ThreadRef {
	defer func() {
		for _, mb := range members {
			packs[mb.pack].evict() // read back until the thread is loaded (spill.go)
		}
	}()
	var out []*ThreadRef
	// The records live until the thread is finished, in arrays reused from
	// thread to thread (they were 3% of a check's CPU allocated afresh).
	w := mergeBufsPool.Get().(*mergeBufs)
	defer w.release()
	slab, msgs := w.take(len(members))
	for i, mb := range members {
		r := &slab[i]
		r.m = &msgs[i]
		ref := msgRef{packs[mb.pack], mb.off}
		if !ref.decode(decodeMerge, r) { // merge reads no subject or recipients
			panic("mailbox: corrupt packed message record")
		}
		r.ref, r.src = ref, ref
		r.m.Seq = mb.seq
		w.add(r)
	}
	a := refAllocs.Get().(*refAlloc)
	defer refAllocs.Put(a)
	for _, g := range splitByProject(k, w.recs, w.dups) {
		ref := finishThread(g.key, g.recs, g.findings, a)
		ref.sums = sums
		ref.summed = inSummedFile(g.recs, sums)
		out = append(out, ref)
	}
	return out
}

// inSummedFile reports whether every record's message (the copy whose
// bytes Load reads) is a JSON object of one file whose content hash is in
// sums (ThreadRef.summed).
func inSummedFile(recs []*rec, sums map[string]string) bool {
	if len(recs) == 0 {
		return false
	}
	f := recs[0].m.Src.File
	for _, r := range recs {
		if r.m.Src.kind != srcJSON || r.m.Src.File != f {
			return false
		}
	}
	return sums[f] != ""
}

// mergeBufs is what mergeThread works in: the unpacked records and
// messages of one thread, their list, the IN-003 finding of each (aligned
// with recs, or nil) and the records by id. Nothing of it outlives the
// thread's merge: finishThread keeps the records' positions, and findings
// hold strings of the packs, not of these arrays.
type mergeBufs struct {
	slab []rec
	msgs []Message
	recs []*rec
	dups []*diag.Finding
	byID map[idKey]*rec
}

// idKey is a message id within its project: ids clash only there.
type idKey struct{ project, id string }

var mergeBufsPool = sync.Pool{New: func() any { return &mergeBufs{byID: map[idKey]*rec{}} }}

// maxPooledMerge bounds the records a pooled mergeBufs keeps between
// threads; a longer thread's arrays go to the collector.
const maxPooledMerge = 4096

// take returns zeroed records and messages for n members, and empties
// the list, the finding list and the map.
func (w *mergeBufs) take(n int) ([]rec, []Message) {
	if cap(w.slab) < n {
		w.slab, w.msgs = make([]rec, n), make([]Message, n)
	}
	w.slab, w.msgs = w.slab[:n], w.msgs[:n]
	w.recs, w.dups = w.recs[:0], w.dups[:0]
	return w.slab, w.msgs
}

// add takes a thread's next record in input order: it keeps one copy of
// a message exported twice (the one with a body) and notes an id used by
// two different messages (IN-003).
func (w *mergeBufs) add(r *rec) {
	m := r.m
	var dup *diag.Finding
	if m.ID != "" {
		// Ids are unique per Agent Mail database; exports of
		// different servers reuse them, so a clash only counts
		// within one thread of one project.
		key := idKey{m.Project, m.ID}
		if prev, ok := w.byID[key]; ok {
			pm := prev.m
			if prev.meta == r.meta && (!pm.HasBody || !m.HasBody || sameBody(&pm.Src, &m.Src)) {
				// The same message again (another export of it):
				// keep one copy, the one with a body.
				if !pm.HasBody && m.HasBody {
					pm.HasBody, pm.Src = true, m.Src
					prev.src = r.ref
					prev.bodyIssue = ""
					prev.tsPos, prev.tsKey = r.tsPos, r.tsKey
				}
				return
			}
			dup = &diag.Finding{
				Rule: ruleid.IN003, Code: "DUPLICATE_MESSAGE_ID", Severity: diag.Error,
				Message: fmt.Sprintf("Message id %s is used by two different messages; the other one is at %s:%d.", m.ID, pm.Src.File, pm.Src.Line),
				Hint:    "Message ids must be unique within a thread; remove the stray copy or give it its own id.",
				Pos:     diag.Pos{File: m.Src.File, Line: m.Src.Line, Col: m.Src.Col}.Normalize(),
				Thread:  m.ThreadKey, MsgID: strings.Clone(m.ID), Anchor: "duplicate id " + m.ID,
			}
		} else {
			w.byID[key] = r
		}
	}
	w.recs = append(w.recs, r)
	w.dups = append(w.dups, dup)
}

// release clears what the merge left (no stale pointer keeps a pack or a
// string alive) and pools w unless its arrays grew past maxPooledMerge.
func (w *mergeBufs) release() {
	if cap(w.slab) > maxPooledMerge || len(w.byID) > maxPooledMerge {
		return
	}
	clear(w.slab)
	clear(w.msgs)
	clear(w.recs[:cap(w.recs)])
	clear(w.dups[:cap(w.dups)])
	clear(w.byID)
	mergeBufsPool.Put(w)
}

// A projectGroup is the messages of one thread id in one project.
type projectGroup struct {
	key      string
	recs     []*rec
	findings []diag.Finding
}

// splitByProject keys a thread by project and thread id when its messages
// name more than one Agent Mail project: a file from another project that
// reuses the thread id must not join the thread (and, say, KILL its
// hypotheses). Each project's messages become a thread keyed
// "<thread id>@<project slug>" ("@unknown-project" for messages that name
// none), and each such thread gets an IN-014 finding. With one project (or
// none named) the thread is left as it is.
func splitByProject(key string, recs []*rec, dups []*diag.Finding) []projectGroup {
	// A thread's messages name one project, usually as the same path:
	// slugify each distinct name once (it was 3% of a check).
	var lastName, lastSlug string
	have := false
	slugOf := func(p string) string {
		if !have || p != lastName {
			lastName, lastSlug, have = p, projectSlug(p), true
		}
		return lastSlug
	}
	slugs := map[string]bool{}
	for _, r := range recs {
		if sl := slugOf(r.m.Project); sl != "" {
			slugs[sl] = true
		}
	}
	if len(slugs) < 2 {
		g := projectGroup{key: key, recs: recs}
		for _, d := range dups {
			if d != nil {
				g.findings = append(g.findings, *d)
			}
		}
		return []projectGroup{g}
	}
	names := make([]string, 0, len(slugs))
	for sl := range slugs {
		names = append(names, sl)
	}
	sort.Strings(names)
	byKey := map[string]*projectGroup{}
	var order []string
	for i, r := range recs {
		sl := slugOf(r.m.Project)
		if sl == "" {
			sl = "unknown-project"
		}
		gk := key + "@" + sl
		g := byKey[gk]
		if g == nil {
			g = &projectGroup{key: gk}
			byKey[gk] = g
			order = append(order, gk)
			m := r.m
			g.findings = append(g.findings, diag.Finding{
				Rule: ruleid.IN014, Code: "THREAD_IN_TWO_PROJECTS", Severity: diag.Error,
				Message: fmt.Sprintf("Thread id %s is used in %d projects (%s): the messages of each project are checked as a thread of their own (%s), and their artifacts/%s.md would collide.",
					key, len(names), strings.Join(names, ", "), gk, key),
				Hint:   "Check one project's export at a time, or give the threads distinct ids.",
				Pos:    diag.Pos{File: m.Src.File, Line: m.Src.Line, Col: m.Src.Col}.Normalize(),
				Thread: gk, MsgID: strings.Clone(m.ID), Anchor: "thread in projects " + gk,
			})
		}
		g.recs = append(g.recs, r)
		if d := dups[i]; d != nil {
			f := *d
			f.Thread = gk
			g.findings = append(g.findings, f)
		}
	}
	sort.Strings(order)
	out := make([]projectGroup, 0, len(order))
	for _, gk := range order {
		out = append(out, *byKey[gk])
	}
	return out
}

// projectSlug is the slug of an Agent Mail project as exports name it: the
// human key (an absolute path) slugified the way Agent Mail does — lower
// case, every run of other characters than a-z and 0-9 a "-" — or the slug
// inside a scrubbed "[project path redacted: <slug>]".
func projectSlug(p string) string {
	p = strings.TrimSpace(p)
	if rest, ok := strings.CutPrefix(p, "[project path redacted:"); ok {
		p = strings.TrimSuffix(strings.TrimSpace(rest), "]")
	}
	if isSlug(p) {
		return p // already one (the common case): no copy
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(p) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		} else {
			dash = true
		}
	}
	return b.String()
}

// isSlug reports whether p is what projectSlug makes of it: runs of
// lower-case ASCII letters and digits joined by single dashes.
func isSlug(p string) bool {
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
		case c == '-' && i > 0 && i < len(p)-1 && p[i-1] != '-':
		default:
			return false
		}
	}
	return p != ""
}

func compact(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// finishThread orders a thread's messages, computes its findings
// (settle) and makes its reference.
func finishThread(key string, recs []*rec, findings []diag.Finding, a *refAlloc) *ThreadRef {
	ref := a.ref()
	ref.Key = key
	ref.findings, ref.threadID, ref.project = settle(key, recs, findings)
	entries := make([]msgEntry, len(recs))
	for i, r := range recs {
		entries[i] = msgEntry{meta: r.ref, src: r.src, seq: r.m.Seq}
	}
	ref.setMsgs(entries, a)
	return ref
}

// settle orders a thread's messages (recs, in place) and computes its
// findings; it returns them with the thread's id and project.
//
// Order: by instant, ties by input order. A message whose timestamp is
// missing or invalid keeps its place in input order: it gets the instant of
// the message before it in input order within its thread (the zero time when
// it is the first), so it sorts right after that message.
//
// It is long on purpose: timestamp checks, ordering, id and project are one pass over the thread's records.
func settle(key string, recs []*rec, findings []diag.Finding) (_ []diag.Finding, threadID, project string) {
	var prev time.Time
	for _, r := range recs { // recs are in input order
		if r.tsIssue == "" {
			r.eff = r.m.Created
		} else {
			r.eff = prev
		}
		prev = r.eff
	}
	sort.Slice(recs, func(i, j int) bool {
		if !recs[i].eff.Equal(recs[j].eff) {
			return recs[i].eff.Before(recs[j].eff)
		}
		return recs[i].m.Seq < recs[j].m.Seq
	})
	styles := map[string]bool{}
	var firstStyle string
	var differs *rec
	for _, r := range recs {
		m := r.m
		if threadID == "" && m.ThreadID != "" {
			threadID = m.ThreadID
		}
		if project == "" && m.Project != "" {
			project = m.Project
		}
		if r.bodyIssue != "" {
			msg := fmt.Sprintf("Message %s has no body_md: the export was made without include_bodies.", m.ID)
			hint := "Re-export with include_bodies=true (e.g. resource://thread/{id}?include_bodies=true)."
			switch r.bodyIssue {
			case "missing":
			case "archive-empty":
				msg = fmt.Sprintf("Message %s has no body: its archive file has nothing after the ---json front matter.", m.ID)
				hint = "Restore the message file from the archive's Git history, or export the thread as JSON with include_bodies=true."
			default:
				msg = fmt.Sprintf("Message %s has no usable body: %s.", m.ID, r.bodyIssue)
			}
			findings = append(findings, diag.Finding{
				Rule: ruleid.IN002, Code: "MISSING_BODY", Severity: diag.Error, Message: msg,
				Hint:   hint,
				Pos:    diag.Pos{File: m.Src.File, Line: m.Src.Line, Col: m.Src.Col}.Normalize(),
				Thread: key, MsgID: strings.Clone(m.ID), Anchor: "missing body " + m.ID,
			})
		}
		switch r.tsIssue {
		case "":
			if firstStyle == "" {
				firstStyle = m.TimeStyle
			} else if m.TimeStyle != firstStyle && differs == nil {
				differs = r
			}
			styles[m.TimeStyle] = true
		case "missing":
			findings = append(findings, diag.Finding{
				Rule: ruleid.IN005, Code: "INVALID_TIMESTAMP", Severity: diag.Error,
				Message: fmt.Sprintf("Message %s has no created_ts, so its place in the thread is unknown; it is kept in input order.", m.ID),
				Hint:    "Export messages with created_ts (RFC 3339, e.g. 2026-01-14T15:09:41Z).",
				Pos:     r.tsPos, Thread: key, MsgID: strings.Clone(m.ID), Anchor: "missing timestamp " + m.ID,
			})
		default:
			findings = append(findings, diag.Finding{
				Rule: ruleid.IN005, Code: "INVALID_TIMESTAMP", Severity: diag.Error,
				Message: fmt.Sprintf("Message %s has an invalid %s %s, so its place in the thread is unknown; it is kept in input order.", m.ID, r.tsKey, quoteShort(m.CreatedRaw)),
				Hint:    "Use an RFC 3339 timestamp such as 2026-01-14T15:09:41Z (or epoch seconds).",
				Pos:     r.tsPos, Thread: key, MsgID: strings.Clone(m.ID), Anchor: "invalid timestamp " + m.ID,
			})
		}
	}
	if len(styles) > 1 {
		var list []string
		for _, st := range TimeStyles {
			if styles[st] {
				list = append(list, st)
			}
		}
		findings = append(findings, diag.Finding{
			Rule: ruleid.IN004, Code: "MIXED_TIMESTAMP_FORMATS", Severity: diag.Note,
			Message: fmt.Sprintf("Thread %s mixes timestamp formats (%s), so lexical and chronological order can differ; messages are ordered by instant.", key, strings.Join(list, ", ")),
			Hint:    "Export the whole thread from one surface so every timestamp has the same format.",
			Pos:     differs.tsPos, Thread: key, MsgID: strings.Clone(differs.m.ID),
			Anchor: "mixed timestamps " + strings.Join(list, ","),
		})
	}
	sort.SliceStable(findings, func(i, j int) bool { return diag.Less(&findings[i], &findings[j]) })
	return findings, threadID, project
}

// quoteShort quotes input text for a message, cut to 60 runes after its
// credentials are redacted (cut first, a credential no longer looks like
// one).
func quoteShort(s string) string {
	s = diag.RedactSecrets(s)
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
