package rules

import (
	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/diag"
)

// FrontRecord is what the batch rules read of a persisted artifact once it
// was checked: its file, the front matter fields they use (session_id,
// version) and its facts. Shard files and cache entries carry it instead of the parsed
// artifact.
type FrontRecord struct {
	File           string       `json:"file"`
	FromJSON       bool         `json:"from_json,omitempty"`
	Skipped        bool         `json:"skipped,omitempty"`
	HasFrontMatter bool         `json:"has_front_matter,omitempty"`
	FrontPos       diag.Pos     `json:"front_pos"`
	Front          []FrontValue `json:"front,omitempty"`
	// Facts are the artifact's items and references (the RF- rules and
	// the genealogy graph read them).
	Facts *Facts `json:"facts,omitempty"`
}

// FrontValue is one front matter field the batch rules read.
type FrontValue struct {
	Key    string   `json:"key"`
	Value  any      `json:"value"`
	Raw    string   `json:"raw,omitempty"`
	Pos    diag.Pos `json:"pos"`
	KeyPos diag.Pos `json:"key_pos"`
}

// batchFrontKeys are the front matter keys the batch rules read.
var batchFrontKeys = map[string]bool{"session_id": true, "version": true}

// FrontOf is the front matter record of an artifact result.
func FrontOf(a ArtifactResult) FrontRecord {
	sa := FrontRecord{Skipped: a.Skipped, Facts: a.Facts}
	if p := a.Parsed; p != nil {
		sa.File, sa.FromJSON, sa.HasFrontMatter, sa.FrontPos = p.File, p.FromJSON, p.HasFrontMatter, p.FrontPos
		for _, f := range p.Front {
			if batchFrontKeys[f.Key] {
				sa.Front = append(sa.Front, FrontValue{Key: f.Key, Value: scalarValue(f.Value), Raw: f.Raw, Pos: f.Pos, KeyPos: f.KeyPos})
			}
		}
	}
	return sa
}

// Parsed is the front-only Parsed of a recorded artifact (nil when it had
// none).
func (a FrontRecord) Parsed() *artifact.Parsed {
	if a.File == "" {
		return nil
	}
	p := &artifact.Parsed{File: a.File, FromJSON: a.FromJSON, HasFrontMatter: a.HasFrontMatter, FrontPos: a.FrontPos}
	for _, f := range a.Front {
		p.Front = append(p.Front, artifact.FrontField{Key: f.Key, Value: jsonScalar(f.Value), Raw: f.Raw, Pos: f.Pos, KeyPos: f.KeyPos})
	}
	return p
}

// Result is the artifact result a recorded artifact stands for (the batch
// rules read its front matter only).
func (a FrontRecord) Result() ArtifactResult {
	return ArtifactResult{Parsed: a.Parsed(), Skipped: a.Skipped, Facts: a.Facts}
}

// scalarValue keeps a front matter value the batch rules can read back
// from JSON: strings, numbers, booleans; other values are dropped (their
// Raw text stays).
func scalarValue(v any) any {
	switch v.(type) {
	case string, int, int64, float64, bool:
		return v
	}
	return nil
}

// jsonScalar turns a number read back from JSON into the int the YAML
// decoder gave, when it is integral.
func jsonScalar(v any) any {
	if f, ok := v.(float64); ok && f == float64(int(f)) {
		return int(f)
	}
	return v
}
