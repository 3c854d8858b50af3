package run

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/internal/shard"
	"github.com/brenner-ci/brenner-ci/reporters"
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
func (c *checker) shardPath() (string, error) {
	switch {
	case c.JSON != "":
		return c.JSON, nil
	case c.Out != "":
		return filepath.Join(c.Out, "brenner-ci.shard.json"), nil
	}
	return "", usagef("--shard writes a shard file: give --json FILE or --out DIR")
}

// configID identifies the configuration of a run for shard merges: a hash
// of the bytes of the file found and of the repository configuration it
// tightens ("" with the defaults), as they were read.
func configID(run *Plan) string {
	if run.Policy == nil || run.Policy.Config == nil {
		return ""
	}
	h := sha256.New()
	for _, c := range []*config.Config{run.Policy.Config, run.Policy.Base} {
		if c != nil {
			fmt.Fprintf(h, "%s\x00", c.Digest())
		}
	}
	fmt.Fprintf(h, "%t %t", run.Policy.Pinned, run.Policy.Below)
	return hex.EncodeToString(h.Sum(nil))
}

// runShard checks one shard and writes its shard file; merge writes the
// reports. It exits 0 (2 on a usage error, 3 on an internal or write error).
func (c *checker) runShard(e *Env, run *Plan) error {
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
	eng := run.Engine()
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
	// This shard's threads are checked while the scan holds their files,
	// as in a check of the whole batch (runEngine); the other shards'
	// threads that could be are not checked, and nothing of them is kept
	// (shard.Early). Past keepResults files a shard, their results are
	// kept in a temporary file (holdEarly).
	if c.Cache == "" {
		defer c.holdEarly(eng, in.Files() > keepResults*n)()
		in.CheckEarly(shard.Early(earlyCheck(eng, c.runOptions(run, nil), in.Markdown()), i-1, n))
	}
	batch, err := c.scan(run, in)
	if err != nil {
		return err
	}
	part := shard.Partition(batch, eng, i-1, n)
	res, b, notes, last := c.runThreads(eng, run, part.Batch)
	s := shard.New(res, b, part)
	s.Notifications = append(notes, res.Notifications...)
	s.Tool, s.Index, s.Count = e.Version, i, n
	s.Config, s.Rules, s.Inputs, s.Last = configID(run), eng.Enabled(), run.Paths, last
	if err := reporters.WriteFileAtomic(path, func(w io.Writer) error { return shard.Write(w, s) }); err != nil {
		fmt.Fprintf(e.Stderr, "brenner-ci: %s\n", reporters.Safe(err.Error()))
		return &ExitError{ExitInternal}
	}
	c.rec.file("shard", path)
	fmt.Fprintf(c.rec.stdout(e.Stdout), "brenner-ci: shard %d/%d: %s of %d, %s; wrote %s\n", i, n,
		reporters.Plural(len(part.Batch.Threads), "thread"), len(batch.Threads), reporters.Plural(len(res.Findings), "raw finding"), reporters.Safe(path))
	if res.Internal {
		return &ExitError{ExitInternal}
	}
	if timedOut(res.Findings) {
		c.rec.spoil()
	}
	c.rec.section("stderr", nil)
	c.rec.store(0)
	return nil
}

// Merge merges the shard files of a sharded check into the reports of one
// run (o gives the report options; its paths are the shards' inputs): the
// shards must be every shard of one run (same tool,
// configuration, rules, inputs and shard count, each index once). Run it
// in the repository checkout the shards ran in: the reports read the input
// files for their locations, as check does.
func Merge(files []string, o CheckOptions, e *Env) error {
	c := &checker{CheckOptions: o, env: e, errw: e.Stderr}
	var shards []*shard.Shard
	for _, p := range files {
		s, err := shard.Read(p)
		if err != nil {
			// A truncated or oversize shard: every report says the merge
			// could not run.
			err = usagef("%v", err)
			c.reportRunError(e, err)
			return err
		}
		shards = append(shards, s)
	}
	if len(shards) > 0 {
		c.Paths = shards[0].Inputs
	}
	run, err := c.setup()
	if err == nil && c.NewFromRev != "" {
		err = c.newFromRev(run, nil, nil)
	}
	if err != nil {
		c.reportRunError(e, err)
		return err
	}
	eng := run.Engine()
	for _, s := range shards {
		if s.Config != configID(run) {
			err := usagef("shard %d/%d was checked with another configuration than %s", s.Index, s.Count, describeConfig(run))
			c.reportRunError(e, err)
			return err
		}
	}
	res, batch, last, err := shard.Merge(shards, eng)
	if err != nil {
		err = usagef("merge: %v", err)
		c.reportRunError(e, err)
		return err
	}
	eng.Finish(res, batch)
	notes := append(c.policyNotes(run), res.Notifications...)
	return c.finish(e, run, eng, res, notes, last)
}

func describeConfig(run *Plan) string {
	if run.Policy == nil || run.Policy.Config == nil {
		return "the defaults"
	}
	return run.Policy.Config.Path
}
