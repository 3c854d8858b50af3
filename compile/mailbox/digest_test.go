package mailbox

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDigestIsTheMessagesBytes: Digest writes, for every message, its
// header and exactly its bytes, read here the plain way (whole files), for
// every thread of the fixtures — threads spread over several files and
// archive folders included.
func TestDigestIsTheMessagesBytes(t *testing.T) {
	inRoot(t)
	// A thread whose messages alternate between two files in time order.
	dir := t.TempDir()
	for f, secs := range map[string][]int{"a.json": {1, 3, 5}, "b.json": {2, 4, 6}} {
		var msgs []string
		for _, sec := range secs {
			msgs = append(msgs, fmt.Sprintf(`{"id": %d, "thread_id": "T-mixed", "subject": "INFO %d", "from": "A", "created_ts": "2026-01-14T15:09:0%dZ", "body_md": "body %d %s"}`, sec, sec, sec, sec, f))
		}
		os.WriteFile(filepath.Join(dir, f), []byte(`{"messages": [`+strings.Join(msgs, ",\n")+"]}"), 0o644)
	}
	b := scanT(t, "testdata/ingest", dir)
	if len(b.Threads) < 10 {
		t.Fatalf("%d threads", len(b.Threads))
	}
	multi := 0
	for _, r := range b.Threads {
		var want bytes.Buffer
		fmt.Fprintf(&want, "thread %q %q %q %d\n", r.Key, r.threadID, r.project, r.Len())
		files := map[string]bool{}
		for _, m := range r.Messages() {
			s := &m.Src
			files[s.File] = true
			fmt.Fprintf(&want, "msg %q %d %d %d %d %d\n", s.File, s.Line, s.Col, s.kind, s.off, s.end)
			switch s.kind {
			case srcMem:
				want.Write(s.mem[s.off:s.end])
			default:
				data, err := os.ReadFile(filepath.FromSlash(s.File))
				if err != nil {
					t.Fatal(err)
				}
				if s.kind == srcArchive {
					want.Write(data)
				} else {
					want.Write(data[s.off:s.end])
				}
			}
		}
		if len(files) > 1 {
			multi++
		}
		var got bytes.Buffer
		if err := r.Digest(&got); err != nil {
			t.Fatalf("%s: %v", r.Key, err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%s: digest stream differs from the messages' bytes", r.Key)
		}
	}
	if multi == 0 {
		t.Error("no fixture thread spans two files: the test does not cover per-file buffers")
	}
}

// TestDigestNamesHashedFiles: with a scan cache, a file that holds one
// thread alone is named in its digest by its content hash, once for all
// its messages (their places are found in those bytes); a file shared
// by two threads is still hashed message by message, so that changing one
// thread there does not invalidate the other.
func TestDigestNamesHashedFiles(t *testing.T) {
	dir := t.TempDir()
	msg := func(id int, thread string) string {
		return fmt.Sprintf(`{"id": %d, "thread_id": %q, "subject": "INFO", "from": "A", "created_ts": "2026-01-14T15:09:0%dZ", "body_md": "b%d"}`, id, thread, id, id)
	}
	os.WriteFile(filepath.Join(dir, "alone.json"), []byte(`{"messages": [`+msg(1, "T-A")+`, `+msg(2, "T-A")+`]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "shared.jsonl"), []byte(msg(3, "T-B")+"\n"+msg(4, "T-C")+"\n"), 0o644)
	cache := &ScanCache{Store: newMemStore(), Salt: "test"}
	for run := 0; run < 2; run++ { // a miss, then a hit: both name the file
		b, err := Scan([]string{dir}, ScanOptions{Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		digests := map[string]string{}
		for _, r := range b.Threads {
			var buf bytes.Buffer
			if err := r.Digest(&buf); err != nil {
				t.Fatal(err)
			}
			digests[r.Key] = buf.String()
		}
		if d := digests["T-A"]; !strings.Contains(d, `file "`) || strings.Contains(d, `"body_md"`) || strings.Contains(d, "msg ") {
			t.Errorf("run %d: thread alone in its file: digest %q", run, d)
		}
		for _, k := range []string{"T-B", "T-C"} {
			if d := digests[k]; strings.Contains(d, `file "`) || !strings.Contains(d, `"body_md"`) {
				t.Errorf("run %d: %s shares its file: digest %q", run, k, d)
			}
		}
	}
	if cache.Hits.Load() != 2 {
		t.Errorf("%d cache hits, want 2 (both files on the second run)", cache.Hits.Load())
	}
}

// TestDigestSummedMatchesMessages: a thread whose messages are all in one
// file the scan hashed is digested from its first message's place alone
// (ThreadRef.summed); that digest is the one the message-by-message loop
// writes, for every thread of the fixtures and the shared corpus, scanned
// with a cache so that files are hashed.
func TestDigestSummedMatchesMessages(t *testing.T) {
	inRoot(t)
	dir := t.TempDir()
	msg := func(id int, thread, body string) string {
		return fmt.Sprintf(`{"id": %d, "thread_id": %q, "subject": "INFO", "from": "A", "created_ts": "2026-01-14T15:09:0%dZ", "body_md": %q}`, id, thread, id, body)
	}
	// Alone in its file; spread over two files; exported twice, the second
	// copy (another file) with the body the first lacks; sharing a file.
	os.WriteFile(filepath.Join(dir, "alone.json"), []byte(`{"messages": [`+msg(1, "T-A", "a")+`, `+msg(2, "T-A", "b")+`]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "half1.json"), []byte(`{"messages": [`+msg(3, "T-S", "c")+`]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "half2.json"), []byte(`{"messages": [`+msg(4, "T-S", "d")+`]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "nobody.json"), []byte(`{"messages": [{"id": 5, "thread_id": "T-D", "subject": "INFO", "from": "A", "created_ts": "2026-01-14T15:09:05Z"}, `+msg(6, "T-D", "e")+`]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "withbody.json"), []byte(`{"messages": [`+msg(5, "T-D", "f")+`]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "shared.jsonl"), []byte(msg(7, "T-B", "g")+"\n"+msg(8, "T-C", "h")+"\n"), 0o644)
	roots := []string{"testdata/ingest", dir}
	if _, err := os.Stat("../shared/corpus"); err == nil {
		roots = append(roots, "../shared/corpus")
	} else {
		t.Log("../shared/corpus is absent: fixtures only")
	}
	b, err := Scan(roots, ScanOptions{Cache: &ScanCache{Store: newMemStore(), Salt: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	summed := map[string]bool{}
	for _, r := range b.Threads {
		var fast, loop bytes.Buffer
		if err := r.Digest(&fast); err != nil {
			t.Fatal(err)
		}
		was := r.summed
		r.summed = false
		if err := r.Digest(&loop); err != nil {
			t.Fatal(err)
		}
		r.summed = was
		if fast.String() != loop.String() {
			t.Errorf("%s (summed %t): digest %q, the loop's %q", r.Key, was, fast.String(), loop.String())
		}
		summed[r.Key] = was
	}
	for k, want := range map[string]bool{"T-A": true, "T-S": false, "T-D": false, "T-B": false, "T-C": false} {
		if got, ok := summed[k]; !ok || got != want {
			t.Errorf("%s: summed %t (found %t), want %t", k, got, ok, want)
		}
	}
}
