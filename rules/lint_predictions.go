package rules

// EP-/WP-/IP- (EP-001…003, WP-001, WP-002, IP-001): the predictions table
// (artifact_linter_spec_v0.1.md, Predictions Table; artifact_schema_v0.1.md
// §3). A missing section is ES-001's; a section without a table gets EP-001
// only.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/diag"
)

var predictionRules = []Rule{
	{ID: "EP-001", Name: "too-few-predictions", Code: "TOO_FEW_PREDICTIONS", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Predictions Table (P)",
		Short: "The predictions table has at least " + minItems(schema.PredictionsTable) + " active predictions.",
		Full:  "At least " + minItems(schema.PredictionsTable) + " predictions (table rows, killed rows excluded; scoped rows P1.H1, P1.H2 count as one prediction P1). A section with no table has none.",
		Check: checkMinPredictions},
	{ID: "EP-002", Name: "predictions-no-id-column", Code: "PREDICTIONS_NO_ID_COLUMN", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Predictions Table (P)",
		Short: "The predictions table's first column is ID.",
		Full:  "The first column header of the predictions table is \"ID\", holding the prediction ids.",
		Check: checkPredictionsIDColumn},
	{ID: "EP-003", Name: "predictions-hypothesis-column-missing", Code: "PREDICTIONS_HYPOTHESIS_COLUMN_MISSING", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Predictions Table (P)",
		Short: "The predictions table has a column per active hypothesis.",
		Full:  "Every active hypothesis of the slate has a column headed by its id (\"H1\", \"H1 (lineage)\", \"H1 predicts\"), holding its predicted outcome in each row.",
		Check: checkPredictionsHypColumns},
	{ID: "WP-001", Name: "prediction-not-discriminative", Code: "PREDICTION_NOT_DISCRIMINATIVE", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Predictions Table (P)",
		Short: "The hypothesis cells of a prediction row are not all identical.",
		Full:  "The linter spec's detection: \"Not all cells in a row are identical\". The cells of the active hypotheses' columns are compared as a reader sees them (letter case, spacing, surrounding emphasis and a final period ignored); a row is reported when they are all the same — the same outcome in every column, or every cell empty, — or ?. Any difference counts, so \"A | A | ?\" discriminates: ? is a cell of its own, as in the reference, and \"indeterminate\" is an outcome, as in the schema's own example. Whether the third alternative's cell should say \"indeterminate\" is IP-001's." + divergeArt,
		Check: checkPredictionsDiscriminate},
	{ID: "WP-002", Name: "prediction-scope-invalid", Code: "PREDICTION_SCOPE_INVALID", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Predictions Table (P)",
		Short: "A scoped prediction id P<n>.H<m> names a hypothesis of the slate.",
		Full:  "The spec's detection accepts P<n> and P<n>.H<m>; the format itself is ES-003's. This rule checks the scope: P1.H7 when there is no H7 points at nothing." + divergeArt,
		Check: checkPredictionScope},
	{ID: "IP-001", Name: "third-alternative-not-indeterminate", Code: "THIRD_ALTERNATIVE_NOT_INDETERMINATE", Family: "AL", Severity: diag.Note, Scope: ScopeArtifact, Spec: specAL + "Predictions Table (P)",
		Short: "The third alternative's column says \"indeterminate\" rather than nothing.",
		Full:  "When the third alternative makes no specific prediction its cell should say \"indeterminate\"; an empty, —, ? or n/a cell in the third alternative's column (whatever its id) is reported once per table. A specific outcome is fine.",
		Check: checkThirdAltIndeterminate},
}

var (
	alHypIDRE    = regexp.MustCompile(`^H\d+$`)
	alScopedPRE  = regexp.MustCompile(`^P(\d+)\.(H\d+)$`)
	alPNumRE     = regexp.MustCompile(`^P(\d+)`)
	alNoOutcomes = map[string]bool{"": true, "—": true, "–": true, "-": true, "--": true, "?": true, "n/a": true, "na": true, "tbd": true, "unknown": true}
)

// alColumnHyp is the hypothesis a table column is about ("H2 (gradient)" →
// "H2"), or "".
func alColumnHyp(header string) string {
	if m := alLeadingHypRE.FindStringSubmatch(header); m != nil {
		return strings.ToUpper(m[1])
	}
	return ""
}

