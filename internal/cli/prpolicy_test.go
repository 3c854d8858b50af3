package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// prRepo is a repository whose base commit holds the demo thread (clean)
// and biofilm.jsonl (with errors, all old), a root configuration that fails
// on errors and, when baseline, an empty baseline file; the working tree
// then breaks a KICKOFF subject: one new error.
func prRepo(t *testing.T, baseline bool) string {
	t.Helper()
	repo := demoRepo(t, map[string]string{"RS-20260301-quorum-timing.json": "t.json", "biofilm.jsonl": "biofilm.jsonl"})
	os.WriteFile(filepath.Join(repo, ".brenner-ci.yaml"), []byte("fail-on: error\n"), 0o644)
	if baseline {
		os.WriteFile(filepath.Join(repo, "baseline.txt"), []byte("# accepted findings\n"), 0o644)
	}
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	file := filepath.Join(repo, "mailbox", "t.json")
	testutil.BreakKickoff(t, file)
	t.Chdir(repo)
	return repo
}

// TestPullRequestCannotEditItsJudge: in pull-request mode the base
// revision's configuration judges the change. A pull request that also
// sets the root configuration's fail-on to none, ignores everything or
// turns the new finding's rule off still fails, and SP-005 names each
// relaxation at its line. (Before, the edited file governed: exit 0 with
// at most a warning notification.)
func TestPullRequestCannotEditItsJudge(t *testing.T) {
	for name, edit := range map[string]string{
		"fail-on none":  "fail-on: none\n",
		"ignore all":    "fail-on: error\nignore: [\"**\"]\n",
		"rule off":      "fail-on: error\nrules:\n  MB-001: off\n",
		"file removed":  "",
		"pinned edited": "fail-on: none\n",
	} {
		t.Run(name, func(t *testing.T) {
			repo := prRepo(t, false)
			cfg := filepath.Join(repo, ".brenner-ci.yaml")
			args := []string{"check", "--new-from-rev", "HEAD", "--repo-root", repo}
			if name == "pinned edited" {
				args = append(args, "--config", cfg)
			}
			if edit == "" {
				os.Remove(cfg)
			} else {
				os.WriteFile(cfg, []byte(edit), 0o644)
			}
			code, out, errs := runCLI(t, append(args, "mailbox")...)
			if code != ExitFindings || !strings.Contains(out, "[MB-001]") {
				t.Fatalf("exit %d, want %d with the new MB-001: the edited configuration judged its own change\n%s%s", code, ExitFindings, out, errs)
			}
			if edit != "" && !strings.Contains(out, "This pull request's version of the configuration relaxes the configuration at HEAD") {
				t.Errorf("no SP-005 at the edited configuration:\n%s", out)
			}
		})
	}
}

// TestPullRequestMayTightenItsJudge: a stricter setting in the pull
// request's configuration applies at once and is no SP-005 finding.
func TestPullRequestMayTightenItsJudge(t *testing.T) {
	repo := prRepo(t, false)
	os.WriteFile(filepath.Join(repo, ".brenner-ci.yaml"), []byte("fail-on: warning\n"), 0o644)
	code, out, _ := runCLI(t, "check", "--new-from-rev", "HEAD", "--repo-root", repo, "mailbox")
	if code != ExitFindings || strings.Contains(out, "[SP-005]") || !strings.Contains(out, "(fail-on warning: failed)") {
		t.Fatalf("exit %d: the stricter fail-on did not apply, or was reported\n%s", code, out)
	}
}

