package rules

// MG-: the merge. Reported by the compiler while it merges deltas
// (compile/artifact); these declarations give them ids, severities and docs.

import "github.com/brenner-ci/brenner-ci/diag"

var mgRules = []Rule{
	{ID: "MG-001", Name: "invalid-target", Code: "INVALID_TARGET", Family: "MG", Severity: diag.Error, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Pre-conditions",
		Short: "EDIT/KILL target exists.",
		Full:  "The target_id of an EDIT or KILL must name an existing item of that section. The delta is rejected.",
	},
	{ID: "MG-002", Name: "target-killed", Code: "TARGET_KILLED", Family: "MG", Severity: diag.Warning, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Pre-conditions",
		Short: "EDIT target is not killed.",
		Full:  "Killed items cannot be edited; the EDIT is skipped. To restore a killed item, ADD it again.",
	},
	{ID: "MG-003", Name: "section-limit-exceeded", Code: "SECTION_LIMIT_EXCEEDED", Family: "MG", Severity: diag.Error, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Section-Specific Rules",
		Short: "Hypothesis slate holds at most 6 active items.",
		Full:  "An ADD that would make a 7th active hypothesis is rejected; KILL a hypothesis first.",
	},
	{ID: "MG-004", Name: "no-third-alternative", Code: "NO_THIRD_ALTERNATIVE", Family: "MG", Severity: diag.Warning, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Post-conditions",
		Short: "A third alternative survives every KILL.",
		Full:  "At least one active hypothesis must be the third alternative; a KILL that removes the last one applies but is reported.",
	},
	{ID: "MG-005", Name: "no-scale-check", Code: "NO_SCALE_CHECK", Family: "MG", Severity: diag.Warning, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Post-conditions",
		Short: "A scale check survives every KILL.",
		Full:  "At least one active assumption must be a scale/physics check; a KILL that removes the last one applies but is reported.",
	},
	{ID: "MG-006", Name: "below-minimum", Code: "BELOW_MINIMUM", Family: "MG", Severity: diag.Warning, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Post-conditions",
		Short: "Compiled artifact meets the section minimums.",
		Full:  "The compiled artifact should have a research thread, at least 3 hypotheses (one a third alternative), 3 predictions, 2 tests, 3 assumptions and 2 critiques. The research thread is seeded from the thread's KICKOFF (its \"## Research Question\" and \"## Context\"), so a session that states its question there needs no research_thread EDIT.",
	},
	{ID: "MG-007", Name: "unknown-agent", Code: "UNKNOWN_AGENT", Family: "MG", Severity: diag.Warning, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Pre-conditions",
		Short: "Delta author is a registered contributor.",
		Full:  "The sender of a DELTA must be a known agent: listed under agents: in the config, an archive's agents/*/profile.json, or the thread KICKOFF's sender and recipients. The delta is still applied.",
	},
	{ID: "MG-008", Name: "conflict", Code: "CONFLICT", Family: "MG", Severity: diag.Warning, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Conflict Resolution Policy",
		Short: "Two EDITs do not set one field to different values.",
		Full: "When two EDITs in one round (between two COMPILED messages) set the same field of the same item (or " +
			"the same cell or score part of an object field) to different values, the later one wins (last write " +
			"wins by timestamp) and the conflict is reported for review. At the same instant the agent with the " +
			"higher priority wins (config agents:, first listed highest; two blocks of one message: the later " +
			"block); with no priority to decide, the conflict is MG-010, an error.",
	},
	{ID: "MG-009", Name: "no-alternative-framing", Code: "NO_ALTERNATIVE_FRAMING", Family: "MG", Severity: diag.Warning, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Section-Specific Rules (Adversarial Critique)",
		Short: "One critique offers a specific alternative framing.",
		Full: "Adversarial critique: \"Real third alternative: At least one must offer a specific alternative " +
			"framing\". Checked on the compiled artifact with the other post-conditions (MG-006), when it has " +
			"active critiques: one must have \"real_third_alternative\": true or a name with \"third " +
			"alternative\" or \"alternative framing\" (as the artifact linter's WC-001 reads a persisted " +
			"artifact). When the last such critique was killed, the finding says which and by whom.",
	},
	{ID: "MG-010", Name: "unresolved-conflict", Code: "UNRESOLVED_CONFLICT", Family: "MG", Severity: diag.Error, Scope: ScopeThread, By: ByCompiler, Spec: specDS + ", Conflict Resolution Policy",
		Short: "Tied EDITs of one field are resolved by agent priority.",
		Full: "Two EDITs from different messages with the same timestamp set one field (or one cell or score part) " +
			"of one item to different values, and no agent priority decides (\"If timestamps are identical, use " +
			"agent priority order (if defined)\"): the field is rendered as \"CONFLICT: <value> (<agent>) vs " +
			"<value> (<agent>)\" and needs human review (\"If no resolution is possible, mark the field as " +
			"CONFLICT and require human review\"). Define a priority with config agents: (the first listed " +
			"wins), or send one EDIT with the intended value. Tied DELTA messages are merged in an order that " +
			"depends only on their content (priority, sender, body, id), never on their place in the export. " +
			"(Split from MG-008, a resolved conflict, so that each id has one severity.)",
	},
}
