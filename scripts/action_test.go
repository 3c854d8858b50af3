// Package scripts holds the shell scripts of the GitHub Action and the test
// that runs them the way the runner does.
package scripts

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

type actionYAML struct {
	Inputs  map[string]struct{ Default string } `yaml:"inputs"`
	Outputs map[string]struct{ Value string }   `yaml:"outputs"`
	Runs    struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID    string            `yaml:"id"`
			Shell string            `yaml:"shell"`
			Env   map[string]string `yaml:"env"`
			Run   string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

func repoRoot(t *testing.T) string {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func loadAction(t *testing.T) *actionYAML {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionYAML
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml is not valid YAML: %v", err)
	}
	return &a
}

var exprRE = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// TestActionMetadata: action.yml parses; no script has an expression in it
// (inputs reach scripts only through env:); every input an expression names
// exists; every output is a step output the scripts write.
func TestActionMetadata(t *testing.T) {
	a := loadAction(t)
	if a.Runs.Using != "composite" || len(a.Runs.Steps) == 0 {
		t.Fatalf("runs: %+v", a.Runs)
	}
	written := map[string]bool{"sarif": true, "junit": true, "markdown": true, "json": true, "errors": true, "warnings": true,
		"notes": true, "new": true, "exit-code": true}
	passed := map[string]bool{} // inputs that reach a step
	for _, st := range a.Runs.Steps {
		for _, v := range st.Env {
			for _, m := range exprRE.FindAllStringSubmatch(v, -1) {
				passed[strings.TrimPrefix(m[1], "inputs.")] = true
			}
		}
	}
	for in := range a.Inputs {
		if !passed[in] {
			t.Errorf("input %s reaches no step (add it to a step's env:)", in)
		}
	}
	for _, st := range a.Runs.Steps {
		if strings.Contains(st.Run, "${{") {
			t.Errorf("step %s: an expression inside run: (inputs must come through env:): %q", st.ID, st.Run)
		}
		for _, v := range st.Env {
			for _, m := range exprRE.FindAllStringSubmatch(v, -1) {
				if in, ok := strings.CutPrefix(m[1], "inputs."); ok {
					if _, known := a.Inputs[in]; !known {
						t.Errorf("step %s uses unknown input %q", st.ID, in)
					}
				}
			}
		}
	}
	for name, o := range a.Outputs {
		m := regexp.MustCompile(`^\$\{\{ steps\.run\.outputs\.([a-z-]+) \}\}$`).FindStringSubmatch(o.Value)
		if m == nil || !written[m[1]] {
			t.Errorf("output %s = %q is not a step output the scripts write", name, o.Value)
		}
	}
	if d := a.Inputs["fail-on"].Default; d != "" {
		t.Errorf("fail-on defaults to %q: it must be empty so that the configuration decides", d)
	}
}

// runner runs the action's steps as GitHub's runner does: expressions in
// env: are substituted, each run: goes to bash with the GITHUB_* files set.
type runner struct {
	t                         *testing.T
	a                         *actionYAML
	dir                       string // workspace
	output, summary, temp, tc string
	inputs                    map[string]string
	github                    map[string]string
	extraEnv                  []string
	stepOutputs               map[string]map[string]string
	stdout, stderr            strings.Builder
}

func newRunner(t *testing.T, inputs map[string]string) *runner {
	tmp := t.TempDir()
	r := &runner{t: t, a: loadAction(t), dir: filepath.Join(tmp, "ws"), output: filepath.Join(tmp, "output"),
		summary: filepath.Join(tmp, "summary.md"), temp: filepath.Join(tmp, "runner-temp"), tc: filepath.Join(tmp, "tool-cache"),
		inputs: map[string]string{}, stepOutputs: map[string]map[string]string{},
		github: map[string]string{"action_path": repoRoot(t), "action_ref": "main", "action_repository": "brenner-ci/brenner-ci",
			"event.pull_request.head.repo.fork": ""}}
	for _, d := range []string{r.dir, r.temp, r.tc} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(r.summary, []byte("## Earlier step\n\nkept\n"), 0o644)
	for k, v := range r.a.Inputs {
		r.inputs[k] = v.Default
	}
	for k, v := range inputs {
		r.inputs[k] = v
	}
	return r
}

func (r *runner) expr(s string) string {
	return exprRE.ReplaceAllStringFunc(s, func(m string) string {
		e := exprRE.FindStringSubmatch(m)[1]
		switch {
		case strings.HasPrefix(e, "inputs."):
			return r.inputs[strings.TrimPrefix(e, "inputs.")]
		case strings.HasPrefix(e, "github."):
			return r.github[strings.TrimPrefix(e, "github.")]
		case strings.HasPrefix(e, "steps."):
			p := strings.Split(e, ".") // steps.ID.outputs.KEY
			return r.stepOutputs[p[1]][p[3]]
		}
		r.t.Fatalf("unknown expression %q", e)
		return ""
	})
}

// run runs every step; it returns the exit code of the first failing step.
func (r *runner) run() int {
	for _, st := range r.a.Runs.Steps {
		os.WriteFile(r.output, nil, 0o644)
		cmd := exec.Command("bash", "-e", "-c", st.Run)
		cmd.Dir = r.dir
		cmd.Env = append(os.Environ(), "GITHUB_OUTPUT="+r.output, "GITHUB_STEP_SUMMARY="+r.summary, "RUNNER_TEMP="+r.temp,
			"RUNNER_TOOL_CACHE="+r.tc, "GITHUB_WORKSPACE="+r.dir, "GITHUB_ACTIONS=true", "RUNNER_OS=Linux", "RUNNER_ARCH=X64")
		cmd.Env = append(cmd.Env, r.extraEnv...)
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+r.expr(v))
		}
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		r.stdout.WriteString(out.String())
		r.stderr.WriteString(errb.String())
		outs := map[string]string{}
		f, _ := os.Open(r.output)
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), "="); ok {
				outs[k] = v
			}
		}
		f.Close()
		r.stepOutputs[st.ID] = outs
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				return ee.ExitCode()
			}
			r.t.Fatal(err)
		}
	}
	return 0
}

