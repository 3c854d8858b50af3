package artifact

// Test hooks for the external test package (parse_compile_test.go), which
// imports compile (compile imports artifact).
var (
	CheckRoundTrip         = checkRoundTrip
	ParseMarkdownNoRecover = parseMarkdown
)
