package rules

// DL-: delta blocks. Their checks run inside the compiler (compile/delta
// validates every block); these declarations give them ids, severities and docs.

import "github.com/brenner-ci/brenner-ci/diag"

var dlRules = []Rule{
	{ID: "DL-001", Name: "invalid-operation", Code: "INVALID_OPERATION", Family: "DL", Severity: diag.Error, Scope: ScopeMessage, By: ByCompiler, Spec: specDF + ", Field Definitions",
		Short: "The operation is exactly ADD, EDIT or KILL.",
		Full:  "The operation field must be the string ADD, EDIT or KILL, in upper case. A lower-case operation or a synonym (update, delete, create …) gets a suggestion and a fix. The block is rejected.",
	},
	{ID: "DL-002", Name: "invalid-section", Code: "INVALID_SECTION", Family: "DL", Severity: diag.Error, Scope: ScopeMessage, By: ByCompiler, Spec: specDF + ", Failure Mode 2",
		Short: "The section is an exact section id.",
		Full:  "The section must be one of hypothesis_slate, predictions_table, discriminative_tests, assumption_ledger, anomaly_register, adversarial_critique or research_thread (failure mode 2). Common near misses (hypotheses, tests, assumptions, critiques …) and misspellings get a suggestion and a fix. The block is rejected.",
	},
	{ID: "DL-003", Name: "missing-target-id", Code: "MISSING_TARGET_ID", Family: "DL", Severity: diag.Error, Scope: ScopeMessage, By: ByCompiler, Spec: specDF + ", Failure Mode 3",
		Short: "EDIT and KILL name their target item.",
		Full:  "EDIT and KILL need a non-empty string target_id naming the item they change (failure mode 3): null, an absent key, a number or an empty string is rejected. A research_thread EDIT takes \"RT\"; null or an absent target_id is accepted there and means RT. Whether the item exists is checked at merge time (MG-001).",
	},
	{ID: "DL-004", Name: "invalid-payload", Code: "INVALID_PAYLOAD", Family: "DL", Severity: diag.Error, Scope: ScopeMessage, By: ByCompiler, Spec: specDF + ", Field Definitions",
		Short: "The block is one delta object with a payload object.",
		Full:  "A delta block holds one JSON object. ADD and EDIT need a payload object; a KILL's payload is optional (artifact_delta_spec: \"KILL: Optional\"), but when present it is an object whose reason is a string (a KILL without a reason is DL-011, a warning); research_thread only takes EDIT. The block is rejected.",
	},
	{ID: "DL-005", Name: "missing-required-field", Code: "MISSING_REQUIRED_FIELD", Family: "DL", Severity: diag.Error, Scope: ScopeMessage, By: ByCompiler, Spec: specDF + ", Failure Mode 5",
		Short: "An ADD carries its section's required payload fields.",
		Full: "An ADD must carry the required fields of its section (failure mode 5): hypothesis_slate name, " +
			"claim, mechanism, anchors; discriminative_tests name, procedure, discriminates, expected_outcomes; " +
			"predictions_table condition, predictions; assumption_ledger name, statement, load, test, status; " +
			"anomaly_register name, observation, conflicts_with, status; adversarial_critique name, attack, " +
			"evidence, current_status. Null, blank strings and empty objects or arrays count as missing, and the " +
			"block is rejected. Some fields are lenient — status (defaults to unchecked / active), a critique's " +
			"evidence and current_status, a third alternative's mechanism and anchors: their absence is DL-009, " +
			"a warning, and the block still applies; see docs/divergences.md §3.",
	},
	{ID: "DL-006", Name: "invalid-field-value", Code: "INVALID_FIELD_VALUE", Family: "DL", Severity: diag.Warning, Scope: ScopeMessage, By: ByCompiler, Spec: specDF + ", Payload Schemas by Section",
		Short: "Payload field values have the schema's types and ranges.",
		Full: "Score parts (likelihood_ratio, cost, speed, ambiguity) are integers 0-3 on the evidence-per-week " +
			"rubric; assumption status is unchecked, verified or falsified; anomaly status is active, resolved " +
			"or deferred; anchors are §n, §n-§m, EV-nnn or EV-nnn#En (optionally followed by [inference]) or " +
			"inference, and \"¬ß\" (mojibake of §) is flagged with a fix; prediction and expected-outcome keys " +
			"are hypothesis ids H<n>; flags are booleans; text fields are strings. The delta is still applied.",
	},
	{ID: "DL-007", Name: "add-with-target-id", Code: "ADD_WITH_TARGET_ID", Family: "DL", Severity: diag.Warning, Scope: ScopeMessage, By: ByCompiler, Spec: specDS + ", ADD",
		Short: "An ADD has target_id null.",
		Full:  "The merge assigns the id of an added item, so an ADD's target_id must be null (artifact_delta_spec). A given id is ignored and the delta still applies; the fix sets it to null.",
	},
	{ID: "DL-008", Name: "nonstandard-fence", Code: "NONSTANDARD_FENCE", Family: "DL", Severity: diag.Note, Scope: ScopeMessage, By: ByCompiler, Spec: specDF + ", Parsing Rules",
		Short: "Delta blocks use the spec's ```delta fence.",
		Full: "The spec's form is a ```delta fence. Upstream's :::delta form and ~~~delta fences are accepted but " +
			"noted; an unclosed delta fence is noted. Delta-shaped JSON in a ```json, untagged or " +
			"```Delta/```deltas fence, or written inline, is not a delta block: it is ignored, and the note says " +
			"so (in a message with no delta block at all, MB-004 reports it instead). Fixes retag or refence the " +
			"block.",
	},
	{ID: "DL-009", Name: "missing-recommended-field", Code: "MISSING_RECOMMENDED_FIELD", Family: "DL", Severity: diag.Warning, Scope: ScopeMessage, By: ByCompiler, Spec: specDF + ", Failure Mode 5",
		Short: "An ADD carries its section's lenient fields too.",
		Full: "Some payload fields are required by the spec but tolerated when missing, because upstream merges " +
			"without them: status (the item gets unchecked / active), a critique's evidence and current_status, " +
			"and a third alternative's mechanism and anchors. The block still applies; the finding names the " +
			"default used. (Split from DL-005, whose missing fields reject the block, so that each id has one " +
			"severity.)",
	},
	{ID: "DL-010", Name: "duplicate-key", Code: "DUPLICATE_KEY", Family: "DL", Severity: diag.Error, Scope: ScopeMessage, By: ByCompiler, Spec: specDF + ", Parsing Rules (strict JSON)",
		Short: "No key appears twice in one object of a delta block.",
		Full:  "RFC 8259 leaves repeated keys to the parser: a reviewer reading the block sees the first value, many JSON parsers keep the last. A block with a repeated key (two operation, section, target_id or payload fields) could be reviewed as one change and applied as another, so it is rejected. brenner-ci reads the first value.",
	}, {ID: "DL-011", Name: "kill-without-reason", Code: "KILL_WITHOUT_REASON", Family: "DL", Severity: diag.Warning, Scope: ScopeMessage, By: ByCompiler, Spec: specDS + ", Field Definitions and KILL",
		Short: "A KILL says why the item is killed.",
		Full: "A KILL's payload is optional (\"payload | ADD/EDIT: Yes, KILL: Optional\"), so a KILL without a " +
			"payload, with an empty payload, or with a null or blank reason is applied. But killed items are " +
			"rendered \"with strikethrough and the kill reason\": without one the artifact says \"no reason " +
			"given\", and the audit trail loses why. (Split from DL-004, whose blocks are rejected, so that each " +
			"id has one severity.)",
	},
	{ID: "DL-012", Name: "forbidden-payload-key", Code: "FORBIDDEN_PAYLOAD_KEY", Family: "DL", Severity: diag.Warning, Scope: ScopeMessage, By: ByCompiler, Spec: specDF + ", Payload Schemas by Section",
		Short: "A payload holds no __proto__, constructor or prototype key.",
		Full: "The merge drops these keys from every ADD and EDIT payload: they name no field of any section, and " +
			"in the JavaScript tools that read the same deltas (the reference implementation among them) they " +
			"reach the object's prototype. The delta is applied without the key, and the finding points at it, " +
			"as the reference's FORBIDDEN_PAYLOAD_KEY warning does. Keys inside a field's value (a prediction " +
			"cell, a score part) are data and are kept.",
	},
}
