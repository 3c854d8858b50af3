package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/brenner-ci/brenner-ci/reporters"
	"github.com/brenner-ci/brenner-ci/rules"
)

// parseShard reads --shard I/N.
func parseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		i, err = strconv.Atoi(a)
		if err == nil {
			n, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || n < 1 || i < 1 || i > n {
		return 0, 0, usagef("--shard %q: want I/N with 1 ≤ I ≤ N, e.g. 2/8", s)
	}
	return i, n, nil
}

// shardPath is where a shard run writes its shard file.
func (c *checkCmd) shardPath() (string, error) {
	switch {
	case c.JSON != "":
		return c.JSON, nil
	case c.Out != "":
		return filepath.Join(c.Out, "brenner-ci.shard.json"), nil
	}
	return "", usagef("--shard writes a shard file: give --json FILE or --out DIR")
}

// configID identifies the configuration of a run for shard merges: a hash
// of the governing file and of the repository configuration it is compared
// with ("" with the defaults).
func configID(run *checkRun) string {
	if run.policy == nil || run.policy.Config == nil {
		return ""
	}
	h := sha256.New()
	for _, c := range []string{run.policy.Config.Path, basePath(run)} {
		if c == "" {
			continue
		}
		data, _ := os.ReadFile(c)
		fmt.Fprintf(h, "%d\x00", len(data))
		h.Write(data)
	}
	fmt.Fprintf(h, "%t %t", run.policy.Pinned, run.policy.Below)
	return hex.EncodeToString(h.Sum(nil))
}

func basePath(run *checkRun) string {
	if run.policy.Base != nil {
		return run.policy.Base.Path
	}
	return ""
}

// runShard checks one shard and writes its shard file; merge writes the
// reports. It exits 0 (2 on a usage error, 3 on an internal or write error).
func (c *checkCmd) runShard(e *env, run *checkRun) error {
	i, n, err := parseShard(c.Shard)
	if err != nil {
		return err
	}
	path, err := c.shardPath()
	if err != nil {
		return err
	}
	if c.Sarif != "" || c.Junit != "" || c.Markdown != "" || c.Baseline != "" || c.NewFromRev != "" || c.WriteBaseline != "" || c.Fix {
		return usagef("--shard writes only the shard file; reports, baselines and --fix belong to brenner-ci merge")
	}
	eng := rules.NewEngine(run.cfg)
	in, err := c.list(run)
	if err != nil {
		return err
	}
	if rc := c.runCacheFor(run, eng, in, nil); rc != nil {
		if err, ok := c.replay(e, rc, in.Files()); ok {
			return err
		}
		c.rec = newRunRecorder(rc, in)
	}
	batch, err := c.scan(run, in)
	if err != nil {
		return err
	}
	part := rules.Partition(batch, i-1, n)
	res, b, notes, last := c.runThreads(eng, run, part.Batch)
	s := rules.NewShard(res, b, part)
	s.Notifications = append(notes, res.Notifications...)
	s.Tool, s.Index, s.Count = version(), i, n
	s.Config, s.Rules, s.Inputs, s.Last = configID(run), eng.Enabled(), run.paths, last
	if err := reporters.WriteFileAtomic(path, func(w io.Writer) error { return rules.WriteShard(w, s) }); err != nil {
		fmt.Fprintf(e.stderr, "brenner-ci: %s\n", reporters.Safe(err.Error()))
		return &exitError{ExitInternal}
	}
	c.rec.file("shard", path)
	fmt.Fprintf(c.rec.stdout(e.stdout), "brenner-ci: shard %d/%d: %s of %d, %s; wrote %s\n", i, n,
		reporters.Plural(len(part.Batch.Threads), "thread"), len(batch.Threads), reporters.Plural(len(res.Findings), "raw finding"), reporters.Safe(path))
	if res.Internal {
		return &exitError{ExitInternal}
	}
	if timedOut(res.Findings) {
		c.rec.spoil()
	}
	c.rec.section("stderr", nil)
	c.rec.store(0)
	return nil
}

