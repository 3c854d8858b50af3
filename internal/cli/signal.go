package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/brenner-ci/brenner-ci/internal/memlimit"
	"github.com/brenner-ci/brenner-ci/reporters"
)

// Run is Main for the command: on SIGINT or SIGTERM it removes every
// temporary file of the reports and artifacts being written, waits for a
// report set being renamed into place to be complete (reporters.Set), and
// exits with ExitInternal (the run did not complete). Reports in the output
// folder are then either all the previous run's or all this run's.
func Run(args []string, stdout, stderr io.Writer) int {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sigs
		n := reporters.Interrupt()
		fmt.Fprintf(stderr, "brenner-ci: interrupted (%s): the run did not complete; %d temporary files removed, no partial report left\n", s, n)
		os.Exit(ExitInternal)
	}()
	defer memlimit.Start()()
	code := Main(args, stdout, stderr)
	signal.Stop(sigs)
	return code
}
