package mailbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONLinesOverTheLimit: the file limit bounds what is held in memory.
// JSON Lines are read a line at a time, so a dump larger than the limit is
// read (each line within it); a line over the limit is IN-009 at its line
// and the other lines are read; a JSON document over the limit is not read.
func TestJSONLinesOverTheLimit(t *testing.T) {
	dir := t.TempDir()
	msg := func(id int, thread string, body string) string {
		return fmt.Sprintf(`{"id": %d, "thread_id": %q, "subject": "[%s] DELTA", "from": "A", "created_ts": "2026-01-14T15:09:%02dZ", "body_md": %q}`, id, thread, thread, id%60, body)
	}
	var lines []string
	for i := 1; i <= 40; i++ {
		lines = append(lines, msg(i, fmt.Sprintf("T-%d", i%4), "body "+strings.Repeat("x", 100)))
	}
	big := msg(99, "T-9", strings.Repeat("y", 5000)) // over the limit below
	withLong := append(append(append([]string{}, lines[:20]...), big), lines[20:]...)
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dump := write("dump.jsonl", strings.Join(lines, "\n")+"\n")
	long := write("long.jsonl", strings.Join(withLong, "\r\n")+"\r\n")
	doc := write("doc.json", "{\n  \"messages\": [\n"+strings.Join(lines, ",\n")+"\n]}\n")
	oneLine := write("one.json", big+"\n"+lines[0]+"\n")
	const limit = 2000 // each small line is ~200 bytes, every file is over 2,000

	count := func(b *Batch) (msgs int, in009 []string) {
		for _, r := range b.Threads {
			msgs += r.Len()
		}
		for _, f := range b.Findings {
			if f.Rule == "IN-009" {
				in009 = append(in009, fmt.Sprintf("%s:%d", filepath.Base(f.Pos.File), f.Pos.Line))
			}
		}
		return
	}
	for _, c := range []struct {
		path  string
		msgs  int
		in009 []string
	}{
		{dump, 40, nil},
		{long, 40, []string{"long.jsonl:21"}},
		{doc, 0, []string{"doc.json:0"}},
		{oneLine, 0, []string{"one.json:0"}},
	} {
		b, err := Scan([]string{c.path}, ScanOptions{MaxFileBytes: limit})
		if err != nil {
			t.Fatal(err)
		}
		msgs, in009 := count(b)
		if msgs != c.msgs || fmt.Sprint(in009) != fmt.Sprint(c.in009) {
			t.Errorf("%s: %d messages, IN-009 at %v; want %d and %v", filepath.Base(c.path), msgs, in009, c.msgs, c.in009)
		}
		if c.msgs > 0 {
			// Positions after a dropped line are still right: Load
			// re-reads every message at the offset Scan recorded.
			for _, r := range b.Threads {
				if _, err := r.Load(); err != nil {
					t.Errorf("%s: %v", filepath.Base(c.path), err)
				}
			}
		}
	}
}

// TestLongLinesAreMeasuredNotHeld: a line longer than lineHold is measured
// without being kept, then read again when it is within the limit, so one
// huge line never sits in memory past the limit; the lines around it are
// read as usual.
func TestLongLinesAreMeasuredNotHeld(t *testing.T) {
	defer func(old int) { lineHold = old }(lineHold)
	lineHold = 100 << 10
	dir := t.TempDir()
	msg := func(id int, body string) string {
		return fmt.Sprintf(`{"id": %d, "thread_id": "T-1", "subject": "INFO", "from": "A", "created_ts": "2026-01-14T15:09:%02dZ", "body_md": %q}`, id, id, body)
	}
	big := msg(2, strings.Repeat("x", 300<<10)) // 300 KB: spilled, within the limit
	huge := msg(3, strings.Repeat("y", 3<<20))  // 3 MB: over the limit
	text := msg(1, "a") + "\n" + big + "\n" + huge + "\n" + msg(4, "d") + "\n"
	path := filepath.Join(dir, "dump.jsonl")
	os.WriteFile(path, []byte(text), 0o644)
	b, err := Scan([]string{path}, ScanOptions{MaxFileBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	var in009 []string
	for _, f := range b.Findings {
		if f.Rule == "IN-009" {
			in009 = append(in009, fmt.Sprint(f.Pos.Line))
		}
	}
	if len(b.Threads) != 1 || b.Threads[0].Len() != 3 || fmt.Sprint(in009) != "[3]" {
		t.Fatalf("%d threads, IN-009 at lines %v", len(b.Threads), in009)
	}
	th, err := b.Threads[0].Load()
	if err != nil {
		t.Fatal(err)
	}
	if got := len(th.Messages[1].Body); got != 300<<10 {
		t.Errorf("the spilled line's body has %d bytes, want %d", got, 300<<10)
	}
}

// TestLongLinesRead: lines longer than the reader's buffer — a whole thread
// exported without line breaks, and JSON Lines of 70 KB to 2 MB between
// short ones, so that the line buffer grows, is reused and grows again —
// are read whole: every message, every body byte. (readLine grows the line
// by appending: room for the rest of the file at once was tried twice and
// not kept, see docs/performance.md, thirty-third round.)
func TestLongLinesRead(t *testing.T) {
	dir := t.TempDir()
	msg := func(id int, body string) string {
		return fmt.Sprintf(`{"id":%d,"thread_id":"T-1","subject":"INFO","from":"A","created_ts":"2026-01-14T15:09:%02dZ","body_md":%q}`, id, id%60, body)
	}
	body := func(id, n int) string { return strings.Repeat(string(rune('a'+id%26)), n) }
	sizes := []int{10, 70 << 10, 5, 130 << 10, 2 << 20, 100, 90 << 10, 300 << 10}
	var recs []string
	for i, n := range sizes {
		recs = append(recs, msg(i+1, body(i+1, n)))
	}
	files := map[string]string{
		"minified.json": `{"thread_id":"T-1","messages":[` + strings.Join(recs, ",") + `]}`,
		"dump.jsonl":    strings.Join(recs, "\n") + "\n",
	}
	for name, text := range files {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			b, err := Scan([]string{path}, ScanOptions{})
			if err != nil || len(b.Threads) != 1 || len(b.Findings) != 0 {
				t.Fatalf("scan: %v, %d threads, findings %v", err, len(b.Threads), b.Findings)
			}
			th, err := b.Threads[0].Load()
			if err != nil {
				t.Fatal(err)
			}
			if len(th.Messages) != len(sizes) {
				t.Fatalf("%d messages, want %d", len(th.Messages), len(sizes))
			}
			for i, m := range th.Messages {
				if want := body(i+1, sizes[i]); m.Body != want {
					t.Errorf("message %d: body of %d bytes, want %d bytes of %q", i+1, len(m.Body), len(want), want[:1])
				}
			}
		})
	}
}
