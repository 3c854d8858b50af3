// Package cli implements brenner-ci's commands.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/alecthomas/kong"
	"github.com/brenner-ci/brenner-ci/reporters"
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

// Exit codes.
const (
	ExitOK       = 0 // nothing at or above the fail-on level
	ExitFindings = 1 // findings at or above the fail-on level (compile: errors)
	ExitUsage    = 2 // usage or configuration error
	ExitInternal = 3 // internal error
)

type env struct {
	stdout, stderr io.Writer
	in             io.Reader // nil: os.Stdin
}

// stdin is the command's standard input.
func (e *env) stdin() io.Reader {
	if e.in == nil {
		return os.Stdin
	}
	return e.in
}

type cliArgs struct {
	VersionFlag  kong.VersionFlag `name:"version" help:"Print the version and exit."`
	Compile      compileCmd       `cmd:"" help:"Ingest mailbox exports, compile every thread, optionally persist artifacts."`
	Check        checkCmd         `cmd:"" help:"Compile every thread and run every enabled rule; write reports."`
	Rules        rulesCmd         `cmd:"" help:"List every rule with its metadata."`
	CheckMessage checkMessageCmd  `cmd:"" name:"check-message" help:"Check one message before it is sent: subject, body (a FILE or standard input), ack_required; every message-level rule."`
	Merge        mergeCmd         `cmd:"" help:"Merge the shard files of check --shard I/N into the reports of one run."`
	Graph        graphCmd         `cmd:"" help:"Write the session genealogy graph (cross-session references) as Mermaid, DOT or JSON."`
	Version      versionCmd       `cmd:"" help:"Print the version."`
}

// usageError is a usage or configuration problem (exit 2).
type usageError struct {
	msg string
	// unsafeOut: the output paths themselves are unsafe, so no report may
	// be written (see safeOutDir).
	unsafeOut bool
}

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{msg: fmt.Sprintf(format, a...)} }

// exitError carries an exit code chosen by a command.
type exitError struct{ code int }

func (e *exitError) Error() string { return "exit " + strconv.Itoa(e.code) }

// Main runs brenner-ci with args and returns the exit code.
func Main(args []string, stdout, stderr io.Writer) (code int) {
	return MainIO(args, nil, stdout, stderr)
}

// MainIO is Main with standard input (nil: os.Stdin).
func MainIO(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "brenner-ci: internal error: %s\n", reporters.Safe(fmt.Sprint(v)))
			code = ExitInternal
		}
	}()
	var a cliArgs
	exited := -1
	parser, err := kong.New(&a,
		kong.Name("brenner-ci"),
		kong.Description("Batch compiler and linter for Brenner Protocol threads exported from Agent Mail."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(c int) { exited = c; panic(exitPanic{}) }),
		kong.UsageOnError(),
		kong.Vars{"version": "brenner-ci " + version()},
	)
	if err != nil {
		fmt.Fprintf(stderr, "brenner-ci: %s\n", reporters.Safe(err.Error()))
		return ExitInternal
	}
	ctx, err := parseArgs(parser, args, &exited)
	if exited >= 0 {
		if exited == 0 {
			return ExitOK // --help
		}
		return ExitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "brenner-ci: %s\n", reporters.Safe(err.Error()))
		return ExitUsage
	}
	e := &env{stdout: stdout, stderr: stderr, in: stdin}
	err = ctx.Run(e)
	var ee *exitError
	var ue *usageError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "brenner-ci: %s\n", reporters.Safe(ue.msg))
		return ExitUsage
	default:
		fmt.Fprintf(stderr, "brenner-ci: internal error: %s\n", reporters.Safe(err.Error()))
		return ExitInternal
	}
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

func (versionCmd) Run(e *env) error {
	fmt.Fprintf(e.stdout, "brenner-ci %s\n", version())
	return nil
}

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
