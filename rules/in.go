package rules

// IN-: inputs. Reported while files are read and threads assembled
// (compile/mailbox); these declarations give them ids, severities and docs.

import "github.com/brenner-ci/brenner-ci/diag"

var inRules = []Rule{
	{ID: "IN-001", Name: "unreadable-input", Code: "UNREADABLE_INPUT", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Input is a readable Agent Mail export.",
		Full: "An input file must be JSON (or JSON Lines, or an archive message file) in a supported shape. Truncated JSON, unsupported shapes and TOON exports are reported with their position; the rest of the batch is still processed. " +
			"Agent Mail content in a shape brenner-ci cannot read — a message object outside any export shape (a thread wrapped in another object), an MCP or JSON-RPC response that holds no thread export, a thread whose messages field is not a list — is an error at that content, the same whether the file is named on the command line or found by a walk, so a thread cannot be hidden by wrapping it.",
	},
	{ID: "IN-002", Name: "missing-body", Code: "MISSING_BODY", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Messages carry their bodies.",
		Full:  "A message without body_md comes from an export made without include_bodies; it cannot be compiled or checked. Re-export with include_bodies=true.",
	},
	{ID: "IN-003", Name: "duplicate-message-id", Code: "DUPLICATE_MESSAGE_ID", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "A message id names one message.",
		Full:  "Two messages with the same id but different content cannot both be right; both are kept and reported.",
	},
	{ID: "IN-004", Name: "mixed-timestamp-formats", Code: "MIXED_TIMESTAMP_FORMATS", Family: "IN", Severity: diag.Note, Scope: ScopeInput, By: ByCompiler, Spec: specIN + "; artifact_delta_spec_v0.1.md, Ordering Rules",
		Short: "A thread uses one timestamp format.",
		Full:  "Mixed created_ts formats (Z, +00:00, naive) sort differently as text and as instants; brenner-ci orders by instant, but other tools may not.",
	},
	{ID: "IN-005", Name: "invalid-timestamp", Code: "INVALID_TIMESTAMP", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "created_ts is a valid timestamp.",
		Full:  "Messages are merged in timestamp order, so created_ts must be RFC 3339, naive ISO, epoch or a date. An invalid one keeps its input position.",
	},
	{ID: "IN-006", Name: "skipped-input", Code: "SKIPPED_INPUT", Family: "IN", Severity: diag.Note, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Every file a walk finds is read or said to be skipped.",
		Full: "A directory walk never skips a file or folder silently; only .git is passed over. Each of these is " +
			"named once, in a note saying why it was not checked: a symbolic link (never followed, so no read " +
			"leaves the tree; reported at its own path), a special file (named pipe, socket, device: never " +
			"opened, so a FIFO cannot block the run), a name starting with \".\" (a hidden folder is named as a " +
			"whole), brenner-ci's own output (the --out and --cache folders and the report files, never read as " +
			"input), the attachments/ and file_reservations/ folders and the messages/threads/ digests of an " +
			"Agent Mail archive project (one note per folder), JSON with no Agent Mail message in it (a manifest, " +
			"package metadata, a tool's output; an evidence pack beside an artifact and an archive's project.json " +
			"are read elsewhere), an export that holds no messages (never taken for \"nothing found\"), an empty " +
			"markdown file, or a file of binary data that is not named like an export. An archive's " +
			"agents/<name>/inbox and outbox copies are compared byte for byte with their messages/ original: a " +
			"copy identical to an original that is checked too gets no finding, and any other copy is checked. An " +
			"export in UTF-16 with a byte order mark is decoded and checked, with a note that positions inside it " +
			"are given as its first line. A file named on the command line is treated as a walk treats it (a link " +
			"or output is named, not read), except that a name starting with \".\" is read, and that binary data, " +
			"text that is not JSON and JSON with no mail in it are IN-001 errors there, not notes (binary data is " +
			"an error in a .json/.jsonl/.md file found by a walk too).",
	},
	{ID: "IN-007", Name: "duplicate-message-field", Code: "DUPLICATE_KEY", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "No message field appears twice in one message object, nor a key in an object around messages.",
		Full: "RFC 8259 leaves repeated keys to the parser: a reviewer reading an export sees the first body_md, thread_id or subject, many JSON tools keep the last. " +
			"A repeated field could make a pull request look like one message and be checked as another, so it is an error at the second key. brenner-ci uses the first value. " +
			"The same holds for the keys of the objects around messages (a second \"messages\" array, \"result\", \"contents\", \"thread_id\" or \"project\" of an export or an MCP response): the first is read, the repeat is reported.",
	},
	{ID: "IN-008", Name: "body-not-parsed", Code: "BODY_NOT_PARSED", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Message bodies and artifacts are within the markdown parser's limits.",
		Full: "CommonMark parsing is quadratic on some inputs: hundreds of block quotes or list markers opened on " +
			"one line, thousands of unclosed link destinations \"[a](\", or a body of several megabytes. One " +
			"such message could stall a whole CI job, so a body (or a persisted artifact) past a limit (more " +
			"than 100 markers on a line or a list item indented as deep, more than 1,000 unclosed \"](\", more " +
			"than 1 MiB) is not parsed: it is reported here, its delta blocks are not extracted and its sections " +
			"are not checked (for an artifact: the artifact linter's rules do not run, and its thread's DR-001 " +
			"says it could not be compared; credentials are still looked for); the rest of the thread and the " +
			"batch are checked as usual.",
	},
	{ID: "IN-009", Name: "input-too-large", Code: "INPUT_TOO_LARGE", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Input files are within the size limit.",
		Full: "An input file larger than the limit (512 MiB by default; limits: file-bytes in .brenner-ci.yaml) is " +
			"not read, so one huge file cannot exhaust the runner's memory; the rest of the batch is checked. " +
			"JSON Lines are read a line at a time, so for them the limit bounds each line instead: a larger dump " +
			"is read, and a line over the limit is reported at its line and skipped while the other lines are " +
			"read.",
	},
	{ID: "IN-010", Name: "thread-timeout", Code: "THREAD_TIMEOUT", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Every thread is checked within its time budget.",
		Full: "Each thread has a time budget (--thread-timeout, 60 s by default) for loading, compiling and " +
			"checking. A thread past it is reported here and not checked, so that one pathological thread cannot " +
			"stall the CI job; the other threads are checked. A timeout depends on the machine, so it is the one " +
			"finding that may differ between runs; with the input guards (IN-008) real threads never come near " +
			"it. The run as a whole has a budget too (--timeout, 30 min by default): past it, the threads not yet " +
			"checked are reported here and every report is still written.",
	},
	{ID: "IN-011", Name: "limit-exceeded", Code: "LIMIT_EXCEEDED", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Threads and bodies are within the message and delta-block limits.",
		Full:  "A thread with more messages than the limit (100,000 by default; limits: messages-per-thread) or a body with more delta blocks than the limit (1,000 by default; limits: delta-blocks-per-body) is compiled up to the limit only; this finding says where the rest begins, so that one export cannot make a run quadratic and nothing is dropped silently.",
	},
	{ID: "IN-012", Name: "invalid-message-id", Code: "INVALID_MESSAGE_ID", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Message ids are non-negative integers or short strings.",
		Full:  "Messages are matched, ordered, referenced (ACK Message ID) and suppressed by id. An id that is null, a boolean, an array or object, a fraction or negative number, an empty string, a string with control characters or longer than 200 bytes is reported at the id.",
	},
	{ID: "IN-014", Name: "thread-in-two-projects", Code: "THREAD_IN_TWO_PROJECTS", Family: "IN", Severity: diag.Error, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "A thread id belongs to one Agent Mail project.",
		Full: "Agent Mail ids are per project; exports name the project (its human key, or a scrubbed [project " +
			"path redacted: <slug>]). When the messages of one thread id name two or more projects, brenner-ci " +
			"keys the thread by project and thread id — each project's messages are compiled as a thread of " +
			"their own, keyed <thread id>@<project slug> — so a file from another project cannot join the thread " +
			"and, say, KILL its hypotheses. Each such thread is reported: their persisted artifacts/<thread " +
			"id>.md would collide.",
	},
	{ID: "IN-013", Name: "unsafe-file-name", Code: "UNSAFE_FILE_NAME", Family: "IN", Severity: diag.Warning, Scope: ScopeInput, By: ByCompiler, Spec: specIN,
		Short: "Input file names are printable.",
		Full:  "A path with control characters (a terminal escape, a line break), bidirectional or other invisible characters, or invalid UTF-8 can make a log or a review read differently from the file it names. Every report shows such a name escaped (annotations included), and this finding names the file so it can be renamed; the file is still checked.",
	},
}
