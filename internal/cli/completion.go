package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/brenner-ci/brenner-ci/internal/run"
)

// completionCmd writes a shell completion script made from the command
// line model itself, so it cannot fall behind a new command or flag.
type completionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"bash, zsh or fish. Load it with: source <(brenner-ci completion bash)."`
}

func (c *completionCmd) Run(e *run.Env, k *kong.Kong) error {
	cmds := commandsOf(k)
	switch c.Shell {
	case "fish":
		return writeFish(e.Stdout, cmds)
	case "zsh":
		fmt.Fprintln(e.Stdout, "autoload -U +X bashcompinit && bashcompinit")
	}
	return writeBash(e.Stdout, cmds)
}

// A command of the model: its name, help and long flags.
type completionCommand struct {
	name, help string
	flags      []completionFlag
}

type completionFlag struct{ name, help string }

func commandsOf(k *kong.Kong) []completionCommand {
	var out []completionCommand
	for _, n := range k.Model.Children {
		if n.Hidden {
			continue
		}
		c := completionCommand{name: n.Name, help: n.Help}
		for _, f := range n.Flags {
			if !f.Hidden {
				c.flags = append(c.flags, completionFlag{f.Name, f.Help})
			}
		}
		sort.Slice(c.flags, func(i, j int) bool { return c.flags[i].name < c.flags[j].name })
		out = append(out, c)
	}
	return out
}

func writeBash(w io.Writer, cmds []completionCommand) error {
	var b strings.Builder
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.name
	}
	b.WriteString("# brenner-ci completion for bash: source <(brenner-ci completion bash)\n")
	b.WriteString("_brenner_ci() {\n\tlocal cur=${COMP_WORDS[COMP_CWORD]}\n")
	fmt.Fprintf(&b, "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n\t\tCOMPREPLY=($(compgen -W %q -- \"$cur\"))\n\t\treturn\n\tfi\n", strings.Join(names, " "))
	b.WriteString("\tcase \"$cur\" in\n\t-*)\n\t\tcase \"${COMP_WORDS[1]}\" in\n")
	for _, c := range cmds {
		if len(c.flags) == 0 {
			continue
		}
		var fl []string
		for _, f := range c.flags {
			fl = append(fl, "--"+f.name)
		}
		fmt.Fprintf(&b, "\t\t%s) COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", c.name, strings.Join(fl, " "))
	}
	b.WriteString("\t\tesac ;;\n\t*) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n\tesac\n}\ncomplete -o filenames -F _brenner_ci brenner-ci\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func writeFish(w io.Writer, cmds []completionCommand) error {
	var b strings.Builder
	b.WriteString("# brenner-ci completion for fish: brenner-ci completion fish | source\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "complete -c brenner-ci -f -n __fish_use_subcommand -a %s -d %s\n", c.name, fishQuote(c.help))
		for _, f := range c.flags {
			fmt.Fprintf(&b, "complete -c brenner-ci -n '__fish_seen_subcommand_from %s' -l %s -d %s\n", c.name, f.name, fishQuote(f.help))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// fishQuote quotes s as one fish word, cut to its first sentence.
func fishQuote(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
