package run

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/cache"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/internal/safefile"
	"github.com/brenner-ci/brenner-ci/rules"
)

// Plan is what every command settles from its paths, its flags and the
// configuration, once, before it reads any input. Every stage takes its
// options from here (ScanOptions, CompileOptions, Engine), so two stages of
// one run — the inputs and their base revision, a shard and its merge —
// can never read the configuration differently.
type Plan struct {
	Paths  []string
	Policy *config.Resolved // how the configuration was found
	Cfg    *config.Config   // Policy.Effective: the configuration that governs (nil: the defaults)
	Epoch  time.Time        // SOURCE_DATE_EPOCH (zero: unset)
	Jobs   int
	// ThreadTimeout is the time budget of one thread (0: none), Deadline
	// the end of the run's (zero: none).
	ThreadTimeout time.Duration
	Deadline      time.Time
	// Ignored are the paths the repository ignores (.gitignore), which a
	// walk names and does not read (UseGitignore).
	Ignored []string
	Limits  config.Limits
	// Registry holds the rules the run knows: the built-in rules, any rule
	// packs (Env.Rules) and the configuration's custom rules.
	Registry *rules.Registry
	base     *rules.Registry // Registry without the custom rules

	// Set by check only.
	failOn   diag.Severity
	repoRoot string
	baseline map[string]bool
	// extra are findings about the run's own policy inputs (a baseline a
	// pull request edits, baselineAt), added to the engine's.
	extra []diag.Finding

	scanCache *mailbox.ScanCache // with --cache
	scanStore *cache.Store       // its entries

	// commits are the revisions the run resolved (revCommit): git asked
	// once per revision, and every read of it uses the same commit.
	commits map[string]revResolved

	err error // the configuration's custom rules do not compile (govern)
}

