package rules

// AP-005 and AP-010 on persisted artifacts/<thread_id>.md files among the inputs.

import (
	"fmt"
	"path"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/diag"
)

// front returns a front matter field by key.
func front(p *artifact.Parsed, key string) *artifact.FrontField {
	for i := range p.Front {
		if p.Front[i].Key == key {
			return &p.Front[i]
		}
	}
	return nil
}

// frontString is a front matter value as text.
func frontString(f *artifact.FrontField) (string, bool) {
	if f == nil || f.Value == nil {
		return "", false
	}
	if s, ok := f.Value.(string); ok {
		return s, true
	}
	return fmt.Sprint(f.Value), true
}

// fileSession is the thread id a persisted artifact's path names.
func fileSession(file string) string {
	base := strings.TrimSuffix(path.Base(file), ".md")
	if base == "artifact" { // artifacts/<thread_id>/artifact.md
		base = path.Base(path.Dir(file))
	}
	return base
}

func checkArtifacts(results []ThreadResult, arts []ArtifactResult, e *Engine) []diag.Finding {
	if len(arts) == 0 || (!e.on("AP-005") && !e.on("AP-010")) {
		return nil
	}
	threads := map[string]*ThreadResult{}
	for i := range results {
		threads[results[i].ref.key] = &results[i]
		if id := results[i].ref.threadID; id != "" {
			threads[id] = &results[i]
		}
	}
	var out []diag.Finding
	for i := range arts {
		p := arts[i].Parsed
		if p == nil || p.FromJSON || !p.HasFrontMatter {
			continue
		}
		// Both rules compare the file with its mailbox thread, so they apply
		// only when that thread is among the inputs.
		base := fileSession(p.File)
		sid := front(p, "session_id")
		sidText, _ := frontString(sid)
		tr := threads[sidText]
		if tr == nil {
			tr = threads[base]
		}
		if tr == nil {
			continue
		}
		id := base
		if sidText != "" {
			id = sidText
			if e.on("AP-005") && sidText != base {
				out = append(out, diag.Finding{Rule: "AP-005", Code: "AP-005", Severity: diag.Error,
					Message: fmt.Sprintf("Artifact file %s holds session_id %q; its path must be artifacts/%s.md.", p.File, sidText, sidText),
					Hint:    "Name the file after the thread id, or fix session_id.", Pos: sid.Pos.Normalize(), Thread: tr.ref.key,
					Anchor: "artifact " + base + " session " + sidText})
			}
		}
		ver := front(p, "version")
		if tr == nil || !e.on("AP-010") || ver == nil {
			continue
		}
		latest := tr.ref.latest
		v, ok := frontVersion(p)
		if latest == 0 || (ok && v == latest) {
			continue
		}
		verText, _ := frontString(ver)
		pos := ver.Pos
		if pos.Line == 0 {
			pos = diag.Pos{File: p.File, Line: 1, Col: 1}
		}
		out = append(out, diag.Finding{Rule: "AP-010", Code: "AP-010", Severity: diag.Error,
			Message: fmt.Sprintf("Artifact front matter says version %s but thread %s's latest COMPILED message is v%d.", verText, tr.ref.key, latest),
			Hint:    fmt.Sprintf("Re-persist the artifact from v%d (brenner-ci check --fix --out DIR), or post the missing COMPILED message.", latest),
			Pos:     pos.Normalize(), Thread: tr.ref.key, Anchor: fmt.Sprintf("artifact %s version %s", id, verText)})
	}
	return out
}
