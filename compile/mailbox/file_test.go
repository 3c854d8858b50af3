package mailbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/chunk"
	"github.com/brenner-ci/brenner-ci/diag"
)

// TestInputFile holds openInput to os.File's behaviour where Scan and
// Load rely on it: whole reads to io.EOF, positioned reads (short at the
// end with io.EOF), fstat, and *fs.PathError errors that read as os.Open's.
func TestInputFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "t.json")
	data := bytes.Repeat([]byte(`{"a": "b"}`+"\n"), 1000)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := openInput(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ReadAll: %d bytes, %v", len(got), err)
	}
	if n, err := f.Read(make([]byte, 8)); n != 0 || err != io.EOF {
		t.Fatalf("Read at the end: %d, %v", n, err)
	}
	b := make([]byte, 20)
	if n, err := f.ReadAt(b, 11); n != 20 || err != nil || !bytes.Equal(b, data[11:31]) {
		t.Fatalf("ReadAt: %d, %v, %q", n, err, b)
	}
	if n, err := f.ReadAt(b, int64(len(data))-5); n != 5 || err != io.EOF || !bytes.Equal(b[:5], data[len(data)-5:]) {
		t.Fatalf("ReadAt over the end: %d, %v", n, err)
	}
	st, err := f.Stat()
	os1, _ := os.Stat(p)
	if err != nil || !st.regular || st.size != int64(len(data)) || st.mtime != os1.ModTime().UnixNano() {
		t.Fatalf("Stat: %+v, %v (os: %d %d)", st, err, os1.Size(), os1.ModTime().UnixNano())
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err == nil {
		t.Error("a second Close succeeded")
	}
	if d, err := openInput(dir); err != nil {
		t.Errorf("opening a directory: %v", err)
	} else if st, err := d.Stat(); err != nil || st.regular {
		t.Errorf("a directory's Stat: %+v, %v", st, err)
	} else {
		d.Close()
	}
	missing := filepath.Join(dir, "missing.json")
	_, err = openInput(missing)
	_, osErr := os.Open(missing)
	var pe *fs.PathError
	if !errors.As(err, &pe) || !errors.Is(err, fs.ErrNotExist) || err.Error() != osErr.Error() || PlainErr(err).Error() != PlainErr(osErr).Error() {
		t.Errorf("opening a missing file: %v; os.Open says %v", err, osErr)
	}
}

