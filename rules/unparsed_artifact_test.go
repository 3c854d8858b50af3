package rules_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/rules"
)

// artifactRules returns the rule ids reported on file, sorted, and the
// DR-001 message among them ("" when there is none).
func artifactRules(t *testing.T, dir, file string) (ids []string, drift string) {
	t.Helper()
	res := check(t, loadCfg(t, dir), dir)
	for _, f := range res.Findings {
		if !strings.HasSuffix(f.Pos.File, file) {
			continue
		}
		ids = append(ids, f.Rule)
		if f.Rule == "DR-001" {
			drift = f.Message
		}
	}
	slices.Sort(ids)
	return ids, drift
}

// TestUnparsedArtifactIsNotLinted: an artifact past the markdown parser's
// limits is IN-008, and nothing else is said of its front matter and
// sections: they are unknown, not missing (the artifact linter's rules
// once reported its front matter and all seven sections absent, beside
// IN-008's "none of its sections are checked"). Its thread's DR-001 says
// that it could not be compared, and stays an error. A credential in it is
// still found: SC-002 reads the file's bytes.
func TestUnparsedArtifactIsNotLinted(t *testing.T) {
	fixture := filepath.Join("..", "testdata", "rules", "IN-008", "fail")
	ids, drift := artifactRules(t, fixture, "artifacts/RS-20260301-quorum-timing.md")
	if !slices.Equal(ids, []string{"DR-001", "IN-008"}) {
		t.Errorf("findings on the unparsed artifact: %v, want [DR-001 IN-008]", ids)
	}
	if !strings.Contains(drift, "could not be compared") {
		t.Errorf("DR-001 on the unparsed artifact: %q, want that it could not be compared", drift)
	}
	if r := rules.Lookup("DR-001"); r == nil || r.Severity.String() != "error" {
		t.Fatalf("DR-001 is not an error rule: %+v", r)
	}

	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "artifacts"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "---\nsession_id: \"RS-20260301-lone\"\nversion: 1\n---\n\nData bucket key: AKIAIOSFODNN7EXAMPLE\n\n" +
		strings.Repeat("> ", 300) + "deep\n"
	if err := os.WriteFile(filepath.Join(dir, "artifacts", "RS-20260301-lone.md"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ids, _ = artifactRules(t, dir, "artifacts/RS-20260301-lone.md")
	if !slices.Equal(ids, []string{"IN-008", "SC-002"}) {
		t.Errorf("findings on an unparsed artifact holding a credential: %v, want [IN-008 SC-002]", ids)
	}
}