func (r *runner) out(name string) string {
	for _, o := range []string{name} {
		if v, ok := r.a.Outputs[o]; ok {
			return r.expr(v.Value)
		}
	}
	r.t.Fatalf("no output %s", name)
	return ""
}

func copyDir(t *testing.T, from, to string) {
	filepath.Walk(from, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
}

// TestActionFromSource runs the action with version: source on the demo,
// with hostile inputs: a path with spaces, a command substitution in the
// category, quotes.
func TestActionFromSource(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("skipping: bash is not installed")
	}
	r := newRunner(t, map[string]string{
		"version":  "source",
		"paths":    "\"my threads\"\nartifacts",
		"category": "brenner-ci/$(touch pwned)'\"/",
	})
	copyDir(t, filepath.Join(repoRoot(t), "testdata", "demo", "mailbox"), filepath.Join(r.dir, "my threads"))
	copyDir(t, filepath.Join(repoRoot(t), "testdata", "demo", "artifacts"), filepath.Join(r.dir, "artifacts"))
	code := r.run()
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the demo has findings)\nstdout:\n%s\nstderr:\n%s", code, r.stdout.String(), r.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(r.dir, "pwned")); err == nil {
		t.Fatal("an input ran a command")
	}
	if r.out("exit-code") != "1" || r.out("errors") == "" || r.out("errors") == "0" {
		t.Errorf("outputs: exit-code %q errors %q", r.out("exit-code"), r.out("errors"))
	}
	for _, o := range []string{"sarif", "junit", "markdown", "json"} {
		p := r.out(o)
		if p == "" {
			t.Errorf("output %s is empty", o)
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.dir, p)
		}
		if _, err := os.Stat(p); err != nil {
			t.Errorf("output %s points at a missing file: %v", o, err)
		}
	}
	sarif, _ := os.ReadFile(filepath.Join(r.dir, r.out("sarif")))
	if !strings.Contains(string(sarif), `brenner-ci/$(touch pwned)'\"/`) {
		t.Errorf("the category did not reach SARIF verbatim")
	}
	summary, _ := os.ReadFile(r.summary)
	if !strings.HasPrefix(string(summary), "## Earlier step\n\nkept\n") || !strings.Contains(string(summary), "brenner-ci") {
		t.Errorf("job summary not appended:\n%s", summary)
	}
	counts := map[string]int{}
	for _, l := range strings.Split(r.stdout.String(), "\n") {
		for _, lv := range []string{"error", "warning", "notice"} {
			if strings.HasPrefix(l, "::"+lv+" ") {
				counts[lv]++
			}
		}
	}
	if counts["error"] == 0 || counts["error"] > 10 || counts["warning"] > 10 || counts["notice"] > 10 {
		t.Errorf("annotations per level: %v", counts)
	}
}

