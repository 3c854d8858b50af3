package sarif

import (
	"bytes"
	"testing"
)

// TestResultsAt: the run's results array is found by its place in the
// log, not by its text: a "results" key of a property bag deeper down,
// and the same text inside a string, are passed over.
func TestResultsAt(t *testing.T) {
	for _, doc := range []string{
		`{"runs":[{"results":[]}]}`,
		`{"runs":[{"a":"x\"{[","results":[]}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"properties":{"results":[]}}},"results":[],"x":1}]}`,
		`{"runs":[{"a":"\"results\":[","b":"\\","results":[],"c":"results"}]}`,
		`{"properties":{"results":[]},"runs":[{"p":{"q":[{"results":[]}]},"results":[]}]}`,
	} {
		at := resultsAt([]byte(doc))
		want := bytes.LastIndex([]byte(doc), []byte(`"results":[]`)) + len(`"results":[`)
		if at != want {
			t.Errorf("%s: results at %d, want %d", doc, at, want)
		}
	}
	for _, doc := range []string{`{"runs":[{"tool":{"results":[]}}]}`, `{"runs":[{"x":"\"results\":[]"}]}`, `{}`} {
		if at := resultsAt([]byte(doc)); at != -1 {
			t.Errorf("%s: results at %d, want none", doc, at)
		}
	}
}
