package rules_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
	"github.com/brenner-ci/brenner-ci/rules"
)

// The specs define rule ids (MB-001, AP-005, EH-001 …) and error names
// (INVALID_BEAD_ID, TARGET_KILLED …) in tables. Each one must stay a rule
// that fires: a rule split or rename that drops one fails here, not
// silently. The ids are read from the specs' tables when the specs are at
// hand (../shared/specs beside the module, or $BRENNER_CI_SPECS), and
// testdata/rules/spec-ids.txt keeps what they define so that the test runs
// without them too (go test ./rules -run TestSpecIDs -update rewrites it).

// specFiles are the specs whose tables are read: the five top-level specs
// and the upstream artifact linter spec.
var specFiles = []string{
	"thread_subject_conventions_v0.1.md",
	"message_body_schema_v0.1.md",
	"delta_output_format_v0.1.md",
	"artifact_delta_spec_v0.1.md",
	"artifact_publish_spec_v0.1.md",
	"upstream/artifact_linter_spec_v0.1.md",
}

// specSameAs names the rule that reports a spec's error name when no rule
// has it as its code: two specs define the same check.
var specSameAs = map[string]string{
	// thread_subject_conventions_v0.1.md, Subject Validation: the prefix
	// check is the message body schema's MB-001 (invalid-subject-prefix).
	"INVALID_SUBJECT_PREFIX": "MB-001",
}

// specNotImplemented are the ids the specs define that brenner-ci
// deliberately does not report, with the reason.
var specNotImplemented = map[string]string{
	"WP-P03": "\"Multi-source synthesis should explain connection\" needs a reader: the spec defines no marker for a synthesis explanation (docs/divergences.md §5.2).",

	// artifact_linter_spec_v0.1.md, Semantic Checks (Machine-Assistable):
	// "These checks require more sophisticated analysis but can be partially
	// automated" — outside the machine-checkable tables brenner-ci implements.
	"WS-101": "semantic check (consistent §n citation); partly covered by WH-002 and WP-P01, which check the anchor format.",
	"WS-102": "semantic check; its condition (P1.H1 naming a hypothesis that does not exist) is reported as WP-002 (docs/divergences.md §5.1).",
	"WS-103": "semantic check (unique hypothesis names): names may legitimately repeat across killed and active items.",
	"WP-101": "semantic check (H columns match H items); the reverse direction, a column per active hypothesis, is EP-003.",
	"WT-101": "semantic check (a test's Discriminates names hypotheses of the slate); IT-001 checks that it names hypotheses at all.",
	"WA-101": "semantic check (numbers in a scale check's calculation): a heuristic, not in the machine-checkable tables.",

	// artifact_linter_spec_v0.1.md, Human-Review Checks: "These require
	// human judgment and cannot be fully automated".
	"WH-201": "human review (mutually exclusive hypotheses).",
	"WH-202": "human review (a substantive third alternative).",
	"WP-201": "human review (predictions in machine language).",
	"WT-201": "human review (adequate potency checks).",
	"WT-202": "human review (score justifications match scores).",
	"WA-201": "human review (realistic scale-check parameters).",
	"WC-201": "human review (substantive critiques).",
}

var (
	specIDRE   = regexp.MustCompile(`^[A-Z]{2}-[A-Z]?\d{2,3}$`)
	specCodeRE = regexp.MustCompile(`^[A-Z]+(?:_[A-Z]+)+$`)
	specSepRE  = regexp.MustCompile(`^\|[\s:|-]+\|$`)
)

// specIDColumns are the table headers whose cells hold ids or error names.
var specIDColumns = []string{"id", "rule id", "error", "error if fails", "warning if fails"}

// specCells splits a table row into cells; a | inside a code span does not
// split (the thread conventions' prefix pattern holds unescaped bars).
func specCells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	line = strings.TrimSuffix(line, "|")
	var cells []string
	var cur strings.Builder
	code := false
	for i := 0; i < len(line); i++ {
		switch ch := line[i]; {
		case ch == '\\' && i+1 < len(line):
			cur.WriteByte(ch)
			cur.WriteByte(line[i+1])
			i++
		case ch == '`':
			code = !code
			cur.WriteByte(ch)
		case ch == '|' && !code:
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(ch)
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

// specTableIDs returns the ids and error names in the id columns of the
// tables of a spec, in order ("spec ID" lines).
func specTableIDs(name, src string) []string {
	var out []string
	lines := strings.Split(src, "\n")
	fence := false
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
			continue
		}
		if fence || !strings.HasPrefix(t, "|") || i+1 >= len(lines) || !specSepRE.MatchString(strings.TrimSpace(lines[i+1])) {
			continue
		}
		col := -1
		for k, h := range specCells(t) {
			if slices.Contains(specIDColumns, strings.ToLower(strings.Trim(h, "*` "))) {
				col = k
			}
		}
		i++ // the separator
		for i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "|") {
			i++
			cells := specCells(lines[i])
			if col < 0 || col >= len(cells) {
				continue
			}
			v := strings.Trim(cells[col], "`")
			if specIDRE.MatchString(v) || specCodeRE.MatchString(v) {
				out = append(out, name+" "+v)
			}
		}
	}
	return out
}

