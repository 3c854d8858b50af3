package mailbox

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// inRoot makes the module root the working directory, so fixture paths are
// given (and reported) as testdata/ingest/….
func inRoot(t *testing.T) {
	t.Helper()
	t.Chdir(testutil.ModuleRoot(t))
}

func scanT(t *testing.T, paths ...string) *Batch {
	t.Helper()
	b, err := Scan(paths, ScanOptions{})
	if err != nil {
		t.Fatalf("Scan(%v): %v", paths, err)
	}
	return b
}

func ref(t *testing.T, b *Batch, key string) *ThreadRef {
	t.Helper()
	for _, r := range b.Threads {
		if r.Key == key {
			return r
		}
	}
	t.Fatalf("no thread %q; have %v", key, keys(b))
	return nil
}

func loadT(t *testing.T, b *Batch, key string) *Thread {
	t.Helper()
	th, err := ref(t, b, key).Load()
	if err != nil {
		t.Fatalf("Load(%s): %v", key, err)
	}
	return th
}

func keys(b *Batch) []string {
	var ks []string
	for _, r := range b.Threads {
		ks = append(ks, r.Key)
	}
	return ks
}

func ids(ms []*Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func msg(t *testing.T, th *Thread, id string) *Message {
	t.Helper()
	for _, m := range th.Messages {
		if m.ID == id {
			return m
		}
	}
	t.Fatalf("thread %s has no message %s (has %v)", th.Key, id, ids(th.Messages))
	return nil
}

// where renders findings as "RULE file:line:col msgid".
func where(fs []diag.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s %s:%d:%d %s", f.Rule, f.Pos.File, f.Pos.Line, f.Pos.Col, f.MsgID))
	}
	return out
}

func pos(file string, l, c, el, ec int) diag.Pos {
	return diag.Pos{File: file, Line: l, Col: c, EndLine: el, EndCol: ec}
}

// TestShapes checks that every accepted input shape yields the right threads
// (messages in protocol order) and findings.
func TestShapes(t *testing.T) {
	inRoot(t)
	const d = "testdata/ingest/"
	cases := []struct {
		path     string
		threads  map[string][]string
		batch    []string // batch findings: "RULE file:line:col"
		inThread []string // thread findings of all threads
	}{
		{path: d + "thread/thread.json", threads: map[string][]string{"RS-20260301-escapes": {"101", "102"}}},
		{path: d + "array/messages.json", threads: map[string][]string{"412": {"412", "415", "416"}, "500": {"500"}}},
		{path: d + "result/search.json", threads: map[string][]string{"COORD-runners": {"7", "9"}},
			inThread: []string{"IN-002 " + d + "result/search.json:2:3 7", "IN-002 " + d + "result/search.json:3:3 9"}},
		{path: d + "jsonl/mailbox.jsonl", threads: map[string][]string{"T-1": {"1", "3"}, "T-2": {"4"}},
			batch: []string{"IN-001 " + d + "jsonl/mailbox.jsonl:3:136 ", "IN-001 " + d + "jsonl/mailbox.jsonl:7:1 "}},
		{path: d + "mcp/resources-read.json", threads: map[string][]string{"RS-20260302-mcp": {"201"}}},
		{path: d + "mcp/tools-call.json", threads: map[string][]string{"RS-20260302-tool": {"301"}}},
		{path: d + "mcp/content-text.json", threads: map[string][]string{"RS-20260302-text": {"401"}}},
		{path: d + "mcp/is-error.json", batch: []string{"IN-001 " + d + "mcp/is-error.json:11:16 "}},
		{path: d + "mcp/rpc-error.json", batch: []string{"IN-001 " + d + "mcp/rpc-error.json:1:38 "}},
		{path: d + "format/json-data.json", threads: map[string][]string{"F-1": {"601"}}},
		{path: d + "format/toon.json", batch: []string{"IN-001 " + d + "format/toon.json:2:13 "}},
		{path: d + "bundle/threads.json", threads: map[string][]string{"B-1": {"701"}, "B-2": {"702"}}},
		{path: d + "bundle/deliveries.json", threads: map[string][]string{"D-1": {"801"}}},
		{path: d + "inbox/inbox.json", threads: map[string][]string{"IN-1": {"901", "902"}},
			inThread: []string{"IN-004 " + d + "inbox/inbox.json:28:21 902"}},
		{path: d + "dup", threads: map[string][]string{"DUP-1": {"7", "8", "8"}},
			inThread: []string{"IN-003 " + d + "dup/b.json:12:5 8"}},
		{path: d + "mixed/thread.json", threads: map[string][]string{"MIX-1": {"12", "13", "11", "14", "15"}},
			inThread: []string{
				"IN-004 " + d + "mixed/thread.json:9:21 11",
				"IN-005 " + d + "mixed/thread.json:23:21 13",
				"IN-002 " + d + "mixed/thread.json:26:5 14",
				"IN-002 " + d + "mixed/thread.json:32:5 15",
				"IN-005 " + d + "mixed/thread.json:32:5 15",
			}},
		{path: d + "bad/truncated.json", batch: []string{"IN-001 " + d + "bad/truncated.json:4:39 "}},
		{path: d + "bad/syntax.json", batch: []string{"IN-001 " + d + "bad/syntax.json:4:14 "}},
		{path: d + "bad/notes.txt", batch: []string{"IN-001 " + d + "bad/notes.txt:0:0 "}},
		{path: d + "bad/manifest.json", batch: []string{"IN-001 " + d + "bad/manifest.json:1:1 "}},
		{path: d + "bad/empty.json", batch: []string{"IN-001 " + d + "bad/empty.json:0:0 "}},
		// found by a walk: notes.txt (text, not named like JSON) is passed
		// over, the generator manifest (JSON with no mail in it) is named;
		// broken JSON and empty .json files are still reported.
		{path: d + "bad", batch: []string{
			"IN-001 " + d + "bad/empty.json:0:0 ",
			"IN-006 " + d + "bad/manifest.json:0:0 ",
			"IN-001 " + d + "bad/syntax.json:4:14 ",
			"IN-001 " + d + "bad/truncated.json:4:39 ",
		}},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			b := scanT(t, c.path)
			got := map[string][]string{}
			var inThread []string
			for _, r := range b.Threads {
				got[r.Key] = ids(r.Messages())
				for _, m := range r.Messages() {
					if m.Body != "" {
						t.Errorf("Scan kept the body of message %s", m.ID)
					}
				}
				th, err := r.Load()
				if err != nil {
					t.Fatalf("Load(%s): %v", r.Key, err)
				}
				if !slices.Equal(ids(th.Messages), got[r.Key]) {
					t.Errorf("Load order %v differs from Scan order %v", ids(th.Messages), got[r.Key])
				}
				if !reflect.DeepEqual(th.Findings, r.Findings()) {
					t.Errorf("Load findings differ from Scan findings")
				}
				inThread = append(inThread, where(th.Findings)...)
			}
			if c.threads == nil {
				c.threads = map[string][]string{}
			}
			if !reflect.DeepEqual(got, c.threads) {
				t.Errorf("threads = %v, want %v", got, c.threads)
			}
			if bw := where(b.Findings); !slices.Equal(bw, c.batch) {
				t.Errorf("batch findings:\n got %q\nwant %q\n%v", bw, c.batch, b.Findings)
			}
			if !slices.Equal(inThread, c.inThread) {
				t.Errorf("thread findings:\n got %q\nwant %q", inThread, c.inThread)
			}
			for _, f := range append(b.Findings, collectThreadFindings(t, b)...) {
				checkFinding(t, f)
			}
		})
	}
}