// TestActionWrongPath: a path that does not exist exits 2; outputs point at
// reports that say so, never at missing files.
func TestActionWrongPath(t *testing.T) {
	r := newRunner(t, map[string]string{"version": "source", "paths": "nowhere"})
	if code := r.run(); code != 2 {
		t.Fatalf("exit %d, want 2\n%s\n%s", code, r.stdout.String(), r.stderr.String())
	}
	if p := r.out("markdown"); p != "" {
		md, err := os.ReadFile(filepath.Join(r.dir, p))
		if err != nil || !strings.Contains(string(md), "could not run") {
			t.Errorf("markdown report %s: %v", p, err)
		}
	}
	if r.out("exit-code") != "2" {
		t.Errorf("exit-code output %q", r.out("exit-code"))
	}
}

// TestActionRelease: version: v1.2.3 downloads the release archive for the
// runner, verifies it against checksums.txt, caches it; a tampered archive
// is refused.
func TestActionRelease(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "brenner-ci")
	build := exec.Command("go", "build", "-o", bin, "./cmd/brenner-ci")
	build.Dir = repoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	archive := tarGz(t, bin)
	for _, tc := range []struct {
		name     string
		tamper   bool
		wantCode int
	}{{"good", false, 1}, {"tampered", true, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			served := archive
			sum := sha256.Sum256(archive)
			if tc.tamper {
				served = append(append([]byte(nil), archive...), 0)
			}
			name := "brenner-ci_1.2.3_linux_amd64.tar.gz"
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				switch req.URL.Path {
				case "/v1.2.3/" + name:
					w.Write(served)
				case "/v1.2.3/checksums.txt":
					fmt.Fprintf(w, "%x  %s\n", sum, name)
				default:
					http.NotFound(w, req)
				}
			}))
			defer srv.Close()
			r := newRunner(t, map[string]string{"version": "v1.2.3", "paths": "."})
			r.extraEnv = []string{"BRENNER_CI_RELEASE_BASE=" + srv.URL}
			copyDir(t, filepath.Join(repoRoot(t), "testdata", "demo", "mailbox"), r.dir)
			code := r.run()
			cached := filepath.Join(r.tc, "brenner-ci", "v1.2.3", "amd64", "brenner-ci")
			if tc.tamper {
				if code == 0 || !strings.Contains(r.stdout.String(), "checksum mismatch") {
					t.Errorf("tampered archive: exit %d, stdout %q", code, r.stdout.String())
				}
				if _, err := os.Stat(cached); err == nil {
					t.Error("a tampered binary was installed")
				}
				return
			}
			if code != tc.wantCode || r.stepOutputs["install"]["binary"] != cached {
				t.Fatalf("exit %d, binary %q\n%s\n%s", code, r.stepOutputs["install"]["binary"], r.stdout.String(), r.stderr.String())
			}
			// A second run uses the cache (the server is gone).
			srv.Close()
			r2 := newRunner(t, map[string]string{"version": "v1.2.3", "paths": "."})
			r2.tc, r2.extraEnv = r.tc, r.extraEnv
			copyDir(t, filepath.Join(repoRoot(t), "testdata", "demo", "mailbox"), r2.dir)
			if code := r2.run(); code != 1 {
				t.Errorf("cached run: exit %d\n%s", code, r2.stderr.String())
			}
		})
	}
}

func tarGz(t *testing.T, bin string) []byte {
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	gz := gzip.NewWriter(&writerAdapter{&buf})
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "brenner-ci", Mode: 0o755, Size: int64(len(data))})
	tw.Write(data)
	tw.Close()
	gz.Close()
	return []byte(buf.String())
}

type writerAdapter struct{ b *strings.Builder }

func (w *writerAdapter) Write(p []byte) (int, error) { return w.b.Write(p) }

// TestActionForkPullRequest: on a pull request from a fork the action still
// annotates and writes the summary, and the summary says why SARIF was not
// uploaded.
func TestActionForkPullRequest(t *testing.T) {
	r := newRunner(t, map[string]string{"version": "source", "paths": "."})
	r.github["event.pull_request.head.repo.fork"] = "true"
	copyDir(t, filepath.Join(repoRoot(t), "testdata", "demo", "mailbox"), r.dir)
	if code := r.run(); code != 1 {
		t.Fatalf("exit %d\n%s", code, r.stderr.String())
	}
	summary, _ := os.ReadFile(r.summary)
	if !strings.Contains(string(summary), "SARIF not uploaded") || !strings.Contains(r.stdout.String(), "::error ") {
		t.Errorf("fork pull request: summary or annotations missing:\n%s", summary)
	}
}

