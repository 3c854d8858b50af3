package rules

// Spec references shared by several rule declarations.

const (
	specMB = "message_body_schema_v0.1.md, Machine-Checkable Rules"
	specAP = "artifact_publish_spec_v0.1.md, Validation Rules"
	specTH = "thread_subject_conventions_v0.1.md, Validation Rules"
	specDF = "delta_output_format_v0.1.md"
	specDS = "artifact_delta_spec_v0.1.md"
	specIN = "agent-mail export formats (brenner-ci input contract)"
)

const (
	specAL     = "artifact_linter_spec_v0.1.md, "
	specEV     = "artifact_schema_v0.1.md, Evidence Pack Anchors; evidence_pack_v0.1.md"
	divergeArt = " See docs/divergences.md §5."
)
