package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"

	"github.com/brenner-ci/brenner-ci/compile/tempfile"
	"github.com/brenner-ci/brenner-ci/internal/memlimit"
	"github.com/brenner-ci/brenner-ci/reporters"
	"github.com/brenner-ci/brenner-ci/rules"
)

// Run is Main for the command: on SIGINT or SIGTERM it removes every
// temporary file of the reports and artifacts being written, waits for a
// report set being renamed into place to be complete (reporters.Set), and
// exits with ExitInternal (the run did not complete). Reports in the output
// folder are then either all the previous run's or all this run's. The
// run's own temporary files (compile/tempfile) are gone when it returns.
func Run(args []string, stdout, stderr io.Writer) int {
	return RunRules(nil, args, stdout, stderr)
}

// RunRules is Run for a program with the rules of reg (nil: the built-in
// rules; see package rulepack).
func RunRules(reg *rules.Registry, args []string, stdout, stderr io.Writer) int {
	if !memProfileAsked(args) {
		// Nobody reads the heap profile's samples: each took a stack
		// unwind, 0.6% of a 10,000-thread check.
		runtime.MemProfileRate = 0
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sigs
		n := reporters.Interrupt() + tempfile.RemoveLeft()
		fmt.Fprintf(stderr, "brenner-ci: interrupted (%s): the run did not complete; %d temporary files removed, no partial report left\n", s, n)
		os.Exit(ExitInternal)
	}()
	defer memlimit.Start()()
	defer tempfile.RemoveLeft()
	code := MainRules(reg, args, nil, stdout, stderr)
	signal.Stop(sigs)
	return code
}

// memProfileAsked reports whether args ask for a heap profile (--profile
// mem=FILE): the process samples its allocations for it only then. It
// errs towards yes (an argument that only looks like one keeps sampling
// on); the profile's own parsing (startProfiles) decides what is asked.
func memProfileAsked(args []string) bool {
	asks := func(v string) bool { // a flag value: kong splits it at commas
		for part := range strings.SplitSeq(v, ",") {
			if strings.HasPrefix(part, "mem=") {
				return true
			}
		}
		return false
	}
	for i, a := range args {
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--profile="); ok && asks(v) {
			return true
		}
		if a == "--profile" && i+1 < len(args) && asks(args[i+1]) {
			return true
		}
	}
	return false
}