// TestPositionsAfterReuse: Load reads messages into a buffer it reuses, so
// a message's field and body positions are computed from its bytes read
// again. They must be the positions computed while its bytes were still in
// the buffer, whatever was loaded in between; and when the file changed
// after Load, asking for them must not fail (they fall back).
func TestPositionsAfterReuse(t *testing.T) {
	dir := t.TempDir()
	// Bodies with escapes and non-ASCII text, so the body mapping matters.
	for i, name := range []string{"a.json", "b.json"} { // b's bytes differ from a's at the same offsets
		body := `# T\n\nSay \"hi\" to caf\u00e9 \ud83d\ude00 — line\n\n## Q\nWhy?\n`
		if i == 1 { // other escapes at other places
			body = `\u0041\"x\" \\y` // and shorter, so it is read into a's buffer
		}
		data := `{"thread_id": "T-` + name + `", "messages": [` +
			`{"id": 1, "subject": "KICKOFF: t", "from": "A", "to": ["B"], "created_ts": "2026-01-14T10:00:00Z", "body_md": "` + body + `"},` + "\n" +
			`{"id": 2, "subject": "ACK: t", "from": "B", "to": ["A"], "created_ts": "2026-01-14T11:00:00Z", "body_md": "ok \"x\"\nü"}]}`
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := Scan([]string{dir}, ScanOptions{Jobs: 1})
	if err != nil || len(b.Threads) != 2 {
		t.Fatalf("scan: %v, %d threads", err, len(b.Threads))
	}
	type where struct {
		subject, body, part diag.Pos
	}
	positions := func(th *Thread) []where {
		var out []where
		for _, m := range th.Messages {
			out = append(out, where{m.Pos("subject"), m.BodyPos(0, len(m.Body)), m.BodyPos(3, 9)})
		}
		return out
	}
	first, err := b.Threads[0].Load()
	if err != nil {
		t.Fatal(err)
	}
	want := positions(first) // computed right after its Load
	again, err := b.Threads[0].Load()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Threads[1].Load(); err != nil { // reuses the buffer
		t.Fatal(err)
	}
	if got := positions(again); !reflect.DeepEqual(got, want) {
		t.Errorf("positions after another Load:\n %+v\nwant %+v", got, want)
	}
	if want[0].part.Col <= want[0].body.Col || want[0].body.EndCol <= want[0].part.EndCol {
		t.Errorf("implausible body positions %+v", want[0])
	}
	// The file changes after Load: positions fall back, nothing fails.
	late, err := b.Threads[0].Load()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, m := range late.Messages {
		p := m.BodyPos(2, 5)
		if p.File == "" || p.Line < 1 {
			t.Errorf("BodyPos after the file changed: %+v", p)
		}
		_ = m.Pos("subject")
	}
}

// TestReleasedThreadPositions: positions asked for after a thread is
// released (its buffer reused by another thread's Load) are the ones it
// had while it held the buffer.
func TestReleasedThreadPositions(t *testing.T) {
	dir := t.TempDir()
	for i, name := range []string{"a.json", "b.json"} {
		body := `# T\n\nSay \"hi\" to caf\u00e9 \ud83d\ude00 — line\n\n## Q\nWhy?\n`
		if i == 1 {
			body = `\u0041\"x\" \\y`
		}
		data := `{"thread_id": "T-` + name + `", "messages": [{"id": 1, "subject": "KICKOFF: t", "from": "A", "to": ["B"], "created_ts": "2026-01-14T10:00:00Z", "body_md": "` + body + `"}]}`
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := Scan([]string{dir}, ScanOptions{Jobs: 1})
	if err != nil || len(b.Threads) != 2 {
		t.Fatalf("scan: %v", err)
	}
	ref, _ := b.Threads[0].Load()
	m := ref.Messages[0]
	wantBody, wantSubj := m.BodyPos(3, 12), m.Pos("subject")
	a, _ := b.Threads[0].Load()
	a.Release()
	other, _ := b.Threads[1].Load() // likely into a's buffer
	defer other.Release()
	if got := a.Messages[0].BodyPos(3, 12); got != wantBody {
		t.Errorf("BodyPos after Release = %+v, want %+v", got, wantBody)
	}
	if got := a.Messages[0].Pos("subject"); got != wantSubj {
		t.Errorf("Pos(subject) after Release = %+v, want %+v", got, wantSubj)
	}
}

// chunks is a reader that returns its chunks one per Read (each within
// the buffer it is given), then io.EOF, and counts the Reads.
type chunks struct {
	parts [][]byte
	reads int
}

func (c *chunks) Read(p []byte) (int, error) {
	c.reads++
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.parts[0])
	c.parts[0] = c.parts[0][n:]
	if len(c.parts[0]) == 0 {
		c.parts = c.parts[1:]
	}
	return n, nil
}

// TestSizedReader: the read that ends the file at its stat size returns
// io.EOF with its bytes, with no further read; a file that grew or shrank
// since the stat, or a read that fills its buffer, still reads on to the
// end. Each case must give every byte.
func TestSizedReader(t *testing.T) {
	file := []byte("0123456789abcdef")
	for _, c := range []struct {
		name  string
		parts [][]byte
		size  int64
		buf   int
		reads int // Reads of the file, the one that says io.EOF included
	}{
		{"whole file in one short read", [][]byte{file}, 16, 64, 1},
		{"in two short reads", [][]byte{file[:5], file[5:]}, 16, 64, 2},
		{"a read that fills the buffer at the end", [][]byte{file}, 16, 8, 3},
		{"grown since the stat", [][]byte{file}, 10, 64, 2},
		{"shrunk since the stat", [][]byte{file}, 20, 64, 2},
		{"empty", nil, 0, 64, 1},
		{"no stat (size 0)", [][]byte{file}, 0, 64, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := &chunks{parts: append([][]byte(nil), c.parts...)}
			z := &sizedReader{r: src, left: c.size}
			var got []byte
			buf := make([]byte, c.buf)
			for {
				n, err := z.Read(buf)
				got = append(got, buf[:n]...)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if want := bytes.Join(c.parts, nil); !bytes.Equal(got, want) {
				t.Errorf("read %q, want %q", got, want)
			}
			if src.reads != c.reads {
				t.Errorf("%d reads of the file, want %d", src.reads, c.reads)
			}
		})
	}
}

// TestScanFileChangedSinceStat: a file stat'ed by the walk and then
// rewritten longer or shorter is scanned whole, as it is when opened.
func TestScanFileChangedSinceStat(t *testing.T) {
	thread := func(n int) []byte {
		var b bytes.Buffer
		b.WriteString(`{"project": "p", "thread_id": "T-1", "messages": [`)
		for i := 1; i <= n; i++ {
			if i > 1 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "\n  {\"id\": %d, \"thread_id\": \"T-1\", \"subject\": \"m%d\", \"from\": \"A\", \"created_ts\": \"2026-01-14T15:09:%02dZ\", \"body_md\": \"text %d\"}", i, i, i, i)
		}
		b.WriteString("\n]}\n")
		return b.Bytes()
	}
	for _, c := range []struct{ before, after int }{{2, 40}, {40, 2}, {3, 3}} {
		p := filepath.Join(t.TempDir(), "t.json")
		if err := os.WriteFile(p, thread(c.before), 0o644); err != nil {
			t.Fatal(err)
		}
		f := newInFile(p, filepath.ToSlash(p), filepath.ToSlash(p), true)
		f.maxBytes = DefaultMaxFileBytes
		f.stat()
		if err := os.WriteFile(p, thread(c.after), 0o644); err != nil {
			t.Fatal(err)
		}
		res := scanRecs(&f)
		if len(res.recs) != c.after || len(res.findings) != 0 {
			t.Errorf("%d messages, then %d: scanned %d, findings %v", c.before, c.after, len(res.recs), res.findings)
		}
	}
}

