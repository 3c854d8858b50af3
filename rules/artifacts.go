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
func persistedThreads(b *Batch, visit func(p *artifact.Parsed, tr *ThreadFacts)) {
	if len(b.Artifacts) == 0 {
		return // no artifact to pair: the index of the threads would go unread
	}
	threads := make(map[string]*ThreadFacts, 2*len(b.Threads))
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

// misnamedArtifacts visits each persisted artifact, paired with its thread
// among the inputs, whose front-matter session_id is not the thread id its
// path names (artifacts/<id>.md, artifacts/<id>/artifact.md): the file is
// saved under another name than its thread's, or its session_id is not its
// thread's id. An artifact without a session_id is EM-002's.
func misnamedArtifacts(b *Batch, visit func(p *artifact.Parsed, tr *ThreadFacts, sid *artifact.FrontField, sidText, base string)) {
	persistedThreads(b, func(p *artifact.Parsed, tr *ThreadFacts) {
		base := ArtifactPathThread(p.File)
		sid := p.Field("session_id")
		sidText, _ := frontString(sid)
		if sidText == "" || sidText == base {
			return
		}
		visit(p, tr, sid, sidText, base)
	})
}

// checkArtifactFileName (DR-002): the file is named after its session_id.
func checkArtifactFileName(c *Ctx) {
	misnamedArtifacts(c.Batch, func(p *artifact.Parsed, tr *ThreadFacts, sid *artifact.FrontField, sidText, base string) {
		c.emit(diag.Finding{
			Message: fmt.Sprintf("Artifact file %s holds session_id %q; its path must be artifacts/%s.md.", p.File, sidText, sidText),
			Hint:    "Name the file after the thread id, or fix session_id.", Pos: sid.Pos, Thread: tr.Facts.Key,
			Anchor: "artifact " + base + " session " + sidText})
	})
}

// checkPersistedArtifactPath is AP-005's batch part: a persisted artifact
// is artifacts/{thread_id}.md of its thread, and its session_id is that
// thread id (artifact_publish_spec_v0.1.md, "Artifact path matches
// artifacts/{thread_id}.md"; thread_subject_conventions_v0.1.md, Artifact
// storage layout and "session_id: \"{thread_id}\"").
func checkPersistedArtifactPath(c *Ctx) {
	misnamedArtifacts(c.Batch, func(p *artifact.Parsed, tr *ThreadFacts, sid *artifact.FrontField, sidText, base string) {
		tid := tr.Facts.ThreadID
		if tid == "" {
			tid = tr.Facts.Key
		}
		msg := fmt.Sprintf("Artifact file %s belongs to thread %s, so its path must be artifacts/%s.md (the path names %q).", p.File, tid, tid, base)
		hint := fmt.Sprintf("Move the file to artifacts/%s.md: tools find a thread's artifact by its thread id.", tid)
		if sidText != tid {
			msg = fmt.Sprintf("Artifact %s has session_id %q, but its thread is %s: the session_id is the thread id.", p.File, sidText, tid)
			hint = fmt.Sprintf("Set session_id: %q, or re-persist the artifact from its thread (brenner-ci check --fix --out DIR).", tid)
		}
		c.emit(diag.Finding{Message: msg, Hint: hint, Pos: sid.Pos, Thread: tr.Facts.Key,
			Anchor: "artifact " + base + " session " + sidText})
	})
}

// checkFrontMatterVersion (AP-010): the front-matter version is the
// thread's latest COMPILED version.
func checkFrontMatterVersion(c *Ctx) {
	persistedThreads(c.Batch, func(p *artifact.Parsed, tr *ThreadFacts) {
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
