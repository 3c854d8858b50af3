package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/rules"
)

// cacheSalt is what every cached thread result depends on besides its own
// input: the program itself (a hash of the running executable, so that a
// rebuilt development binary never reuses an old entry), the configuration,
// the enabled rules and the compile options.
func cacheSalt(eng *rules.Engine, run *checkRun, opt compile.Options) string {
	h := sha256.New()
	fmt.Fprintf(h, "build %s\nconfig %s\nrules %s\n", buildID(), configID(run), strings.Join(eng.Enabled(), ","))
	fmt.Fprintf(h, "agents %q\narchive agents %q\nlimits %d %d\nepoch %s\n", opt.Agents, opt.ArchiveAgents, opt.MaxMessages, opt.MaxBlocks, opt.Epoch.UTC().Format("2006-01-02T15:04:05.999999999Z"))
	return hex.EncodeToString(h.Sum(nil))
}

// buildID names the program: its version and a hash of its executable,
// computed once.
var buildID = sync.OnceValue(func() string { return "version " + version() + " executable " + executableHash() })

// executableHash hashes the running program ("" when it cannot be read:
// the version and configuration still key the cache).
func executableHash() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}