// TestSlabGrowthIsBounded: a thread's bodies fill arrays that double up to
// chunk.MaxGrowBytes and no further, so that the last one's unused room
// stays below that bound however many bodies the thread has; a body larger
// than the bound gets an array of its own size.
func TestSlabGrowthIsBounded(t *testing.T) {
	s := new(slab)
	body := strings.Repeat("b", 1000)
	sizes := map[int]bool{}
	for i := 0; i < 20_000; i++ {
		got := s.take(append(s.room(len(body)), body...))
		if got != body {
			t.Fatalf("body %d read back as %q…", i, got[:min(len(got), 20)])
		}
		sizes[cap(s.buf)] = true
		if cap(s.buf) > chunk.MaxGrowBytes {
			t.Fatalf("after %d bodies the slab's array holds %d bytes, more than %d", i+1, cap(s.buf), chunk.MaxGrowBytes)
		}
	}
	if !sizes[chunk.MaxGrowBytes] || !sizes[128<<10] {
		t.Errorf("array sizes %v: want doubling from 64 KiB up to %d", sizes, chunk.MaxGrowBytes)
	}
	big := strings.Repeat("x", 3*chunk.MaxGrowBytes)
	if got := s.take(append(s.room(len(big)), big...)); got != big {
		t.Error("a body larger than the bound was not kept whole")
	}
}
