package mailbox

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sourcegraph/conc/iter"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// TestCorpusThreads loads the three real thread exports of the shared corpus.
func TestCorpusThreads(t *testing.T) {
	dir := testutil.Shared(t, "corpus", "threads")
	want := []struct {
		key    string
		ids    []string
		deltas int // ```delta fences in all bodies
	}{
		{"E2E-ARTIFACT-1768495211384", []string{"1", "2", "3", "4", "5"}, 14},
		{"RS-20251230-role-prompting", []string{"1", "5", "8", "12", "15"}, 0},
		{"RS-20260102-round2-nanochat", []string{"1207", "1209", "1211", "1214", "1226", "1229", "1233", "1236"}, 14},
	}
	for _, w := range want {
		t.Run(w.key, func(t *testing.T) {
			b, err := Scan([]string{filepath.Join(dir, w.key+".json")}, ScanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Findings) != 0 || len(b.Threads) != 1 || b.Threads[0].Key != w.key {
				t.Fatalf("threads %v findings %v", keys(b), where(b.Findings))
			}
			th, err := b.Threads[0].Load()
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(th.Messages); !slices.Equal(got, w.ids) {
				t.Errorf("messages %v, want %v", got, w.ids)
			}
			if len(th.Findings) != 0 {
				t.Errorf("findings %v", where(th.Findings))
			}
			if th.ThreadID != w.key || th.Project != "/data/projects/brenner_bot" {
				t.Errorf("thread id %q project %q", th.ThreadID, th.Project)
			}
			deltas := 0
			for i, m := range th.Messages {
				if !m.HasBody || m.Body == "" || !m.RecipientsKnown || m.From == "" || m.Created.IsZero() {
					t.Errorf("message %s incomplete: %+v", m.ID, m)
				}
				if i > 0 && m.Created.Before(th.Messages[i-1].Created) {
					t.Errorf("message %s out of order", m.ID)
				}
				deltas += strings.Count(m.Body, "```delta")
				// the subject region holds exactly the subject as JSON text
				if p := m.Pos("subject"); p.Line == 0 || p.Line != p.EndLine {
					t.Errorf("subject position %+v", p)
				}
			}
			if deltas != w.deltas {
				t.Errorf("%d delta fences, want %d", deltas, w.deltas)
			}
		})
	}
	// All three at once: the two upstream fixtures reuse ids 1 and 5 with
	// other content in the same project, but in different threads (exports
	// of different servers), which is not a duplicate.
	b, err := Scan([]string{dir}, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Threads) != 3 || len(b.Findings) != 0 {
		t.Fatalf("threads %v findings %v", keys(b), where(b.Findings))
	}
	var dups []string
	for _, r := range b.Threads {
		for _, f := range r.Findings() {
			dups = append(dups, f.Rule+" "+f.Thread+" "+f.MsgID)
		}
	}
	if len(dups) != 0 {
		t.Errorf("findings %v, want none", dups)
	}
}

