package rules

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/diag"
)

// ArtifactResult is what the engine keeps of a checked artifact file.
type ArtifactResult struct {
	Summary  diag.Thread
	Findings []diag.Finding
	Internal []string
	// Parsed is kept for the batch rules (AP-005, AP-010, DR-001); its Src
	// is dropped to bound memory.
	Parsed *artifact.Parsed
	// Skipped is true for markdown that is not an artifact.
	Skipped bool
	supp    []*suppression
}

// looksLikeArtifact tells a persisted artifact from other markdown: front
// matter with a session_id, one of the seven section headings, or the
// evidence-pack layout's artifact.md name.
func looksLikeArtifact(p *artifact.Parsed, path string) bool {
	if front(p, "session_id") != nil {
		return true
	}
	for _, s := range p.Sections {
		if s.Section != "" {
			return true
		}
	}
	return strings.HasSuffix(path, "/artifact.md") || path == "artifact.md"
}

// CheckArtifact parses and lints one persisted artifact: a markdown file, or
// a JSON artifact object when fromJSON is set.
func (e *Engine) CheckArtifact(path string, fromJSON bool) ArtifactResult {
	r := ArtifactResult{Summary: diag.Thread{Key: path, File: path}}
	src, err := os.ReadFile(path)
	if err != nil {
		r.Findings = append(r.Findings, diag.Finding{Rule: "IN-001", Code: "UNREADABLE_INPUT", Severity: diag.Error,
			Message: fmt.Sprintf("Artifact %s could not be read: %v.", path, err), Pos: diag.Pos{File: path}, Anchor: "read " + path})
		return r
	}
	var p *artifact.Parsed
	if msg := runSafely(func() {
		if fromJSON {
			p = artifact.ParseJSONObject(src, path)
		} else {
			p = artifact.ParseMarkdown(src, path)
		}
	}); msg != "" {
		r.Internal = append(r.Internal, fmt.Sprintf("parsing artifact %s panicked: %s", path, msg))
		return r
	}
	if !fromJSON && !looksLikeArtifact(p, path) {
		// Other markdown (a README, a kickoff pack kept beside the
		// artifacts) is not linted as an artifact.
		r.Skipped = true
		return r
	}
	r.Findings = append(r.Findings, p.Findings...)
	ev, evFinding := LoadEvidence(path)
	if evFinding != nil {
		r.Findings = append(r.Findings, *evFinding)
	}
	thread := artifactSession(p, path)
	for _, m := range e.enabled {
		chk := artifactChecks[m.ID]
		if chk == nil {
			continue
		}
		r.Summary.Rules = append(r.Summary.Rules, m.ID)
		c := &ACtx{P: p, Evidence: ev, Thread: thread, meta: m}
		if msg := runSafely(func() { chk(c) }); msg != "" {
			r.Internal = append(r.Internal, fmt.Sprintf("rule %s panicked on artifact %s: %s", m.ID, path, msg))
			continue
		}
		r.Findings = append(r.Findings, c.out...)
	}
	if p.FromJSON {
		// Positions point into the rendering; name the JSON file instead.
		for i := range r.Findings {
			if r.Findings[i].Pos.File == path {
				r.Findings[i].Pos = diag.Pos{File: path, Line: 1, Col: 1, EndLine: 1, EndCol: 1}
			}
		}
	} else {
		r.supp = artifactSuppressions(p, thread)
	}
	p.Src = nil
	r.Parsed = p
	return r
}

// artifactSession is the session id of an artifact: front matter session_id,
// else the file name (artifacts/<id>.md or artifacts/<id>/artifact.md).
func artifactSession(p *artifact.Parsed, path string) string {
	if p != nil && p.Art != nil && p.Art.SessionID != "" {
		return p.Art.SessionID
	}
	base := path[strings.LastIndex(path, "/")+1:]
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".md"), ".json")
	if base == "artifact" {
		dir := strings.TrimSuffix(path, "/"+path[strings.LastIndex(path, "/")+1:])
		base = dir[strings.LastIndex(dir, "/")+1:]
	}
	return base
}

var commentRE = regexp.MustCompile(`(?s)<!--(.*?)-->`)

// artifactSuppressions reads brenner-ci-disable comments in an artifact.
func artifactSuppressions(p *artifact.Parsed, thread string) []*suppression {
	if len(p.Src) == 0 {
		return nil
	}
	src := string(p.Src)
	li := diag.NewLineIndex(p.Src)
	var out []*suppression
	for _, m := range commentRE.FindAllStringSubmatchIndex(src, -1) {
		rules, reason, file, ok := parseDirective(src[m[2]:m[3]])
		if !ok {
			continue
		}
		s := &suppression{rules: rules, reason: reason, thread: thread, where: li.Span(p.File, m[0], m[1])}
		if file {
			s.file = p.File
		} else {
			start := m[1]
			for start < len(src) && (src[start] == '\n' || src[start] == '\r' || src[start] == ' ') {
				start++
			}
			end := len(src)
			if j := strings.Index(src[start:], "\n\n"); j >= 0 {
				end = start + j
			}
			s.from, s.to = li.Span(p.File, start, start), li.Span(p.File, end, end)
			s.file = ""
		}
		out = append(out, s)
	}
	return out
}
