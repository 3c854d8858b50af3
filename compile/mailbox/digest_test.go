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
