// Package cli implements brenner-ci's commands.
package cli

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/alecthomas/kong"

	"github.com/brenner-ci/brenner-ci/internal/run"
	"github.com/brenner-ci/brenner-ci/reporters"
	"github.com/brenner-ci/brenner-ci/rules"
)

// Version is set at build time with -ldflags "-X …/internal/cli.Version=…"
// (make build, the release archives). Otherwise it is the module version
// from the build info: `go install …@v1.2.3` reports v1.2.3.
var Version = ""

// version returns the version to report.
func version() string {
	if Version != "" {
		return Version
	}
	return buildVersion(debug.ReadBuildInfo())
}

// buildVersion is the module version of bi, or "devel" plus the VCS
// revision for a build from a checkout.
func buildVersion(bi *debug.BuildInfo, ok bool) string {
	if !ok || bi == nil {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	switch {
	case rev == "":
		return "devel"
	case dirty:
		return "devel-" + rev + "-dirty"
	}
	return "devel-" + rev
}

// Exit codes (run.ExitStatus chooses them).
const (
	ExitOK       = run.ExitOK       // nothing at or above the fail-on level
	ExitFindings = run.ExitFindings // findings at or above the fail-on level (compile: errors)
	ExitUsage    = run.ExitUsage    // usage or configuration error
	ExitInternal = run.ExitInternal // internal error
)

type cliArgs struct {
	VersionFlag  kong.VersionFlag `name:"version" help:"Print the version and exit."`
	Color        string           `name:"color" enum:"auto,always,never" default:"auto" placeholder:"WHEN" help:"Colour the severities and rule ids of the text output: auto (when standard output is a terminal, NO_COLOR is unset or empty and TERM is not dumb), always or never."`
	Compile      compileCmd       `cmd:"" help:"Ingest mailbox exports, compile every thread, optionally persist artifacts."`
	Check        checkCmd         `cmd:"" help:"Compile every thread and run every enabled rule; write reports."`
	Rules        rulesCmd         `cmd:"" help:"List every rule with its metadata."`
	CheckMessage checkMessageCmd  `cmd:"" name:"check-message" help:"Check one message before it is sent: subject, body (a FILE or standard input), ack_required; every message-level rule."`
	Merge        mergeCmd         `cmd:"" help:"Merge the shard files of check --shard I/N into the reports of one run."`
	Graph        graphCmd         `cmd:"" help:"Write the session genealogy graph (cross-session references) as Mermaid, DOT or JSON."`
	Explain      explainCmd       `cmd:"" help:"Print a rule's documentation: what it checks, its spec, its severity and scope, a bad and a fixed example."`
	Config       configCmd        `cmd:"" help:"Verify the configuration file: brenner-ci config verify [PATH]."`
	Version      versionCmd       `cmd:"" help:"Print the version."`
	Help         helpCmd          `cmd:"" help:"Print the usage of brenner-ci or of a command (brenner-ci help check)."`
	Completion   completionCmd    `cmd:"" help:"Write a shell completion script (bash, zsh or fish)."`
	Man          manCmd           `cmd:"" help:"Print the manual page, brenner-ci(1), as roff (read it with: brenner-ci man | man -l -)."`
}

// description is the top of every usage text: what brenner-ci is, how to
// start, and what its exit codes mean.
const description = `Batch compiler and linter for Brenner Protocol threads exported from Agent Mail.

Examples:
  brenner-ci check mailbox/ --out reports/      check every thread, write every report
  brenner-ci check . --new-from-rev origin/main  pull-request mode: only new findings gate
  brenner-ci explain MB-006                      what a rule checks, with examples

Exit codes: 0 nothing at or above fail-on; 1 findings at or above fail-on; 2 usage, configuration or input error; 3 internal error.`

// usagef is a usage error of the command line itself (exit 2).
func usagef(format string, a ...any) error { return &run.UsageError{Msg: fmt.Sprintf(format, a...)} }

// Main runs brenner-ci with args and returns the exit code.
func Main(args []string, stdout, stderr io.Writer) (code int) {
	return MainIO(args, nil, stdout, stderr)
}

// MainIO is Main with standard input (nil: os.Stdin).
func MainIO(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	return MainRules(nil, args, stdin, stdout, stderr)
}

// MainRules is MainIO for a program with the rules of reg (nil: the
// built-in rules; a rule pack's program adds its own, see package
// rulepack).
func MainRules(reg *rules.Registry, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "brenner-ci: internal error: %s\n", reporters.Safe(fmt.Sprint(v)))
			code = ExitInternal
		}
	}()
	var a cliArgs
	exited := -1
	parser, err := newParser(&a,
		kong.Writers(stdout, stderr),
		kong.Exit(func(c int) { exited = c; panic(exitPanic{}) }),
	)
	if err != nil {
		fmt.Fprintf(stderr, "brenner-ci: %s\n", reporters.Safe(err.Error()))
		return ExitInternal
	}
	// "help [command…]" is "[command…] --help"; a bare call prints the
	// whole usage (not kong's truncated list of commands) and is a usage
	// error, as no command ran.
	bare := len(args) == 0
	switch {
	case bare:
		args = []string{"--help"}
		parser.Stdout = stderr
	case args[0] == "help" && !(len(args) == 2 && (args[1] == "--help" || args[1] == "-h")):
		// ("help --help" is the usage of help itself.)
		args = append(append([]string(nil), args[1:]...), "--help")
	}
	ctx, err := parseArgs(parser, args, &exited)
	if exited >= 0 {
		if exited == 0 && !bare {
			return ExitOK // --help
		}
		return ExitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "brenner-ci: %s\n", reporters.Safe(err.Error()))
		return ExitUsage
	}
	if j, ok := selectedCommand(ctx).(jobsCommand); ok {
		defer useProcs(j.jobs())()
	}
	err = ctx.Run(&run.Env{Stdout: colorStdout(a.Color, stdout), Stderr: stderr, Stdin: stdin, Version: version(), Rules: reg}, parser)
	var ee *run.ExitError
	var ue *run.UsageError
	switch {
	case err == nil, errors.As(err, &ee):
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "brenner-ci: %s\n", reporters.Safe(ue.Msg))
	default:
		fmt.Fprintf(stderr, "brenner-ci: internal error: %s\n", reporters.Safe(err.Error()))
	}
	return run.ExitStatus(err)
}

// newParser is the command line model of a (the help, man page and
// completion scripts are made from it) with the options given.
func newParser(a *cliArgs, options ...kong.Option) (*kong.Kong, error) {
	return kong.New(a, append([]kong.Option{
		kong.Name("brenner-ci"),
		kong.Description(description),
		kong.UsageOnError(),
		kong.Help(helpPrinter),
		kong.Vars{"version": "brenner-ci " + version()},
	}, options...)...)
}

type exitPanic struct{}

func parseArgs(p *kong.Kong, args []string, exited *int) (ctx *kong.Context, err error) {
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(exitPanic); !ok {
				panic(v)
			}
		}
	}()
	return p.Parse(args)
}

type versionCmd struct{}

func (versionCmd) Run(e *run.Env) error {
	fmt.Fprintf(e.Stdout, "brenner-ci %s\n", version())
	return nil
}

// helpCmd is only named here, for the usage text: MainIO turns
// "help [command…]" into "[command…] --help" before parsing.
type helpCmd struct {
	Command []string `arg:"" optional:"" help:"The command (and subcommand) to describe."`
}

func (helpCmd) Run(e *run.Env) error { return nil }