// alCells maps hypothesis ids to a row's cells.
func alCells(p *artifact.Parsed, row *artifact.ParsedItem) map[string]*artifact.ParsedField {
	out := map[string]*artifact.ParsedField{}
	for i := range row.Fields {
		f := &row.Fields[i]
		h := ""
		switch {
		case alHypIDRE.MatchString(f.Key):
			h = f.Key
		case f.Label != "":
			h = alColumnHyp(f.Label)
		case p.Table != nil && i < len(p.Table.Header):
			h = alColumnHyp(p.Table.Header[i])
		}
		if h != "" && out[h] == nil {
			out[h] = f
		}
	}
	return out
}

// alTableHyps returns the hypothesis ids that have a column, in order.
func alTableHyps(p *artifact.Parsed) map[string]bool {
	out := map[string]bool{}
	if p.Table == nil {
		return out
	}
	for _, h := range p.Table.Header {
		if id := alColumnHyp(h); id != "" {
			out[id] = true
		}
	}
	return out
}

// alActiveHyps returns the active hypotheses with a well-formed id.
func alActiveHyps(p *artifact.Parsed) []*artifact.ParsedItem {
	var out []*artifact.ParsedItem
	for _, it := range alActive(p, delta.HypothesisSlate) {
		if alHypIDRE.MatchString(it.ID) {
			out = append(out, it)
		}
	}
	return out
}

func checkMinPredictions(c *Ctx) {
	sec := alSection(c.P, delta.PredictionsTable)
	if sec == nil {
		return
	}
	seen := map[string]bool{}
	n := 0
	for _, r := range alActive(c.P, delta.PredictionsTable) {
		key := "row " + strconv.Itoa(n) + alKey(r)
		if m := alPNumRE.FindStringSubmatch(strings.TrimSpace(r.ID)); m != nil {
			key = m[1]
		}
		if !seen[key] {
			seen[key] = true
			n++
		}
	}
	s := schema.Get(schema.PredictionsTable)
	if n >= s.Min {
		return
	}
	msg := fmt.Sprintf("The predictions table has %d active %s; the minimum is %d.", n, diag.Plural(n, s.One, s.Many), s.Min)
	if c.P.Table == nil && n == 0 {
		msg = fmt.Sprintf("The Predictions Table section has no table; the minimum is %d %s.", s.Min, diag.Plural(s.Min, s.One, s.Many))
	}
	c.reportAt(sec.Pos, msg,
		fmt.Sprintf("Add rows \"| P<n> | observable condition | H1 outcome | H2 outcome | … |\" until there are at least %d discriminative %s (artifact_schema_v0.1.md §3).", s.Min, diag.Plural(s.Min, s.One, s.Many)),
		c.anchor("count"))
}

func checkPredictionsIDColumn(c *Ctx) {
	t := c.P.Table
	if t == nil || alSection(c.P, delta.PredictionsTable) == nil {
		return
	}
	first := ""
	if len(t.Header) > 0 {
		first = strings.TrimSpace(t.Header[0])
	}
	if strings.EqualFold(strings.Trim(first, "*_ "), "ID") {
		return
	}
	msg := fmt.Sprintf("The predictions table's first column is %q, not \"ID\".", alClip(first, 40))
	if first == "" {
		msg = "The predictions table's first column has no header; it must be \"ID\"."
	}
	c.reportAt(t.Pos, msg, "Make the first column \"ID\" holding the prediction ids P1, P2 … (artifact_schema_v0.1.md §3).", c.anchor("id column"))
}

func checkPredictionsHypColumns(c *Ctx) {
	t := c.P.Table
	if t == nil || alSection(c.P, delta.PredictionsTable) == nil {
		return
	}
	cols := alTableHyps(c.P)
	var missing []string
	for _, h := range alActiveHyps(c.P) {
		if !cols[h.ID] {
			missing = append(missing, h.ID)
		}
	}
	if len(missing) == 0 {
		return
	}
	msg := fmt.Sprintf("The predictions table has no column for %s.", alList(missing))
	if len(cols) == 0 {
		msg = fmt.Sprintf("The predictions table has no hypothesis columns (none for %s).", alList(missing))
	}
	c.reportAt(t.Pos, msg,
		"Give every active hypothesis its own column, headed by its id (\"| ID | Observation/Condition | H1 | H2 | H3 |\"), with that hypothesis's predicted outcome in each row.",
		c.anchor(strings.Join(missing, ",")))
}

// alOutcome normalises a cell for comparison; "" when it predicts nothing.
func alOutcome(f *artifact.ParsedField) string {
	if f == nil {
		return ""
	}
	v := strings.ToLower(diag.CollapseSpace(strings.Trim(alText(f), "*_~ ")))
	v = strings.TrimRight(v, ".")
	if alNoOutcomes[v] {
		return ""
	}
	return v
}