func collectThreadFindings(t *testing.T, b *Batch) []diag.Finding {
	var out []diag.Finding
	for _, r := range b.Threads {
		out = append(out, r.Findings()...)
	}
	return out
}

// checkFinding checks the parts of a finding every consumer relies on.
func checkFinding(t *testing.T, f diag.Finding) {
	t.Helper()
	codes := map[string]string{"IN-001": "UNREADABLE_INPUT", "IN-002": "MISSING_BODY", "IN-003": "DUPLICATE_MESSAGE_ID",
		"IN-004": "MIXED_TIMESTAMP_FORMATS", "IN-005": "INVALID_TIMESTAMP", "IN-006": "SKIPPED_INPUT"}
	if codes[f.Rule] != f.Code {
		t.Errorf("finding %s has code %q", f.Rule, f.Code)
	}
	wantSev := diag.Error
	if f.Rule == "IN-004" || f.Rule == "IN-006" {
		wantSev = diag.Note
	}
	if f.Severity != wantSev {
		t.Errorf("%s severity %v", f.Rule, f.Severity)
	}
	if f.Message == "" || f.Hint == "" || f.Anchor == "" || f.Pos.File == "" {
		t.Errorf("incomplete finding %+v", f)
	}
	if f.Pos != f.Pos.Normalize() {
		t.Errorf("position not normalized: %+v", f.Pos)
	}
	if strings.Contains(f.Pos.File, `\`) {
		t.Errorf("path not slash separated: %s", f.Pos.File)
	}
	if f.Rule != "IN-001" && f.Rule != "IN-006" && (f.Thread == "" || f.MsgID == "") {
		t.Errorf("thread finding without thread/message: %+v", f)
	}
}

func TestFindingTexts(t *testing.T) {
	inRoot(t)
	b := scanT(t, "testdata/ingest/format/toon.json", "testdata/ingest/mcp/is-error.json", "testdata/ingest/bad/manifest.json",
		"testdata/ingest/bad/notes.txt", "testdata/ingest/bad/truncated.json", "testdata/ingest/jsonl/mailbox.jsonl")
	want := []string{
		"TOON format", "format=json", // toon
		"isError", "agent not registered", // MCP error, with its text
		"unsupported shape",        // manifest named explicitly
		"notes.txt is not JSON",    // text file named explicitly
		"truncated",                // cut-off JSON
		"Line 3 of the JSON Lines", // bad JSONL line
		"Line 7 of the JSON Lines file is not an Agent Mail message",
	}
	var all strings.Builder
	for _, f := range b.Findings {
		all.WriteString(f.Message + " " + f.Hint + "\n")
	}
	for _, w := range want {
		if !strings.Contains(all.String(), w) {
			t.Errorf("no finding mentions %q:\n%s", w, all.String())
		}
	}
	for _, f := range b.Findings {
		if strings.Contains(f.Message, "TOON") && !strings.Contains(f.Hint, "format=json") {
			t.Errorf("toon hint does not say format=json: %q", f.Hint)
		}
	}
}

func TestFieldFallbacks(t *testing.T) {
	inRoot(t)
	b := scanT(t, "testdata/ingest/inbox/inbox.json", "testdata/ingest/result/search.json", "testdata/ingest/bundle/deliveries.json",
		"testdata/ingest/thread/thread.json")

	th := loadT(t, b, "IN-1")
	if th.ThreadID != "IN-1" || th.Project != "/data/projects/inbox" {
		t.Errorf("thread id/project = %q/%q", th.ThreadID, th.Project)
	}
	m := msg(t, th, "901")
	if m.From != "BlueLake" || m.CreatedRaw != "2026-03-06T00:00:00Z" || m.TimeStyle != "rfc3339-z" ||
		m.Project != "/data/projects/inbox" || m.ThreadID != "IN-1" || m.ThreadKey != "IN-1" ||
		m.RecipientsKnown || m.To != nil || m.Importance != "normal" || m.AckSet || m.AckRequired || !m.HasBody || m.Body != "x" {
		t.Errorf("message 901 = %+v", m)
	}
	// FieldPos keeps the names as written, plus the "from" and "created_ts" aliases.
	for _, k := range []string{"sender_name", "from", "created", "created_ts", "subject", "id", "body_md"} {
		if !m.Fields()[k].Valid() {
			t.Errorf("901 FieldPos[%q] missing", k)
		}
	}
	if m.Pos("from") != m.Fields()["sender_name"] || m.Pos("created_ts") != m.Fields()["created"] {
		t.Errorf("aliases: from=%v sender_name=%v created_ts=%v created=%v", m.Pos("from"), m.Fields()["sender_name"], m.Pos("created_ts"), m.Fields()["created"])
	}
	m = msg(t, th, "902") // "id": 902.0
	if m.From != "RedFox" || !m.AckRequired || !m.AckSet || !m.RecipientsKnown ||
		!slices.Equal(m.To, []string{"BlueLake", "GreenDog"}) || m.CC != nil ||
		m.TimeStyle != "epoch" || !m.Created.Equal(mustTime(t, "2026-03-06T00:01:00Z")) || m.CreatedRaw != "1772755260" {
		t.Errorf("message 902 = %+v", m)
	}

	th = loadT(t, b, "COORD-runners")
	if m := msg(t, th, "7"); !m.AckRequired || !m.AckSet || m.Importance != "high" || m.HasBody {
		t.Errorf("message 7 = %+v", m)
	}
	if m := msg(t, th, "9"); m.AckRequired || !m.AckSet || m.RecipientsKnown {
		t.Errorf("message 9 = %+v", m)
	}

	th = loadT(t, b, "D-1")
	m = msg(t, th, "801")
	if m.Project != "/data/projects/demo" || m.Importance != "urgent" || !slices.Equal(m.BCC, []string{"Auditor"}) ||
		!slices.Equal(m.To, []string{"RedFox"}) || m.CC != nil || !m.RecipientsKnown || !m.AckRequired {
		t.Errorf("message 801 = %+v", m)
	}

	th = loadT(t, b, "RS-20260301-escapes")
	if m := msg(t, th, "102"); !m.HasBody || m.Body != "" {
		t.Errorf(`body_md "" must be a present, empty body: %+v`, m)
	}
	if len(th.Findings) != 0 {
		t.Errorf("unexpected findings %v", where(th.Findings))
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, _, ok := ParseTime(s)
	if !ok {
		t.Fatalf("bad time %q", s)
	}
	return v
}

func TestReplyJoinsRoot(t *testing.T) {
	inRoot(t)
	b := scanT(t, "testdata/ingest/array/messages.json")
	if !slices.Equal(keys(b), []string{"412", "500"}) {
		t.Fatalf("threads %v", keys(b))
	}
	th := loadT(t, b, "412")
	if th.ThreadID != "412" {
		t.Errorf("ThreadID = %q, want the replies' thread_id 412", th.ThreadID)
	}
	want := []struct{ id, tid, key string }{{"412", "", "412"}, {"415", "412", "412"}, {"416", "msg:412", "412"}}
	for i, w := range want {
		m := th.Messages[i]
		if m.ID != w.id || m.ThreadID != w.tid || m.ThreadKey != w.key {
			t.Errorf("message %d: id %q thread_id %q key %q, want %+v", i, m.ID, m.ThreadID, m.ThreadKey, w)
		}
	}
	if th := loadT(t, b, "500"); th.ThreadID != "" {
		t.Errorf("id-keyed thread has ThreadID %q", th.ThreadID)
	}
}

func TestPositionsJSON(t *testing.T) {
	inRoot(t)
	const f = "testdata/ingest/thread/thread.json"
	b := scanT(t, f)
	th := loadT(t, b, "RS-20260301-escapes")
	m := th.Messages[0]
	if m.Src.File != f || m.Src.Line != 7 || m.Src.Col != 5 {
		t.Errorf("message 101 at %s:%d:%d, want %s:7:5", m.Src.File, m.Src.Line, m.Src.Col, f)
	}
	if m2 := th.Messages[1]; m2.Src.Line != 21 || m2.Src.Col != 5 {
		t.Errorf("message 102 at %d:%d, want 21:5", m2.Src.Line, m2.Src.Col)
	}
	fields := map[string]diag.Pos{
		"id":           pos(f, 8, 13, 8, 16),
		"thread_id":    pos(f, 9, 20, 9, 41),
		"subject":      pos(f, 10, 18, 10, 70), // columns in code points: "Naïve “quotes”"
		"from":         pos(f, 11, 15, 11, 25),
		"to":           pos(f, 12, 13, 12, 35),
		"ack_required": pos(f, 16, 23, 16, 27),
		"created_ts":   pos(f, 17, 21, 17, 55),
	}
	for k, want := range fields {
		if got := m.Pos(k); got != want {
			t.Errorf("Pos(%q) = %+v, want %+v", k, got, want)
		}
	}
	if got := m.Pos("body_md"); got.Line != 19 || got.Col != 18 || got.EndLine != 19 {
		t.Errorf("Pos(body_md) = %+v", got)
	}
	// BodyPos inside the string literal: escapes \" \u00e9 and the
	// surrogate pair \ud83d\ude00 take more raw bytes than they decode to,
	// and ü, ï are two bytes but one column.
	body := m.Body
	if want := "# Kickoff\n\nSay \"hi\" to café 😀 and ünïcode.\n\n## Research Question\nWhy?\n"; body != want {
		t.Fatalf("body = %q", body)
	}
	at := func(s string) (int, int) {
		i := strings.Index(body, s)
		return i, i + len(s)
	}
	bodyCases := []struct {
		text       string
		start, end int
		col, ecol  int
	}{
		{text: "# Kic", start: 0, end: 5, col: 19, ecol: 24},
		{text: `"hi"`, col: 36, ecol: 42},
		{text: "café", col: 46, ecol: 55},
		{text: "😀", col: 56, ecol: 68},
		{text: "ünïcode", col: 73, ecol: 80},
		{text: "Why?", col: 107, ecol: 111},
		{text: "é (inside the escape)", start: 26, end: 28, col: 49, ecol: 55},
		{text: "middle byte of é", start: 27, end: 27, col: 49, ecol: 55},
	}
	for _, c := range bodyCases {
		s, e := c.start, c.end
		if s == 0 && e == 0 {
			s, e = at(c.text)
		}
		// Found by walking the literal (the first few of a body), and
		// with the escape table.
		for _, walks := range []int32{0, maxWalks} {
			m.Src.bm.walks.Store(walks)
			if got, want := m.BodyPos(s, e), pos(f, 19, c.col, 19, c.ecol); got != want {
				t.Errorf("BodyPos(%q [%d,%d)) after %d walks = %+v, want %+v", c.text, s, e, walks, got, want)
			}
		}
	}
	// the whole body ends at the closing quote
	if got := m.BodyPos(0, len(body)); got.EndCol != m.Pos("body_md").EndCol-1 {
		t.Errorf("BodyPos(whole) = %+v, body_md value %+v", got, m.Pos("body_md"))
	}
	// out-of-range offsets are clamped
	if got := m.BodyPos(-5, 1<<20); got.Col != 19 || got.EndCol != m.Pos("body_md").EndCol-1 {
		t.Errorf("BodyPos(clamped) = %+v", got)
	}
	// Scan metadata has no body mapping: positions fall back to the message
	if p := ref(t, b, "RS-20260301-escapes").Messages()[0].BodyPos(3, 4); p != pos(f, 7, 5, 7, 5) {
		t.Errorf("BodyPos before Load = %+v", p)
	}
}

func TestPositionsJSONL(t *testing.T) {
	inRoot(t)
	const f = "testdata/ingest/jsonl/mailbox.jsonl"
	b := scanT(t, f)
	th := loadT(t, b, "T-1")
	m := msg(t, th, "1")
	if m.Src.Line != 1 || m.Src.Col != 1 {
		t.Errorf("message 1 at %d:%d", m.Src.Line, m.Src.Col)
	}
	if got := m.Pos("subject"); got != pos(f, 1, 52, 1, 66) {
		t.Errorf("subject at %+v", got)
	}
	if got := m.BodyPos(0, 3); got != pos(f, 1, 136, 1, 139) {
		t.Errorf("BodyPos = %+v", got)
	}
	m = msg(t, th, "3") // CRLF line
	if m.Src.Line != 4 || m.Pos("created_ts") != pos(f, 4, 108, 4, 130) || m.Body != "three" {
		t.Errorf("message 3 at %d, created_ts %+v, body %q", m.Src.Line, m.Pos("created_ts"), m.Body)
	}
	m = msg(t, loadT(t, b, "T-2"), "4") // a thread object on one line
	if m.Src.Line != 6 || m.Src.Col != 47 || m.Pos("subject") != pos(f, 6, 65, 6, 80) || m.Project != "/p" {
		t.Errorf("message 4 at %d:%d, subject %+v, project %q", m.Src.Line, m.Src.Col, m.Pos("subject"), m.Project)
	}
	if got := m.BodyPos(1, 3); got != pos(f, 6, 140, 6, 142) {
		t.Errorf("BodyPos = %+v", got)
	}
}

func TestPositionsEmbedded(t *testing.T) {
	inRoot(t)
	const f = "testdata/ingest/mcp/resources-read.json"
	b := scanT(t, f)
	th := loadT(t, b, "RS-20260302-mcp")
	m := th.Messages[0]
	if m.Body != "Line one\nLine two\n" || m.Subject != "KICKOFF: via resources/read" || m.Project != "/data/projects/demo" {
		t.Errorf("message = %+v", m)
	}
	// JSON embedded in the text string: every position is the string's.
	text := pos(f, 9, 17, 9, 17)
	if m.Src.Line != 9 || m.Src.Col != 17 || m.Pos("subject") != text || m.BodyPos(9, 13) != text {
		t.Errorf("positions: src %d:%d subject %+v body %+v", m.Src.Line, m.Src.Col, m.Pos("subject"), m.BodyPos(9, 13))
	}
}

func TestArchive(t *testing.T) {
	inRoot(t)
	const root = "testdata/ingest/archive"
	const dir = root + "/projects/data-projects-demo/messages/2026/03/"
	const f1 = dir + "2026-03-07T08-00-00Z__kickoff-rs-20260307-archive-archive-demo__1001.md"
	const f2 = dir + "2026-03-07T08-05-30Z__delta-gpt-crlf-file__1002.md"
	b := scanT(t, root)
	// Named once each: the lock file, attachments/, file_reservations/ and
	// the digest folder; the inbox/outbox copies are identical to their
	// messages/ originals, so they get nothing.
	const proj = root + "/projects/data-projects-demo/"
	if got, want := where(b.Findings), []string{
		"IN-006 " + proj + ".archive.lock:0:0 ",
		"IN-006 " + proj + "attachments:0:0 ",
		"IN-006 " + proj + "file_reservations:0:0 ",
		"IN-006 " + proj + "messages/threads:0:0 ",
	}; !slices.Equal(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
	if !slices.Equal(keys(b), []string{"RS-20260307-archive"}) {
		t.Fatalf("threads %v", keys(b))
	}
	if !slices.Equal(b.Agents, []string{"BlueLake", "RedFox"}) {
		t.Errorf("agents %v", b.Agents)
	}
	if !slices.Equal(b.Markdown, []string{root + "/artifacts/RS-20260307-archive.md"}) {
		t.Errorf("markdown %v", b.Markdown)
	}
	// README.txt, the artifact, two profiles, project.json, the two
	// canonical messages and the digest (to tell it is one); identical
	// inbox/outbox copies, attachments/, file_reservations/ and
	// .archive.lock are never opened by the scan.
	if b.Files != 8 {
		t.Errorf("files read = %d, want 8", b.Files)
	}
	th := loadT(t, b, "RS-20260307-archive")
	if got := ids(th.Messages); !slices.Equal(got, []string{"1001", "1002"}) {
		t.Fatalf("messages %v (inbox/outbox copies must be skipped)", got)
	}
	m := th.Messages[0]
	if m.Src.File != f1 || m.Src.Line != 1 || m.Src.Col != 1 || m.From != "BlueLake" ||
		!slices.Equal(m.To, []string{"RedFox"}) || !slices.Equal(m.CC, []string{"GreenDog"}) || m.BCC != nil || !m.RecipientsKnown ||
		m.CreatedRaw != "2026-03-07T08:00:00.250000+00:00" || m.TimeStyle != "rfc3339-offset" || !m.AckRequired || m.Importance != "high" ||
		m.Project != "/data/projects/demo" {
		t.Errorf("message 1001 = %+v", m)
	}
	if want := "# Research Session\n\n## Research Question\nDoes the archive reader keep lines?\n"; m.Body != want {
		t.Errorf("body 1001 = %q", m.Body)
	}
	if got := m.Pos("subject"); got != pos(f1, 15, 14, 15, 59) {
		t.Errorf("subject 1001 at %+v", got)
	}
	if got := m.Pos("created_ts"); got != pos(f1, 9, 14, 9, 48) {
		t.Errorf("created 1001 at %+v", got)
	}
	i := strings.Index(m.Body, "Does")
	if got := m.BodyPos(i, i+4); got != pos(f1, 26, 1, 26, 5) {
		t.Errorf("BodyPos(Does) = %+v", got)
	}
	j := strings.Index(m.Body, "## Research Question")
	if got := m.BodyPos(j, i+4); got != pos(f1, 25, 1, 26, 5) {
		t.Errorf("BodyPos(multi-line) = %+v", got)
	}
	if got := m.BodyPos(0, 0); got != pos(f1, 23, 1, 23, 1) {
		t.Errorf("BodyPos(0) = %+v", got)
	}

	// CRLF file without "created": leading blank lines dropped, time from the file name
	raw, err := os.ReadFile(f2)
	if err != nil || !strings.Contains(string(raw), "\r\n") {
		t.Fatalf("fixture %s must have CRLF line ends (err %v)", f2, err)
	}
	m = th.Messages[1]
	if !strings.HasPrefix(m.Body, "## Deltas\r\n") || m.CreatedRaw != "2026-03-07T08-05-30Z" || m.TimeStyle != "archive-name" ||
		!m.Created.Equal(mustTime(t, "2026-03-07T08:05:30Z")) {
		t.Errorf("message 1002 = %+v", m)
	}
	if got := m.Pos("subject"); got != pos(f2, 13, 14, 13, 37) {
		t.Errorf("subject 1002 at %+v", got)
	}
	if got := m.Pos("created_ts"); got != pos(f2, 1, 1, 1, 1) {
		t.Errorf("created 1002 (none) at %+v, want the message start", got)
	}
	k := strings.Index(m.Body, "ADD")
	if got := m.BodyPos(k, k+3); got != pos(f2, 24, 16, 24, 19) {
		t.Errorf("BodyPos(ADD) = %+v", got)
	}
	// file-name stamps are their own timestamp style
	if got := where(th.Findings); !slices.Equal(got, []string{"IN-004 " + f2 + ":1:1 1002"}) {
		t.Errorf("findings %v", got)
	}
}

// TestNoCredentials: registration tokens in profiles and bearer tokens in
// audit logs must never reach anything Scan or Load returns.
func TestNoCredentials(t *testing.T) {
	inRoot(t)
	dir := t.TempDir()
	isErr := `{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"bad agent_token am_rt_SECRET_inline"}]}}`
	if err := os.WriteFile(filepath.Join(dir, "err.json"), []byte(isErr), 0o644); err != nil {
		t.Fatal(err)
	}
	b := scanT(t, "testdata/ingest", dir)
	var dump strings.Builder
	fmt.Fprintf(&dump, "%+v\n", *b)
	for _, f := range b.Findings {
		fmt.Fprintf(&dump, "%+v %s\n", f, f.String())
	}
	for _, r := range b.Threads {
		fmt.Fprintf(&dump, "%+v\n", *r)
		th, err := r.Load()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&dump, "%+v\n", *th)
		for _, m := range append(r.Messages(), th.Messages...) {
			fmt.Fprintf(&dump, "%+v %s\n", *m, m.Src.mem)
			if m.Src.bm != nil {
				fmt.Fprintf(&dump, "%+v %s\n", m.Src.bm, m.Src.bm.lit)
			}
		}
	}
	out := dump.String()
	if !strings.Contains(out, "BlueLake") || !strings.Contains(out, "withheld") {
		t.Fatalf("dump does not look complete")
	}
	for _, secret := range []string{"SECRET", "am_rt_", "registration_token"} {
		if strings.Contains(out, secret) {
			t.Errorf("output contains %q", secret)
		}
	}
}

func TestDuplicates(t *testing.T) {
	inRoot(t)
	b := scanT(t, "testdata/ingest/dup/a.json", "testdata/ingest/dup/b.json")
	th := loadT(t, b, "DUP-1")
	if got := ids(th.Messages); !slices.Equal(got, []string{"7", "8", "8"}) {
		t.Fatalf("messages %v", got)
	}
	// identical message 7 (same instant written differently, trailing
	// newline) is kept once, from the first file
	if m := th.Messages[0]; m.Src.File != "testdata/ingest/dup/a.json" || m.Body != "same body\n" {
		t.Errorf("kept copy of 7: %s %q", m.Src.File, m.Body)
	}
	if len(th.Findings) != 1 {
		t.Fatalf("findings %v", where(th.Findings))
	}
	f := th.Findings[0]
	if f.Rule != "IN-003" || f.MsgID != "8" || f.Pos.File != "testdata/ingest/dup/b.json" || f.Pos.Line != 12 ||
		!strings.Contains(f.Message, "testdata/ingest/dup/a.json:12") {
		t.Errorf("IN-003 = %+v", f)
	}
	if th.Messages[2].Subject != "DELTA[gpt]: impostor" {
		t.Errorf("both copies of 8 must be kept: %+v", th.Messages[2])
	}

	// The same file twice: nothing is reported.
	b = scanT(t, "testdata/ingest/dup/a.json", "testdata/ingest/dup")
	if th := loadT(t, b, "DUP-1"); len(th.Messages) != 3 {
		t.Errorf("messages %v", ids(th.Messages))
	}

	// A listing without bodies plus an export with bodies: one message,
	// with its body, and no IN-002/IN-003.
	dir := t.TempDir()
	write(t, filepath.Join(dir, "1-inbox.json"), `{"project":"/p","messages":[{"id":5,"thread_id":"X","subject":"KICKOFF: x","from":"A","created_ts":"2026-01-01T00:00:00Z"}]}`)
	write(t, filepath.Join(dir, "2-thread.json"), `{"project":"/p","thread_id":"X","messages":[{"id":5,"subject":"KICKOFF: x","from":"A","created_ts":"2026-01-01T00:00:00Z","body_md":"full"}]}`)
	b = scanT(t, dir)
	th = loadT(t, b, "X")
	if len(th.Messages) != 1 || th.Messages[0].Body != "full" || len(th.Findings) != 0 || th.Messages[0].Seq != 0 {
		t.Errorf("messages %+v findings %v", th.Messages, where(th.Findings))
	}

	// Copies whose bodies are written with other escapes are one message
	// (their hashes are computed when merge compares them); a copy with
	// another body is IN-003.
	dir = t.TempDir()
	msg := `{"project":"/p","thread_id":"Y","messages":[{"id":9,"subject":"KICKOFF: y","from":"A","created_ts":"2026-01-01T00:00:00Z","body_md":%s}]}`
	write(t, filepath.Join(dir, "a.json"), fmt.Sprintf(msg, `"caf\u00e9 \"x\"\n"`))
	write(t, filepath.Join(dir, "b.json"), fmt.Sprintf(msg, `"café \"x\""`))
	b = scanT(t, dir)
	if th = loadT(t, b, "Y"); len(th.Messages) != 1 || th.Messages[0].Body != "café \"x\"\n" || len(th.Findings) != 0 {
		t.Errorf("messages %+v findings %v", th.Messages, where(th.Findings))
	}
	write(t, filepath.Join(dir, "c.json"), fmt.Sprintf(msg, `"caf\u00e9 \"y\""`))
	b = scanT(t, dir)
	if th = loadT(t, b, "Y"); len(th.Messages) != 2 || len(th.Findings) != 1 || th.Findings[0].Rule != "IN-003" {
		t.Errorf("messages %+v findings %v", th.Messages, where(th.Findings))
	}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestTimestampsAndMissingBody(t *testing.T) {
	inRoot(t)
	const f = "testdata/ingest/mixed/thread.json"
	b := scanT(t, f)
	th := loadT(t, b, "MIX-1")
	// 12 (09:59) < 11 (10:00) < 14 (10:30); 13 has an invalid time and
	// follows 12, its predecessor in input order; 15 has none and follows 14.
	if got := ids(th.Messages); !slices.Equal(got, []string{"12", "13", "11", "14", "15"}) {
		t.Errorf("order %v", got)
	}
	byRule := map[string][]diag.Finding{}
	for _, f := range th.Findings {
		byRule[f.Rule] = append(byRule[f.Rule], f)
	}
	mixed := byRule["IN-004"]
	if len(mixed) != 1 || mixed[0].Severity != diag.Note || mixed[0].Pos != pos(f, 9, 21, 9, 50) ||
		!strings.Contains(mixed[0].Message, "rfc3339-z, rfc3339-offset, naive-space") || !strings.Contains(mixed[0].Message, "lexical") {
		t.Errorf("IN-004 = %+v", mixed)
	}
	inv := byRule["IN-005"]
	if len(inv) != 2 || inv[0].MsgID != "13" || inv[0].Pos != pos(f, 23, 21, 23, 32) || !strings.Contains(inv[0].Message, `"yesterday"`) ||
		inv[1].MsgID != "15" || inv[1].Pos != pos(f, 32, 5, 32, 5) {
		t.Errorf("IN-005 = %+v", inv)
	}
	miss := byRule["IN-002"]
	if len(miss) != 2 || miss[0].MsgID != "14" || miss[1].MsgID != "15" || !strings.Contains(miss[0].Hint, "include_bodies=true") {
		t.Errorf("IN-002 = %+v", miss)
	}
	for _, id := range []string{"14", "15"} {
		if m := msg(t, th, id); m.HasBody || m.Body != "" {
			t.Errorf("message %s: HasBody %v", id, m.HasBody)
		}
	}
	if m := msg(t, th, "13"); !m.Created.IsZero() || m.TimeStyle != "" || m.CreatedRaw != "yesterday" {
		t.Errorf("message 13 = %+v", m)
	}
}

func TestWalk(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	thread := func(id int, tid string) string {
		return fmt.Sprintf(`{"project":"/p","thread_id":%q,"messages":[{"id":%d,"subject":"KICKOFF: %s","from":"A","created_ts":"2026-01-01T00:00:00Z","body_md":"b"}]}`, tid, id, tid)
	}
	write(t, filepath.Join(outside, "escape.json"), thread(1, "OUTSIDE"))
	write(t, filepath.Join(dir, "b", "z.json"), thread(2, "B"))
	write(t, filepath.Join(dir, "a.json"), thread(3, "A"))
	write(t, filepath.Join(dir, "export.txt"), "\n  "+thread(4, "TXT")) // looks like JSON: read whatever the name
	write(t, filepath.Join(dir, "notes.txt"), "hello")
	write(t, filepath.Join(dir, "blob.bin"), "\x00\x01{")
	write(t, filepath.Join(dir, ".git", "x.json"), thread(5, "HIDDEN"))
	write(t, filepath.Join(dir, "doc", "guide.md"), "# Guide\n")
	if err := os.Symlink(filepath.Join(outside, "escape.json"), filepath.Join(dir, "link.json")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	b := scanT(t, dir)
	if !slices.Equal(keys(b), []string{"A", "B", "TXT"}) {
		t.Errorf("threads %v", keys(b))
	}
	// Nothing the walk sees is skipped silently: the binary file and both
	// links (never followed) get an IN-006 note, nothing else.
	var skipped []string
	for _, f := range b.Findings {
		if f.Rule != "IN-006" {
			t.Errorf("finding %s", f.String())
		}
		skipped = append(skipped, path.Base(f.Pos.File))
	}
	if !slices.Equal(skipped, []string{"blob.bin", "link.json", "linkdir"}) {
		t.Errorf("skipped %v, want blob.bin, link.json, linkdir", skipped)
	}
	if d := filepath.ToSlash(dir); !slices.Equal(b.Markdown, []string{d + "/doc/guide.md"}) {
		t.Errorf("markdown %v", b.Markdown)
	}
	// walk order (byte-wise: a.json < b/ < export.txt) gives input order
	var seqs []int
	for _, k := range []string{"A", "B", "TXT"} {
		seqs = append(seqs, ref(t, b, k).Messages()[0].Seq)
	}
	if !slices.Equal(seqs, []int{0, 1, 2}) {
		t.Errorf("seqs %v", seqs)
	}
	// an explicitly named symlink is named, as a walk names it, and not
	// followed; an explicit text file is IN-001
	b = scanT(t, filepath.Join(dir, "link.json"), filepath.Join(dir, "notes.txt"), filepath.Join(dir, "blob.bin"))
	if len(keys(b)) != 0 || len(b.Findings) != 3 || b.Findings[0].Rule != "IN-006" {
		t.Errorf("threads %v findings %v", keys(b), where(b.Findings))
	}
	// a path that does not exist is an error, not a finding
	if _, err := Scan([]string{filepath.Join(dir, "missing")}, ScanOptions{}); err == nil {
		t.Error("Scan of a missing path succeeded")
	}
}

func TestPathsAsGiven(t *testing.T) {
	inRoot(t)
	for _, p := range []string{"testdata/ingest/./thread//thread.json", "testdata/ingest/thread", "testdata/ingest/thread/"} {
		b := scanT(t, p)
		if got := b.Threads[0].Messages()[0].Src.File; got != "testdata/ingest/thread/thread.json" {
			t.Errorf("Scan(%q): file %q", p, got)
		}
	}
}

func TestJobsDeterministic(t *testing.T) {
	inRoot(t)
	var prev *Batch
	var prevLoaded []*Thread
	for _, jobs := range []int{1, 4, 0} {
		b, err := Scan([]string{"testdata/ingest"}, ScanOptions{Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		var loaded []*Thread
		for _, r := range b.Threads {
			th, err := r.Load()
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range th.Messages {
				m.Fields()      // computed, so the comparison sees the regions, not a closure
				m.BodyPos(0, 0) // the body map built (its literal read again), likewise
			}
			loaded = append(loaded, th)
		}
		if prev != nil {
			if !reflect.DeepEqual(prev, b) {
				t.Errorf("Jobs=%d: batch differs", jobs)
			}
			if !reflect.DeepEqual(prevLoaded, loaded) {
				t.Errorf("Jobs=%d: loaded threads differ", jobs)
			}
		}
		prev, prevLoaded = b, loaded
	}
	if n := len(prev.Threads); n < 15 {
		t.Errorf("only %d threads in testdata/ingest", n)
	}
	if !slices.IsSortedFunc(prev.Threads, func(a, b *ThreadRef) int { return strings.Compare(a.Key, b.Key) }) {
		t.Error("threads not sorted by key")
	}
}

func TestLoadDetectsChange(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "t.json")
	orig := `{"project":"/p","thread_id":"C","messages":[{"id":1,"subject":"KICKOFF: c","from":"A","created_ts":"2026-01-01T00:00:00Z","body_md":"original"}]}`
	write(t, p, orig)
	b := scanT(t, p)
	write(t, p, strings.Replace(orig, "original", "modified", 1))
	if _, err := b.Threads[0].Load(); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Errorf("Load after change: %v", err)
	}
	write(t, p, orig[:40])
	if _, err := b.Threads[0].Load(); err == nil {
		t.Error("Load of a truncated file succeeded")
	}
	os.Remove(p)
	if _, err := b.Threads[0].Load(); err == nil {
		t.Error("Load of a removed file succeeded")
	}
}

func TestSniffAndJSONLFallback(t *testing.T) {
	dir := t.TempDir()
	// JSON Lines whose first line is broken: the other lines still count.
	write(t, filepath.Join(dir, "broken-first.jsonl"),
		"{\"id\":1,\"subject\":\"x\"\n"+
			`{"id":2,"thread_id":"J","subject":"KICKOFF: j","from":"A","created_ts":"2026-01-01T00:00:00Z","body_md":"two"}`+"\n")
	// a BOM and leading blank lines before a pretty document
	write(t, filepath.Join(dir, "bom.json"), "\xEF\xBB\xBF\n\n"+`{
  "thread_id": "BOM",
  "messages": [{"id": 3, "subject": "KICKOFF: bom", "from": "A", "created_ts": "2026-01-01T00:00:00Z", "body_md": "x"}]
}`)
	// a broken pretty-printed array is one syntax error, even though its
	// last element sits on one line
	write(t, filepath.Join(dir, "pretty.json"), `[
  {"id": 1, "thread_id": "P", "subject": "KICKOFF: p", "body_md": "x"}
  {"id": 2, "thread_id": "P", "subject": "ACK: p", "body_md": "y"}
]
`)
	b := scanT(t, dir)
	if !slices.Equal(keys(b), []string{"BOM", "J"}) {
		t.Errorf("threads %v", keys(b))
	}
	d := filepath.ToSlash(dir)
	if got := where(b.Findings); !slices.Equal(got, []string{"IN-001 " + d + "/broken-first.jsonl:1:22 ", "IN-001 " + d + "/pretty.json:3:3 "}) {
		t.Errorf("findings %v", got)
	}
	if m := ref(t, b, "BOM").Messages()[0]; m.Src.Line != 5 || m.Src.Col != 16 {
		t.Errorf("BOM message at %d:%d", m.Src.Line, m.Src.Col)
	}
	if th := loadT(t, b, "J"); th.Messages[0].Body != "two" || th.Messages[0].Src.Line != 2 {
		t.Errorf("J = %+v", th.Messages[0])
	}
}

func TestNonMessageElements(t *testing.T) {
	dir := t.TempDir()
	d := filepath.ToSlash(dir)
	write(t, filepath.Join(dir, "projects.json"), `{"jsonrpc":"2.0","id":1,"result":[{"slug":"a","human_key":"/a"}]}`)
	write(t, filepath.Join(dir, "mixed.json"), `{"thread_id":"T","messages":[{"id":1,"subject":"KICKOFF: t","created_ts":"2026-01-01T00:00:00Z","body_md":""},
 7,
 {"foo":1}]}`)
	b := scanT(t, filepath.Join(dir, "projects.json"), filepath.Join(dir, "mixed.json"))
	if !slices.Equal(keys(b), []string{"T"}) {
		t.Errorf("threads %v", keys(b))
	}
	want := []string{
		"IN-001 " + d + "/projects.json:1:1 ",
		"IN-001 " + d + "/mixed.json:2:2 ",
		"IN-001 " + d + "/mixed.json:3:2 ",
	}
	if got := where(b.Findings); !slices.Equal(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
	if !strings.Contains(b.Findings[0].Message, "unsupported shape") || !strings.Contains(b.Findings[2].Message, "no subject or body_md") {
		t.Errorf("messages: %q / %q", b.Findings[0].Message, b.Findings[2].Message)
	}
}

// TestArchiveBlankBody: an archive file with nothing after its front matter
// is a message without a body (IN-002), not a message with an empty body.
func TestArchiveBlankBody(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "projects", "p", "messages", "2026", "01", "2026-01-02T03-04-05Z__delta-x__77.md")
	write(t, f, "---json\n{\n  \"id\": 77,\n  \"thread_id\": \"AB-1\",\n  \"subject\": \"DELTA[gpt]: x\",\n  \"from\": \"A\"\n}\n---\n\n\n")
	b := scanT(t, dir)
	th := loadT(t, b, "AB-1")
	m := th.Messages[0]
	if m.HasBody || m.Body != "" || m.CreatedRaw != "2026-01-02T03-04-05Z" {
		t.Errorf("message = %+v", m)
	}
	got := where(th.Findings)
	if want := []string{"IN-002 " + filepath.ToSlash(f) + ":1:1 77"}; !slices.Equal(got, want) || !strings.Contains(th.Findings[0].Message, "archive") {
		t.Errorf("findings %v, want %v (%v)", got, want, th.Findings)
	}
	if p := m.Pos("subject"); p.Line != 5 || p.Col != 14 {
		t.Errorf("subject at %+v", p)
	}
}

// TestBinaryAndUTF16ExportsAreReported: a .json file with a NUL byte or in
// UTF-16 is reported when a walk finds it, not skipped without a word.
func TestBinaryAndUTF16ExportsAreReported(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "nul.json"), "{\"thread_id\": \"x\"\x00}")
	write(t, filepath.Join(dir, "utf16.json"), "\xFF\xFE{\x00\"\x00")
	b := scanT(t, dir)
	got := map[string]string{}
	for _, f := range b.Findings {
		got[path.Base(f.Pos.File)] = f.Rule + " " + f.Message
	}
	if !strings.HasPrefix(got["nul.json"], "IN-001") || !strings.Contains(got["nul.json"], "NUL") {
		t.Errorf("nul.json: %q", got["nul.json"])
	}
	if !strings.HasPrefix(got["utf16.json"], "IN-001") || !strings.Contains(got["utf16.json"], "UTF-16") {
		t.Errorf("utf16.json (truncated): %q", got["utf16.json"])
	}
}

// TestUTF16ExportIsDecoded: an export in UTF-16 with a byte order mark is
// decoded and read, not skipped.
func TestUTF16ExportIsDecoded(t *testing.T) {
	dir := t.TempDir()
	js := `{"thread_id": "RS-20260101-utf16", "messages": [{"id": 1, "thread_id": "RS-20260101-utf16", "subject": "KICKOFF: Zellschicksal é", "from": "A", "created_ts": "2026-01-01T00:00:00Z", "body_md": "# T"}]}`
	for name, bom := range map[string][]byte{"le.json": {0xFF, 0xFE}, "be.json": {0xFE, 0xFF}} {
		buf := append([]byte(nil), bom...)
		for _, u := range utf16.Encode([]rune(js)) {
			if bom[0] == 0xFF {
				buf = append(buf, byte(u), byte(u>>8))
			} else {
				buf = append(buf, byte(u>>8), byte(u))
			}
		}
		sub := filepath.Join(dir, strings.TrimSuffix(name, ".json"))
		write(t, filepath.Join(sub, name), string(buf))
		b := scanT(t, sub)
		if len(b.Threads) != 1 || b.Threads[0].Key != "RS-20260101-utf16" {
			t.Fatalf("%s: threads %v, findings %v", name, keys(b), where(b.Findings))
		}
		th, err := b.Threads[0].Load()
		if err != nil || th.Messages[0].Subject != "KICKOFF: Zellschicksal é" || th.Messages[0].Body != "# T" {
			t.Fatalf("%s: loaded %+v, %v", name, th, err)
		}
	}
}
