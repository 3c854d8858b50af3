package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
)

var reusedRE = regexp.MustCompile(`cache .*: (\d+) threads reused, (\d+) checked`)

// cacheRun checks corpus with --cache and returns the four reports, the
// exit code and the reused/checked counts.
func cacheRun(t *testing.T, corpus, cache string) (map[string][]byte, int, string) {
	t.Helper()
	out := t.TempDir()
	args := []string{"check", "--repo-root", corpus, "--out", out, "."}
	if cache != "" {
		args = append(args, "--cache", cache)
	}
	code, _, stderr := runCLI(t, args...)
	reports := map[string][]byte{}
	for _, name := range []string{"brenner-ci.sarif", "brenner-ci.junit.xml", "brenner-ci.md", "brenner-ci.json"} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		reports[name] = data
	}
	counts := ""
	if m := reusedRE.FindStringSubmatch(stderr); m != nil {
		counts = m[1] + "/" + m[2]
	}
	return reports, code, counts
}

func sameReports(t *testing.T, what string, a, b map[string][]byte) {
	t.Helper()
	for name := range a {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s: %s differs from a run without the cache", what, name)
		}
	}
}

// TestCacheGivesColdResults: a run from the cache writes byte-identical
// reports to a cold run; a changed thread is the only one checked again; a
// corrupt or foreign entry is a miss, never a wrong result; two runs may
// share a cache.
func TestCacheGivesColdResults(t *testing.T) {
	corpus := shardCorpus(t)
	// A file name that is not UTF-8 reaches findings (their paths): a
	// cached result must keep it byte for byte (the text and markdown
	// reports escape it as \xff).
	os.MkdirAll(filepath.Join(corpus, "p99"), 0o755)
	os.WriteFile(filepath.Join(corpus, "p99", "bad\xff.json"), []byte("{\"thread_id\": \"RS-20260301-bad-bytes\", \"messages\": [{\"id\": 1, \"subject\": \"Re: \xff\xfe KICKOFF\", \"from\": \"A\", \"created_ts\": \"2026-03-01T10:00:00Z\", \"body_md\": \"x\"}]}"), 0o644)
	t.Chdir(corpus)
	cache := filepath.Join(t.TempDir(), "cache")
	cold, code, _ := cacheRun(t, corpus, "")
	first, code1, counts := cacheRun(t, corpus, cache)
	if code1 != code || !strings.HasPrefix(counts, "0/") {
		t.Fatalf("first cached run: exit %d (cold %d), reused/checked %s", code1, code, counts)
	}
	sameReports(t, "first cached run", cold, first)
	warm, code2, counts := cacheRun(t, corpus, cache)
	if code2 != code || !strings.HasSuffix(counts, "/0") || strings.HasPrefix(counts, "0/") {
		t.Fatalf("warm run: exit %d, reused/checked %s, want every thread reused", code2, counts)
	}
	sameReports(t, "warm run", cold, warm)

	// One thread changes: only it is checked again, and the reports are
	// those of a cold run on the changed corpus.
	file := filepath.Join(corpus, "p01", "RS-20260301-lineage-followup.json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, bytes.Replace(data, []byte("Lineage again"), []byte("Lineage anew"), 1), 0o644)
	changedCold, _, _ := cacheRun(t, corpus, "")
	changed, _, counts := cacheRun(t, corpus, cache)
	if !strings.HasSuffix(counts, "/1") {
		t.Errorf("after changing one thread: reused/checked %s, want one checked", counts)
	}
	sameReports(t, "one thread changed", changedCold, changed)

	// Damage the bundle of thread entries at two places in its entries:
	// those entries' checksums fail, and they are misses, never wrong
	// results (internal/bundle's tests cover cut-short and foreign files).
	cache = filepath.Join(t.TempDir(), "cache2")
	cacheRun(t, corpus, cache)
	bundles, _ := filepath.Glob(filepath.Join(cache, "*.threads"))
	if len(bundles) != 1 {
		t.Fatalf("%d thread bundles, want 1", len(bundles))
	}
	data, _ = os.ReadFile(bundles[0])
	data[len(data)/5] ^= 0x20
	data[len(data)/2] ^= 0x20
	os.WriteFile(bundles[0], data, 0o644)
	again, _, counts := cacheRun(t, corpus, cache)
	if strings.HasSuffix(counts, "/0") || counts == "" {
		t.Errorf("after damaging two entries: reused/checked %s, want some checked", counts)
	}
	sameReports(t, "damaged entries", changedCold, again)
	if _, _, counts := cacheRun(t, corpus, cache); !strings.HasSuffix(counts, "/0") {
		t.Errorf("after the repairing run: reused/checked %s, want none checked", counts)
	}

	// Two runs at once on one cache.
	shared := filepath.Join(t.TempDir(), "shared")
	var wg sync.WaitGroup
	results := make([]map[string][]byte, 2)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], _, _ = cacheRun(t, corpus, shared)
		}()
	}
	wg.Wait()
	for i, r := range results {
		sameReports(t, "concurrent run "+string(rune('1'+i)), changedCold, r)
	}
	after, _, _ := cacheRun(t, corpus, shared)
	sameReports(t, "run after concurrent ones", changedCold, after)
}

var filesRE = regexp.MustCompile(`cache .*: (\d+) files not parsed again, (\d+) scanned`)

