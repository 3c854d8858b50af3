package rules

// ET-/WT-/IT-: discriminative tests (artifact_linter_spec_v0.1.md,
// Discriminative Tests; artifact_schema_v0.1.md §4). Active tests only; a
// missing section is ES-001's.

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/diag"
)

var testRules = []Rule{
	{ID: "ET-001", Name: "too-few-tests", Code: "TOO_FEW_TESTS", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Discriminative Tests (T)",
		Short: "There are at least " + minItems(schema.DiscriminativeTests) + " active discriminative tests.",
		Full:  "At least " + minItems(schema.DiscriminativeTests) + " active (non-killed) decision experiments. Every item of the section counts, whatever its id.",
		Check: checkMinTests},
	{ID: "ET-002", Name: "test-procedure-missing", Code: "TEST_PROCEDURE_MISSING", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Discriminative Tests (T)",
		Short: "Every active test has a **Procedure**.",
		Full:  "Each test says what you would do, as \"**Procedure**: …\". A \"**Design**:\" field is reported as a non-standard label.",
		Check: checkTestProcedure},
	{ID: "ET-003", Name: "test-expected-outcomes-missing", Code: "TEST_EXPECTED_OUTCOMES_MISSING", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Discriminative Tests (T)",
		Short: "Every active test has **Expected outcomes**.",
		Full:  "Each test lists the outcome each hypothesis predicts under \"**Expected outcomes**:\" (\"- If H1: …\"); an empty list is reported.",
		Check: checkTestOutcomes},
	{ID: "WT-001", Name: "test-potency-check-missing", Code: "TEST_POTENCY_CHECK_MISSING", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Discriminative Tests (T)",
		Short: "Every active test has a **Potency check**.",
		Full:  "Each test says how a negative result is known to mean \"no effect\" rather than \"assay failed\" (the chastity-versus-impotence control).",
		Check: checkTestPotency},
	{ID: "WT-002", Name: "tests-not-ranked", Code: "TESTS_NOT_RANKED", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Discriminative Tests (T)",
		Short: "Tests are ordered by total score, highest first.",
		Full:  "Tests are ranked by evidence-per-week score. The total is the heading's \"(Score: X/12)\", else the sum of a complete breakdown; tests without a score are skipped. The first test that outscores the one before it is reported, once. Upstream checks a JSON object's array order; brenner-ci checks the order a reader sees, and renders JSON objects in ranked order." + divergeArt,
		Check: checkTestRanking},
	{ID: "WT-003", Name: "test-score-breakdown-missing", Code: "TEST_SCORE_BREAKDOWN_MISSING", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Discriminative Tests (T)",
		Short: "Every active test breaks its score into likelihood ratio, cost, speed and ambiguity.",
		Full:  "\"**Evidence-per-week score**:\" gives the four rubric parts, inline (LR=3, Cost=2, Speed=2, Ambiguity=3) or as a list (- Likelihood ratio: 3 …). A heading total alone, or a breakdown missing parts, is reported.",
		Check: checkTestScoreBreakdown},
	{ID: "IT-001", Name: "test-discriminates-unspecified", Code: "TEST_DISCRIMINATES_UNSPECIFIED", Family: "AL", Severity: diag.Note, Scope: ScopeArtifact, Spec: specAL + "Discriminative Tests (T)",
		Short: "Every active test names the hypotheses it discriminates.",
		Full:  "\"**Discriminates**:\" names the hypotheses the test separates by id (H1 vs H2); a missing field or one with no H<n> is reported.",
		Check: checkTestDiscriminates},
	{ID: "IT-002", Name: "test-feasibility-missing", Code: "TEST_FEASIBILITY_MISSING", Family: "AL", Severity: diag.Note, Scope: ScopeArtifact, Spec: specAL + "Discriminative Tests (T)",
		Short: "Every active test has a **Feasibility** assessment.",
		Full:  "\"**Feasibility**:\" gives the organism/system requirements and the difficulty.",
		Check: checkTestFeasibility},
}

// alScoreParts are the evidence-per-week dimensions and how a breakdown
// writes them ("LR=3", "- Likelihood ratio: 3 (…)", "Cost: 2").
var alScoreParts = []struct {
	Key, Name string
	RE        *regexp.Regexp
}{
	{"likelihood_ratio", "likelihood ratio", regexp.MustCompile(`(?i)\b(?:lr|likelihood(?:[ _-]*ratio)?)\s*[=:]\s*(-?\d+(?:\.\d+)?)`)},
	{"cost", "cost", regexp.MustCompile(`(?i)\bcost\s*[=:]\s*(-?\d+(?:\.\d+)?)`)},
	{"speed", "speed", regexp.MustCompile(`(?i)\bspeed\s*[=:]\s*(-?\d+(?:\.\d+)?)`)},
	{"ambiguity", "ambiguity", regexp.MustCompile(`(?i)\bambiguity\s*[=:]\s*(-?\d+(?:\.\d+)?)`)},
}

// alScoreField is a test's evidence-per-week score field, or nil.
func alScoreField(it *artifact.ParsedItem) *artifact.ParsedField {
	f, _ := alFind(it, "score", "Evidence-per-week score", "Evidence per week score", "Score", "Score breakdown")
	return f
}