// alCell normalises a cell for the WP-001 comparison: what a reader sees as
// its outcome, with letter case, white space, surrounding emphasis and a
// final period ignored. Unlike alOutcome, a cell that predicts nothing
// ("", —, ?) is kept as written: it is a cell like any other.
func alCell(f *artifact.ParsedField) string {
	v := strings.ToLower(diag.CollapseSpace(strings.Trim(alText(f), "*_~ ")))
	return strings.TrimRight(v, ".")
}

// checkPredictionsDiscriminate (WP-001): the linter spec's detection is
// "Not all cells in a row are identical". The cells compared are those of
// the active hypotheses' columns; a row is reported only when they are all
// the same, so "A | A | ?" discriminates (? is a cell of its own, as the
// reference counts it) and "— | — | —" does not.
func checkPredictionsDiscriminate(c *Ctx) {
	if alSection(c.P, delta.PredictionsTable) == nil {
		return
	}
	var hyps []string
	cols := alTableHyps(c.P)
	for _, h := range alActiveHyps(c.P) {
		if c.P.Table == nil || cols[h.ID] {
			hyps = append(hyps, h.ID)
		}
	}
	if len(hyps) < 2 {
		return
	}
	for _, r := range alActive(c.P, delta.PredictionsTable) {
		cells := alCells(c.P, r)
		first := alCell(cells[hyps[0]])
		same := true
		for _, h := range hyps[1:] {
			if alCell(cells[h]) != first {
				same = false
				break
			}
		}
		if !same {
			continue
		}
		var msg string
		if alOutcome(cells[hyps[0]]) == "" {
			msg = fmt.Sprintf("%s gives no outcome for any hypothesis, so it cannot discriminate.", alName(r))
		} else {
			q := "both"
			if len(hyps) > 2 {
				q = "all"
			}
			msg = fmt.Sprintf("%s does not discriminate: %s %s predict %q.", alName(r), alList(hyps), q, alClip(strings.TrimSpace(alText(cells[hyps[0]])), 50))
		}
		c.reportAt(r.Pos, msg,
			"Fill in each hypothesis's outcome so that at least two hypotheses predict different observations, or replace the prediction with one that separates them.",
			c.anchor(alKey(r)))
	}
}

func checkPredictionScope(c *Ctx) {
	if alSection(c.P, delta.PredictionsTable) == nil {
		return
	}
	exists := map[string]bool{}
	for _, h := range alItems(c.P, delta.HypothesisSlate) {
		exists[h.ID] = true
	}
	for _, r := range alActive(c.P, delta.PredictionsTable) {
		m := alScopedPRE.FindStringSubmatch(strings.TrimSpace(r.ID))
		if m == nil || exists[m[2]] {
			continue
		}
		c.reportAt(r.Pos, fmt.Sprintf("Prediction %s is scoped to %s, which is not in the hypothesis slate.", r.ID, m[2]),
			fmt.Sprintf("Scope the prediction to an existing hypothesis (P%s.H<m>), or use the plain id P%s.", m[1], m[1]), c.anchor(r.ID))
	}
}

func checkThirdAltIndeterminate(c *Ctx) {
	t := c.P.Table
	if t == nil || alSection(c.P, delta.PredictionsTable) == nil {
		return
	}
	cols := alTableHyps(c.P)
	for _, h := range alActiveHyps(c.P) {
		if !alIsThirdAlt(c.P, h) || !cols[h.ID] {
			continue
		}
		var rows []string
		var first *artifact.ParsedItem
		for _, r := range alActive(c.P, delta.PredictionsTable) {
			if alOutcome(alCells(c.P, r)[h.ID]) != "" {
				continue
			}
			if first == nil {
				first = r
			}
			rows = append(rows, alKey(r))
		}
		if first == nil {
			continue
		}
		shown := rows
		if len(shown) > 6 {
			shown = append(shown[:6:6], fmt.Sprintf("%d more", len(rows)-6))
		}
		c.reportAt(first.Pos, fmt.Sprintf("%s %s no outcome for %s, the third alternative.", alList(shown), diag.Plural(len(rows), "gives", "give"), h.ID),
			fmt.Sprintf("Write \"indeterminate\" in %s's column where the third alternative makes no specific prediction (artifact_schema_v0.1.md §3).", h.ID),
			c.anchor(h.ID))
	}
}
