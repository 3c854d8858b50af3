// Package diag holds brenner-ci's neutral core types: positions in input
// files (Pos, LineIndex), severities, findings and their fingerprints, and the
// report model that every reporter writes. compile, rules, the findings
// pipeline, reporters and config all import it; it imports none of them.
package diag
