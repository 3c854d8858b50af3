package rules

// The artifact rules on the shared corpus (skipped without ../shared):
// expected verdicts from the research notes (upstream-semantics.md §8).

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

func checkCorpusArtifact(t *testing.T, path string, fromJSON bool) ArtifactResult {
	t.Helper()
	r := NewEngine(All(), osFiles{}, limits.Parse{}).CheckArtifact(filepath.ToSlash(path), fromJSON)
	if len(r.Internal) > 0 {
		t.Fatalf("%s: internal errors: %v", path, r.Internal)
	}
	return r
}

func ruleIDs(fs []diag.Finding, sev ...diag.Severity) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range fs {
		if len(sev) > 0 && f.Severity != sev[0] {
			continue
		}
		if !seen[f.Rule] {
			seen[f.Rule] = true
			out = append(out, f.Rule)
		}
	}
	sort.Strings(out)
	return out
}

func requireParser(t *testing.T) {
	t.Helper()
}

// The hand-written golden example passes every error rule.
func TestCorpusGoldenExample(t *testing.T) {
	requireParser(t)
	p := testutil.Shared(t, "corpus", "artifacts", "golden-example-cell-fate.md")
	r := checkCorpusArtifact(t, p, false)
	if errs := ruleIDs(r.Findings, diag.Error); len(errs) > 0 {
		for _, f := range r.Findings {
			if f.Severity == diag.Error {
				t.Errorf("%s", f.String())
			}
		}
	}
	// Expected quality findings (not errors): quotes inside anchors, pure inference, IM-001 for a non-RS id.
	got := strings.Join(ruleIDs(r.Findings), " ")
	for _, id := range []string{"IM-001", "WH-002", "WP-P02"} {
		if !strings.Contains(got, id) {
			t.Errorf("golden example: no %s finding (got %s)", id, got)
		}
	}
}

// The evidence-pack pilot breaks many rules, never panics, and its EV
// citations all resolve in its evidence.json.
func TestCorpusEvidencePilot(t *testing.T) {
	requireParser(t)
	p := testutil.Shared(t, "corpus", "artifacts", "RS-20260101-cell-fate", "artifact.md")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "EV-001#E1") {
		t.Fatal("the pilot no longer cites EV-001#E1")
	}
	r := checkCorpusArtifact(t, p, false)
	if len(r.Findings) < 20 {
		t.Errorf("pilot: only %d findings", len(r.Findings))
	}
	got := ruleIDs(r.Findings)
	all := " " + strings.Join(got, " ") + " "
	for _, id := range []string{"EM-001", "ES-003", "ER-001", "ER-002", "EH-004", "EP-003", "ET-001", "ET-002", "ET-003", "EX-002", "EC-002", "WC-001"} {
		if !strings.Contains(all, " "+id+" ") {
			t.Errorf("pilot: no %s finding (got %v)", id, got)
		}
	}
	for _, f := range r.Findings {
		if f.Rule == "EV-001" || f.Rule == "EV-002" || f.Rule == "EV-003" {
			t.Errorf("pilot: %s", f.String())
		}
	}
	// Its unverified records (EV-002, EV-003) are reported once each.
	n := 0
	for _, f := range r.Findings {
		if f.Rule == "EV-004" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("pilot: %d EV-004 findings, want 2", n)
	}
	// Aliases are findings, never crashes.
	if !strings.Contains(findingText(r.Findings, "ER-001"), "**Question**") || !strings.Contains(findingText(r.Findings, "EH-004"), "**Statement**") {
		t.Errorf("pilot: aliases not named:\n%s\n%s", findingText(r.Findings, "ER-001"), findingText(r.Findings, "EH-004"))
	}
}

func findingText(fs []diag.Finding, id string) string {
	var out []string
	for _, f := range fs {
		if f.Rule == id {
			out = append(out, f.Message)
		}
	}
	return strings.Join(out, "\n")
}

// The CLI-rendered role-prompting artifact passes every error rule.
func TestCorpusRolePrompting(t *testing.T) {
	requireParser(t)
	p := testutil.Shared(t, "corpus", "artifacts", "RS-20251230-role-prompting.md")
	r := checkCorpusArtifact(t, p, false)
	for _, f := range r.Findings {
		if f.Severity == diag.Error {
			t.Errorf("%s", f.String())
		}
	}
	all := " " + strings.Join(ruleIDs(r.Findings), " ") + " "
	// The research notes' markdown reading: WH-002 (H1, H3), WH-003 (H2), WP-001, WT-002, IA-001, IP-001.
	for _, id := range []string{"WH-002", "WH-003", "WP-001", "WT-002", "IA-001", "IP-001"} {
		if !strings.Contains(all, " "+id+" ") {
			t.Errorf("role-prompting: no %s finding (got%s)", id, all)
		}
	}
}

// Each upstream lint fixture (a JSON artifact object) gives the same rule
// ids as its markdown rendering checked as a .md file.
func TestCorpusLintFixtures(t *testing.T) {
	requireParser(t)
	dir := testutil.Shared(t, "corpus", "lint-fixtures")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s: %v", dir, err)
	}
	for _, jp := range files {
		name := strings.TrimSuffix(filepath.Base(jp), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(jp)
			if err != nil {
				t.Fatal(err)
			}
			pj := artifact.ParseJSONObject(data, filepath.ToSlash(jp))
			if len(pj.Src) == 0 {
				t.Fatalf("ParseJSONObject gave no rendering: %v", pj.Findings)
			}
			rj := checkCorpusArtifact(t, jp, true)
			md := filepath.Join(t.TempDir(), name+".md")
			if err := os.WriteFile(md, pj.Src, 0o644); err != nil {
				t.Fatal(err)
			}
			rm := checkCorpusArtifact(t, md, false)
			a, b := strings.Join(ruleIDs(artifactOnly(rj.Findings)), " "), strings.Join(ruleIDs(artifactOnly(rm.Findings)), " ")
			if a != b {
				t.Errorf("JSON gives %s\nmarkdown gives %s", a, b)
			}
			errs := ruleIDs(artifactOnly(rj.Findings), diag.Error)
			switch name {
			case "valid-artifact", "warning-artifact":
				if len(errs) > 0 {
					t.Errorf("%s: errors %v", name, errs)
				}
			case "invalid-artifact":
				want := []string{"EA-001", "EA-002", "EC-001", "EH-001", "EH-003", "EM-002", "EM-003", "EM-004", "EP-001", "ER-001", "ER-002", "ET-001"}
				all := " " + strings.Join(errs, " ") + " "
				for _, id := range want {
					if !strings.Contains(all, " "+id+" ") {
						t.Errorf("invalid-artifact: no %s (errors %v)", id, errs)
					}
				}
			case "mixed-citations":
				// No evidence pack beside the fixture: its EV citations cannot
				// resolve, so the statements count as [inference] — warnings;
				// the artifact is valid, as upstream finds it.
				if len(errs) > 0 {
					t.Errorf("mixed-citations: errors %v", errs)
				}
				if warns := ruleIDs(artifactOnly(rj.Findings), diag.Warning); !strings.Contains(" "+strings.Join(warns, " ")+" ", " EV-001 ") {
					t.Errorf("mixed-citations: no EV-001 (warnings %v)", warns)
				}
			}
		})
	}
}

// artifactOnly keeps the findings of artifact rules.
func artifactOnly(fs []diag.Finding) []diag.Finding {
	var out []diag.Finding
	for _, f := range fs {
		if _, ok := artifactChecks[f.Rule]; ok {
			out = append(out, f)
		}
	}
	return out
}
