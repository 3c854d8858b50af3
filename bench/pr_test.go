package bench

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/internal/cli"
	"github.com/brenner-ci/brenner-ci/internal/memlimit"
)

// prRepo commits a copy of the corpus to a new git repository and changes
// it in the working tree as a pull request does: a subject in each of
// three threads, one thread file renamed (git mv) and one deleted.
func prRepo(b *testing.B, c *corpus) string {
	b.Helper()
	repo := b.TempDir()
	files, _ := filepath.Glob(filepath.Join(c.dir, "threads", "*.json"))
	if len(files) < 3 {
		b.Fatalf("%d threads in %s", len(files), c.dir)
	}
	if err := os.MkdirAll(filepath.Join(repo, "threads"), 0o755); err != nil {
		b.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, "threads", filepath.Base(f)), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.email=b@b", "-c", "user.name=b", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "base")
	for _, f := range []string{files[0], files[len(files)/2], files[len(files)-1]} {
		p := filepath.Join(repo, "threads", filepath.Base(f))
		data, _ := os.ReadFile(p)
		os.WriteFile(p, []byte(strings.Replace(string(data), `"subject": "KICKOFF: `, `"subject": "Re: KICKOFF: `, 1)), 0o644)
	}
	git("mv", filepath.Join("threads", filepath.Base(files[1])), filepath.Join("threads", "renamed-"+filepath.Base(files[1])))
	git("rm", "-q", filepath.Join("threads", filepath.Base(files[2])))
	return repo
}

// BenchmarkPullRequest: pull-request mode (check --new-from-rev HEAD)
// against a plain check of the same working tree, both with --out and
// --jobs 2, alternated within each iteration so that both see the same
// machine: a repository of the corpus's threads, three of them edited, one renamed and one deleted.
// It reports each one's seconds per run and their ratio (the goal:
// pr/plain at most 1.3 on 5,000 threads), and the ratio of their CPU
// times, git's included (pr/plain-cpu).
func BenchmarkPullRequest(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("skipping: git is not installed")
	}
	each(b, func(b *testing.B, c *corpus) {
		repo := prRepo(b, c)
		out := b.TempDir()
		wd, _ := os.Getwd()
		if err := os.Chdir(repo); err != nil {
			b.Fatal(err)
		}
		defer os.Chdir(wd)
		common := []string{"check", ".", "--jobs", "2", "--repo-root", repo, "--fail-on", "none", "--quiet"}
		plain := append(slices.Clone(common), "--out", filepath.Join(out, "plain"))
		pr := append(slices.Clone(common), "--new-from-rev", "HEAD", "--out", filepath.Join(out, "pr"))
		defer memlimit.Start()()
		// Wall and CPU time of each (the CPU time of the process and of
		// the git processes it waited for): on a disk where creating
		// files costs what it costs, the wall time's ratio moves more.
		var wall, cpu [2]time.Duration
		loopRuns(b, c, 2, func() {
			for i, args := range [][]string{plain, pr} {
				// Each run starts on a collected heap, as a process of its
				// own does: not paying for the garbage of the one before.
				runtime.GC()
				t0, c0 := time.Now(), cpuTime()+childCPUTime()
				if code := cli.Main(args, io.Discard, io.Discard); code != 0 {
					b.Fatalf("%v exited %d", args, code)
				}
				wall[i] += time.Since(t0)
				cpu[i] += cpuTime() + childCPUTime() - c0
			}
		})
		b.ReportMetric(wall[0].Seconds()/float64(b.N), "plain-s/op")
		b.ReportMetric(wall[1].Seconds()/float64(b.N), "pr-s/op")
		b.ReportMetric(wall[1].Seconds()/wall[0].Seconds(), "pr/plain")
		if cpu[0] > 0 {
			b.ReportMetric(cpu[1].Seconds()/cpu[0].Seconds(), "pr/plain-cpu")
		}
	})
}
