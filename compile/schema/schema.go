// Package schema is the one description of an artifact's seven sections:
// their ids, numbers and headings, item id prefixes and patterns, minimum
// counts, status values, and each section's payload fields (render order and
// labels, the labels the parser accepts, which fields an ADD requires, which
// are strings). Delta validation, the merge, the renderer, the artifact
// parser and the artifact linter all read it (artifact_schema_v0.1.md,
// delta_output_format_v0.1.md).
package schema

import "regexp"

// Section ids (delta_output_format_v0.1.md, Valid Section Values).
const (
	ResearchThread      = "research_thread"
	HypothesisSlate     = "hypothesis_slate"
	PredictionsTable    = "predictions_table"
	DiscriminativeTests = "discriminative_tests"
	AssumptionLedger    = "assumption_ledger"
	AnomalyRegister     = "anomaly_register"
	AdversarialCritique = "adversarial_critique"
)

// Render says how the renderer writes a field's value.
type Render int

const (
	Text      Render = iota // a string; other values as compact JSON
	Join                    // a list joined with ", " (anchors, conflicts_with)
	Outline                 // an object or list rendered as "- key: value" lines
	Refs                    // cross-session references
	Flag                    // a boolean shown as "**Label**: true" when true (nothing when false)
	HeadFlag                // a boolean shown by the item's heading (nothing as a line)
	Elsewhere               // rendered elsewhere (heading, table, score line)
)

// Requirement says whether an ADD must carry a field (Failure Mode 5).
type Requirement int

const (
	Optional Requirement = iota
	Required             // missing: the block is rejected (DL-005)
	Lenient              // missing: a warning (DL-009), the block applies
	// LenientForThirdAlternative is Required, except on a hypothesis marked
	// third_alternative, where it is Lenient.
	LenientForThirdAlternative
)

// Field is one payload field of a section.
type Field struct {
	Key    string
	Label  string // rendered label ("**Label**: value"); "" when rendered elsewhere
	Render Render
	// String is set when the value must be a string (DL-006).
	String   bool
	Required Requirement
	// Default is the value used when a Lenient field is missing ("" = none).
	Default string
	// Synonyms are payload keys agents use instead of this field (named in
	// DL-005 messages).
	Synonyms []string
	// Labels are the lower-case labels the artifact parser reads as this
	// field; Aliases are non-standard forms it also reads (and reports).
	Labels, Aliases []string
}

// Section is one of the seven artifact sections.
type Section struct {
	ID        string
	Number    int    // 1-7, the heading's number
	Title     string // "Hypothesis Slate"
	Prefix    string // item id prefix: "H"
	IDPattern *regexp.Regexp
	IDForm    string // how the id convention is written in messages
	// Min is the minimum number of active items of a compiled artifact (0:
	// none), Max the maximum (0: none); One and Many name items in
	// messages; MinHint quotes the spec.
	Min, Max  int
	One, Many string
	MinHint   string
	// StatLabel names the section in a COMPILED body's Statistics ("" for
	// the research thread).
	StatLabel string
	// Statuses are the valid status values, when the section has them.
	Statuses []string
	// HeadingAliases are other lower-case heading texts the parser accepts.
	HeadingAliases []string
	// Fields in rendering order.
	Fields []Field
}

// Heading is the section's markdown heading ("## 2. Hypothesis Slate").
func (s *Section) Heading() string { return "## " + itoa(s.Number) + ". " + s.Title }

// Field returns the field with key k, or nil.
func (s *Section) Field(k string) *Field {
	for i := range s.Fields {
		if s.Fields[i].Key == k {
			return &s.Fields[i]
		}
	}
	return nil
}

func itoa(n int) string { return string(rune('0' + n)) }

// CommonFields are read by the parser in every section.
var CommonFields = []Field{
	{Key: "anchors", Labels: []string{"anchors"}, Aliases: []string{"anchor"}},
	{Key: "references", Labels: []string{"references"}},
}

var (
	anchors    = Field{Key: "anchors", Label: "Anchors", Render: Join}
	references = Field{Key: "references", Label: "References", Render: Refs}
	name       = Field{Key: "name", Render: Elsewhere, String: true, Required: Required, Synonyms: []string{"title"}}
)

