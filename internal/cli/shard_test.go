package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// shardCorpus copies fixtures that exercise the batch rules (references
// across sessions, a killed item built on, artifacts paired with their
// threads, an emptied artifact, one thread id in two projects) and the demo
// into one folder.
func shardCorpus(t *testing.T) string {
	t.Helper()
	root := testutil.ModuleRoot(t)
	dir := t.TempDir()
	for i, src := range []string{
		"testdata/demo",
		"testdata/rules/RF-005/fail", "testdata/rules/RF-002/fail", "testdata/rules/RF-001/fail",
		"testdata/rules/DR-001/fail", "testdata/rules/DR-002/fail", "testdata/rules/DR-003/fail",
		"testdata/rules/AP-010/fail", "testdata/rules/IN-014/fail", "testdata/rules/TH-008/fail",
	} {
		dst := filepath.Join(dir, fmt.Sprintf("p%02d", i))
		cp := exec.Command("cp", "-R", filepath.Join(root, filepath.FromSlash(src)), dst)
		if out, err := cp.CombinedOutput(); err != nil {
			t.Fatalf("cp %s: %v\n%s", src, err, out)
		}
	}
	return dir
}

// TestShardsMergeToOneRun: merging N shards gives byte-identical SARIF,
// JUnit, markdown and JSON to one unsharded run, for several N; a missing
// or duplicated shard is an error.
func TestShardsMergeToOneRun(t *testing.T) {
	if _, err := exec.LookPath("cp"); err != nil {
		t.Skip("skipping: cp is not installed")
	}
	corpus := shardCorpus(t)
	// A file name that is not UTF-8 reaches the findings' paths: a shard
	// file must carry it byte for byte.
	os.MkdirAll(filepath.Join(corpus, "p99"), 0o755)
	os.WriteFile(filepath.Join(corpus, "p99", "bad\xff.json"), []byte(`{"thread_id": "RS-20260301-bad-bytes", "messages": [{"id": 1, "subject": "Re: KICKOFF", "from": "A", "created_ts": "2026-03-01T10:00:00Z", "body_md": "x"}]}`), 0o644)
	// Two threads whose key and id cross: the thread of id
	// "msg:msg:xray-clash" has the key "msg:xray-clash", the other's id.
	// Partition gives the first to the shard of the other's id (with 3
	// and 7 shards not its own), where the scan's early check took it for
	// another shard's (shard.Early): that shard must read it again and
	// check it.
	os.MkdirAll(filepath.Join(corpus, "p98"), 0o755)
	for i, id := range []string{"msg:msg:xray-clash", "msg:xray-clash"} {
		os.WriteFile(filepath.Join(corpus, "p98", fmt.Sprintf("clash%d.json", i)), []byte(fmt.Sprintf(`{"thread_id": %q, "messages": [{"id": %d, "subject": "KICKOFF: Key clash", "from": "A", "created_ts": "2026-03-01T10:00:00Z", "body_md": "x"}]}`, id, 501+i)), 0o644)
	}
	t.Chdir(corpus)
	t.Setenv("SOURCE_DATE_EPOCH", "")
	one := filepath.Join(t.TempDir(), "one")
	code, stdout, stderr := runCLI(t, "check", "--repo-root", corpus, "--out", one, ".")
	if code > 1 {
		t.Fatalf("unsharded check: exit %d\n%s%s", code, stdout, stderr)
	}
	reports := []string{"brenner-ci.sarif", "brenner-ci.junit.xml", "brenner-ci.md", "brenner-ci.json"}
	for _, n := range []int{1, 3, 7} {
		var files []string
		for i := 1; i <= n; i++ {
			// Each shard writes its threads' artifacts too, as the
			// unsharded run does (their write notes must agree).
			outDir := t.TempDir()
			f := filepath.Join(outDir, "brenner-ci.shard.json")
			if code, out, errs := runCLI(t, "check", "--repo-root", corpus, "--shard", fmt.Sprintf("%d/%d", i, n), "--out", outDir, "."); code != 0 {
				t.Fatalf("shard %d/%d: exit %d\n%s%s", i, n, code, out, errs)
			}
			files = append(files, f)
		}
		merged := filepath.Join(t.TempDir(), "merged")
		mcode, mout, merrs := runCLI(t, append([]string{"merge", "--repo-root", corpus, "--out", merged}, files...)...)
		if mcode != code {
			t.Errorf("%d shards: merge exit %d, unsharded %d\n%s%s", n, mcode, code, mout, merrs)
		}
		if mout != stdout {
			t.Errorf("%d shards: merge stdout differs from the unsharded run:\n%s\n---\n%s", n, mout, stdout)
		}
		for _, name := range reports {
			a, err1 := os.ReadFile(filepath.Join(one, name))
			b, err2 := os.ReadFile(filepath.Join(merged, name))
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: %v %v", name, err1, err2)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%d shards: %s differs from the unsharded run's (%d vs %d bytes)", n, name, len(b), len(a))
			}
		}
		if n == 3 {
			// Missing and duplicated shards are errors, not partial reports.
			if code, _, errs := runCLI(t, "merge", "--repo-root", corpus, files[0], files[1]); code != 2 || !strings.Contains(errs, "missing") {
				t.Errorf("a missing shard: exit %d, %s", code, errs)
			}
			if code, _, errs := runCLI(t, "merge", "--repo-root", corpus, files[0], files[1], files[1], files[2]); code != 2 || !strings.Contains(errs, "twice") {
				t.Errorf("a duplicated shard: exit %d, %s", code, errs)
			}
		}
	}
}

// TestMergeOfABadShardWritesReports: a truncated shard file (an upload cut
// short) or one that is a link makes merge exit 2 with every report saying
// it could not run. (Before, merge exited 2 and wrote no report.)
func TestMergeOfABadShardWritesReports(t *testing.T) {
	corpus := shardCorpus(t)
	t.Chdir(corpus)
	dir := t.TempDir()
	s1, s2 := filepath.Join(dir, "s1.json"), filepath.Join(dir, "s2.json")
	for i, s := range []string{s1, s2} {
		if code, _, errs := runCLI(t, "check", "--repo-root", corpus, "--shard", fmt.Sprintf("%d/2", i+1), "--json", s, "."); code != 0 {
			t.Fatalf("shard %d: exit %d\n%s", i+1, code, errs)
		}
	}
	whole, _ := os.ReadFile(s1)
	cut := filepath.Join(dir, "cut.json")
	os.WriteFile(cut, whole[:len(whole)/2], 0o644)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(s1, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	for _, bad := range []string{cut, link} {
		out := t.TempDir()
		code, _, _ := runCLI(t, "merge", "--repo-root", corpus, "--out", out, bad, s2)
		if code != ExitUsage {
			t.Errorf("merge %s: exit %d, want %d", filepath.Base(bad), code, ExitUsage)
		}
		for _, name := range []string{"brenner-ci.sarif", "brenner-ci.junit.xml", "brenner-ci.md", "brenner-ci.json"} {
			data, err := os.ReadFile(filepath.Join(out, name))
			if err != nil || !strings.Contains(string(data), "could not run") {
				t.Errorf("merge %s: %s is missing or does not say the merge could not run (%v)", filepath.Base(bad), name, err)
			}
		}
	}
}
