package rules

// AP-005 and AP-010 on persisted artifacts/<thread_id>.md files among the inputs.

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/brenner-ci/brenner-ci/compile/diag"
	"github.com/brenner-ci/brenner-ci/compile/source"
)

// ArtifactFile is a persisted artifact input (a markdown file).
type ArtifactFile struct {
	Path string // as given, slash separated
}

type frontMatter struct {
	sessionID    string
	sessionPos   source.Pos
	version      int
	versionRaw   string
	versionPos   source.Pos
	hasVersion   bool
	hasSessionID bool
}

// readFrontMatter reads the YAML front matter of a markdown file; ok is
// false when the file has none.
func readFrontMatter(p string) (fm frontMatter, ok bool, err error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return fm, false, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !bytes.HasPrefix(data, []byte("---\n")) && !bytes.HasPrefix(data, []byte("---\r\n")) {
		return fm, false, nil
	}
	rest := data[bytes.IndexByte(data, '\n')+1:]
	end := -1
	for off := 0; off < len(rest); {
		nl := bytes.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if nl >= 0 {
			line = rest[off : off+nl]
		}
		if t := bytes.TrimRight(line, "\r"); string(t) == "---" || string(t) == "..." {
			end = off
			break
		}
		if nl < 0 {
			break
		}
		off += nl + 1
	}
	if end < 0 {
		return fm, false, nil
	}
	var root yaml.Node
	if err := yaml.Unmarshal(rest[:end], &root); err != nil || len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return fm, true, nil
	}
	m := root.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		pos := source.Pos{File: p, Line: v.Line + 1, Col: v.Column, EndLine: v.Line + 1, EndCol: v.Column + len([]rune(v.Value))}
		switch k.Value {
		case "session_id":
			fm.sessionID, fm.sessionPos, fm.hasSessionID = v.Value, pos, true
		case "version":
			fm.versionRaw, fm.versionPos, fm.hasVersion = v.Value, pos, true
			fm.version, _ = strconv.Atoi(strings.TrimPrefix(v.Value, "v"))
		}
	}
	return fm, true, nil
}

func checkArtifacts(results []ThreadResult, arts []ArtifactFile, e *Engine) []diag.Finding {
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
	for _, a := range arts {
		fm, ok, err := readFrontMatter(a.Path)
		if err != nil || !ok {
			continue
		}
		base := strings.TrimSuffix(path.Base(a.Path), ".md")
		if base == "artifact" { // artifacts/<thread_id>/artifact.md
			base = path.Base(path.Dir(a.Path))
		}
		if e.on("AP-005") && fm.hasSessionID && fm.sessionID != base {
			out = append(out, diag.Finding{Rule: "AP-005", Code: "AP-005", Severity: diag.Error,
				Message: fmt.Sprintf("Artifact file %s holds session_id %q; its path must be artifacts/%s.md.", a.Path, fm.sessionID, fm.sessionID),
				Hint:    "Name the file after the thread id, or fix session_id.", Pos: fm.sessionPos.Normalize(), Thread: fm.sessionID,
				Anchor: "artifact " + base + " session " + fm.sessionID})
		}
		id := fm.sessionID
		if id == "" {
			id = base
		}
		tr := threads[id]
		if tr == nil || !e.on("AP-010") || !fm.hasVersion {
			continue
		}
		latest := tr.ref.latest
		if latest == 0 || fm.version == latest {
			continue
		}
		out = append(out, diag.Finding{Rule: "AP-010", Code: "AP-010", Severity: diag.Error,
			Message: fmt.Sprintf("Artifact front matter says version %s but thread %s's latest COMPILED message is v%d.", fm.versionRaw, tr.ref.key, latest),
			Hint:    fmt.Sprintf("Re-persist the artifact from v%d (brenner-ci compile --out), or post the missing COMPILED message.", latest),
			Pos:     fm.versionPos.Normalize(), Thread: tr.ref.key, Anchor: fmt.Sprintf("artifact %s version %s", id, fm.versionRaw)})
	}
	return out
}