// copiedWorkflowYAML is the part of the copied workflow the tests read.
type copiedWorkflowYAML struct {
	On   map[string]any `yaml:"on"`
	Jobs map[string]struct {
		Steps []struct {
			ID   string            `yaml:"id"`
			Uses string            `yaml:"uses"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// copiedWorkflow reads .github/workflows/brenner-ci.yml, the workflow the
// README tells users to copy, and returns the with: of its checkout step
// and of its brenner-ci step.
func copiedWorkflow(t *testing.T) (on map[string]any, checkout, brenner map[string]string) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), ".github", "workflows", "brenner-ci.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var w copiedWorkflowYAML
	if err := yaml.Unmarshal(data, &w); err != nil {
		t.Fatalf("the workflow is not valid YAML: %v", err)
	}
	for _, job := range w.Jobs {
		for _, st := range job.Steps {
			switch {
			case strings.HasPrefix(st.Uses, "actions/checkout@"):
				checkout = st.With
			case strings.HasPrefix(st.Uses, "brenner-ci/brenner-ci@"):
				brenner = st.With
			}
		}
	}
	if brenner == nil {
		t.Fatal("the workflow has no brenner-ci/brenner-ci step")
	}
	return w.On, checkout, brenner
}

// gitIn runs git in dir with a fixed identity and date and no user
// configuration, so equal trees make equal commits (a report that links to
// GITHUB_SHA is the same in every run).
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_AUTHOR_DATE=2026-03-02T10:00:00Z", "GIT_COMMITTER_DATE=2026-03-02T10:00:00Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// annotations counts the runner's annotations per level, brenner-ci's own
// notices (title=brenner-ci) apart.
func annotations(stdout string) (count map[string]int, own []string) {
	count = map[string]int{}
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "::notice title=brenner-ci::") {
			own = append(own, l)
			continue
		}
		for _, lv := range []string{"error", "warning", "notice"} {
			if strings.HasPrefix(l, "::"+lv+" ") {
				count[lv]++
			}
		}
	}
	return count, own
}

// TestActionCopiedWorkflowPullRequest runs the action with the with: of the
// copied workflow on a repository whose mailbox has old findings and to
// which a pull request adds one error. On pull_request the workflow runs in
// pull-request mode (the base SHA as new-from-rev, a full checkout): the new
// error is the one ::error annotation, the old findings are notices (or
// hidden, or kept, as old-findings says), and the job summary lists the new
// error first. On push it checks the whole repository.
func TestActionCopiedWorkflowPullRequest(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipping: git is not installed")
	}
	on, checkout, with := copiedWorkflow(t)
	if _, ok := on["pull_request"]; !ok {
		t.Error("the workflow does not run on pull_request")
	}
	if _, ok := on["push"]; !ok {
		t.Error("the workflow does not run on push")
	}
	if checkout["fetch-depth"] != "0" {
		t.Errorf("actions/checkout fetch-depth is %q: pull-request mode needs the base commit (fetch-depth: 0)", checkout["fetch-depth"])
	}
	if got, want := with["new-from-rev"], "${{ github.event.pull_request.base.sha }}"; got != want {
		t.Errorf("new-from-rev is %q, want %q", got, want)
	}

	// The repository: the demo mailbox and artifacts at the base; the pull
	// request breaks one KICKOFF subject (a new MB-001 error).
	setup := func(r *runner) string {
		copyDir(t, filepath.Join(repoRoot(t), "testdata", "demo", "mailbox"), filepath.Join(r.dir, "mailbox"))
		copyDir(t, filepath.Join(repoRoot(t), "testdata", "demo", "artifacts"), filepath.Join(r.dir, "artifacts"))
		gitIn(t, r.dir, "init", "-q")
		gitIn(t, r.dir, "add", ".")
		gitIn(t, r.dir, "commit", "-q", "-m", "base")
		base := gitIn(t, r.dir, "rev-parse", "HEAD")
		testutil.BreakKickoff(t, filepath.Join(r.dir, "mailbox", "RS-20260301-quorum-timing.json"))
		gitIn(t, r.dir, "commit", "-q", "-am", "the pull request")
		return base
	}
	// newWorkflowRunner is a runner whose inputs are the workflow's with:
	// for the event (version: source instead of the pinned release).
	newWorkflowRunner := func(t *testing.T, event string, extra map[string]string) *runner {
		r := newRunner(t, nil)
		base := setup(r)
		if event == "pull_request" {
			r.github["event.pull_request.base.sha"] = base
		}
		for k, v := range with {
			r.inputs[k] = r.expr(v)
		}
		r.inputs["version"] = "source"
		for k, v := range extra {
			r.inputs[k] = v
		}
		return r
	}

	for _, tc := range []struct{ old, want string }{{"", "notice"}, {"notice", "notice"}, {"hide", "hide"}, {"keep", "keep"}} {
		t.Run("pull_request/old-findings="+tc.old, func(t *testing.T) {
			extra := map[string]string{}
			if tc.old != "" {
				extra["old-findings"] = tc.old
			}
			r := newWorkflowRunner(t, "pull_request", extra)
			if code := r.run(); code != 1 {
				t.Fatalf("exit %d, want 1 (one new error)\n%s\n%s", code, r.stdout.String(), r.stderr.String())
			}
			out := r.stdout.String()
			count, own := annotations(out)
			var first string
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, "::error ") || strings.HasPrefix(l, "::warning ") || strings.HasPrefix(l, "::notice ") {
					first = l
					break
				}
			}
			if !strings.HasPrefix(first, "::error ") || !strings.Contains(first, "MB-001") || !strings.Contains(first, "(new)::") {
				t.Errorf("the new error is not annotated first: %q", first)
			}
			switch tc.want {
			case "notice":
				if count["error"] != 1 || count["warning"] != 0 || !strings.Contains(out, "(old error)::") {
					t.Errorf("old findings not annotated as notices: %v\n%s", count, out)
				}
			case "hide":
				if count["error"] != 1 || count["warning"] != 0 || count["notice"] != 0 || len(own) != 1 || !strings.Contains(own[0], "old findings") {
					t.Errorf("old findings annotated, or not counted: %v %q\n%s", count, own, out)
				}
			case "keep":
				if count["error"] < 2 {
					t.Errorf("old errors not annotated at their level: %v\n%s", count, out)
				}
			}
			if r.out("new") != "1" || r.out("exit-code") != "1" {
				t.Errorf("outputs: new %q, exit-code %q", r.out("new"), r.out("exit-code"))
			}
			// The summary's first section is the new finding.
			summary, _ := os.ReadFile(r.summary)
			s := string(summary)
			if !strings.Contains(s, "## ❌ brenner-ci: failed — 1 new finding at or above `error`") {
				t.Errorf("summary headline:\n%s", s)
			}
			_, sec, ok := strings.Cut(s, "\n### ")
			if !ok || !strings.HasPrefix(sec, "New in this pull request\n") {
				t.Fatalf("the summary's first section is not the new findings:\n%s", s)
			}
			if sec, _, _ = strings.Cut(sec, "\n### "); strings.Count(sec, "\n- ") != 1 || !strings.Contains(sec, "MB-001") {
				t.Errorf("the new section does not list the one new MB-001:\n%s", sec)
			}
		})
	}

	t.Run("push", func(t *testing.T) {
		r := newWorkflowRunner(t, "push", nil)
		if r.inputs["new-from-rev"] != "" {
			t.Fatalf("on push new-from-rev is %q: the whole repository must be checked", r.inputs["new-from-rev"])
		}
		if code := r.run(); code != 1 {
			t.Fatalf("exit %d, want 1\n%s\n%s", code, r.stdout.String(), r.stderr.String())
		}
		out := r.stdout.String()
		count, _ := annotations(out)
		if count["error"] < 2 || strings.Contains(out, "(new)") || strings.Contains(out, "(old ") {
			t.Errorf("push: not a whole-repository check: %v\n%s", count, out)
		}
		summary, _ := os.ReadFile(r.summary)
		if strings.Contains(string(summary), "New in this pull request") {
			t.Errorf("push: the summary has a pull-request section:\n%s", summary)
		}
	})

	t.Run("old-findings=loud", func(t *testing.T) {
		r := newWorkflowRunner(t, "pull_request", map[string]string{"old-findings": "loud"})
		if code := r.run(); code != 2 {
			t.Errorf("old-findings: loud: exit %d, want 2\n%s\n%s", code, r.stdout.String(), r.stderr.String())
		}
	})
}
