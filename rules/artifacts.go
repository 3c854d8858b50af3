package rules

// AP-005 and AP-010 on persisted artifacts/<thread_id>.md files among the inputs.

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/diag"
)

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

// ArtifactPathThread is the thread id a persisted artifact's path names:
// artifacts/<id>.md (or .json), or artifacts/<id>/artifact.md.
func ArtifactPathThread(file string) string {
	file = filepath.ToSlash(file)
	base := strings.TrimSuffix(strings.TrimSuffix(path.Base(file), ".md"), ".json")
	if base == "artifact" { // artifacts/<thread_id>/artifact.md
		base = path.Base(path.Dir(file))
	}
	return base
}

// persistedThreads pairs each persisted markdown artifact with front matter
// with its thread among the inputs, by session_id or else by file name.
// Artifacts whose thread is not an input are left out: the rules that use
// this compare a file with its mailbox thread.
func persistedThreads(b *Batch, visit func(p *artifact.Parsed, tr *ThreadResult)) {
	threads := map[string]*ThreadResult{}
	for i := range b.Threads {
		threads[b.Threads[i].Facts.Key] = &b.Threads[i]
		if id := b.Threads[i].Facts.ThreadID; id != "" {
			threads[id] = &b.Threads[i]
		}
	}
	for i := range b.Artifacts {
		p := b.Artifacts[i].Parsed
		if p == nil || p.FromJSON || !p.HasFrontMatter {
			continue
		}
		sid, _ := frontString(p.Field("session_id"))
		tr := threads[sid]
		if tr == nil {
			tr = threads[ArtifactPathThread(p.File)]
		}
		if tr != nil {
			visit(p, tr)
		}
	}
}

// checkArtifactFileName (DR-002): the file is named after its session_id.
func checkArtifactFileName(c *Ctx) {
	persistedThreads(c.Batch, func(p *artifact.Parsed, tr *ThreadResult) {
		base := ArtifactPathThread(p.File)
		sid := p.Field("session_id")
		sidText, _ := frontString(sid)
		if sidText == "" || sidText == base {
			return
		}
		c.emit(diag.Finding{
			Message: fmt.Sprintf("Artifact file %s holds session_id %q; its path must be artifacts/%s.md.", p.File, sidText, sidText),
			Hint:    "Name the file after the thread id, or fix session_id.", Pos: sid.Pos, Thread: tr.Facts.Key,
			Anchor: "artifact " + base + " session " + sidText})
	})
}

// checkFrontMatterVersion (AP-010): the front-matter version is the
// thread's latest COMPILED version.
func checkFrontMatterVersion(c *Ctx) {
	persistedThreads(c.Batch, func(p *artifact.Parsed, tr *ThreadResult) {
		ver := p.Field("version")
		latest := tr.Facts.Latest
		if ver == nil || latest == 0 {
			return
		}
		if v, ok := p.Version(); ok && v == latest {
			return
		}
		id, _ := frontString(p.Field("session_id"))
		if id == "" {
			id = ArtifactPathThread(p.File)
		}
		verText, _ := frontString(ver)
		pos := ver.Pos
		if pos.Line == 0 {
			pos = diag.Pos{File: p.File, Line: 1, Col: 1}
		}
		c.emit(diag.Finding{
			Message: fmt.Sprintf("Artifact front matter says version %s but thread %s's latest COMPILED message is v%d.", verText, tr.Facts.Key, latest),
			Hint:    fmt.Sprintf("Re-persist the artifact from v%d (brenner-ci check --fix --out DIR), or post the missing COMPILED message.", latest),
			Pos:     pos, Thread: tr.Facts.Key, Anchor: fmt.Sprintf("artifact %s version %s", id, verText)})
	})
}

// ArtifactSession is the session id the persisted artifact file at path
// declares, read from its front matter only ("" when none or unreadable):
// the engine pairs artifacts with threads by it, and the shard partition
// keeps each pair in one shard.
func (e *Engine) ArtifactSession(path string, fromJSON bool) string {
	src, err := e.files.ReadFile(path)
	if err != nil {
		return ""
	}
	return artifact.FileSession(src, fromJSON, e.limits)
}
