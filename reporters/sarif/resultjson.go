package sarif

import (
	"strconv"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters"
)

// appendResult appends the JSON of finding i's result to b: byte for byte
// what encoding/json writes for result(r, i, ruleIndex, fi, paths), the
// go-sarif structure Build returns. Every finding that can be a result is
// encoded (the size budget measures it), and building go-sarif's
// structures and encoding them by reflection took most of the SARIF
// report's time, at the end of a check (docs/performance.md,
// thirty-fourth round). TestResultJSON and FuzzResultJSON hold the two
// equal; TestWriteSplicesResults the whole log.
//
// The keys come in the order of go-sarif's struct fields (Result, Location,
// PhysicalLocation, ArtifactLocation, Region, Fix, ArtifactChange,
// Replacement), and a map's keys (properties, partialFingerprints) sorted,
// as encoding/json writes them; fields left nil are omitted.
func appendResult(b []byte, r *diag.Report, i, ruleIndex int, fi reporters.FileInfo, paths *reporters.Paths) []byte {
	f := &r.Findings[i]
	b = append(b, '{')
	// The property bag, its keys sorted: code, messageId, thread.
	code := f.Code != "" && f.Code != f.Rule
	if code || f.MsgID != "" || f.Thread != "" {
		b = append(b, `"properties":{`...)
		sep := false
		for _, p := range [...]struct {
			key, val string
			ok       bool
		}{{"code", f.Code, code}, {"messageId", f.MsgID, f.MsgID != ""}, {"thread", f.Thread, f.Thread != ""}} {
			if !p.ok {
				continue
			}
			if sep {
				b = append(b, ',')
			}
			sep = true
			b = append(b, '"')
			b = append(b, p.key...)
			b = append(b, `":`...)
			b = reporters.AppendJSONString(b, p.val)
		}
		b = append(b, "},"...)
	}
	b = append(b, `"ruleId":`...)
	b = reporters.AppendJSONString(b, ruleID(f))
	b = append(b, `,"ruleIndex":`...)
	b = strconv.AppendUint(b, uint64(uint(ruleIndex)), 10)
	b = append(b, `,"level":"`...)
	b = append(b, level(f.Severity)...)
	b = append(b, `","message":{"text":`...)
	b = reporters.AppendJSONString(b, resultText(f))
	b = append(b, `},"locations":[{"physicalLocation":{"artifactLocation":`...)
	b = appendArtifact(b, fi.Rel)
	b = append(b, `,"region":`...)
	b = appendRegion(b, reporters.ClampRegion(f.Pos.Line, f.Pos.Col, f.Pos.EndLine, f.Pos.EndCol, fi))
	// partialFingerprints, its keys sorted (FingerprintKey before PrimaryKey).
	fp := fingerprint(r, i)
	b = append(b, `}}],"partialFingerprints":{"`+FingerprintKey+`":`...)
	b = reporters.AppendJSONString(b, fp)
	b = append(b, `,"`+PrimaryKey+`":`...)
	b = reporters.AppendJSONString(b, fp)
	b = append(b, '}')
	if r.HasBaseline {
		b = append(b, `,"baselineState":"`...)
		b = append(b, r.BaselineState(i)...)
		b = append(b, '"')
	}
	if fi, reg, ok := fixPlace(f, paths); ok {
		b = append(b, `,"fixes":[{"description":{"text":`...)
		b = reporters.AppendJSONString(b, fixDescription(f))
		b = append(b, `},"artifactChanges":[{"artifactLocation":`...)
		b = appendArtifact(b, fi.Rel)
		b = append(b, `,"replacements":[{"deletedRegion":`...)
		b = appendRegion(b, reg)
		b = append(b, `,"insertedContent":{"text":`...)
		b = reporters.AppendJSONString(b, f.Fix.Text)
		b = append(b, "}}]}]}]"...)
	}
	return append(b, '}')
}

// appendArtifact appends the JSON of artifact(rel).
func appendArtifact(b []byte, rel string) []byte {
	b = append(b, `{"uri":`...)
	b = reporters.AppendJSONString(b, reporters.EscapePath(rel))
	return append(b, `,"uriBaseId":"`+srcRoot+`"}`...)
}

// appendRegion appends the JSON of region(g).
func appendRegion(b []byte, g reporters.Region) []byte {
	b = append(b, `{"startLine":`...)
	b = strconv.AppendInt(b, int64(g.StartLine), 10)
	b = append(b, `,"startColumn":`...)
	b = strconv.AppendInt(b, int64(g.StartColumn), 10)
	b = append(b, `,"endLine":`...)
	b = strconv.AppendInt(b, int64(g.EndLine), 10)
	b = append(b, `,"endColumn":`...)
	b = strconv.AppendInt(b, int64(g.EndColumn), 10)
	return append(b, '}')
}
