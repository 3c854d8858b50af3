package rules

// Family is one rule family: every rule's Family field names one, and this
// table is the one place that says what a family is called.
type Family struct {
	Prefix string // the Rule.Family value: the rules' id prefix ("MB"), or "AL" for the artifact linter's
	Tag    string // the SARIF tag ("message-body")
	Title  string // the heading in docs/rules.md
	Spec   string // the spec document the family's rules come from
}

// families of rules, in registry order.
var familyTable = []Family{
	{"MB", "message-body", "MB — message bodies", "message_body_schema_v0.1.md"},
	{"AP", "artifact-publish", "AP — artifact publishing", "artifact_publish_spec_v0.1.md"},
	{"TH", "thread-id", "TH — thread ids and subjects", "thread_subject_conventions_v0.1.md"},
	{"DL", "delta", "DL — delta blocks", "delta_output_format_v0.1.md"},
	{"MG", "merge", "MG — merge", "artifact_delta_spec_v0.1.md"},
	{"RF", "reference", "RF — cross-session references", "delta_output_format_v0.1.md"},
	{"IN", "input", "IN — inputs", "agent-mail export formats (brenner-ci input contract)"},
	{"SP", "suppression", "SP — suppressions", "brenner-ci suppression comments"},
	{"AL", "artifact-lint", "Artifact linter (artifact_linter_spec_v0.1.md)", "artifact_linter_spec_v0.1.md"},
	{"EV", "evidence", "EV — evidence packs", "evidence_pack_v0.1.md"},
	{"DR", "drift", "DR — artifact drift", "artifact_publish_spec_v0.1.md"},
	{"SC", "security", "SC — credentials in the input", "brenner-ci security (docs/security.md)"},
}

// Families returns the rule families in registry order.
func Families() []Family { return familyTable }

// FamilyOf returns the family with prefix, or nil.
func FamilyOf(prefix string) *Family {
	for i := range familyTable {
		if familyTable[i].Prefix == prefix {
			return &familyTable[i]
		}
	}
	return nil
}
