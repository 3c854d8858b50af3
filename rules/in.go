package rules

// IN-: inputs. Reported while files are read and threads assembled
// (compile/mailbox); these declarations give them ids, severities and docs.

import "github.com/brenner-ci/brenner-ci/diag"

var inRules = []Rule{
	{ID: "IN-001", Name: "unreadable-input", Code: "UNREADABLE_INPUT", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Input is a readable Agent Mail export.",
		Full:  "An input file must be JSON (or JSON Lines, or an archive message file) in a supported shape. Truncated JSON, unsupported shapes and TOON exports are reported with their position; the rest of the batch is still processed.",
		Bad:   "{\"format\": \"toon\", \"data\": \"…\"}", Good: "{\"project\": \"…\", \"thread_id\": \"RS-20251230-cell-fate\", \"messages\": […]}"},
	{ID: "IN-002", Name: "missing-body", Code: "MISSING_BODY", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Messages carry their bodies.",
		Full:  "A message without body_md comes from an export made without include_bodies; it cannot be compiled or checked. Re-export with include_bodies=true.",
		Bad:   "{\"id\": 12, \"subject\": \"DELTA[gpt]: …\"}", Good: "{\"id\": 12, \"subject\": \"DELTA[gpt]: …\", \"body_md\": \"…\"}"},
	{ID: "IN-003", Name: "duplicate-message-id", Code: "DUPLICATE_MESSAGE_ID", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "A message id names one message.",
		Full:  "Two messages with the same id but different content cannot both be right; both are kept and reported.",
		Bad:   "{\"id\": 7, \"subject\": \"A\"} … {\"id\": 7, \"subject\": \"B\"}", Good: "{\"id\": 7, …} … {\"id\": 8, …}"},
	{ID: "IN-004", Name: "mixed-timestamp-formats", Code: "MIXED_TIMESTAMP_FORMATS", Family: "IN", Severity: diag.Note, Scope: ScopeInput, By: ByCompiler, Spec: specIN + "; artifact_delta_spec_v0.1.md, Ordering Rules",
		Short: "A thread uses one timestamp format.",
		Full:  "Mixed created_ts formats (Z, +00:00, naive) sort differently as text and as instants; brenner-ci orders by instant, but other tools may not.",
		Bad:   "\"2026-01-02T20:14:07Z\" and \"2026-01-02 20:15:00\"", Good: "\"2026-01-02T20:14:07Z\" and \"2026-01-02T20:15:00Z\""},
	{ID: "IN-005", Name: "invalid-timestamp", Code: "INVALID_TIMESTAMP", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "created_ts is a valid timestamp.",
		Full:  "Messages are merged in timestamp order, so created_ts must be RFC 3339, naive ISO, epoch or a date. An invalid one keeps its input position.",
		Bad:   "\"created_ts\": \"yesterday\"", Good: "\"created_ts\": \"2026-01-02T20:14:07Z\""},
}
