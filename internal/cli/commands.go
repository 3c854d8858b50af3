package cli

import (
	"time"

	"github.com/brenner-ci/brenner-ci/internal/run"
)

// The commands' flags. Each command converts its flags into its run
// options (package run) and runs them; a flag struct and its options
// struct have the same fields, so the conversion fails to compile when
// they drift apart.

type checkFlags struct {
	Paths         []string      `arg:"" optional:"" name:"path" help:"Files or directories to check (default .)."`
	Config        string        `help:"Configuration file (default: .brenner-ci.yaml found from the first path upward to the repository root)." placeholder:"FILE"`
	FailOn        string        `help:"Lowest severity that fails the run: error, warning, note or none (default error, or the config's fail-on)." placeholder:"LEVEL"`
	Jobs          int           `help:"Threads checked in parallel, and processors used (default: number of CPUs)." default:"0"`
	Out           string        `help:"Write every report (brenner-ci.sarif, .junit.xml, .md, .json) and compiled artifacts/<thread_id>.md into DIR." placeholder:"DIR"`
	Format        string        `help:"Standard output format: text, github, json, sarif, junit or markdown." enum:"text,github,json,sarif,junit,markdown" default:"text"`
	Sarif         string        `help:"Write a SARIF 2.1.0 report to FILE." placeholder:"FILE"`
	Junit         string        `help:"Write a JUnit XML report to FILE." placeholder:"FILE"`
	Markdown      string        `help:"Write a markdown report to FILE. In GitHub Actions it is also appended to $GITHUB_STEP_SUMMARY." placeholder:"FILE"`
	JSON          string        `name:"json" help:"Write a JSON report to FILE." placeholder:"FILE"`
	MarkdownMax   int           `help:"Maximum characters of the markdown report." default:"65000"`
	Category      string        `help:"SARIF automationDetails.id." default:"brenner-ci/"`
	RepoRoot      string        `help:"Repository root for report paths (default: git top level of the current directory)." placeholder:"DIR"`
	Baseline      string        `help:"Only findings not in this baseline (a JSON report, SARIF file or fingerprint list) gate the exit code." placeholder:"FILE"`
	NewFromRev    string        `name:"new-from-rev" help:"Pull-request mode: findings already present at git revision REV (the same inputs read with git, the same pipeline) are old; only new findings gate, and they are annotated first." placeholder:"REV"`
	WriteBaseline string        `help:"Write the fingerprints of this run's findings to FILE." placeholder:"FILE"`
	OldFindings   string        `name:"old-findings" help:"With --baseline or --new-from-rev, how --format github annotates the findings that are not new: notice (at notice level, after the new findings), hide (not at all; one notice counts them) or keep (at their own level)." enum:"notice,hide,keep" default:"notice"`
	ThreadTimeout time.Duration `name:"thread-timeout" help:"Time budget of one thread; a thread past it is reported (IN-010) and the others go on." default:"60s"`
	Timeout       time.Duration `help:"Time budget of the whole run; past it the threads not yet checked are reported (IN-010) and every report is written (0: none)." default:"30m"`
	GithubOutput  string        `name:"github-output" help:"Append step outputs (errors, warnings, notes, new, gating, failed, and the paths of the reports written) to FILE, normally $GITHUB_OUTPUT." placeholder:"FILE"`
	Fix           bool          `help:"With --out: also write every persisted artifact among the inputs, recompiled from its thread, to DIR/fixed/<its path>. Nothing is rewritten in place."`
	Cache         string        `help:"Keep each thread's results in DIR between runs, keyed by a hash of its input, its persisted artifacts, the tool, the configuration and the rules: an unchanged thread is not parsed again, and a run whose inputs, options and environment are all unchanged writes the recorded run's reports again (without --out). Safe to share between concurrent runs." placeholder:"DIR"`
	Shard         string        `help:"Check shard I of N (1 ≤ I ≤ N) only and write a shard file (--json FILE, or DIR/brenner-ci.shard.json with --out) for brenner-ci merge: threads are split by a hash of their thread id, persisted artifacts go with their thread." placeholder:"I/N"`
	Quiet         bool          `short:"q" help:"Print no progress line and no run notifications on standard error (the reports still hold them)."`
	NoGitignore   bool          `name:"no-gitignore" help:"Also check what the repository's .gitignore ignores (by default a walk names it, IN-006, and does not read it)."`
}

type checkCmd struct {
	checkFlags `embed:""`
	Profile    []string `help:"Write a Go profile of the run: cpu=FILE or mem=FILE (read it with go tool pprof), trace=FILE (go tool trace); repeatable." placeholder:"KIND=FILE"`
}

func (c *checkCmd) Run(e *run.Env) error {
	stop, err := startProfiles(c.Profile)
	if err != nil {
		return err
	}
	defer stop()
	return run.Check(run.CheckOptions(c.checkFlags), e)
}

