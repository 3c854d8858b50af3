package mailbox

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// TestScanCountsLines: the lines the scan records for each file it reads
// whole (Batch.Lines, which the SARIF report uses instead of reading the
// file again) are the lines of the file's bytes, for every export shape
// of the ingest fixtures (broken documents and JSON Lines included) and
// for a document whose last position asked for is far from its end.
func TestScanCountsLines(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteTree(t, dir, map[string]string{
		"tail.json":    `{"thread_id":"T-1","messages":[]}` + "\n\n\n  \r\n é \r",
		"crlf.json":    "{\r\n\"messages\": [\r\n]\r\n}\r\n",
		"broken.json":  "{\"messages\": [\n{\"id\": 1,\n",
		"oneline.json": `{"id":1,"thread_id":"T-2","subject":"x","body_md":"a\nb","from":"A","created_ts":"2026-01-01T00:00:00Z"}`,
	})
	paths := []string{dir, filepath.Join(testutil.ModuleRoot(t), "testdata", "ingest")}
	b, err := Scan(paths, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Lines) < 10 {
		t.Fatalf("the scan counted the lines of %d files; the fixtures have more", len(b.Lines))
	}
	for file, got := range b.Lines {
		data, err := os.ReadFile(filepath.FromSlash(file))
		if err != nil {
			t.Fatal(err)
		}
		if want := diag.CountLines(data); got != want {
			t.Errorf("%s: the scan counted %+v, the file has %+v", file, got, want)
		}
	}
	for _, name := range []string{"tail.json", "crlf.json", "broken.json", "oneline.json"} {
		if _, ok := b.Lines[filepath.ToSlash(filepath.Join(dir, name))]; !ok {
			t.Errorf("%s: no lines recorded", name)
		}
	}
}

// TestLinesAreBounded: a batch keeps the lines of its first maxLines files
// (in listing order) and no more.
func TestLinesAreBounded(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 6 {
		files[fmt.Sprintf("t%d.json", i)] = fmt.Sprintf(`{"thread_id":"T-%d","messages":[]}`+"\n", i)
	}
	testutil.WriteTree(t, dir, files)
	defer func(n int) { maxLines = n }(maxLines)
	maxLines = 4
	b, err := Scan([]string{dir}, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Lines) != 4 {
		t.Fatalf("%d files' lines kept, want 4", len(b.Lines))
	}
	for i := range 4 {
		if _, ok := b.Lines[filepath.ToSlash(filepath.Join(dir, fmt.Sprintf("t%d.json", i)))]; !ok {
			t.Errorf("t%d.json, among the first four, has no lines", i)
		}
	}
}
