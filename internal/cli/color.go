package cli

import (
	"io"
	"os"

	"golang.org/x/term"

	"github.com/brenner-ci/brenner-ci/reporters/text"
)

// Colour of the text output (--color). Only the text reporter colours, and
// only its severity words and rule ids (text.Terminal); every other format
// and standard error are never coloured.
const (
	colorAuto   = "auto"
	colorAlways = "always"
	colorNever  = "never"
)

// useColor decides --color WHEN for standard output w: always and never
// say it; auto colours when w is a terminal, NO_COLOR is unset or empty
// (https://no-color.org) and TERM is not "dumb".
func useColor(when string, w io.Writer, getenv func(string) string, isTerminal func(io.Writer) bool) bool {
	switch when {
	case colorAlways:
		return true
	case colorNever:
		return false
	}
	return getenv("NO_COLOR") == "" && getenv("TERM") != "dumb" && isTerminal(w)
}

// isTerminal reports whether w is a file that is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// colorStdout is standard output as the run is given it: a text.Terminal
// when --color WHEN says to colour, else w itself.
func colorStdout(when string, w io.Writer) io.Writer {
	if useColor(when, w, os.Getenv, isTerminal) {
		return text.Terminal{Writer: w}
	}
	return w
}
