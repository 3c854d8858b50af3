package scripts

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

type workflowYAML struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Steps []struct {
			ID   string            `yaml:"id"`
			Name string            `yaml:"name"`
			Env  map[string]string `yaml:"env"`
			Run  string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// script returns the run script of job's step whose id or name contains key.
func (w *workflowYAML) script(t *testing.T, job, key string) string {
	t.Helper()
	for _, s := range w.Jobs[job].Steps {
		if s.Run != "" && (s.ID == key || strings.Contains(s.Name, key) || strings.Contains(s.Run, key)) {
			if strings.Contains(s.Run, "${{") {
				t.Fatalf("job %s: a run script holds an expression (inputs must reach scripts through env:)", job)
			}
			return s.Run
		}
	}
	t.Fatalf("job %s has no step %q", job, key)
	return ""
}

// bash runs script the way the runner does (bash -e) with env.
func bash(t *testing.T, script string, env ...string) (string, error) {
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestNightlyAuditWorkflow runs the nightly audit's steps as the runner
// would: the plan step turns the shard-count input into the matrix, each
// matrix job checks its shard, the merge job merges the downloaded shard
// files into the reports, the step outputs and the job summary.
func TestNightlyAuditWorkflow(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds brenner-ci (-short)")
	}
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, ".github", "workflows", "nightly-audit.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var w workflowYAML
	if err := yaml.Unmarshal(data, &w); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	ghOut := filepath.Join(tmp, "github_output")
	plan := w.script(t, "plan", "plan")
	for _, bad := range []string{"0", "x", "65", ""} {
		if out, err := bash(t, plan, "SHARDS="+bad, "GITHUB_OUTPUT="+ghOut); err == nil && bad != "" {
			t.Errorf("plan accepted shards=%q: %s", bad, out)
		}
	}
	os.WriteFile(ghOut, nil, 0o644)
	if out, err := bash(t, plan, "SHARDS=3", "GITHUB_OUTPUT="+ghOut); err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	if got, _ := os.ReadFile(ghOut); !strings.Contains(string(got), "shards=[1,2,3]\n") || !strings.Contains(string(got), "count=3\n") {
		t.Fatalf("plan outputs %q", got)
	}

	// The repository: the demo's mailbox and artifacts, as AUDIT_PATHS names them.
	repo := filepath.Join(tmp, "repo")
	copyDir(t, filepath.Join(root, "testdata", "demo"), repo)
	runner := filepath.Join(tmp, "runner")
	os.MkdirAll(runner, 0o755)
	build := exec.Command("go", "build", "-o", filepath.Join(runner, "brenner-ci"), "./cmd/brenner-ci")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	shardScript := w.script(t, "shard", "--shard")
	for i := 1; i <= 3; i++ {
		// Each matrix job has its own runner temp folder.
		jobTemp := filepath.Join(tmp, fmt.Sprintf("job%d", i))
		os.MkdirAll(jobTemp, 0o755)
		os.Link(filepath.Join(runner, "brenner-ci"), filepath.Join(jobTemp, "brenner-ci"))
		// Twice: the second night reuses the cache actions/cache restores:
		// the inputs are unchanged, so the whole shard run is, and its
		// shard file is the first night's byte for byte.
		var first []byte
		for night := 1; night <= 2; night++ {
			cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", shardScript)
			cmd.Dir = repo
			cmd.Env = append(os.Environ(), "RUNNER_TEMP="+jobTemp, fmt.Sprintf("SHARD=%d/3", i), "AUDIT_PATHS="+w.Env["AUDIT_PATHS"])
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("shard %d: %v\n%s", i, err, out)
			}
			data, err := os.ReadFile(filepath.Join(jobTemp, "shard.json"))
			if err != nil {
				t.Fatalf("shard %d wrote no shard file: %v", i, err)
			}
			if night == 1 {
				first = data
			} else if !strings.Contains(string(out), "the whole run reused") || !bytes.Equal(data, first) {
				t.Errorf("shard %d, second night: not reused whole, or another shard file:\n%s", i, out)
			}
		}
		// upload-artifact, then download-artifact with a pattern: one
		// folder per artifact name.
		dst := filepath.Join(runner, "shards", fmt.Sprintf("brenner-ci-shard-%d", i))
		os.MkdirAll(dst, 0o755)
		data, err := os.ReadFile(filepath.Join(jobTemp, "shard.json"))
		if err != nil {
			t.Fatalf("shard %d wrote no shard file: %v", i, err)
		}
		os.WriteFile(filepath.Join(dst, "shard.json"), data, 0o644)
	}
	summary := filepath.Join(tmp, "summary.md")
	os.WriteFile(ghOut, nil, 0o644)
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", w.script(t, "merge", "merge"))
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "RUNNER_TEMP="+runner, "GITHUB_OUTPUT="+ghOut, "GITHUB_STEP_SUMMARY="+summary, "GITHUB_ACTIONS=true")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("merge: %v\n%s", err, out) // 1: the demo has findings
	}
	outputs, _ := os.ReadFile(ghOut)
	sarif := ""
	for _, line := range strings.Split(string(outputs), "\n") {
		if v, ok := strings.CutPrefix(line, "sarif="); ok {
			sarif = v
		}
	}
	if sarif == "" {
		t.Fatalf("merge set no sarif output: %q", outputs)
	}
	if data, err := os.ReadFile(sarif); err != nil || !strings.Contains(string(data), `"id":"brenner-ci/nightly/"`) {
		t.Errorf("the SARIF upload has no nightly category (%v)", err)
	}
	if md, _ := os.ReadFile(summary); !strings.Contains(string(md), "<!-- brenner-ci-report -->") {
		t.Errorf("no job summary written")
	}
	if !strings.Contains(string(out), "::error") && !strings.Contains(string(out), "::warning") {
		t.Errorf("merge printed no annotations:\n%s", out)
	}
}
