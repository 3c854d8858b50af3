package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/cli"
	"github.com/brenner-ci/brenner-ci/internal/memlimit"
	"github.com/brenner-ci/brenner-ci/internal/run"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
)

// longThread writes one thread of n messages: DELTA messages adding and
// editing hypotheses, assumptions and critiques, a COMPILED every `every`
// messages. Its cost must stay linear in n (issue: the artifact was once
// copied at every COMPILED message).
func longThread(tb testing.TB, n, every int) string {
	tb.Helper()
	type msg struct {
		ID      int    `json:"id"`
		Thread  string `json:"thread_id"`
		Subject string `json:"subject"`
		From    string `json:"from"`
		Created string `json:"created_ts"`
		Body    string `json:"body_md"`
	}
	const tid = "RS-20260101-long-thread"
	var msgs []msg
	version := 0
	for i := 0; i < n; i++ {
		ts := fmt.Sprintf("2026-01-01T%02d:%02d:%02dZ", i/3600%24, i/60%60, i%60)
		m := msg{ID: i + 1, Thread: tid, From: "GreenDog", Created: ts}
		switch {
		case i%every == every-1:
			version++
			m.Subject = fmt.Sprintf("COMPILED: v%d artifact", version)
			m.Body = fmt.Sprintf("# Compiled Artifact v%d\n\n**Version**: v%d\n", version, version)
		case i%3 == 0:
			m.Subject = "DELTA[gpt]: A"
			m.Body = fmt.Sprintf("```delta\n{\"operation\": \"ADD\", \"section\": \"assumption_ledger\", \"target_id\": null, \"payload\": {\"name\": \"Assumption %d\", \"statement\": \"Statement %d holds\", \"load\": \"Load\", \"test\": \"Test it\", \"status\": \"unchecked\"}}\n```\n", i, i)
		case i%3 == 1:
			m.Subject = "DELTA[gpt]: C"
			m.Body = fmt.Sprintf("```delta\n{\"operation\": \"ADD\", \"section\": \"adversarial_critique\", \"target_id\": null, \"payload\": {\"name\": \"Critique %d\", \"attack\": \"Attack %d\", \"evidence\": \"E\", \"current_status\": \"open\"}}\n```\n", i, i)
		default:
			m.Subject = "DELTA[gpt]: edit A1"
			m.Body = fmt.Sprintf("```delta\n{\"operation\": \"EDIT\", \"section\": \"assumption_ledger\", \"target_id\": \"A1\", \"payload\": {\"status\": \"checked %d\"}}\n```\n", i)
		}
		msgs = append(msgs, m)
	}
	data, err := json.Marshal(map[string]any{"thread_id": tid, "messages": msgs})
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "long.json"), data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// BenchmarkLongThread: one thread of 5,000 messages with a COMPILED every
// 10 (500 versions), compiled and checked — the drift rule rebuilds one
// version — in linear time.
func BenchmarkLongThread(b *testing.B) {
	dir := longThread(b, 5000, 10)
	batch, err := mailbox.Scan([]string{dir}, mailbox.ScanOptions{Jobs: 1})
	if err != nil || len(batch.Threads) != 1 {
		b.Fatalf("scan: %v, %d threads", err, len(batch.Threads))
	}
	th, err := batch.Threads[0].Load()
	if err != nil {
		b.Fatal(err)
	}
	eng := run.NewPlan(nil, nil, 0).Engine()
	b.ResetTimer()
	for range b.N {
		t := compile.Compile(th, compile.Options{})
		if len(t.Versions) != 500 {
			b.Fatalf("%d versions, want 500", len(t.Versions))
		}
		eng.CheckThread(t, nil)
		t.VersionArtifact(250) // a drift comparison with a persisted v251
	}
}

// BenchmarkLongThreadItems: one thread of 10,000, 20,000 and 40,000
// DELTA messages, two thirds of them ADDs (no COMPILED), compiled: the
// cost per message must not grow with the thread (ns/msg stays flat). Each
// ADD numbered its item by scanning the whole section, and each credit
// scanned the agent's items: 40,000 messages took 4x the time of 20,000.
func BenchmarkLongThreadItems(b *testing.B) {
	for _, n := range []int{10000, 20000, 40000} {
		b.Run(fmt.Sprintf("msgs=%d", n), func(b *testing.B) {
			dir := longThread(b, n, n+1)
			batch, err := mailbox.Scan([]string{dir}, mailbox.ScanOptions{Jobs: 1})
			if err != nil || len(batch.Threads) != 1 {
				b.Fatalf("scan: %v", err)
			}
			th, err := batch.Threads[0].Load()
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				compile.Compile(th, compile.Options{})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/msg")
		})
	}
}

