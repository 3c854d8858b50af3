package run

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"sync"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/cache"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/rules"
)

// threadSalt is what every cached thread result depends on besides its
// own input: the program itself (its version and a hash of the running
// executable, so that a rebuilt development binary never reuses an old
// entry), the configuration, the enabled rules, the input limits and the
// compile options — the options values hashed whole (optionsKey).
func (c *checker) threadSalt(eng *rules.Engine, run *Plan, opt compile.Options) string {
	return hexKey("threads", struct {
		Build   string
		Config  string
		Rules   []string
		Custom  []config.CustomRule // in force: in pull-request mode, the base revision's
		Limits  config.Limits
		Compile compile.Options
	}{c.buildID(), configID(run), eng.Enabled(), customRules(run), run.Limits, opt})
}

// customRules are the definitions of the custom rules in force (the
// configuration that governs may be a revision's, not a file's).
func customRules(run *Plan) []config.CustomRule {
	if run.Cfg == nil {
		return nil
	}
	return run.Cfg.CustomRules
}

// scanSalt is what every cached file scan depends on besides the file: the
// program and the scan options hashed whole (the JSON depth and file-size
// limits change what a scan finds). The worker count and the excluded
// paths (which files are read, not how) never do.
func (c *checker) scanSalt(opt mailbox.ScanOptions) string {
	opt.Jobs, opt.Exclude, opt.Cache, opt.Known = 0, nil, nil, nil
	return hexKey("scan", struct {
		Build string
		Scan  mailbox.ScanOptions
	}{c.buildID(), opt})
}

// buildID names the program: its version and a hash of its executable.
func (c *checker) buildID() string {
	return "version " + c.env.Version + " executable " + executableHash()
}

// executableHash hashes the running program ("" when it cannot be read:
// the version and configuration still key the cache).
var executableHash = sync.OnceValue(func() string {
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
})

// cacheNotes are the warnings of a run with --cache about what of the
// cache folder it did not use, or could not write (cache.Store.Problems):
// the cache is a hint, so a damaged or forged entry is a miss, and it is
// said.
func (c *checker) cacheNotes(run *Plan, threads *cache.Threads) []diag.Notification {
	problems := threads.Problems()
	if run.scanStore != nil {
		problems = append(problems, run.scanStore.Problems()...)
	}
	var notes []diag.Notification
	for _, p := range problems {
		notes = append(notes, diag.Notification{Level: diag.Warning,
			Message: "The --cache folder was not fully used (" + p + "); the affected entries were misses."})
	}
	return notes
}
