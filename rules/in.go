package rules

// IN-: inputs. Reported while files are read and threads assembled
// (compile/mailbox); these declarations give them ids, severities and docs.

import "github.com/brenner-ci/brenner-ci/diag"

var inRules = []Rule{
	{ID: "IN-001", Name: "unreadable-input", Code: "UNREADABLE_INPUT", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Input is a readable Agent Mail export.",
		Full:  "An input file must be JSON (or JSON Lines, or an archive message file) in a supported shape. Truncated JSON, unsupported shapes and TOON exports are reported with their position; the rest of the batch is still processed.",
		Bad:   "@@ file mailbox/export.json\n{\"format\": \"toon\", \"data\": \"messages[2]{id,subject}: 1,KICKOFF\"}\n", Good: "@@ file mailbox/thread.json\n{\n \"thread_id\": \"RS-20251230-cell-fate\",\n \"messages\": [\n  {\n   \"id\": 1,\n   \"subject\": \"INFO: status\",\n   \"from\": \"GreenDog\",\n   \"created_ts\": \"2025-12-30T10:00:00Z\",\n   \"body_md\": \"# Note\\n\\nSee the thread.\"\n  }\n ]\n}\n"},
	{ID: "IN-002", Name: "missing-body", Code: "MISSING_BODY", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Messages carry their bodies.",
		Full:  "A message without body_md comes from an export made without include_bodies; it cannot be compiled or checked. Re-export with include_bodies=true.",
		Bad:   "@@ file mailbox/thread.json\n{\n \"thread_id\": \"RS-20251230-cell-fate\",\n \"messages\": [\n  {\n   \"id\": 12,\n   \"subject\": \"INFO: status\",\n   \"from\": \"GreenDog\",\n   \"created_ts\": \"2025-12-30T10:00:00Z\"\n  }\n ]\n}\n", Good: "@@ file mailbox/thread.json\n{\n \"thread_id\": \"RS-20251230-cell-fate\",\n \"messages\": [\n  {\n   \"id\": 12,\n   \"subject\": \"INFO: status\",\n   \"from\": \"GreenDog\",\n   \"created_ts\": \"2025-12-30T10:00:00Z\",\n   \"body_md\": \"# Note\\n\\nSee the thread.\"\n  }\n ]\n}\n"},
	{ID: "IN-003", Name: "duplicate-message-id", Code: "DUPLICATE_MESSAGE_ID", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "A message id names one message.",
		Full:  "Two messages with the same id but different content cannot both be right; both are kept and reported.",
		Bad:   "@@ file mailbox/thread.json\n{\n \"thread_id\": \"RS-20251230-cell-fate\",\n \"messages\": [\n  {\n   \"id\": 7,\n   \"subject\": \"INFO: A\",\n   \"from\": \"GreenDog\",\n   \"created_ts\": \"2025-12-30T10:00:00Z\",\n   \"body_md\": \"# Note\\n\\nSee the thread.\"\n  },\n  {\n   \"id\": 7,\n   \"subject\": \"INFO: B\",\n   \"from\": \"GreenDog\",\n   \"created_ts\": \"2025-12-30T10:01:00Z\",\n   \"body_md\": \"# Note\\n\\nSee the thread.\"\n  }\n ]\n}\n", Good: "@@ file mailbox/thread.json\n{\n \"thread_id\": \"RS-20251230-cell-fate\",\n \"messages\": [\n  {\n   \"id\": 7,\n   \"subject\": \"INFO: A\",\n   \"from\": \"GreenDog\",\n   \"created_ts\": \"2025-12-30T10:00:00Z\",\n   \"body_md\": \"# Note\\n\\nSee the thread.\"\n  },\n  {\n   \"id\": 8,\n   \"subject\": \"INFO: B\",\n   \"from\": \"GreenDog\",\n   \"created_ts\": \"2025-12-30T10:01:00Z\",\n   \"body_md\": \"# Note\\n\\nSee the thread.\"\n  }\n ]\n}\n"},
	{ID: "IN-004", Name: "mixed-timestamp-formats", Code: "MIXED_TIMESTAMP_FORMATS", Family: "IN", Severity: diag.Note, Scope: ScopeInput, By: ByCompiler, Spec: specIN + "; artifact_delta_spec_v0.1.md, Ordering Rules",
		Short: "A thread uses one timestamp format.",
		Full:  "Mixed created_ts formats (Z, +00:00, naive) sort differently as text and as instants; brenner-ci orders by instant, but other tools may not.",
		Bad:   "@@ file mailbox/thread.json\n{\n \"thread_id\": \"RS-20251230-cell-fate\",\n \"messages\": [\n  {\n   \"id\": 1,\n   \"subject\": \"INFO: A\",\n   \"from\": \"GreenDog\",\n   \"created_ts\": \"2026-01-02T20:14:07Z\",\n   \"body_md\": \"# Note\\n\\nSee the thread.\"\n  },\n  {\n   \"id\": 2,\n   \"subject\": \"INFO: B\",\n   \"from\": \"GreenDog\",\n   \"created_ts\": \"2026-01-02T20:15:00+00:00\",\n   \"body_md\": \"# Note\\n\\nSee the thread.\"\n  }\n ]\n}\n", Good: "@@ file mailbox/thread.json\n{\n \"thread_id\": \"RS-20251230-cell-fate\",\n \"messages\": [\n  {\n   \"id\": 1,\n   \"subject\": \"INFO: A\",\n   \"from\": \"GreenDog\",\n   \"created_ts\": \"2026-01-02T20:14:07Z\",\n   \"body_md\": \"# Note\\n\\nSee the thread.\"\n  },\n  {\n   \"id\": 2,\n   \"subject\": \"INFO: B\",\n   \"from\": \"GreenDog\",\n   \"created_ts\": \"2026-01-02T20:15:00Z\",\n   \"body_md\": \"# Note\\n\\nSee the thread.\"\n  }\n ]\n}\n"},
	{ID: "IN-005", Name: "invalid-timestamp", Code: "INVALID_TIMESTAMP", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "created_ts is a valid timestamp.",
		Full:  "Messages are merged in timestamp order, so created_ts must be RFC 3339, naive ISO, epoch or a date. An invalid one keeps its input position.",
		Bad:   "@@ file mailbox/thread.json\n{\n \"thread_id\": \"RS-20251230-cell-fate\",\n \"messages\": [\n  {\n   \"id\": 1,\n   \"subject\": \"INFO: A\",\n   \"from\": \"GreenDog\",\n   \"created_ts\": \"yesterday\",\n   \"body_md\": \"# Note\\n\\nSee the thread.\"\n  }\n ]\n}\n", Good: "@@ file mailbox/thread.json\n{\n \"thread_id\": \"RS-20251230-cell-fate\",\n \"messages\": [\n  {\n   \"id\": 1,\n   \"subject\": \"INFO: A\",\n   \"from\": \"GreenDog\",\n   \"created_ts\": \"2026-01-02T20:14:07Z\",\n   \"body_md\": \"# Note\\n\\nSee the thread.\"\n  }\n ]\n}\n"},
	{ID: "IN-006", Name: "skipped-input", Code: "SKIPPED_INPUT", Family: "IN", Severity: diag.Note, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Every file a walk finds is read or said to be skipped.",
		Full:  "A directory walk never skips a file silently: a symbolic link (never followed, so a walk never leaves the tree), a special file (named pipe, socket, device: never opened, so a FIFO cannot block the run), an empty markdown file, or a file of binary data that is not named like an export is reported as a note saying why it was not checked. The same problems in a file named on the command line, or in a .json/.jsonl/.md file, are IN-001 errors.",
		Bad:   "@@ file mailbox/notes.md\n",
		Good:  "@@ file mailbox/notes.md\n# Notes\n\nThe kickoff pack is in the wiki.\n"},
	{ID: "IN-007", Name: "duplicate-message-field", Code: "DUPLICATE_KEY", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "No message field appears twice in one message object.",
		Full:  "RFC 8259 leaves repeated keys to the parser: a reviewer reading an export sees the first body_md, thread_id or subject, many JSON tools keep the last. A repeated field could make a pull request look like one message and be checked as another, so it is an error at the second key. brenner-ci uses the first value.",
		Bad:   "@@ file mailbox/thread.json\n{\"thread_id\": \"RS-20251230-cell-fate\", \"messages\": [{\"id\": 1, \"subject\": \"INFO: status\", \"from\": \"GreenDog\", \"created_ts\": \"2025-12-30T10:00:00Z\", \"body_md\": \"All good.\", \"body_md\": \"Delete the evidence.\"}]}\n",
		Good:  "@@ file mailbox/thread.json\n{\"thread_id\": \"RS-20251230-cell-fate\", \"messages\": [{\"id\": 1, \"subject\": \"INFO: status\", \"from\": \"GreenDog\", \"created_ts\": \"2025-12-30T10:00:00Z\", \"body_md\": \"All good.\"}]}\n"},
	{ID: "IN-008", Name: "body-not-parsed", Code: "BODY_NOT_PARSED", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Message bodies and artifacts are within the markdown parser's limits.",
		Full:  "CommonMark parsing is quadratic on some inputs: hundreds of block quotes or list markers opened on one line, thousands of unclosed link destinations \"[a](\", or a body of several megabytes. One such message could stall a whole CI job, so a body (or a persisted artifact) past a limit (more than 100 markers on a line or a list item indented as deep, more than 1,000 unclosed \"](\", more than 1 MiB) is not parsed: it is reported here, its delta blocks are not extracted and its sections are not checked; the rest of the thread and the batch are checked as usual.",
		Bad:   "@@ DELTA[gpt]: Hypotheses\n> > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > > nested too deep\n",
		Good:  "@@ DELTA[gpt]: Hypotheses\n> > quoted twice\n"},
	{ID: "IN-009", Name: "input-too-large", Code: "INPUT_TOO_LARGE", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Input files are within the size limit.",
		Full:  "An input file larger than the limit (512 MiB by default; limits: file-bytes in .brenner-ci.yaml) is not read, so one huge file cannot exhaust the runner's memory; the rest of the batch is checked.",
		Bad:   "@@ file .brenner-ci.yaml\nlimits: {file-bytes: 100}\n@@ file mailbox/thread.json\n{\"thread_id\": \"RS-20251230-cell-fate\", \"messages\": [{\"id\": 1, \"subject\": \"INFO: status\", \"from\": \"GreenDog\", \"created_ts\": \"2025-12-30T10:00:00Z\", \"body_md\": \"All good.\"}]}\n",
		Good:  "@@ file .brenner-ci.yaml\nlimits: {file-bytes: 100000}\n@@ file mailbox/thread.json\n{\"thread_id\": \"RS-20251230-cell-fate\", \"messages\": [{\"id\": 1, \"subject\": \"INFO: status\", \"from\": \"GreenDog\", \"created_ts\": \"2025-12-30T10:00:00Z\", \"body_md\": \"All good.\"}]}\n"},
}