// alBreakdown returns the score parts a test states, by key: from its score
// field, else from the model's score object.
func alBreakdown(p *artifact.Parsed, it *artifact.ParsedItem) map[string]float64 {
	out := map[string]float64{}
	if f := alScoreField(it); f != nil {
		text := alText(f)
		for _, sp := range alScoreParts {
			if m := sp.RE.FindStringSubmatch(text); m != nil {
				if v, err := strconv.ParseFloat(m[1], 64); err == nil {
					out[sp.Key] = v
				}
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	if sc := alArtItem(p, it).Get("score"); sc != nil && sc.Kind == jsonv.Object {
		for _, sp := range alScoreParts {
			if v, ok := sc.Get(sp.Key).Float(); ok {
				out[sp.Key] = v
			}
		}
	}
	return out
}

// alTotal returns a test's total score: the heading's "(Score: X/12)", else
// the sum of a complete breakdown.
func alTotal(p *artifact.Parsed, it *artifact.ParsedItem) (float64, bool) {
	for _, s := range []string{it.Label, it.Name} {
		if m := alScoreHeadRE.FindStringSubmatch(s); m != nil {
			if v, err := strconv.ParseFloat(m[1], 64); err == nil {
				return v, true
			}
		}
	}
	parts := alBreakdown(p, it)
	if len(parts) == len(alScoreParts) {
		t := 0.0
		for _, v := range parts {
			t += v
		}
		return t, true
	}
	return 0, false
}

func alNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func checkMinTests(c *Ctx) {
	alMinimum(c, delta.DiscriminativeTests, "The discriminative tests section has",
		"Add decision experiments (\"### T<n>: Name (Score: X/12)\" with Procedure, Discriminates, Expected outcomes, Potency check) until there are at least %d.")
}

func checkTestProcedure(c *Ctx) {
	for _, it := range alActive(c.P, delta.DiscriminativeTests) {
		alRequire(c, it, "procedure", "Procedure", "Add \"**Procedure**:\" saying what you would do, specifically enough to execute.")
	}
}

func checkTestOutcomes(c *Ctx) {
	for _, it := range alActive(c.P, delta.DiscriminativeTests) {
		alRequire(c, it, "expected_outcomes", "Expected outcomes",
			"Add \"**Expected outcomes**:\" with one line per hypothesis (\"- If H1: …\", \"- If H2: …\").", "Expected outcomes")
	}
}

func checkTestPotency(c *Ctx) {
	for _, it := range alActive(c.P, delta.DiscriminativeTests) {
		alRequire(c, it, "potency_check", "Potency check",
			"Add \"**Potency check**:\" saying how you know a negative result means \"no effect\" rather than \"assay failed\" (a positive control).")
	}
}

func checkTestRanking(c *Ctx) {
	var prev *artifact.ParsedItem
	var prevScore float64
	for _, it := range alActive(c.P, delta.DiscriminativeTests) {
		s, ok := alTotal(c.P, it)
		if !ok {
			continue
		}
		if prev != nil && s > prevScore {
			c.reportAt(it.Pos, fmt.Sprintf("Tests are not ranked by score: %s (%s/12) comes after %s (%s/12).", alName(it), alNum(s), alName(prev), alNum(prevScore)),
				"Order the tests by total evidence-per-week score, highest first (artifact_schema_v0.1.md §4).", c.anchor(alKey(it), alKey(prev)))
			return
		}
		prev, prevScore = it, s
	}
}

func checkTestScoreBreakdown(c *Ctx) {
	for _, it := range alActive(c.P, delta.DiscriminativeTests) {
		parts := alBreakdown(c.P, it)
		if len(parts) == len(alScoreParts) {
			continue
		}
		hint := "Add \"**Evidence-per-week score**: LR=a, Cost=b, Speed=c, Ambiguity=d\", each 0-3 on the rubric (artifact_schema_v0.1.md §4)."
		f := alScoreField(it)
		pos := it.Pos
		var msg string
		switch {
		case len(parts) > 0:
			var lacks []string
			for _, sp := range alScoreParts {
				if _, ok := parts[sp.Key]; !ok {
					lacks = append(lacks, sp.Name)
				}
			}
			msg = fmt.Sprintf("%s's score breakdown lacks %s.", alName(it), alList(lacks))
			if f != nil {
				pos = alFieldPos(it, f)
			}
		case f != nil:
			msg = fmt.Sprintf("%s's score field gives no likelihood ratio, cost, speed or ambiguity.", alName(it))
			pos = alFieldPos(it, f)
		default:
			if _, ok := alTotal(c.P, it); ok {
				msg = fmt.Sprintf("%s has a total score but no evidence-per-week breakdown.", alName(it))
			} else {
				msg = fmt.Sprintf("%s has no evidence-per-week score breakdown.", alName(it))
			}
		}
		c.reportAt(pos, msg, hint, c.anchor(alKey(it)))
	}
}

func checkTestDiscriminates(c *Ctx) {
	for _, it := range alActive(c.P, delta.DiscriminativeTests) {
		f := alRequire(c, it, "discriminates", "Discriminates", "Add \"**Discriminates**:\" naming the hypotheses the test separates (\"H1 vs H2\").")
		if f == nil || alHypRefRE.MatchString(alText(f)) {
			continue
		}
		c.reportAt(alFieldPos(it, f), fmt.Sprintf("%s's **Discriminates** field names no hypothesis id (%q).", alName(it), alClip(alText(f), 40)),
			"Name the hypotheses by id, e.g. \"H1 vs H2\".", c.anchor(alKey(it), "ids"))
	}
}

func checkTestFeasibility(c *Ctx) {
	for _, it := range alActive(c.P, delta.DiscriminativeTests) {
		alRequire(c, it, "feasibility", "Feasibility", "Add \"**Feasibility**:\" with the organism/system requirements and an estimate of difficulty.")
	}
}
