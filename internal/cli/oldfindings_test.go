package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// annotationLevels counts the --format github annotations per command,
// brenner-ci's own notices (title=brenner-ci) apart.
func annotationLevels(out string) map[string]int {
	count := map[string]int{}
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "::") || strings.HasPrefix(l, "::notice title=brenner-ci::") {
			continue
		}
		count[l[2:strings.IndexAny(l[2:], " :")+2]]++
	}
	return count
}

// TestOldFindings: check --new-from-rev --format github on a mailbox with
// old errors and one new one. By default (--old-findings notice) the new
// error is the one ::error and the old findings are notices; hide leaves
// them out; keep annotates them at their level; another value is a usage
// error.
func TestOldFindings(t *testing.T) {
	repo := demoRepo(t, map[string]string{"RS-20260301-quorum-timing.json": "t.json", "biofilm.jsonl": "biofilm.jsonl"})
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	t.Chdir(repo)
	file := filepath.Join(repo, "mailbox", "t.json")
	testutil.BreakKickoff(t, file)
	args := []string{"check", "--new-from-rev", "HEAD", "--repo-root", repo, "--format", "github"}

	// The whole run without pull-request mode: how many errors are there.
	_, plain, _ := runCLI(t, "check", "--repo-root", repo, "--format", "github", "mailbox")
	all := annotationLevels(plain)
	if all["error"] < 2 {
		t.Fatalf("the demo has %d errors: the test needs old errors beside the new one\n%s", all["error"], plain)
	}

	for _, mode := range []string{"", "notice", "hide", "keep"} {
		a := args
		if mode != "" {
			a = append(a, "--old-findings", mode)
		}
		code, out, errs := runCLI(t, append(a, "mailbox")...)
		if code != ExitFindings {
			t.Fatalf("%q: exit %d, want %d\n%s%s", mode, code, ExitFindings, out, errs)
		}
		count := annotationLevels(out)
		if first := strings.SplitN(out, "\n", 2)[0]; !strings.HasPrefix(first, "::error ") || !strings.Contains(first, "MB-001") || !strings.Contains(first, "(new)") {
			t.Errorf("%q: the new MB-001 error is not annotated first: %q", mode, first)
		}
		switch mode {
		case "", "notice":
			if count["error"] != 1 || count["warning"] != 0 || count["notice"] == 0 || !strings.Contains(out, "(old error)::") {
				t.Errorf("%q: old findings not annotated as notices: %v\n%s", mode, count, out)
			}
		case "hide":
			if count["error"] != 1 || count["warning"]+count["notice"] != 0 || !strings.Contains(out, "old findings (already there") {
				t.Errorf("hide: old findings annotated, or not counted: %v\n%s", count, out)
			}
		case "keep":
			if count["error"] != min(all["error"], 10) || !strings.Contains(out, "::error ") || !strings.Contains(out, "(old error)::") {
				t.Errorf("keep: old errors not kept at their level: %v (all: %v)\n%s", count, all, out)
			}
		}
	}
	if code, _, _ := runCLI(t, append(args, "--old-findings", "loud", "mailbox")...); code != ExitUsage {
		t.Errorf("--old-findings loud: exit %d, want %d", code, ExitUsage)
	}
	// merge writes the github format too, and takes the flag.
	if _, out, errs := runCLI(t, "merge", "--help"); !strings.Contains(out+errs, "--old-findings") {
		t.Errorf("merge --help does not list --old-findings:\n%s%s", out, errs)
	}
}
