package rules

// artifactMetas is the metadata of the artifact linter rules
// (artifact_linter_spec_v0.1.md, evidence packs, drift), in registry order.
var artifactMetas = []Meta{}
