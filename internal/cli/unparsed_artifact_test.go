package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestUnparsedArtifactRuleSet: the JSON report lists, for an artifact the
// markdown parser refused (IN-008), the rules that ran on it: not the
// artifact linter's, which do not run on it (rules'
// TestUnparsedArtifactIsNotLinted), but the credential rule, which does.
// A parsed artifact's list has both.
func TestUnparsedArtifactRuleSet(t *testing.T) {
	fixture, err := filepath.Abs(filepath.Join("..", "..", "testdata", "rules", "IN-008", "fail"))
	if err != nil {
		t.Fatal(err)
	}
	ruleSet := func(t *testing.T, dir, key string) []string {
		t.Helper()
		out := filepath.Join(t.TempDir(), "r.json")
		if code, o, e := runIn(t, "", "check", dir, "--repo-root", dir, "--fail-on", "none", "--json", out); code != 0 {
			t.Fatalf("check %s: exit %d\n%s%s", dir, code, o, e)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Threads []struct {
				Key     string `json:"key"`
				RuleSet int    `json:"rule_set"`
			} `json:"threads"`
			RuleSets [][]string `json:"rule_sets"`
		}
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		for _, th := range rep.Threads {
			if strings.HasSuffix(th.Key, "/"+key) || th.Key == key {
				return rep.RuleSets[th.RuleSet]
			}
		}
		t.Fatalf("no entry %q in the report's threads:\n%s", key, data)
		return nil
	}
	linter := func(ids []string) bool {
		return slices.ContainsFunc(ids, func(id string) bool { return strings.HasPrefix(id, "ES-") || strings.HasPrefix(id, "EM-") })
	}

	unparsed := ruleSet(t, fixture, "artifacts/RS-20260301-quorum-timing.md")
	if linter(unparsed) || !slices.Contains(unparsed, "SC-002") {
		t.Errorf("rules listed for the unparsed artifact: %v; want SC-002 and no artifact linter rule", unparsed)
	}
	parsedDir := filepath.Join(t.TempDir(), "parsed")
	if err := os.MkdirAll(filepath.Join(parsedDir, "artifacts"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "---\nsession_id: \"RS-20260301-quorum-timing\"\nversion: 1\n---\n\n# Artifact\n"
	if err := os.WriteFile(filepath.Join(parsedDir, "artifacts", "RS-20260301-quorum-timing.md"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if parsed := ruleSet(t, parsedDir, "artifacts/RS-20260301-quorum-timing.md"); !linter(parsed) || !slices.Contains(parsed, "SC-002") {
		t.Errorf("rules listed for a parsed artifact: %v; want the artifact linter's and SC-002", parsed)
	}
}
