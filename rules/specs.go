package rules

// Spec references and example fragments shared by several rule declarations.

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

// Example fragments shared by several rules.
const (
	exFront = "---\nsession_id: \"RS-20251230-cell-fate\"\ncreated_at: \"2025-12-30T19:00:00Z\"\nupdated_at: \"2025-12-30T20:30:00Z\"\nversion: 2\ncontributors:\n  - agent: \"GreenDog\"\nstatus: \"active\"\n---\n"
	exH1    = "### H1: Lineage-based coordinates\n**Claim**: Fate follows division history.\n**Mechanism**: Determinants are partitioned at each division.\n**Anchors**: §161\n"
	exH2    = "### H2: Gradient-based coordinates\n**Claim**: Fate follows morphogen gradients.\n**Mechanism**: Cells read concentration fields.\n**Anchors**: §205\n"
	exH3    = "### H3: Third Alternative\n**Claim**: The dichotomy is false.\n**How this could be true**: Chromatin memory encodes fate.\n**Anchors**: §103 [inference]\n"
	exHyps  = "## 2. Hypothesis Slate\n\n" + exH1 + "\n" + exH2 + "\n" + exH3
	exT     = "### T1: Early transplant (Score: 10/12)\n**Procedure**: Transplant a 16-cell stage cell to an ectopic position.\n**Discriminates**: H1 vs H2\n**Expected outcomes**:\n- If H1: Lineage fate\n- If H2: Positional fate\n**Potency check**: A late transplant control shows the assay detects fate changes (§50).\n**Feasibility**: Micromanipulation; moderate.\n**Evidence-per-week score**: LR=3, Cost=2, Speed=2, Ambiguity=3\n"
	exA     = "### A1: Lineage is invariant\n**Statement**: Every embryo divides the same way.\n**Load**: If wrong, transplant results do not generalise.\n**Test**: Trace lineages in 10 embryos.\n**Status**: verified\n"
	exScale = "### A3: Scale/Physics Check\n**Statement**: Morphogen diffusion time across the embryo.\n**Calculation**: D ≈ 10 μm²/s, L ≈ 50 μm → τ ≈ 4 min, cell cycle ≈ 20 min.\n**Implication**: Gradients can re-form between divisions.\n"
	exX     = "### X1: EMS lineage exception\n**Observation**: Some EMS fates ignore position (§163).\n**Conflicts with**: H2\n**Quarantine status**: active\n"
	exC     = "### C1: The dichotomy is anachronistic\n**Attack**: Single-cell data may show neither lineage nor gradient.\n**Evidence**: Fate boundaries that follow neither clades nor space.\n**Current status**: Moderate concern.\n"
	exC2    = "### C2: Epigenetic memory as the real third alternative\n**Attack**: Inherited chromatin states could dominate.\n**Evidence**: Partial fate changes after transplants.\n**Current status**: High priority.\n"
	exTable = "| ID | Observation/Condition | H1 | H2 | H3 |\n|----|----|----|----|----|\n"
)