// TestScanCacheParsesNothingUnchanged: with --cache, a re-run on an
// unchanged corpus tokenises no mailbox file (every clean file's scan comes
// from the cache); a changed file, and a corrupt, truncated or foreign scan
// entry, is scanned again; reports stay byte-identical to a run without
// the cache.
func TestScanCacheParsesNothingUnchanged(t *testing.T) {
	corpus := shardCorpus(t)
	t.Chdir(corpus)
	cache := filepath.Join(t.TempDir(), "cache")
	files := func() (hit, scanned string) {
		t.Helper()
		out := t.TempDir()
		_, _, stderr := runCLI(t, "check", "--repo-root", corpus, "--out", out, "--cache", cache, ".")
		m := filesRE.FindStringSubmatch(stderr)
		if m == nil {
			t.Fatalf("no scan cache line in:\n%s", stderr)
		}
		return m[1], m[2]
	}
	cold, _, _ := cacheRun(t, corpus, "")
	if hit, _ := files(); hit != "0" {
		t.Fatalf("first run: %s files from an empty cache", hit)
	}
	hit, scanned := files()
	if hit == "0" {
		t.Fatal("second run: no file came from the cache")
	}
	// What is still scanned is what has scan findings (never stored) or
	// is not cached at all; it must not grow with re-runs.
	if _, again := files(); again != scanned {
		t.Errorf("third run scanned %s files, the second %s", again, scanned)
	}
	warm, _, _ := cacheRun(t, corpus, cache)
	sameReports(t, "warm scan cache", cold, warm)

	bundles, _ := filepath.Glob(filepath.Join(cache, "scan", "*.scan"))
	if len(bundles) != 1 {
		t.Fatalf("%d scan bundles after three runs, want 1 (each run replaces the one it read)", len(bundles))
	}
	data, _ := os.ReadFile(bundles[0])
	if len(data) < 1000 {
		t.Fatalf("bundle of %d bytes", len(data))
	}
	// Damage it: flip a byte inside the first entry (its checksum fails),
	// cut it short (the entries after the cut are lost), and add a bundle
	// that is not one and one of another format.
	bad := append([]byte(nil), data[:len(data)*2/3]...)
	bad[len(bad)/3] ^= 0x55
	bad[40] ^= 0x55
	os.WriteFile(bundles[0], bad, 0o644)
	os.WriteFile(filepath.Join(cache, "scan", "junk.scan"), []byte("not a bundle"), 0o644)
	os.WriteFile(filepath.Join(cache, "scan", "other.scan"), []byte("brenner-ci bundle 9\nhello"), 0o644)
	if _, s := files(); s == scanned {
		t.Errorf("damaged entries were used: %s files scanned, as before", s)
	}
	if _, s := files(); s != scanned {
		t.Errorf("after the repair run: %s files scanned, want %s again", s, scanned)
	}
	again, _, _ := cacheRun(t, corpus, cache)
	sameReports(t, "damaged scan entries", cold, again)
}

// TestCacheIsAHint: a --cache folder restored from elsewhere may hold
// links and forged bundles. Its scan folder as a link to a folder outside,
// a run folder as a link, a bundle that is a link to /dev/zero and a sparse
// 64 GiB bundle whose index claims all of it: the run gives the reports of
// a run without a cache, writes and removes nothing outside the folder,
// and says what it did not use (a warning notification).
func TestCacheIsAHint(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links to /dev/zero: not on Windows")
	}
	corpus := shardCorpus(t)
	t.Chdir(corpus)
	cold, coldCode, _ := cacheRun(t, corpus, "")

	cacheDir := filepath.Join(t.TempDir(), "cache")
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "victim.scan"), []byte("not ours"), 0o644)
	os.WriteFile(filepath.Join(outside, "victim.run"), []byte("not ours"), 0o644)
	os.MkdirAll(cacheDir, 0o755)
	for _, link := range []string{"scan", "run"} {
		if err := os.Symlink(outside, filepath.Join(cacheDir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/dev/zero", filepath.Join(cacheDir, "zero.threads")); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(cacheDir, "huge.threads"))
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("brenner-ci bundle 1\n")
	tail := append([]byte{20, 0, 0, 0, 0, 0, 0, 0}, "BNDLEND1"...) // the index "starts" after the magic
	if _, err := f.WriteAt(tail, 64<<30-int64(len(tail))); err != nil {
		f.Close()
		t.Skipf("no sparse files here: %v", err)
	}
	f.Close()

	for run := 1; run <= 2; run++ {
		out := t.TempDir()
		code, _, stderr := runCLI(t, "check", "--repo-root", corpus, "--out", out, "--cache", cacheDir, ".")
		if code != coldCode {
			t.Fatalf("run %d: exit %d, want %d\n%s", run, code, coldCode, stderr)
		}
		js, _ := os.ReadFile(filepath.Join(out, "brenner-ci.json"))
		if !strings.Contains(string(js), "The --cache folder was not fully used") {
			t.Errorf("run %d: no notification says what of the cache was not used", run)
		}
		sarif, _ := os.ReadFile(filepath.Join(out, "brenner-ci.sarif"))
		if a, b := resultsOf(t, cold["brenner-ci.sarif"]), resultsOf(t, sarif); a != b {
			t.Errorf("run %d: the results differ from a run without the cache", run)
		}
	}
	names, _ := os.ReadDir(outside)
	if len(names) != 2 || names[0].Name() != "victim.run" || names[1].Name() != "victim.scan" {
		t.Errorf("the folder outside the cache changed: %v", names)
	}
}

// resultsOf is the SARIF's results, for comparing two runs whose
// notifications differ.
func resultsOf(t *testing.T, sarif []byte) string {
	t.Helper()
	var doc struct {
		Runs []struct {
			Results json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sarif, &doc); err != nil || len(doc.Runs) != 1 {
		t.Fatalf("SARIF: %v", err)
	}
	return string(doc.Runs[0].Results)
}
