// Command brenner-ci compiles and lints Brenner Protocol research threads
// exported from Agent Mail.
package main

import (
	"os"

	"github.com/brenner-ci/brenner-ci/internal/cli"
)

func main() { os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr)) }
