package rules

// MG-: the merge. Reported by the compiler while it merges deltas
// (compile/artifact); these declarations give them ids, severities and docs.

import "github.com/brenner-ci/brenner-ci/diag"

var mgRules = []Rule{
	{ID: "MG-001", Name: "invalid-target", Code: "INVALID_TARGET", Family: "MG", Severity: diag.Error, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Pre-conditions",
		Short: "EDIT/KILL target exists.",
		Full:  "The target_id of an EDIT or KILL must name an existing item of that section. The delta is rejected.",
		Bad:   "{\"operation\": \"KILL\", \"section\": \"adversarial_critique\", \"target_id\": \"C9\", …}", Good: "{\"operation\": \"KILL\", \"section\": \"adversarial_critique\", \"target_id\": \"C2\", …}"},
	{ID: "MG-002", Name: "target-killed", Code: "TARGET_KILLED", Family: "MG", Severity: diag.Warning, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Pre-conditions",
		Short: "EDIT target is not killed.",
		Full:  "Killed items cannot be edited; the EDIT is skipped. To restore a killed item, ADD it again.",
		Bad:   "KILL H1, then EDIT H1", Good: "KILL H1, then ADD the revised hypothesis"},
	{ID: "MG-003", Name: "section-limit-exceeded", Code: "SECTION_LIMIT_EXCEEDED", Family: "MG", Severity: diag.Error, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Section-Specific Rules",
		Short: "Hypothesis slate holds at most 6 active items.",
		Full:  "An ADD that would make a 7th active hypothesis is rejected; KILL a hypothesis first.",
		Bad:   "ADD a 7th hypothesis", Good: "KILL H2, then ADD"},
	{ID: "MG-004", Name: "no-third-alternative", Code: "NO_THIRD_ALTERNATIVE", Family: "MG", Severity: diag.Warning, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Post-conditions",
		Short: "A third alternative survives every KILL.",
		Full:  "At least one active hypothesis must be the third alternative; a KILL that removes the last one applies but is reported.",
		Bad:   "KILL H3 (the only third alternative)", Good: "ADD a new third alternative, then KILL H3"},
	{ID: "MG-005", Name: "no-scale-check", Code: "NO_SCALE_CHECK", Family: "MG", Severity: diag.Warning, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Post-conditions",
		Short: "A scale check survives every KILL.",
		Full:  "At least one active assumption must be a scale/physics check; a KILL that removes the last one applies but is reported.",
		Bad:   "KILL A3 (the only scale check)", Good: "ADD another scale check first"},
	{ID: "MG-006", Name: "below-minimum", Code: "BELOW_MINIMUM", Family: "MG", Severity: diag.Warning, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Post-conditions",
		Short: "Compiled artifact meets the section minimums.",
		Full:  "The compiled artifact should have a research thread, at least 3 hypotheses (one a third alternative), 3 predictions, 2 tests, 3 assumptions and 2 critiques.",
		Bad:   "2 active hypotheses", Good: "3 active hypotheses including a third alternative"},
	{ID: "MG-007", Name: "unknown-agent", Code: "UNKNOWN_AGENT", Family: "MG", Severity: diag.Warning, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Pre-conditions",
		Short: "Delta author is a registered contributor.",
		Full:  "The sender of a DELTA must be a known agent: listed under agents: in the config, an archive's agents/*/profile.json, or the thread KICKOFF's sender and recipients. The delta is still applied.",
		Bad:   "DELTA from MysteryAgent, who is not on the KICKOFF", Good: "DELTA from an agent the KICKOFF was sent to"},
	{ID: "MG-008", Name: "conflict", Code: "CONFLICT", Family: "MG", Severity: diag.Warning, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Conflict Resolution Policy",
		Short: "Two EDITs do not set one field to different values.",
		Full:  "When two EDITs set the same field of the same item to different values, the later one wins (last write wins by timestamp) and the conflict is reported for review.",
		Bad:   "EDIT H1 claim=\"A\" (t1); EDIT H1 claim=\"B\" (t2)", Good: "One EDIT of H1 claim, or EDITs of different fields"},
}