// TestPullRequestCannotBaselineItsFinding: a pull request that appends its
// new finding's fingerprint to the --baseline file is judged by the base
// revision's baseline: the finding is new, the run fails, and SP-005 at the
// baseline names what the edit would accept.
func TestPullRequestCannotBaselineItsFinding(t *testing.T) {
	repo := prRepo(t, true)
	base := filepath.Join(repo, "baseline.txt")
	if code, out, errs := runCLI(t, "check", "--repo-root", repo, "--write-baseline", base, "mailbox"); code == ExitUsage {
		t.Fatalf("--write-baseline: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCLI(t, "check", "--new-from-rev", "HEAD", "--repo-root", repo, "--baseline", base, "mailbox")
	if code != ExitFindings || !strings.Contains(out, "[MB-001]") {
		t.Fatalf("exit %d, want %d: the edited baseline accepted the change's own finding\n%s%s", code, ExitFindings, out, errs)
	}
	if !strings.Contains(out, "baseline.txt:1:1: error: new: This pull request's version of the baseline relaxes the baseline at HEAD") {
		t.Errorf("no SP-005 at the baseline:\n%s", out)
	}
	// Without pull-request mode the workflow's baseline is the authority.
	if code, out, _ := runCLI(t, "check", "--repo-root", repo, "--baseline", base, "mailbox"); code != ExitOK {
		t.Errorf("outside pull-request mode: exit %d, want 0\n%s", code, out)
	}
}

// TestNewFromRevBasePathIsALink: at the base revision the checked folder
// was a symbolic link (now a folder). The base contributes nothing (a link
// is never followed), an IN-006 note says so, every finding counts as new,
// and all reports are written. (Before, the run ended with exit 3, no
// report.)
func TestNewFromRevBasePathIsALink(t *testing.T) {
	repo := demoRepo(t, map[string]string{"RS-20260301-quorum-timing.json": "t.json"})
	os.Rename(filepath.Join(repo, "mailbox"), filepath.Join(repo, "real"))
	if err := os.Symlink("real", filepath.Join(repo, "mailbox")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	os.Remove(filepath.Join(repo, "mailbox"))
	os.MkdirAll(filepath.Join(repo, "mailbox"), 0o755)
	src, _ := os.ReadFile(filepath.Join(repo, "real", "t.json"))
	os.WriteFile(filepath.Join(repo, "mailbox", "t.json"), []byte(strings.Replace(string(src), `"subject": "KICKOFF: `, `"subject": "Re: KICKOFF: `, 1)), 0o644)
	t.Chdir(repo)
	out := t.TempDir()
	code, stdout, errs := runCLI(t, "check", "--new-from-rev", "HEAD", "--repo-root", repo, "--out", out, "mailbox")
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d\n%s%s", code, ExitFindings, stdout, errs)
	}
	if !strings.Contains(stdout, "is a symbolic link or a submodule at HEAD") || !strings.Contains(stdout, "[IN-006]") {
		t.Errorf("no IN-006 note about the base path:\n%s", stdout)
	}
	if _, err := os.Stat(filepath.Join(out, "brenner-ci.sarif")); err != nil {
		t.Errorf("no SARIF report: %v", err)
	}
}

// TestNewFromRevOnTheRepositoryRoot: pull-request mode on "." (the
// Action's default paths) compares with the base as on a folder: only the
// change's finding is new. (Before, "REV:." was no object, the base gave
// nothing, and every finding was new.)
func TestNewFromRevOnTheRepositoryRoot(t *testing.T) {
	repo := prRepo(t, false)
	for _, p := range []string{".", "./", repo} {
		code, out, errs := runCLI(t, "check", "--new-from-rev", "HEAD", "--repo-root", repo, p)
		if code != ExitFindings || !strings.Contains(out, ", 1 new (") {
			t.Errorf("check %s: exit %d; want %d with 1 new finding\n%s%s", p, code, ExitFindings, out, errs)
		}
	}
}

// TestNewFromRevFollowsRenames: after a pure git mv of an export its
// findings are still old (they were new, every one); a renamed export with
// one new mistake has exactly that one new finding.
func TestNewFromRevFollowsRenames(t *testing.T) {
	repo := demoRepo(t, map[string]string{"RS-20260301-quorum-timing.json": "t.json", "biofilm.jsonl": "biofilm.jsonl"})
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	t.Chdir(repo)
	gitRun(t, repo, "mv", "mailbox/biofilm.jsonl", "mailbox/biofilm-renamed.jsonl")
	code, out, errs := runCLI(t, "check", "--new-from-rev", "HEAD", "--repo-root", repo, "mailbox")
	if code != ExitOK || !strings.Contains(out, ", 0 new (") {
		t.Fatalf("a pure rename: exit %d; want 0 and no new finding\n%s%s", code, out, errs)
	}
	gitRun(t, repo, "mv", "mailbox/t.json", "mailbox/quorum.json")
	testutil.BreakKickoff(t, filepath.Join(repo, "mailbox", "quorum.json"))
	code, out, errs = runCLI(t, "check", "--new-from-rev", "HEAD", "--repo-root", repo, "mailbox")
	if code != ExitFindings || !strings.Contains(out, ", 1 new (") {
		t.Errorf("a renamed export with one mistake: exit %d; want %d and 1 new finding\n%s%s", code, ExitFindings, out, errs)
	}
}

// TestPullRequestJudgeNamedYml: the base revision's root configuration is
// read under either name. Unchanged, a root .brenner-ci.yml judges the
// change as it is (it used to be left unread at the base, so its own
// settings were reported as relaxing the defaults); replaced by a
// .brenner-ci.yaml that relaxes it, the relaxation is SP-005.
func TestPullRequestJudgeNamedYml(t *testing.T) {
	repo := demoRepo(t, map[string]string{"RS-20260301-quorum-timing.json": "t.json"})
	yml := filepath.Join(repo, ".brenner-ci.yml")
	os.WriteFile(yml, []byte("fail-on: error\nrules:\n  MB-001: warning\n"), 0o644)
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	file := filepath.Join(repo, "mailbox", "t.json")
	src, _ := os.ReadFile(file)
	os.WriteFile(file, []byte(strings.Replace(string(src), `"subject": "KICKOFF: `, `"subject": "Re: KICKOFF: `, 1)), 0o644)
	t.Chdir(repo)
	args := []string{"check", "--new-from-rev", "HEAD", "--repo-root", repo, "mailbox"}
	code, out, errs := runCLI(t, args...)
	if code != ExitOK || strings.Contains(out, "[SP-005]") || !strings.Contains(out, "warning: ") {
		t.Fatalf("unchanged .brenner-ci.yml: exit %d, want %d with MB-001 a warning and no SP-005\n%s%s", code, ExitOK, out, errs)
	}
	os.Remove(yml)
	os.WriteFile(filepath.Join(repo, ".brenner-ci.yaml"), []byte("fail-on: none\nrules:\n  MB-001: warning\n"), 0o644)
	code, out, errs = runCLI(t, args...)
	if code != ExitFindings || !strings.Contains(out, "[SP-005]") {
		t.Fatalf(".brenner-ci.yml replaced by a laxer .brenner-ci.yaml: exit %d, want %d with SP-005\n%s%s", code, ExitFindings, out, errs)
	}
}

// TestPullRequestJudgeBothNames: a base revision with a root configuration
// under both names is a usage error naming both (the two names are looked
// up at the revision side by side), whichever the working tree keeps.
func TestPullRequestJudgeBothNames(t *testing.T) {
	repo := demoRepo(t, map[string]string{"RS-20260301-quorum-timing.json": "t.json"})
	for _, name := range []string{".brenner-ci.yaml", ".brenner-ci.yml"} {
		os.WriteFile(filepath.Join(repo, name), []byte("fail-on: error\n"), 0o644)
	}
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	os.Remove(filepath.Join(repo, ".brenner-ci.yml"))
	t.Chdir(repo)
	code, out, errs := runCLI(t, "check", "--new-from-rev", "HEAD", "--repo-root", repo, "mailbox")
	if code != ExitUsage || !strings.Contains(errs, "configuration at HEAD: both .brenner-ci.yaml and .brenner-ci.yml are present; keep one of the two") {
		t.Fatalf("both names at the base: exit %d, want %d naming both\n%s%s", code, ExitUsage, out, errs)
	}
}

// TestWriteBaselineWritesFingerprints: --write-baseline writes only the
// fingerprints (it wrote a whole JSON report), which --baseline reads
// back; a file of another kind given as --baseline is a usage error (it
// was read silently, accepting nothing).
func TestWriteBaselineWritesFingerprints(t *testing.T) {
	base := filepath.Join(t.TempDir(), "baseline.txt")
	runCLI(t, "check", "--fail-on", "none", "--write-baseline", base, demo(t))
	data, _ := os.ReadFile(base)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "# brenner-ci baseline") || strings.Contains(string(data), "{") {
		t.Fatalf("--write-baseline wrote:\n%.300s", data)
	}
	if code, out, _ := runCLI(t, "check", "--baseline", base, demo(t)); code != ExitOK || !strings.Contains(out, ", 0 new (") {
		t.Errorf("--baseline of its own findings: exit %d\n%s", code, out)
	}
	junit := filepath.Join(t.TempDir(), "r.xml")
	runCLI(t, "check", "--fail-on", "none", "--junit", junit, demo(t))
	if code, _, errs := runCLI(t, "check", "--baseline", junit, demo(t)); code != ExitUsage || !strings.Contains(errs, "not a brenner-ci fingerprint") {
		t.Errorf("--baseline of a JUnit file: exit %d, %q", code, errs)
	}
}

// TestGitignoreHonoured: what the repository's .gitignore ignores (a build
// folder, a backup file) is not read by a walk: each is named once in an
// IN-006 note; --no-gitignore reads them too. (They were checked.)
func TestGitignoreHonoured(t *testing.T) {
	repo := demoRepo(t, map[string]string{"RS-20260301-quorum-timing.json": "t.json"})
	bio, _ := os.ReadFile(filepath.Join(demo(t), "mailbox", "biofilm.jsonl")) // has errors
	os.MkdirAll(filepath.Join(repo, "build"), 0o755)
	os.WriteFile(filepath.Join(repo, "build", "biofilm.jsonl"), bio, 0o644)
	os.WriteFile(filepath.Join(repo, ".gitignore"), []byte("build/\n"), 0o644)
	t.Chdir(repo)
	code, out, errs := runCLI(t, "check", "--repo-root", repo, ".")
	if code != ExitOK || strings.Contains(out, "build/biofilm.jsonl") || !strings.Contains(out, "build: note: This folder is ignored by the repository (.gitignore)") {
		t.Errorf("check .: exit %d; want 0, build/ named once and not read\n%s%s", code, out, errs)
	}
	code, out, _ = runCLI(t, "check", "--repo-root", repo, "--no-gitignore", ".")
	if code != ExitFindings || !strings.Contains(out, "build/biofilm.jsonl") {
		t.Errorf("check --no-gitignore .: exit %d; want the ignored export checked\n%s", code, out)
	}
}

// TestPullRequestCannotEditItsCustomRule: the base revision's custom rules
// judge a pull request. One that rewrites the custom rule its change
// breaks is still judged by the base's rule (SP-005 names the edit); a
// custom rule it adds applies at once.
func TestPullRequestCannotEditItsCustomRule(t *testing.T) {
	repo := prRepo(t, false)
	rule := func(id, when string) string {
		return "  - {id: " + id + ", name: " + strings.ToLower(id) + "-rule, scope: message, severity: error, when: '" + when +
			"', message: \"" + id + " on {{ message.id }}\", short: s}\n"
	}
	cfg := filepath.Join(repo, ".brenner-ci.yaml")
	os.WriteFile(cfg, []byte("fail-on: error\ncustom-rules:\n"+rule("LAB-001", `message.subject.startsWith("Re: ")`)), 0o644)
	gitRun(t, repo, "add", ".brenner-ci.yaml")
	gitRun(t, repo, "commit", "-q", "-m", "a custom rule")
	os.WriteFile(cfg, []byte("fail-on: error\ncustom-rules:\n"+rule("LAB-001", "false")+rule("LAB-002", `message.type == "KICKOFF"`)), 0o644)
	code, out, errs := runCLI(t, "check", "--new-from-rev", "HEAD", "--repo-root", repo, "mailbox")
	if code != ExitFindings {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, w := range []string{"error: LAB-001 on", "[LAB-001]", "custom rule LAB-001 differs from the one in force", "[SP-005]", "[LAB-002]"} {
		if !strings.Contains(out, w) {
			t.Errorf("%q missing:\n%s", w, out)
		}
	}
}
