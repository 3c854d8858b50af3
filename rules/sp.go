package rules

// SP-: suppressions, reported by the findings pipeline's suppression stage.

import "github.com/brenner-ci/brenner-ci/diag"

var spRules = []Rule{
	{ID: "SP-001", Name: "suppression-without-reason", Code: "SUPPRESSION_WITHOUT_REASON", Family: "SP", Severity: diag.Note, Scope: ScopeBatch, By: ByPipeline, Spec: specSP,
		Short: "Suppressions give a reason.",
		Full:  "A <!-- brenner-ci-disable RULE-ID: reason --> comment must say why the finding is acceptable.",
	},
	{ID: "SP-002", Name: "unused-suppression", Code: "UNUSED_SUPPRESSION", Family: "SP", Severity: diag.Note, Scope: ScopeBatch, By: ByPipeline, Spec: specSP,
		Short: "Suppressions suppress something.",
		Full:  "A suppression comment or config entry that matched no finding is stale and should be removed.",
	},
	{ID: "SP-003", Name: "malformed-suppression", Code: "MALFORMED_SUPPRESSION", Family: "SP", Severity: diag.Warning, Scope: ScopeBatch, By: ByPipeline, Spec: specSP,
		Short: "Comments meant as suppressions are well formed.",
		Full:  "An HTML comment that starts with brenner-ci (any spelling: brenner_ci, BRENNER-CI …) but is not a well-formed directive — a misspelled keyword such as brenner-ci-disabel, an upper-case keyword, no rule id — suppresses nothing; without this finding the author would believe it works.",
	},
	{ID: "SP-004", Name: "unknown-rule-in-suppression", Code: "UNKNOWN_RULE_IN_SUPPRESSION", Family: "SP", Severity: diag.Warning, Scope: ScopeBatch, By: ByPipeline, Spec: specSP,
		Short: "Suppressions name registered rule ids.",
		Full:  "A directive naming an id that no rule has (a typo such as MB-03, a retired id) suppresses nothing for that id. The known ids of the same directive still apply.",
	},
	{ID: "SP-005", Name: "config-relaxes-repository", Code: "CONFIG_RELAXES_REPOSITORY", Family: "SP", Severity: diag.Error, Scope: ScopeBatch, By: ByPipeline, Spec: "brenner-ci configuration policy (docs/security.md)",
		Short: "A configuration below the repository root does not relax the root's.",
		Full: "The repository root's .brenner-ci.yaml (or the defaults, when it has none) governs a run; a pull " +
			"request can add another one next to its inputs. When the first file found from the first checked path " +
			"upward lies below the repository root, only what makes the root's configuration stricter applies: a rule " +
			"turned on or raised, a stricter fail-on, a lower limit. Every way it relaxes the root's is not applied and " +
			"is reported at its line: a more lenient fail-on, a rule turned off or lowered globally or for some paths, " +
			"a raised limit, ignore globs, suppress entries and agents the root does not have. The severity of this " +
			"rule comes from the root's configuration, never from the file under review. Pin the configuration with " +
			"--config (the action's config input) to read no other file.",
	},
}