// Sections lists the seven sections in artifact order.
var Sections = []Section{
	{ID: ResearchThread, Number: 1, Title: "Research Thread", Prefix: "RT", IDPattern: regexp.MustCompile(`^RT$`), IDForm: "RT",
		Min: 1, One: "research thread", Many: "research threads",
		MinHint: "\"Exactly ONE research thread per artifact\" (artifact_schema_v0.1.md); send an EDIT of research_thread with target_id \"RT\".",
		Fields: []Field{
			{Key: "statement", Label: "RT", String: true, Labels: []string{"rt", "research thread"}, Aliases: []string{"question", "research question", "statement"}},
			{Key: "context", Label: "Context", String: true, Labels: []string{"context"}},
			{Key: "why_it_matters", Label: "Why it matters", String: true, Labels: []string{"why it matters"}},
			anchors, references,
		}},
	{ID: HypothesisSlate, Number: 2, Title: "Hypothesis Slate", Prefix: "H", IDPattern: regexp.MustCompile(`^H\d+$`), IDForm: "H<n>",
		Min: 3, Max: 6, One: "hypothesis", Many: "hypotheses", StatLabel: "Hypotheses",
		MinHint: "\"Minimum 2 hypotheses + 1 third alternative = 3 total\" (artifact_schema_v0.1.md); ADD hypotheses, one with \"third_alternative\": true.",
		Fields: []Field{
			name,
			{Key: "claim", Label: "Claim", String: true, Required: Required, Synonyms: []string{"statement", "hypothesis", "description"},
				Labels: []string{"claim"}, Aliases: []string{"statement", "hypothesis"}},
			{Key: "mechanism", Label: "Mechanism", String: true, Required: LenientForThirdAlternative, Synonyms: []string{"basis"}, Labels: []string{"mechanism"}},
			{Key: "how_this_could_be_true", Label: "How this could be true", Labels: []string{"how this could be true"}},
			{Key: "anchors", Label: "Anchors", Render: Join, Required: LenientForThirdAlternative, Synonyms: []string{"anchor", "citations"}},
			{Key: "third_alternative", Label: "Third alternative", Render: HeadFlag, Labels: []string{"third alternative"}},
			references,
		}},
	{ID: PredictionsTable, Number: 3, Title: "Predictions Table", Prefix: "P", IDPattern: regexp.MustCompile(`^P\d+(?:\.H\d+)?$`), IDForm: "P<n> or P<n>.H<m>",
		Min: 3, One: "prediction", Many: "predictions", StatLabel: "Predictions", HeadingAliases: []string{"predictions"},
		MinHint: "\"Minimum 3 predictions\" (artifact_schema_v0.1.md); ADD discriminative predictions to predictions_table.",
		Fields: []Field{
			{Key: "condition", Render: Elsewhere, String: true, Required: Required, Synonyms: []string{"observation"},
				Labels: []string{"condition", "observation/condition"}, Aliases: []string{"observation"}},
			{Key: "predictions", Render: Elsewhere, Required: Required, Synonyms: []string{"prediction", "outcomes"}, Labels: []string{"predictions"}},
			references,
		}},
	{ID: DiscriminativeTests, Number: 4, Title: "Discriminative Tests", Prefix: "T", IDPattern: regexp.MustCompile(`^T\d+$`), IDForm: "T<n>",
		Min: 2, One: "test", Many: "tests", StatLabel: "Tests",
		MinHint: "\"Minimum 2 tests\" (artifact_schema_v0.1.md); ADD discriminative tests with potency checks.",
		Fields: []Field{
			name,
			{Key: "test_id", Label: "Test ID", Labels: []string{"test id"}},
			{Key: "procedure", Label: "Procedure", String: true, Required: Required, Synonyms: []string{"design", "method", "protocol"},
				Labels: []string{"procedure"}, Aliases: []string{"design", "method"}},
			{Key: "discriminates", Label: "Discriminates", String: true, Required: Required, Synonyms: []string{"separates"}, Labels: []string{"discriminates"}},
			{Key: "expected_outcomes", Label: "Expected outcomes", Render: Outline, Required: Required, Synonyms: []string{"outcomes", "predictions"},
				Labels: []string{"expected outcomes"}, Aliases: []string{"expected outcome"}},
			{Key: "potency_check", Label: "Potency check", String: true, Labels: []string{"potency check"}},
			{Key: "feasibility", Label: "Feasibility", String: true, Labels: []string{"feasibility"}},
			{Key: "score", Render: Elsewhere, Labels: []string{"evidence-per-week score"}, Aliases: []string{"score"}},
			{Key: "status", Label: "Status", Labels: []string{"status"}},
			{Key: "last_run", Label: "Last run", Render: Outline, Labels: []string{"last run"}},
			{Key: "actual_outcomes", Label: "Actual outcomes", Render: Outline, Labels: []string{"actual outcomes"}},
			references,
		}},
	{ID: AssumptionLedger, Number: 5, Title: "Assumption Ledger", Prefix: "A", IDPattern: regexp.MustCompile(`^A\d+$`), IDForm: "A<n>",
		Min: 3, One: "assumption", Many: "assumptions", StatLabel: "Assumptions", Statuses: []string{"unchecked", "verified", "falsified"},
		MinHint: "\"Minimum 3 assumptions\" and \"At least ONE must be a scale/physics check\" (artifact_schema_v0.1.md); ADD assumptions, one with \"scale_check\": true.",
		Fields: []Field{
			name,
			{Key: "statement", Label: "Statement", String: true, Required: Required, Synonyms: []string{"assumption", "description", "claim"},
				Labels: []string{"statement"}, Aliases: []string{"assumption"}},
			{Key: "load", Label: "Load", String: true, Required: Required, Labels: []string{"load"}},
			{Key: "test", Label: "Test", String: true, Required: Required, Labels: []string{"test"}},
			{Key: "status", Label: "Status", Required: Lenient, Default: "unchecked", Labels: []string{"status"}},
			{Key: "scale_check", Label: "Scale check", Render: Flag, Labels: []string{"scale check"}},
			{Key: "calculation", Label: "Calculation", String: true, Labels: []string{"calculation"}},
			{Key: "implication", Label: "Implication", Labels: []string{"implication"}},
			references,
		}},
	{ID: AnomalyRegister, Number: 6, Title: "Anomaly Register", Prefix: "X", IDPattern: regexp.MustCompile(`^X\d+$`), IDForm: "X<n>",
		StatLabel: "Anomalies", Statuses: []string{"active", "resolved", "deferred"},
		Fields: []Field{
			name,
			{Key: "observation", Label: "Observation", String: true, Required: Required, Synonyms: []string{"description"}, Labels: []string{"observation"}},
			{Key: "conflicts_with", Label: "Conflicts with", Render: Join, Required: Required, Synonyms: []string{"conflicts"}, Labels: []string{"conflicts with"}},
			{Key: "status", Label: "Quarantine status", Required: Lenient, Default: "active", Labels: []string{"quarantine status"}, Aliases: []string{"status"}},
			{Key: "quarantine_status", Label: "Quarantine status"},
			{Key: "resolution_plan", Label: "Resolution plan", String: true, Labels: []string{"resolution plan"}},
			references,
		}},
	{ID: AdversarialCritique, Number: 7, Title: "Adversarial Critique", Prefix: "C", IDPattern: regexp.MustCompile(`^C\d+$`), IDForm: "C<n>",
		Min: 2, One: "critique", Many: "critiques", StatLabel: "Critiques",
		MinHint: "\"Minimum 2 critiques\" (artifact_schema_v0.1.md); ADD adversarial critiques, one a real third alternative.",
		Fields: []Field{
			name,
			{Key: "attack", Label: "Attack", String: true, Required: Required, Synonyms: []string{"critique", "content", "description"}, Labels: []string{"attack"}},
			{Key: "evidence", Label: "Evidence", String: true, Required: Lenient,
				Labels: []string{"evidence", "evidence that would confirm this", "evidence that would confirm"}},
			{Key: "why_it_might_be_right", Label: "Why it might be right", Labels: []string{"why it might be right"}},
			{Key: "current_status", Label: "Current status", String: true, Required: Lenient, Synonyms: []string{"status"}, Labels: []string{"current status"}},
			{Key: "real_third_alternative", Label: "Real third alternative", Render: Flag, Labels: []string{"real third alternative"}},
			references,
		}},
}

var byID = func() map[string]*Section {
	m := make(map[string]*Section, len(Sections))
	for i := range Sections {
		m[Sections[i].ID] = &Sections[i]
	}
	return m
}()

// Get returns the section with id, or nil.
func Get(id string) *Section { return byID[id] }

// IDs returns the section ids in artifact order.
func IDs() []string {
	out := make([]string, len(Sections))
	for i := range Sections {
		out[i] = Sections[i].ID
	}
	return out
}