// genCorpus runs the shared generator into a temporary directory.
func genCorpus(t testing.TB, dir string, args ...string) {
	t.Helper()
	tool := testutil.Shared(t, "tools", "gen_corpus.py")
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("skipping: python3 is not installed")
	}
	cmd := exec.Command(py, append([]string{tool, "--out", dir, "--quiet"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen_corpus: %v\n%s", err, out)
	}
}

type manifest struct {
	Threads []struct {
		ThreadID     string `json:"thread_id"`
		MessageCount int    `json:"message_count"`
		First        int    `json:"first_message_id"`
		Last         int    `json:"last_message_id"`
		Faults       []struct {
			Rule      string `json:"rule"`
			MessageID *int   `json:"message_id"`
		} `json:"faults"`
	} `json:"threads"`
}

// TestGenCorpusLayouts: the three layouts of one generated corpus (faults
// included) give the same threads with the same messages in the same
// order, matching the generator's manifest, with the expected IN- findings.
func TestGenCorpusLayouts(t *testing.T) {
	root := t.TempDir()
	common := []string{"--threads", "80", "--seed", "11", "--fault-rate", "0.6", "--cover-faults"} // covers IN-002, IN-003 and IN-004
	got := map[string]map[string][]string{}
	var man manifest
	for _, layout := range []string{"files", "jsonl", "archive"} {
		dir := filepath.Join(root, layout)
		args := append([]string{"--layout", layout}, common...)
		if layout == "archive" {
			args = append(args, "--archive-extras")
		}
		genCorpus(t, dir, args...)
		if layout == "files" {
			raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &man); err != nil {
				t.Fatal(err)
			}
		}
		b, err := Scan([]string{dir}, ScanOptions{Jobs: 3})
		if err != nil {
			t.Fatal(err)
		}
		// The generator's manifest (JSON with no mail) and an archive's
		// digest folders are named, nothing else.
		for _, f := range b.Findings {
			if f.Rule != "IN-006" || !strings.HasSuffix(f.Pos.File, "/manifest.json") && !strings.HasSuffix(f.Pos.File, "/messages/threads") {
				t.Errorf("%s: finding %v", layout, where([]diag.Finding{f}))
			}
		}
		if layout == "archive" && len(b.Agents) == 0 {
			t.Errorf("archive: no agents from profiles")
		}
		threads := map[string][]string{}
		inFindings := map[string]bool{}
		for _, r := range b.Threads {
			th, err := r.Load()
			if err != nil {
				t.Fatalf("%s: %v", layout, err)
			}
			threads[r.Key] = ids(th.Messages)
			for _, f := range th.Findings {
				if f.Rule == "IN-004" {
					inFindings["IN-004 "+f.Thread] = true // the manifest names the thread only
				} else {
					inFindings[f.Rule+" "+f.Thread+" "+f.MsgID] = true
				}
			}
		}
		got[layout] = threads

		// every injected input fault is found; clean threads get none
		expected := 0
		for _, mt := range man.Threads {
			for _, f := range mt.Faults {
				var key string
				switch f.Rule {
				case "IN-002": // archive layout: a blank body after the front matter
					key = "IN-002 " + mt.ThreadID + " " + strconv.Itoa(*f.MessageID)
				case "IN-003":
					key = "IN-003 " + mt.ThreadID + " " + strconv.Itoa(*f.MessageID)
				case "IN-004":
					key = "IN-004 " + mt.ThreadID
				default:
					continue
				}
				expected++
				if !inFindings[key] {
					t.Errorf("%s: expected finding %q not reported", layout, key)
				}
			}
		}
		if expected < 3 {
			t.Errorf("%s: the corpus has only %d input faults; the test checks too little", layout, expected)
		}
		if reported := len(inFindings); reported != expected {
			var list []string
			for k := range inFindings {
				list = append(list, k)
			}
			sort.Strings(list)
			t.Errorf("%s: %d input findings, manifest expects %d: %v", layout, reported, expected, list)
		}
	}
	if len(got["files"]) != len(man.Threads) {
		t.Errorf("files: %d threads, manifest has %d", len(got["files"]), len(man.Threads))
	}
	for _, mt := range man.Threads {
		ms := got["files"][mt.ThreadID]
		if len(ms) != mt.MessageCount || len(ms) == 0 || ms[0] != strconv.Itoa(mt.First) || ms[len(ms)-1] != strconv.Itoa(mt.Last) {
			t.Errorf("thread %s: messages %v, manifest: %d from %d to %d", mt.ThreadID, ms, mt.MessageCount, mt.First, mt.Last)
		}
	}
	for _, layout := range []string{"jsonl", "archive"} {
		if !reflect.DeepEqual(got[layout], got["files"]) {
			for k, v := range got["files"] {
				if !slices.Equal(got[layout][k], v) {
					t.Errorf("%s: thread %s has %v, files layout %v", layout, k, got[layout][k], v)
				}
			}
			if len(got[layout]) != len(got["files"]) {
				t.Errorf("%s: %d threads, files layout %d", layout, len(got[layout]), len(got["files"]))
			}
		}
	}
}

// TestGenCorpusJobs: a larger tree gives the same batch for any Jobs.
func TestGenCorpusJobs(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	dir := t.TempDir()
	genCorpus(t, dir, "--threads", "80", "--seed", "5", "--layout", "archive", "--archive-extras", "--fault-rate", "0.5")
	var prev *Batch
	for _, jobs := range []int{1, 4} {
		b, err := Scan([]string{dir}, ScanOptions{Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		if prev != nil && !reflect.DeepEqual(prev, b) {
			t.Errorf("Jobs=%d gives another batch than Jobs=1", jobs)
		}
		prev = b
	}
}

// BenchmarkScanLoad scans a typical generated corpus of 500 threads (files
// layout) and loads every thread, GOMAXPROCS threads at a time as
// compile.Each does.
func BenchmarkScanLoad(b *testing.B) {
	dir := b.TempDir()
	genCorpus(b, dir, "--threads", "500", "--size", "typical", "--layout", "files", "--seed", "1")
	var threads, msgs atomic.Int64
	for b.Loop() {
		batch, err := Scan([]string{dir}, ScanOptions{})
		if err != nil {
			b.Fatal(err)
		}
		threads.Add(int64(len(batch.Threads)))
		iter.ForEach(batch.Threads, func(r **ThreadRef) {
			th, err := (*r).Load()
			if err != nil {
				b.Error(err)
				return
			}
			msgs.Add(int64(len(th.Messages)))
		})
	}
	b.ReportMetric(float64(threads.Load())/b.Elapsed().Seconds(), "threads/s")
	b.ReportMetric(float64(msgs.Load())/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkScan measures Scan alone on the same corpus.
func BenchmarkScan(b *testing.B) {
	dir := b.TempDir()
	genCorpus(b, dir, "--threads", "500", "--size", "typical", "--layout", "files", "--seed", "1")
	threads := 0
	for b.Loop() {
		batch, err := Scan([]string{dir}, ScanOptions{})
		if err != nil {
			b.Fatal(err)
		}
		threads += len(batch.Threads)
	}
	b.ReportMetric(float64(threads)/b.Elapsed().Seconds(), "threads/s")
}

// BenchmarkLoad measures loading every thread of the same corpus, one
// thread at a time.
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	genCorpus(b, dir, "--threads", "500", "--size", "typical", "--layout", "files", "--seed", "1")
	batch, err := Scan([]string{dir}, ScanOptions{})
	if err != nil {
		b.Fatal(err)
	}
	threads := 0
	for b.Loop() {
		for _, r := range batch.Threads {
			if _, err := r.Load(); err != nil {
				b.Fatal(err)
			}
		}
		threads += len(batch.Threads)
	}
	b.ReportMetric(float64(threads)/b.Elapsed().Seconds(), "threads/s")
}
