package mailbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEventStreamHint: a saved Server-Sent Events stream is not read (it is
// not JSON), and IN-001 says what it is and what to save instead
// (docs/divergences.md, C8); other invalid JSON keeps the plain hint.
func TestEventStreamHint(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "stream.json"), []byte("event: message\ndata: {\"jsonrpc\": \"2.0\", \"id\": \"1\", \"result\": {}}\n\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "broken.json"), []byte("{\"thread_id\": x}"), 0o644)
	b, err := Scan([]string{dir}, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	hints := map[string]string{}
	for _, f := range b.Findings {
		if f.Rule == "IN-001" {
			hints[filepath.Base(f.Pos.File)] = f.Hint
		}
	}
	if h := hints["stream.json"]; !strings.Contains(h, "Server-Sent Events") || !strings.Contains(h, "data: line") {
		t.Errorf("stream.json: hint %q", h)
	}
	if h := hints["broken.json"]; h == "" || strings.Contains(h, "Server-Sent") {
		t.Errorf("broken.json: hint %q", h)
	}
}
