package rules

// artifactChecks lists the artifact linter rules implemented in this
// package, by id; each family lives in its own lint_*.go file and its
// metadata in meta_artifact.go. Adding a rule: its Meta, its check, one line here.
var artifactChecks = map[string]artifactCheck{}
