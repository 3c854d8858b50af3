package rules_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// renamed maps the generator's fault keys to the ids brenner-ci reports
// them under where brenner-ci splits a generator rule id in two (one id,
// one severity).
var renamed = map[string]string{
	"UNKNOWN_SESSION_REFERENCE": "RF-004", // RF-001 is a missing item in a session that is an input
}

// alsoAs names the id under which brenner-ci may report a generator fault
// instead: the generator files every missing ADD field under DL-005;
// brenner-ci reports the lenient ones (status …) as DL-009.
var alsoAs = map[string]string{"DL-005": "DL-009"}

type manifest struct {
	Threads []struct {
		ThreadID string `json:"thread_id"`
		Clean    bool   `json:"clean"`
		Faults   []struct {
			Rule      string `json:"rule"`
			Key       string `json:"key"`
			Variant   string `json:"variant"`
			MessageID any    `json:"message_id"`
			Scope     string `json:"scope"`
			Note      string `json:"note"`
		} `json:"faults"`
	} `json:"threads"`
}

func genCorpus(t testing.TB, dir string, args ...string) manifest {
	t.Helper()
	gen := testutil.Shared(t, "tools", "gen_corpus.py")
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("skipping: python3 is not installed")
	}
	cmd := exec.Command("python3", append([]string{gen, "--out", dir, "--quiet"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen_corpus: %v\n%s", err, out)
	}
	var m manifest
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "manifest.json"))
	return m
}

// TestInjectedFaults: every fault gen_corpus injects is reported with its
// expected rule id at the named message, and clean threads have no error
// findings. Runs for the three layouts.
func TestInjectedFaults(t *testing.T) {
	for _, layout := range []string{"files", "jsonl", "archive"} {
		layout := layout
		t.Run(layout, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "corpus")
			m := genCorpus(t, out, "--threads", "300", "--seed", "11", "--fault-rate", "0.5", "--cover-faults",
				"--layout", layout, "--artifacts", filepath.Join(dir, "persisted"))
			res := check(t, nil, out, filepath.Join(dir, "persisted"))
			byThread := map[string][]diag.Finding{}
			for _, f := range res.Findings {
				byThread[f.Thread] = append(byThread[f.Thread], f)
			}
			faults, missed := 0, []string{}
			for _, th := range m.Threads {
				got := byThread[th.ThreadID]
				if th.Clean {
					for _, f := range got {
						if f.Severity == diag.Error {
							t.Errorf("clean thread %s has an error finding: %s", th.ThreadID, f.String())
						}
					}
					continue
				}
				for _, fl := range th.Faults {
					faults++
					if id, ok := renamed[fl.Key]; ok {
						fl.Rule = id
					}
					msgID := fmt.Sprint(fl.MessageID)
					found := false
					for _, f := range got {
						if (f.Rule == fl.Rule || f.Rule == alsoAs[fl.Rule]) && (fl.Scope == "thread" || fl.Scope == "artifact" || f.MsgID == msgID) {
							found = true
							break
						}
					}
					if !found {
						missed = append(missed, fmt.Sprintf("%s %s (%s/%s) at message %s: %s", th.ThreadID, fl.Rule, fl.Key, fl.Variant, msgID, fl.Note))
					}
				}
			}
			sort.Strings(missed)
			if len(missed) > 0 {
				t.Errorf("%d of %d injected faults not reported:\n%s", len(missed), faults, strings.Join(missed, "\n"))
			}
			if faults == 0 {
				t.Fatal("the generator injected no faults")
			}
			t.Logf("%s: %d threads, %d injected faults, %d missed, %d findings", layout, len(m.Threads), faults, len(missed), len(res.Findings))
		})
	}
}