type compileFlags struct {
	Paths         []string      `arg:"" optional:"" name:"path" help:"Files or directories to ingest (default .)."`
	Out           string        `help:"Write DIR/artifacts/<thread_id>.md (and DIR/compiled/… with --compiled-body)." placeholder:"DIR"`
	CompiledBody  bool          `help:"Also write the COMPILED message body of every thread to DIR/compiled/<thread_id>.v<N>.md."`
	Jobs          int           `help:"Threads compiled in parallel, and processors used (default: number of CPUs)." default:"0"`
	ThreadTimeout time.Duration `name:"thread-timeout" help:"Time budget of one thread; a thread past it is reported (IN-010) and the others go on." default:"60s"`
	Timeout       time.Duration `help:"Time budget of the whole run; past it the threads not yet checked are reported (IN-010) and every report is written (0: none)." default:"30m"`
	Config        string        `help:"Configuration file (default: .brenner-ci.yaml found from the first path upward to the repository root); its agents, rule severities, ignores and suppressions apply as in check." placeholder:"FILE"`
	NoGitignore   bool          `name:"no-gitignore" help:"Also compile what the repository's .gitignore ignores."`
	RepoRoot      string        `help:"Repository root for the paths of findings (default: git top level of the current directory)." placeholder:"DIR"`
}

type compileCmd struct {
	compileFlags `embed:""`
	Profile      []string `help:"Write a Go profile of the run: cpu=FILE or mem=FILE (read it with go tool pprof), trace=FILE (go tool trace); repeatable." placeholder:"KIND=FILE"`
}

func (c *compileCmd) Run(e *run.Env) error {
	stop, err := startProfiles(c.Profile)
	if err != nil {
		return err
	}
	defer stop()
	return run.Compile(run.CompileOptions(c.compileFlags), e)
}

type graphCmd struct {
	Paths  []string `arg:"" optional:"" name:"path" help:"Files or directories to read (default .)."`
	Config string   `help:"Configuration file (default: .brenner-ci.yaml found from the first path upward to the repository root)." placeholder:"FILE"`
	Format string   `help:"Output format: mermaid, dot or json." enum:"mermaid,dot,json" default:"mermaid"`
	Jobs   int      `help:"Threads compiled in parallel, and processors used (default: number of CPUs)." default:"0"`
}

func (c *graphCmd) Run(e *run.Env) error { return run.Graph(run.GraphOptions(*c), e) }

// checkMessageCmd is the pre-send check of message_body_schema (run.CheckMessage).
type checkMessageCmd struct {
	Body         string        `arg:"" optional:"" name:"file" help:"The message body (markdown); - or nothing reads standard input."`
	Subject      string        `required:"" help:"The subject the message will be sent with."`
	AckRequired  bool          `name:"ack-required" help:"The message will be sent with ack_required: true."`
	Thread       string        `help:"The thread id it will be sent to (its id is then checked too)." placeholder:"ID"`
	From         string        `help:"The sending agent." placeholder:"NAME"`
	To           []string      `help:"The recipients." placeholder:"NAME"`
	Config       string        `help:"Configuration file (default: .brenner-ci.yaml found from the current folder upward to the repository root)." placeholder:"FILE"`
	FailOn       string        `help:"Lowest severity that fails: error, warning, note or none (default error, or the config's fail-on)." placeholder:"LEVEL"`
	Format       string        `help:"Output format: text or json." enum:"text,json" default:"text"`
	StdinTimeout time.Duration `name:"stdin-timeout" help:"How long standard input may send nothing before the body's first byte; then it is an error (0: wait)." default:"1s"`
}

func (c *checkMessageCmd) Run(e *run.Env) error { return run.CheckMessage(run.MessageOptions(*c), e) }

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
	OldFindings   string   `name:"old-findings" help:"With --baseline, how --format github annotates the findings that are not new: notice, hide or keep (as check)." enum:"notice,hide,keep" default:"notice"`
	GithubOutput  string   `name:"github-output" help:"Append step outputs to FILE, normally $GITHUB_OUTPUT." placeholder:"FILE"`
	Quiet         bool     `short:"q" help:"Print no run notifications on standard error."`
}

func (m *mergeCmd) Run(e *run.Env) error {
	return run.Merge(m.Shards, run.CheckOptions{Config: m.Config, FailOn: m.FailOn, Out: m.Out, Format: m.Format, Sarif: m.Sarif, Junit: m.Junit,
		Markdown: m.Markdown, JSON: m.JSON, MarkdownMax: m.MarkdownMax, Category: m.Category, RepoRoot: m.RepoRoot,
		Baseline: m.Baseline, WriteBaseline: m.WriteBaseline, OldFindings: m.OldFindings, GithubOutput: m.GithubOutput, Quiet: m.Quiet}, e)
}

// configCmd groups the commands about the configuration file.
type configCmd struct {
	Verify configVerifyCmd `cmd:"" help:"Parse and validate the configuration a check of PATH would use (the same discovery, or --config alone); print what it found and exit 0, or every error at its line and column and exit 2."`
}

type configVerifyCmd struct {
	Path   string `arg:"" optional:"" name:"path" help:"The path a check would be given (default .): the configuration is found from it upward to the repository root."`
	Config string `help:"Configuration file (default: .brenner-ci.yaml or .brenner-ci.yml found from the path upward to the repository root)." placeholder:"FILE"`
}

func (c *configVerifyCmd) Run(e *run.Env) error {
	return run.ConfigVerify(run.ConfigVerifyOptions(*c), e)
}
