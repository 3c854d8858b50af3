package cli

import (
	"fmt"
	"strings"

	"github.com/alecthomas/kong"
)

// Every command's detailed help: examples and what its exit codes mean.
// Each command's Help method (kong.HelpProvider) renders its entry, so kong
// puts it in the command line model (Node.Detail): `brenner-ci COMMAND
// --help` prints it under the summary line, and the man page (man.go)
// reads it from the model like everything else. TestCommandHelp runs every
// example through the parser, so an example cannot name a flag that is
// gone.

// An example is one command line and what it does.
type example struct{ cmd, what string }

// An exitCode is one exit code and what it means for a command.
type exitCode struct {
	code int
	what string
}

// commandDoc is a command's detailed help.
type commandDoc struct {
	examples []example
	exits    []exitCode
}

// The exit codes most commands share.
var (
	exitUsage    = exitCode{ExitUsage, "usage or configuration error (a bad flag, an unreadable or invalid configuration)"}
	exitInternal = exitCode{ExitInternal, "internal error, or the run was interrupted"}
	exitsGated   = []exitCode{
		{ExitOK, "no finding at or above --fail-on"},
		{ExitFindings, "findings at or above --fail-on (every report is written first)"},
		{ExitUsage, "usage, configuration or input error"},
		exitInternal,
	}
	exitsPrint = []exitCode{{ExitOK, "printed"}, {ExitUsage, "usage error"}, exitInternal}
)

// docs are the commands' detailed help, by command path ("config verify").
var docs = map[string]commandDoc{
	"compile": {
		examples: []example{
			{"brenner-ci compile mailbox/ --out build/", "compile every thread; write build/artifacts/<thread_id>.md"},
			{"brenner-ci compile mailbox/ --out build/ --compiled-body", "also write each thread's COMPILED message bodies"},
			{"brenner-ci compile export.json", "compile one export; print the compiler's findings"},
		},
		exits: []exitCode{
			{ExitOK, "no compile error"},
			{ExitFindings, "compile errors, or an artifact that could not be written"},
			exitUsage, exitInternal,
		},
	},
	"check": {
		examples: []example{
			{"brenner-ci check mailbox/ --out reports/", "check every thread; write SARIF, JUnit, markdown and JSON into reports/"},
			{"brenner-ci check . --new-from-rev origin/main", "pull-request mode: only findings new since origin/main gate"},
			{"brenner-ci check . --baseline baseline.json --format github", "annotate a GitHub Actions job; findings in the baseline do not gate"},
			{"brenner-ci check . --write-baseline baseline.json --fail-on none", "record today's findings as the baseline"},
			{"brenner-ci check mailbox/ --cache .brenner-cache --shard 2/8 --json shard2.json", "one shard of a nightly audit, with the cache (then brenner-ci merge)"},
			{"brenner-ci check . --color=always | less -R", "keep the colours through a pager"},
		},
		exits: exitsGated,
	},
	"rules": {
		examples: []example{
			{"brenner-ci rules", "one line per rule: id, severity, name, what it checks"},
			{"brenner-ci rules --format markdown", "the rules' documentation (docs/rules.md)"},
		},
		exits: exitsPrint,
	},
	"check-message": {
		examples: []example{
			{`brenner-ci check-message --subject "CRITIQUE: H2 timing" body.md`, "check a message body before sending it"},
			{`brenner-ci check-message --subject "DELTA: H2" --ack-required --thread RS-20260301-lineage -`, "the body from standard input, sent with ack_required to a thread"},
		},
		exits: []exitCode{
			{ExitOK, "no finding at or above --fail-on"},
			{ExitFindings, "findings at or above --fail-on"},
			{ExitUsage, "usage or configuration error, or a body that cannot be read (a pipe that sends nothing, a device)"},
			exitInternal,
		},
	},
	"merge": {
		examples: []example{
			{"brenner-ci merge shard*.json --out reports/", "the reports of one run from every shard's file"},
			{"brenner-ci merge shard*.json --sarif brenner-ci.sarif --format github", "one SARIF file and the annotations"},
		},
		exits: []exitCode{
			{ExitOK, "no finding at or above --fail-on"},
			{ExitFindings, "findings at or above --fail-on"},
			{ExitUsage, "usage or configuration error; a shard missing, given twice, or of another configuration, version or input list"},
			exitInternal,
		},
	},
	"graph": {
		examples: []example{
			{"brenner-ci graph mailbox/", "the session genealogy as a Mermaid diagram"},
			{"brenner-ci graph mailbox/ --format dot", "as Graphviz DOT (dot -Tsvg)"},
		},
		exits: []exitCode{{ExitOK, "written"}, exitUsage, exitInternal},
	},
	"explain": {
		examples: []example{
			{"brenner-ci explain MB-006", "what a rule checks, its spec, a bad and a fixed example"},
			{"brenner-ci explain critique-missing-target", "the same rule by its name"},
		},
		exits: []exitCode{{ExitOK, "printed"}, {ExitUsage, "no such rule (the closest id or name is suggested)"}, exitInternal},
	},
	"config verify": {
		examples: []example{
			{"brenner-ci config verify", "the configuration a check of . would use"},
			{"brenner-ci config verify --config ci/.brenner-ci.yaml", "that file alone"},
		},
		exits: []exitCode{{ExitOK, "valid"}, {ExitUsage, "invalid: every error at its line and column"}, exitInternal},
	},
	"version": {
		examples: []example{{"brenner-ci version", "brenner-ci v1.2.3"}},
		exits:    []exitCode{{ExitOK, "printed"}, exitInternal},
	},
	"help": {
		examples: []example{
			{"brenner-ci help check", "the usage of check (as brenner-ci check --help)"},
			{"brenner-ci help config verify", "the usage of a subcommand"},
		},
		exits: []exitCode{{ExitOK, "printed"}, {ExitUsage, "no such command"}},
	},
	"completion": {
		examples: []example{
			{"brenner-ci completion bash", "load it with: source <(brenner-ci completion bash)"},
			{"brenner-ci completion fish", "load it with: brenner-ci completion fish | source"},
		},
		exits: exitsPrint,
	},
	"man": {
		examples: []example{
			{"brenner-ci man", "the manual page, as roff (docs/brenner-ci.1)"},
		},
		exits: exitsPrint,
	},
}

