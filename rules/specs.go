package rules

// Spec references shared by several rule declarations.

// The spec documents (the family table names each family's).
const (
	docMB = "message_body_schema_v0.1.md"
	docAP = "artifact_publish_spec_v0.1.md"
	docTH = "thread_subject_conventions_v0.1.md"
	docAL = "artifact_linter_spec_v0.1.md"
	docEV = "evidence_pack_v0.1.md"
)

const (
	specMB = docMB + ", Machine-Checkable Rules"
	specAP = docAP + ", Validation Rules"
	specTH = docTH + ", Validation Rules"
	specDF = "delta_output_format_v0.1.md"
	specDS = "artifact_delta_spec_v0.1.md"
	specIN = "agent-mail export formats (brenner-ci input contract)"
	specSP = "brenner-ci suppression comments"
)

const (
	specAL     = docAL + ", "
	specEV     = "artifact_schema_v0.1.md, Evidence Pack Anchors; " + docEV
	divergeArt = " See docs/divergences.md §5."
)
