package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfiles: each kind of --profile writes its file in the format its
// reader expects: pprof's gzip for cpu and mem, go tool trace's header for
// trace.
func TestProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem, tr := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof"), filepath.Join(dir, "run.trace")
	code, _, stderr := runCLI(t, "check", demo(t), "--fail-on", "none", "--format", "json",
		"--profile", "cpu="+cpu, "--profile", "mem="+mem, "--profile", "trace="+tr)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, c := range []struct{ file, magic string }{{cpu, "\x1f\x8b"}, {mem, "\x1f\x8b"}, {tr, "go 1."}} {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte(c.magic)) {
			t.Errorf("%s starts with %q, want %q", filepath.Base(c.file), data[:min(len(data), 8)], c.magic)
		}
	}
}

// TestProfileUsageErrors: a bad --profile is a usage error that names the
// kinds, and stops the profiles started before it (a run after it can
// start them again).
func TestProfileUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		specs []string
		want  string
	}{
		{[]string{"cpu=" + filepath.Join(dir, "a"), "heap=" + filepath.Join(dir, "b")}, "the kind is cpu, mem or trace"},
		{[]string{"trace=" + filepath.Join(dir, "a"), "cpu"}, "want cpu=FILE, mem=FILE or trace=FILE"},
		{[]string{"trace=" + filepath.Join(dir, "a"), "trace=" + filepath.Join(dir, "b")}, "trace given twice"},
		{[]string{"cpu=" + filepath.Join(dir, "a"), "cpu=" + filepath.Join(dir, "b")}, "cpu given twice"},
		{[]string{"cpu=" + filepath.Join(dir, "missing", "a")}, "--profile:"},
	} {
		args := []string{"check", demo(t), "--fail-on", "none", "--format", "json"}
		for _, s := range c.specs {
			args = append(args, "--profile", s)
		}
		code, _, stderr := runCLI(t, args...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.specs, code, stderr, ExitUsage, c.want)
		}
		stop, err := startProfiles([]string{"cpu=" + filepath.Join(dir, "again"), "trace=" + filepath.Join(dir, "again.trace")})
		if err != nil {
			t.Fatalf("after %v: profiles left running: %v", c.specs, err)
		}
		stop()
	}
}

// TestMemProfileAsked: the process keeps sampling allocations only when
// its arguments ask for a heap profile, in either spelling of the flag.
func TestMemProfileAsked(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"check", "dir"}, false},
		{[]string{"check", "dir", "--profile", "cpu=c.out"}, false},
		{[]string{"check", "dir", "--profile", "cpu=c.out", "--profile", "mem=m.out"}, true},
		{[]string{"check", "--profile=mem=m.out", "dir"}, true},
		{[]string{"check", "--profile"}, false},
		{[]string{"check", "--", "--profile", "mem=m.out"}, false},
		{[]string{"compile", "dir", "--profile", "mem=m.out", "--out", "o"}, true},
		{[]string{"check", "dir", "--profile", "cpu=c.out,mem=m.out"}, true},
		{[]string{"check", "dir", "--profile=trace=t.out,mem=m.out"}, true},
		{[]string{"check", "dir", "--profile", "cpu=c.out,trace=t.out"}, false},
	} {
		if got := memProfileAsked(c.args); got != c.want {
			t.Errorf("%q: %v, want %v", c.args, got, c.want)
		}
	}
}