// TestLongThreadVersions: the versions rebuilt on demand are the artifact
// as it was at each COMPILED message: version k holds exactly the items
// added before it.
func TestLongThreadVersions(t *testing.T) {
	dir := longThread(t, 60, 10)
	batch, err := mailbox.Scan([]string{dir}, mailbox.ScanOptions{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	th, err := batch.Threads[0].Load()
	if err != nil {
		t.Fatal(err)
	}
	ct := compile.Compile(th, compile.Options{})
	if len(ct.Versions) != 6 {
		t.Fatalf("%d versions", len(ct.Versions))
	}
	for i := range ct.Versions {
		a := ct.VersionArtifact(i)
		// Messages before the COMPILED at index 10(i+1)-1: i%3==0 adds an
		// assumption, i%3==1 a critique.
		wantA, wantC := 0, 0
		for m := 0; m < ct.Versions[i].Msg; m++ {
			if m%10 == 9 {
				continue
			}
			switch m % 3 {
			case 0:
				wantA++
			case 1:
				wantC++
			}
		}
		if got := len(a.Section("assumption_ledger")); got != wantA {
			t.Errorf("v%d: %d assumptions, want %d", ct.Versions[i].N, got, wantA)
		}
		if got := len(a.Section("adversarial_critique")); got != wantC {
			t.Errorf("v%d: %d critiques, want %d", ct.Versions[i].N, got, wantC)
		}
		if a.Version != ct.Versions[i].N || a.MessageID != ct.Versions[i].MessageID {
			t.Errorf("v%d: artifact says v%d, message %s", ct.Versions[i].N, a.Version, a.MessageID)
		}
		if ct.VersionArtifact(i) != a {
			t.Error("a version is rebuilt twice")
		}
	}
}

// BenchmarkLongThreadCheck: the check command end to end (all rules, the
// four reports) on one thread of 10,000, 20,000, 40,000 and 100,000
// messages (longThread, no COMPILED; two thirds of them ADDs): linear in
// the thread's length (the goal: 40,000 messages at most 2.2× the
// time of 20,000; 100,000 items in seconds).
func BenchmarkLongThreadCheck(b *testing.B) {
	for _, n := range []int{10000, 20000, 40000, 100000} {
		b.Run(fmt.Sprintf("msgs=%d", n), func(b *testing.B) {
			dir := longThread(b, n, n+1)
			out := b.TempDir()
			args := append([]string{"check", dir, "--jobs", "2", "--repo-root", dir, "--fail-on", "none", "--quiet"}, fourReports(out)...)
			defer memlimit.Start()()
			for b.Loop() {
				if code := cli.Main(args, io.Discard, io.Discard); code != 0 {
					b.Fatalf("check exited %d", code)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/msg")
		})
	}
}

// BenchmarkLongThreadScaling measures the linearity goal directly:
// each iteration runs the check command (all rules, the four reports) on
// one thread of 20,000 messages and then on one of 40,000 (longThread, no
// COMPILED), and reports the ratios 40k/20k of their CPU and wall times
// summed over the iterations (cpu-ratio, wall-ratio; the goal: at most
// 2.2). BenchmarkLongThreadCheck times each length in its own
// sub-benchmark, seconds apart, and on a shared machine its ratio moved
// between 1.95 and 2.38 from one run to the next; alternated, the two
// lengths see the same machine.
func BenchmarkLongThreadScaling(b *testing.B) {
	short, long := longThread(b, 20000, 20001), longThread(b, 40000, 40001)
	out := b.TempDir()
	args := func(dir string) []string {
		return append([]string{"check", dir, "--jobs", "2", "--repo-root", dir, "--fail-on", "none", "--quiet"}, fourReports(out)...)
	}
	defer memlimit.Start()()
	var s, l pass
	for b.Loop() {
		for _, r := range []struct {
			dir string
			p   *pass
		}{{short, &s}, {long, &l}} {
			r.p.add(measure(func() {
				if code := cli.Main(args(r.dir), io.Discard, io.Discard); code != 0 {
					b.Fatalf("check exited %d", code)
				}
			}))
		}
	}
	b.ReportMetric(l.wall.Seconds()/s.wall.Seconds(), "wall-ratio")
	if s.cpu > 0 {
		b.ReportMetric(l.cpu.Seconds()/s.cpu.Seconds(), "cpu-ratio")
	}
}

// BenchmarkLongThreadMemory: the check command as its users run it, the
// built binary in a process of its own, on one thread of 100,000 messages
// (longThread, a COMPILED every 10), with the four reports. It reports the
// process's peak RSS (peak-rss-MB, followed while it runs) and its CPU time
// (cpu-s/op): what issue 25's note on memory is measured by. On the
// machine measured the thread peaked at ~690-720 MB before the twentieth
// round (docs/performance.md) and ~550-600 MB after it; the default memory
// limit is 448 MiB, and the limit rises with the live heap.
func BenchmarkLongThreadMemory(b *testing.B) {
	const n = 100000
	dir := longThread(b, n, 10)
	out := b.TempDir()
	args := append([]string{"check", dir, "--jobs", "2", "--repo-root", dir, "--fail-on", "none", "--quiet"}, fourReports(out)...)
	bin := buildBinary(b)
	var p pass
	iters := 0
	for b.Loop() {
		q, err := processPass(bin, args)
		if err != nil {
			b.Fatal(err)
		}
		p.add(q)
		iters++
	}
	b.ReportMetric(float64(p.rss)/(1<<20), "peak-rss-MB")
	b.ReportMetric(p.cpu.Seconds()/float64(iters), "cpu-s/op")
	b.ReportMetric(float64(p.wall.Nanoseconds())/float64(iters)/n, "ns/msg")
}
