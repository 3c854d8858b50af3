package rules

import (
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/limits"
)

// FuzzEvidencePack: an evidence pack of any content is parsed into records
// and problems; it never panics.
func FuzzEvidencePack(f *testing.F) {
	f.Add([]byte(`{"version": "0.1", "thread_id": "RS-20251230-cell-fate", "records": [{"id": "EV-001", "excerpts": [{"anchor": "E1"}]}]}`))
	f.Add([]byte(`{"records": [1, {"id": "EV-1"}, {"id": "EV-001"}, {"id": "EV-001"}]}`))
	f.Add([]byte(`[[[[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e := &EvidencePack{File: "evidence.json", Records: map[string]map[string]bool{}, Verified: map[string]bool{}}
		e.parse(data, limits.Parse{})
	})
}