// specIDs reads the ids of every spec table, or returns false when the
// specs are not at hand.
func specIDs(t *testing.T) ([]string, bool) {
	dir := os.Getenv("BRENNER_CI_SPECS")
	if dir == "" {
		dir = filepath.Join(testutil.ModuleRoot(t), "..", "shared", "specs")
	}
	if _, err := os.Stat(filepath.Join(dir, specFiles[0])); err != nil {
		return nil, false
	}
	var out []string
	for _, f := range specFiles {
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, specTableIDs(f, string(src))...)
	}
	return out, true
}

// specRules returns the rules that report a spec id or error name.
func specRules(id string) []*rules.Rule {
	if r := rules.Lookup(id); r != nil {
		return []*rules.Rule{r}
	}
	var out []*rules.Rule
	for _, r := range rules.All() {
		if r.Code == id {
			out = append(out, r)
		}
	}
	if len(out) == 0 && specSameAs[id] != "" {
		if r := rules.Lookup(specSameAs[id]); r != nil {
			out = append(out, r)
		}
	}
	return out
}

// TestSpecIDs: every id and error name the specs' tables define is a rule
// whose failing fixture (testdata/rules/<ID>/fail) gives at least one
// finding of it through the real check flow, unless specNotImplemented says
// why it is not reported.
func TestSpecIDs(t *testing.T) {
	listFile := filepath.Join(testutil.ModuleRoot(t), "testdata", "rules", "spec-ids.txt")
	const header = "# The rule ids and error names that the specs' tables define, one \"spec id\" a line.\n" +
		"# Written by go test ./rules -run TestSpecIDs -update from the specs; rules/spec_ids_test.go\n" +
		"# checks that each one fires, or is listed there as deliberately not implemented.\n"
	parsed, ok := specIDs(t)
	if ok {
		if len(parsed) < 100 {
			t.Fatalf("only %d ids read from the spec tables: the table reader is broken", len(parsed))
		}
		want := header + strings.Join(parsed, "\n") + "\n"
		if *update {
			if err := os.WriteFile(listFile, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := os.ReadFile(listFile); err != nil || string(got) != want {
			t.Errorf("%s is not what the specs define (go test ./rules -run TestSpecIDs -update rewrites it; read the diff)", listFile)
		}
	} else {
		t.Log("the specs are not at hand (../shared/specs, $BRENNER_CI_SPECS): checking testdata/rules/spec-ids.txt")
	}
	data, err := os.ReadFile(listFile)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	inSpecs := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		_, id, _ := strings.Cut(line, " ")
		if !inSpecs[id] {
			ids = append(ids, id)
		}
		inSpecs[id] = true
	}
	for id := range specNotImplemented {
		if !inSpecs[id] {
			t.Errorf("specNotImplemented lists %s, which no spec table defines", id)
		}
	}
	fired := map[string]bool{}
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			rs := specRules(id)
			if why, ok := specNotImplemented[id]; ok {
				if len(rs) > 0 {
					t.Errorf("%s is listed as not implemented (%s) but rule %s reports it", id, why, rs[0].ID)
				}
				return
			}
			if len(rs) == 0 {
				t.Fatalf("the specs define %s but no rule reports it: register it, or list it in specNotImplemented with the reason", id)
			}
			for _, r := range rs {
				if fired[r.ID] {
					continue
				}
				dir := filepath.Join("..", "testdata", "rules", r.ID, "fail")
				if _, err := os.Stat(dir); err != nil {
					t.Errorf("%s (%s) has no failing fixture %s", id, r.ID, dir)
					continue
				}
				if lines(check(t, loadCfg(t, dir), dir), r.ID, dir) == "" {
					t.Errorf("%s (%s): %s gives no %s finding", id, r.ID, dir, r.ID)
					continue
				}
				fired[r.ID] = true
			}
		})
	}
	if t.Failed() {
		return
	}
	t.Logf("%d spec ids: %d fire through their rules' fixtures, %d are not implemented", len(ids), len(ids)-len(specNotImplemented), len(specNotImplemented))
}
