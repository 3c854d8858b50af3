package run

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/safefile"
)

// compareRev is the revision a pull request is compared with: --new-from-rev
// when given, else, in a GitHub pull_request run, the base branch when the
// checkout has it (origin/$GITHUB_BASE_REF). "" when there is none.
func (c *checker) compareRev(root string) string {
	if c.NewFromRev != "" {
		return c.NewFromRev
	}
	base := os.Getenv("GITHUB_BASE_REF")
	if base == "" || !strings.HasPrefix(os.Getenv("GITHUB_EVENT_NAME"), "pull_request") {
		return ""
	}
	rev := "origin/" + base
	if exec.Command("git", "-C", root, "rev-parse", "--verify", "--quiet", rev+"^{commit}").Run() != nil {
		return ""
	}
	return rev
}

// changedSince reports whether file differs from its content at git
// revision rev (a file that did not exist at rev has changed). ok is false
// when git cannot tell (file outside the repository, git missing).
func changedSince(root, rev, file string) (changed, ok bool) {
	rel, inside := relInside(root, file)
	if !inside || rev == "" {
		return false, false
	}
	rel = strings.ReplaceAll(rel, string(os.PathSeparator), "/")
	old, err := exec.Command("git", "-C", root, "show", rev+":"+rel).Output()
	if err != nil {
		if exec.Command("git", "-C", root, "rev-parse", "--verify", "--quiet", rev+"^{commit}").Run() != nil {
			return false, false
		}
		return true, true // not in rev: added since
	}
	now, err := safefile.Read(file, int64(len(old))+1) // only equality matters
	if errors.Is(err, safefile.ErrTooLarge) {
		return true, true
	}
	if err != nil {
		return false, false
	}
	return string(now) != string(old), true
}

// policyNotes are the run-level notes of the configuration policy
// (docs/security.md): a baseline or a configuration that changed since the
// revision the pull request is compared with. Such a change decides what
// the gate sees, so the summary says so and the reviewer can look.
func (c *checker) policyNotes(run *Plan) []diag.Notification {
	rev := c.compareRev(run.repoRoot)
	if rev == "" {
		return nil
	}
	var notes []diag.Notification
	if c.Baseline != "" {
		if changed, ok := changedSince(run.repoRoot, rev, c.Baseline); ok && changed {
			notes = append(notes, diag.Notification{Level: diag.Warning, Message: fmt.Sprintf(
				"The baseline %s changed since %s: the version at %s judges this pull request; review the change with it.", display(run.repoRoot, c.Baseline), rev, rev)})
		}
	}
	if run.Policy != nil && run.Policy.Config != nil {
		p := run.Policy.Config.Path
		if changed, ok := changedSince(run.repoRoot, rev, p); ok && changed {
			notes = append(notes, diag.Notification{Level: diag.Warning, Message: fmt.Sprintf(
				"The configuration %s changed since %s: the version at %s judges this pull request (what the change relaxes is reported as SP-005 and applies once merged); review the change with it.", display(run.repoRoot, p), rev, rev)})
		}
	}
	return notes
}

// display is path relative to root when inside it.
func display(root, path string) string {
	if rel, ok := relInside(root, path); ok {
		return strings.ReplaceAll(rel, string(os.PathSeparator), "/")
	}
	return path
}