// mergeCmd merges the shard files of a sharded check into the reports of
// one run.
type mergeCmd struct {
	Shards        []string `arg:"" name:"shard" help:"The shard files of every shard (check --shard I/N)."`
	Config        string   `help:"Configuration file; it must be the one the shards used (default: found from the shards' first input upward, as check does)." placeholder:"FILE"`
	FailOn        string   `help:"Lowest severity that fails the run: error, warning, note or none (default error, or the config's fail-on)." placeholder:"LEVEL"`
	Out           string   `help:"Write every report (brenner-ci.sarif, .junit.xml, .md, .json) into DIR." placeholder:"DIR"`
	Format        string   `help:"Standard output format: text, github, json, sarif, junit or markdown." enum:"text,github,json,sarif,junit,markdown" default:"text"`
	Sarif         string   `help:"Write a SARIF 2.1.0 report to FILE." placeholder:"FILE"`
	Junit         string   `help:"Write a JUnit XML report to FILE." placeholder:"FILE"`
	Markdown      string   `help:"Write a markdown report to FILE (also appended to $GITHUB_STEP_SUMMARY in GitHub Actions)." placeholder:"FILE"`
	JSON          string   `name:"json" help:"Write a JSON report to FILE." placeholder:"FILE"`
	MarkdownMax   int      `help:"Maximum characters of the markdown report." default:"65000"`
	Category      string   `help:"SARIF automationDetails.id." default:"brenner-ci/"`
	RepoRoot      string   `help:"Repository root for report paths (default: git top level of the current directory)." placeholder:"DIR"`
	Baseline      string   `help:"Only findings not in this baseline gate the exit code." placeholder:"FILE"`
	WriteBaseline string   `help:"Write the fingerprints of the findings to FILE." placeholder:"FILE"`
	GithubOutput  string   `name:"github-output" help:"Append step outputs to FILE, normally $GITHUB_OUTPUT." placeholder:"FILE"`
	Quiet         bool     `short:"q" help:"Print no run notifications on standard error."`
}

// Run merges: the shards must be every shard of one run (same tool,
// configuration, rules, inputs and shard count, each index once). Run it
// in the repository checkout the shards ran in: the reports read the input
// files for their locations, as check does.
func (m *mergeCmd) Run(e *env) error {
	var shards []*rules.Shard
	for _, p := range m.Shards {
		s, err := rules.ReadShard(p)
		if err != nil {
			return usagef("%v", err)
		}
		shards = append(shards, s)
	}
	c := &checkCmd{Config: m.Config, FailOn: m.FailOn, Out: m.Out, Format: m.Format, Sarif: m.Sarif, Junit: m.Junit,
		Markdown: m.Markdown, JSON: m.JSON, MarkdownMax: m.MarkdownMax, Category: m.Category, RepoRoot: m.RepoRoot,
		Baseline: m.Baseline, WriteBaseline: m.WriteBaseline, GithubOutput: m.GithubOutput, Quiet: m.Quiet}
	if len(shards) > 0 {
		c.Paths = shards[0].Inputs
	}
	run, err := c.setup()
	if err != nil {
		c.reportRunError(e, err)
		return err
	}
	eng := rules.NewEngine(run.cfg)
	for _, s := range shards {
		if s.Config != configID(run) {
			err := usagef("shard %d/%d was checked with another configuration than %s", s.Index, s.Count, describeConfig(run))
			c.reportRunError(e, err)
			return err
		}
	}
	res, batch, last, err := rules.Merge(shards, eng)
	if err != nil {
		err = usagef("merge: %v", err)
		c.reportRunError(e, err)
		return err
	}
	eng.Finish(res, batch)
	notes := append(c.policyNotes(run), res.Notifications...)
	return c.finish(e, run, eng, res, notes, last)
}

func describeConfig(run *checkRun) string {
	if run.policy == nil || run.policy.Config == nil {
		return "the defaults"
	}
	return run.policy.Config.Path
}
