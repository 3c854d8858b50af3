package run

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/reporters/jsonreport"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

// In pull-request mode (--new-from-rev, or a GitHub pull_request run) the
// policy that judges a change is the one of the revision it is compared
// with: the governing configuration and the baseline as they are at that
// revision (docs/security.md). A pull request that edits them is judged by
// the old ones; what its edit relaxes is reported (SP-005) and applies
// once merged.

// judgeAt puts the run under the configuration of revision rev: the
// governing file (the repository root's, or the --config file pinned when
// it lies in the repository) as it is at rev; the working tree's version
// and a configuration below the root may only tighten it.
func (p *Plan) judgeAt(rev, pinned string) error {
	path := pinned
	var data []byte
	var at revPlace
	var err error
	if path == "" {
		// The root's configuration at rev, under either name.
		path = filepath.Join(p.repoRoot, config.FileName)
		at = notInRev
		for _, name := range config.FileNames {
			d, a, err := p.gitShow(rev, filepath.Join(p.repoRoot, name))
			if err != nil {
				return err
			}
			if a == inRev && at == inRev {
				return usagef("configuration at %s: both %s and %s are present; keep one of the two", rev, filepath.Base(path), name)
			}
			if a == inRev {
				path, data, at = filepath.Join(p.repoRoot, name), d, a
			}
		}
	} else if data, at, err = p.gitShow(rev, path); err != nil {
		return err
	}
	if at == outsideRepo {
		return nil // the workflow's own file: no pull request changes it
	}
	var trusted *config.Config
	if at == inRev {
		if trusted, err = config.Parse(path, data, p.base.Known); err != nil {
			return usagef("configuration at %s: %v", rev, err)
		}
	}
	if p.Policy == nil {
		p.Policy = &config.Resolved{}
	}
	p.Policy.AtRevision(rev, trusted, p.repoRoot)
	p.Cfg = p.Policy.Effective
	if p.govern(); p.err != nil {
		return usagef("configuration at %s: %v", rev, p.err)
	}
	return nil
}

// baselineAt returns the fingerprints of the baseline file as it is at
// rev, and adds to the run's findings an SP-005 finding at the file when
// the working tree's version accepts findings that rev's does not (they
// are not accepted until merged). ok is false when the file lies outside
// the repository (the workflow's own, read as it is).
func (p *Plan) baselineAt(rev, file string, working map[string]bool) (fps map[string]bool, ok bool, err error) {
	data, at, err := p.gitShow(rev, file)
	if err != nil || at == outsideRepo {
		return nil, false, err
	}
	fps = map[string]bool{}
	if at == inRev {
		if fps, err = jsonreport.Fingerprints(bytes.NewReader(data)); err != nil {
			return nil, false, usagef("--baseline %s at %s: %v", file, rev, err)
		}
	}
	var added []string
	for fp := range working {
		if !fps[fp] {
			added = append(added, fp)
		}
	}
	if len(added) == 0 {
		return fps, true, nil
	}
	slices.Sort(added)
	rule := p.reg().Lookup(ruleid.SP005)
	sev := p.Cfg.Severity(rule.ID, file, rule.Severity)
	if sev == diag.Off {
		return fps, true, nil
	}
	what := fmt.Sprintf("it accepts %s that %s does not (first: %s)", diag.Count(len(added), "finding", "findings"), rev, added[0])
	if at == notInRev {
		what = fmt.Sprintf("it is not in %s, so none of its %s is accepted", rev, diag.Count(len(working), "finding", "findings"))
	}
	p.extra = append(p.extra, diag.Finding{Rule: rule.ID, Code: rule.Code, Severity: sev,
		Pos:     diag.Pos{File: file, Line: 1, Col: 1},
		Message: "This pull request's version of the baseline relaxes the baseline at " + rev + ": " + what + "; the relaxation is not applied.",
		Hint:    "The baseline of the revision a pull request is compared with judges it; the change applies once merged.",
		Anchor:  fmt.Sprintf("baseline relaxes %d", len(added))})
	return fps, true, nil
}

// Where a file is with respect to a revision.
type revPlace int

const (
	outsideRepo revPlace = iota // the file lies outside the repository
	notInRev                    // rev has no such file
	inRev                       // rev has it
)

// gitShow returns file's content at rev (at most maxPolicyBytes), and
// whether rev has it at all.
func (p *Plan) gitShow(rev, file string) ([]byte, revPlace, error) {
	root := p.repoRoot
	rel, inside := relInside(root, file)
	if !inside {
		return nil, outsideRepo, nil
	}
	rel = strings.ReplaceAll(rel, string(filepath.Separator), "/")
	if _, ok := p.resolve(rev); !ok {
		return nil, outsideRepo, usagef("%s is not a revision of the repository at %s", rev, root)
	}
	if exec.Command("git", "-C", root, "cat-file", "-e", rev+":"+rel).Run() != nil {
		return nil, notInRev, nil
	}
	cmd := exec.Command("git", "-C", root, "cat-file", "blob", rev+":"+rel)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, notInRev, err
	}
	if err := cmd.Start(); err != nil {
		return nil, notInRev, err
	}
	data, err := io.ReadAll(io.LimitReader(out, maxPolicyBytes+1))
	_ = cmd.Process.Kill() // whatever is left unread
	_ = cmd.Wait()
	if err == nil && len(data) > maxPolicyBytes {
		err = usagef("%s at %s is over %d bytes", rel, rev, maxPolicyBytes)
	}
	return data, inRev, err
}

// maxPolicyBytes bounds a configuration or baseline read from a revision.
const maxPolicyBytes = 64 << 20
