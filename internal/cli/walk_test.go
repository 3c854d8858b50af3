package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Issue 23, item 4: the walk skips nothing silently, as the reports show.

type walkReport struct {
	Findings []struct {
		Rule string `json:"rule"`
		Path string `json:"path"`
	} `json:"findings"`
}

func checkJSON(t *testing.T, args ...string) (int, walkReport) {
	t.Helper()
	code, stdout, stderr := runCLI(t, append([]string{"check", "--format", "json"}, args...)...)
	var r walkReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("exit %d, no JSON report: %v\n%s%s", code, err, stdout, stderr)
	}
	return code, r
}

// TestEmptyExportIsNotNothingFound: an empty thread export alone is an
// IN-006 note, not exit 2 "no thread export found" (which was false).
func TestEmptyExportIsNotNothingFound(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".git"), nil, 0o644) // the repository root
	os.WriteFile(filepath.Join(dir, "empty.json"), []byte(`{"project": "/p", "thread_id": "E", "messages": []}`), 0o644)
	for _, p := range []string{dir, filepath.Join(dir, "empty.json")} {
		code, r := checkJSON(t, "--repo-root", dir, p)
		if code != 0 || len(r.Findings) != 1 || r.Findings[0].Rule != "IN-006" || r.Findings[0].Path != "empty.json" {
			t.Errorf("%s: exit %d, findings %+v; want 0 and one IN-006 note at empty.json", p, code, r.Findings)
		}
	}
}

// TestLinkReportedAtItsPath: a thread committed as a symbolic link is
// named at the link's own path, not at its target's.
func TestLinkReportedAtItsPath(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".git"), nil, 0o644)
	src, err := os.ReadFile(filepath.Join(demo(t), "mailbox", "RS-20260301-quorum-timing.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "real"), 0o755)
	os.WriteFile(filepath.Join(dir, "real", "t.json"), src, 0o644)
	if err := os.Symlink(filepath.Join("real", "t.json"), filepath.Join(dir, "link.json")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	for _, p := range []string{dir, filepath.Join(dir, "link.json")} {
		_, r := checkJSON(t, "--repo-root", dir, "--fail-on", "none", p)
		found := false
		for _, f := range r.Findings {
			if f.Rule == "IN-006" {
				found = true
				if f.Path != "link.json" {
					t.Errorf("%s: the link is reported at %q, want link.json", p, f.Path)
				}
			}
		}
		if !found {
			t.Errorf("%s: no IN-006 note for the link: %+v", p, r.Findings)
		}
	}
}
