package run

import (
	"errors"
	"fmt"
	"github.com/brenner-ci/brenner-ci/rules"
	"io"
	"os"
	"strconv"
)

// Env is what a run is given besides its options: its standard streams and
// the program's version (reports name it; caches are keyed by it).
type Env struct {
	Stdout, Stderr io.Writer
	Stdin          io.Reader // nil: os.Stdin
	Version        string
	// Rules are the rules the program has: the built-in rules and any rule
	// packs built in (nil: the built-in rules). A run adds the
	// configuration's custom rules (Plan.Registry).
	Rules *rules.Registry
}

// stdin is the run's standard input.
func (e *Env) stdin() io.Reader {
	if e.Stdin == nil {
		return os.Stdin
	}
	return e.Stdin
}

// Exit codes.
const (
	ExitOK       = 0 // nothing at or above the fail-on level
	ExitFindings = 1 // findings at or above the fail-on level (compile: errors)
	ExitUsage    = 2 // usage or configuration error
	ExitInternal = 3 // internal error
)

// UsageError is a usage or configuration problem (exit 2).
type UsageError struct {
	Msg string
	// unsafeOut: the output paths themselves are unsafe, so no report may
	// be written (see safeOutDir).
	unsafeOut bool
}

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, a ...any) error { return &UsageError{Msg: fmt.Sprintf(format, a...)} }

// ExitError carries an exit code chosen by a run.
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return "exit " + strconv.Itoa(e.Code) }

// ExitStatus is the exit code of a run's error: 0 for nil, the code of an
// *ExitError, 2 for a *UsageError, else 3.
func ExitStatus(err error) int {
	var ee *ExitError
	var ue *UsageError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.Code
	case errors.As(err, &ue):
		return ExitUsage
	}
	return ExitInternal
}