// detail renders the detailed help of the command at path: its examples
// (indented: kong and the man page show them as written) and its exit
// codes.
func detail(path string) string {
	d, ok := docs[path]
	if !ok {
		panic("cli: no help for the command " + path)
	}
	var b strings.Builder
	b.WriteString("Examples:\n\n")
	for _, e := range d.examples {
		fmt.Fprintf(&b, "    %s\n        %s\n", e.cmd, e.what)
	}
	b.WriteString("\nExit codes:\n\n")
	for _, x := range d.exits {
		fmt.Fprintf(&b, "    %d  %s\n", x.code, x.what)
	}
	return b.String()
}

// helpPrinter is kong's usage text with a command's detailed help (its
// examples and exit codes) last, after its flags, where kong would put it
// first.
func helpPrinter(options kong.HelpOptions, ctx *kong.Context) error {
	sel := ctx.Selected()
	if sel == nil || sel.Detail == "" || options.Summary {
		return kong.DefaultHelpPrinter(options, ctx)
	}
	d := sel.Detail
	sel.Detail = ""
	defer func() { sel.Detail = d }()
	if err := kong.DefaultHelpPrinter(options, ctx); err != nil {
		return err
	}
	_, err := fmt.Fprintf(ctx.Stdout, "\n%s", d)
	return err
}

func (compileCmd) Help() string      { return detail("compile") }
func (checkCmd) Help() string        { return detail("check") }
func (rulesCmd) Help() string        { return detail("rules") }
func (checkMessageCmd) Help() string { return detail("check-message") }
func (mergeCmd) Help() string        { return detail("merge") }
func (graphCmd) Help() string        { return detail("graph") }
func (explainCmd) Help() string      { return detail("explain") }
func (configVerifyCmd) Help() string { return detail("config verify") }
func (versionCmd) Help() string      { return detail("version") }
func (helpCmd) Help() string         { return detail("help") }
func (completionCmd) Help() string   { return detail("completion") }
func (manCmd) Help() string          { return detail("man") }
