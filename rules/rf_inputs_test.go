package rules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// TestThreadReferencesResolveAgainstArtifacts: a session among the inputs
// only as a persisted artifact is checked like a thread: a thread's
// reference to it is no longer unverifiable (RF-004), and a reference to
// an item it does not have is RF-001.
func TestThreadReferencesResolveAgainstArtifacts(t *testing.T) {
	root := testutil.ModuleRoot(t)
	dir := t.TempDir()
	files := map[string]string{
		// Session RS-20251228-not-in-batch, which the thread references
		// (H2), has H1 only.
		"artifacts/RS-20251228-not-in-batch.md": `---
session_id: "RS-20251228-not-in-batch"
---
# Brenner Protocol Artifact: RS-20251228-not-in-batch

## 2. Hypothesis Slate

### H1: Production-rate control
**Claim**: Synthesis rate sets the switch point.
`,
	}
	for _, name := range []string{"RS-20260301-quorum-timing.json", "RS-20260305-quorum-followup.json"} {
		data, err := os.ReadFile(filepath.Join(root, "testdata", "rules", "RF-004", "fail", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(data)
	}
	testutil.WriteTree(t, dir, files)
	res := check(t, nil, dir)
	var rf1 []string
	for _, f := range res.Findings {
		switch f.Rule {
		case "RF-004":
			t.Errorf("unverifiable although the session is among the inputs: %s", f.String())
		case "RF-001":
			rf1 = append(rf1, f.Message)
		}
	}
	want := "H1 references H2 in session RS-20251228-not-in-batch, which has no such item."
	if strings.Join(rf1, "\n") != "H1 references H9 in session RS-20260305-quorum-followup, which has no such item.\n"+want {
		t.Errorf("RF-001 findings:\n%s\nwant the thread's H9 and %q", strings.Join(rf1, "\n"), want)
	}
}

// TestPersistedCopyReportsOnce: a persisted artifact of a thread among the
// inputs holds the thread's references; each is reported once, at the
// delta that made it, and the artifact is reported only for the
// references the thread does not hold (testdata/rules/RF-001 and RF-003:
// each copy adds one reference to H2).
func TestPersistedCopyReportsOnce(t *testing.T) {
	root := testutil.ModuleRoot(t)
	for _, id := range []string{"RF-001", "RF-003"} {
		dir := filepath.Join(root, "testdata", "rules", id, "fail")
		res := check(t, nil, dir)
		var inCopy []string
		ownOnly := true
		for _, f := range res.Findings {
			if strings.HasPrefix(f.Rule, "RF-") && strings.HasSuffix(f.Pos.File, "artifacts/RS-20260301-quorum-timing.md") {
				inCopy = append(inCopy, f.Rule+" "+f.Message)
				ownOnly = ownOnly && strings.HasPrefix(f.Message, "H2")
			}
		}
		if len(inCopy) == 0 || !ownOnly {
			t.Errorf("%s: findings in the persisted copy:\n%s\nwant only its own reference of H2's", id, strings.Join(inCopy, "\n"))
		}
	}
}