// settle resolves the configuration for paths (the --config file alone when
// given, else the first .brenner-ci.yaml from the first path upward to the
// repository root) and reads SOURCE_DATE_EPOCH.
func settle(base *rules.Registry, configFlag string, paths []string, jobs int, threadTimeout, runTimeout time.Duration) (*Plan, error) {
	switch {
	case jobs < 0:
		return nil, usagef("--jobs %d: give 1 or more, or 0 for one per processor", jobs)
	case threadTimeout < 0:
		return nil, usagef("--thread-timeout %s: give a duration, or 0 for no budget", threadTimeout)
	case runTimeout < 0:
		return nil, usagef("--timeout %s: give a duration, or 0 for none", runTimeout)
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	ep, err := epoch()
	if err != nil {
		return nil, err
	}
	if base == nil {
		base = rules.Builtin()
	}
	policy, err := config.Resolve(configFlag, paths[0], "", base.Known)
	if err != nil {
		return nil, usagef("configuration error: %v", err)
	}
	p := newPlan(base, paths, policy, jobs)
	if p.err != nil {
		return nil, usagef("configuration error: %v", p.err)
	}
	p.Epoch, p.ThreadTimeout = ep, threadTimeout
	if runTimeout > 0 {
		p.Deadline = time.Now().Add(runTimeout)
	}
	return p, nil
}

// NewPlan is the plan of a run on paths under policy (nil: the defaults)
// with jobs workers, reading nothing from the environment: tests and
// benchmarks build their runs with it (and may set Epoch and
// ThreadTimeout).
func NewPlan(paths []string, policy *config.Resolved, jobs int) *Plan {
	return newPlan(rules.Builtin(), paths, policy, jobs)
}

func newPlan(base *rules.Registry, paths []string, policy *config.Resolved, jobs int) *Plan {
	p := &Plan{Paths: paths, Policy: policy, Jobs: jobs, failOn: diag.Error, base: base}
	if policy != nil {
		p.Cfg = policy.Effective
	}
	p.govern()
	return p
}

// govern puts the run under p.Cfg: its limits and its custom rules (an
// error in them is kept in p.err: settle and Lint report it).
func (p *Plan) govern() {
	p.Limits = config.Limits{}
	if p.Cfg != nil {
		p.Limits = p.Cfg.Limits
	}
	p.Registry, p.err = registry(p.base, p.Cfg)
	if p.err != nil {
		p.Registry = p.base
	}
}

// reg is the run's registry (the built-in rules before one is settled).
func (p *Plan) reg() *rules.Registry {
	if p.Registry != nil {
		return p.Registry
	}
	return rules.Builtin()
}

// ParseLimits are the limits in front of the parsers (limits: body-bytes,
// json-depth); every stage that parses receives them from here.
func (p *Plan) ParseLimits() limits.Parse {
	return limits.Parse{BodyBytes: p.Limits.BodyBytes, JSONDepth: p.Limits.JSONDepth}
}

// ScanOptions are the options of reading the inputs: never the paths in
// exclude (the run's own output), at most limits.file-bytes a file.
func (p *Plan) ScanOptions(exclude ...string) mailbox.ScanOptions {
	return mailbox.ScanOptions{Jobs: p.Jobs, Exclude: exclude, Ignored: p.Ignored, MaxFileBytes: p.Limits.FileBytes, JSONDepth: p.ParseLimits().JSONDepth}
}

// CompileOptions are the options of compiling the threads of a batch whose
// archives name archiveAgents.
func (p *Plan) CompileOptions(archiveAgents []string) compile.Options {
	opt := compile.Options{ArchiveAgents: archiveAgents, Epoch: p.Epoch, ThreadTimeout: p.ThreadTimeout, Deadline: p.Deadline,
		MaxMessages: p.Limits.Messages, MaxBlocks: p.Limits.Blocks, Limits: p.ParseLimits()}
	if p.Cfg != nil {
		opt.Agents = p.Cfg.Agents
	}
	return opt
}

// Rules are the rules the run evaluates: every registered rule the
// configuration does not turn off for every path, in registry order.
func (p *Plan) Rules() []*rules.Rule {
	var rs []*rules.Rule
	for _, r := range p.Registry.All() {
		if !p.Cfg.OffEverywhere(r.ID) {
			rs = append(rs, r)
		}
	}
	return rs
}

// Engine is the rule engine of the run, reading artifacts from the file
// system.
func (p *Plan) Engine() *rules.Engine {
	return rules.NewEngine(p.Rules(), OSFiles{MaxBytes: p.FileBytes()}, p.ParseLimits())
}

// FileBytes is the largest file the run reads (limits: file-bytes).
func (p *Plan) FileBytes() int64 {
	return cmp.Or(p.Limits.FileBytes, limits.DefaultFileBytes)
}

// OSFiles is rules.Files on the file system: what every run reads artifacts
// and evidence packs through, as a pull request may have written them
// (safefile: no link followed, no device or FIFO opened, at most MaxBytes
// read; 0: no limit).
type OSFiles struct{ MaxBytes int64 }

func (f OSFiles) ReadFile(name string) ([]byte, error) { return safefile.Read(name, f.MaxBytes) }
func (OSFiles) Stat(name string) (fs.FileInfo, error)  { return safefile.Stat(name) }

// epoch returns SOURCE_DATE_EPOCH as a time, or zero.
func epoch() (time.Time, error) {
	s := os.Getenv("SOURCE_DATE_EPOCH")
	if s == "" {
		return time.Time{}, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, usagef("SOURCE_DATE_EPOCH=%q is not a number of seconds", s)
	}
	return time.Unix(n, 0).UTC(), nil
}

// optionsKey is the canonical hash of an options value: the SHA-256 of
// label and v's JSON encoding (fields in declaration order, map keys
// sorted). Every exported field of v takes part, so an option added to a
// struct is in every key derived from it; cache keys are made only here.
func optionsKey(label string, v any) [32]byte {
	data, err := json.Marshal(v)
	if err != nil {
		// Options are plain data; this is a programming error, and a
		// key that cannot be made must not match anything.
		panic("run: options cannot be keyed: " + err.Error())
	}
	h := sha256.New()
	h.Write([]byte(label))
	h.Write([]byte{0})
	h.Write(data)
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// hexKey is optionsKey in hexadecimal.
func hexKey(label string, v any) string {
	k := optionsKey(label, v)
	return hex.EncodeToString(k[:])
}

// UseGitignore sets the paths the repository of the run's first path
// ignores, as git says (.gitignore, .git/info/exclude, the global excludes
// file): built folders and dependencies are not inputs. Without git, or
// outside a repository, nothing is ignored.
func (p *Plan) UseGitignore() {
	root := config.RepoRoot(p.Paths[0])
	if root == "" {
		return
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z").Output()
	if err != nil {
		return
	}
	for _, e := range strings.Split(string(out), "\x00") {
		if e = strings.TrimSuffix(e, "/"); e != "" {
			p.Ignored = append(p.Ignored, filepath.Join(root, filepath.FromSlash(e)))
		}
	}
}
