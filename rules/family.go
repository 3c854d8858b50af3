package rules

// Family is one rule family: every rule's Family field names one, and this
// table is the one place that says what a family is called.
type Family struct {
	Prefix string // the Rule.Family value: the rules' id prefix ("MB"), or "AL" for the artifact linter's
	Tag    string // the SARIF tag ("message-body")
	Title  string // the heading in docs/rules.md
	Spec   string // the spec document the family's rules come from
}

// familyLinter is the artifact linter's family: its rules judge a
// persisted artifact's parsed front matter and sections.
const familyLinter = "AL"

// families of rules, in registry order.
var familyTable = []Family{
	{"MB", "message-body", "MB — message bodies", docMB},
	{"AP", "artifact-publish", "AP — artifact publishing", docAP},
	{"TH", "thread-id", "TH — thread ids and subjects", docTH},
	{"DL", "delta", "DL — delta blocks", specDF},
	{"MG", "merge", "MG — merge", specDS},
	{"RF", "reference", "RF — cross-session references", specDF},
	{"IN", "input", "IN — inputs", specIN},
	{"SP", "suppression", "SP — suppressions", specSP},
	{familyLinter, "artifact-lint", "Artifact linter (" + docAL + ")", docAL},
	{"EV", "evidence", "EV — evidence packs", docEV},
	{"DR", "drift", "DR — artifact drift", docAP},
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
