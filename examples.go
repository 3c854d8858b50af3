// Package brennerci only carries the rules' Bad and Good examples into the
// binary: testdata/rules/<ID>/example.bad and example.good, which package
// rules reads into its declarations (//go:embed cannot reach a parent
// folder, so the files are embedded from the module root).
package brennerci

import "embed"

//go:embed testdata/rules/*/example.bad testdata/rules/*/example.good
var examples embed.FS

// RuleExamples returns rule id's bad and fixed examples, "" for a file
// that does not exist.
func RuleExamples(id string) (bad, good string) {
	b, _ := examples.ReadFile("testdata/rules/" + id + "/example.bad")
	g, _ := examples.ReadFile("testdata/rules/" + id + "/example.good")
	return string(b), string(g)
}
