package artifact

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/schema"
	"github.com/brenner-ci/brenner-ci/diag"
)

// CompiledInfo is what the caller knows about a compile beyond the artifact.
type CompiledInfo struct {
	ThreadID     string // defaults to cur.SessionID
	Compiler     string // defaults to cur.CompiledBy, else "operator"
	Summary      string // generated from the changes when empty
	SchemaPass   bool   // schema validation result
	LintWarnings int
	LintErrors   int
	ArtifactPath string // defaults to "artifacts/{thread_id}.md"
	GitCommit    string // optional
	Status       string // Persisted | Pending | Draft; defaults to "Draft"
	// Rendered is cur.Render(), when the caller has it already (compile
	// --out writes it as the artifact too); nil: it is rendered here.
	Rendered []byte
}

// Changes lists the item ids that differ between two versions, in section
// order, then id order.
type Changes struct {
	Added    []string // not in the previous version
	Modified []string // in both, fields changed, not newly killed
	Killed   []string // killed now, not killed before (added-then-killed included)
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool { return len(c.Added)+len(c.Modified)+len(c.Killed) == 0 }

// Diff compares cur with prev (nil: an empty artifact).
func Diff(cur, prev *Artifact) Changes {
	if prev == nil {
		prev = New(cur.SessionID)
	}
	var c Changes
	for _, s := range delta.Sections {
		for _, it := range cur.Section(s) {
			old := prev.Find(s, it.ID)
			switch {
			case old == nil:
				c.Added = append(c.Added, it.ID)
				if it.Killed {
					c.Killed = append(c.Killed, it.ID)
				}
			case it.Killed && !old.Killed:
				c.Killed = append(c.Killed, it.ID)
			case !jsonv.Equal(it.Fields, old.Fields):
				c.Modified = append(c.Modified, it.ID)
			}
		}
	}
	return c
}

// statNames are the sections counted in a COMPILED body's Statistics.
var statNames = func() []struct{ Section, Label string } {
	var out []struct{ Section, Label string }
	for _, sec := range schema.Sections {
		if sec.StatLabel != "" {
			out = append(out, struct{ Section, Label string }{sec.ID, sec.StatLabel})
		}
	}
	return out
}()

func totalDeltas(a *Artifact) int {
	n := 0
	for _, c := range a.Contributors {
		n += c.Deltas
	}
	return n
}

// RenderCompiledBody returns the body of the COMPILED message for cur
// (artifact_publish_spec_v0.1.md, COMPILED Message Extended Schema). prev is
// the previously compiled version (nil for the first). The full artifact is
// inlined in a fenced ```markdown block whose fence is longer than any run of
// backticks in the artifact, so that the artifact's own headings and front
// matter do not mix with the body's sections and can be extracted verbatim.
//
// It is long on purpose: the body's sections written top to bottom in the order of artifact_publish_spec_v0.1.md, like a template.
func RenderCompiledBody(cur, prev *Artifact, info CompiledInfo) []byte {
	thread := info.ThreadID
	if thread == "" {
		thread = cur.SessionID
	}
	compiler := info.Compiler
	if compiler == "" {
		compiler = cur.CompiledBy
	}
	if compiler == "" {
		compiler = "operator"
	}
	n := cur.Version
	ch := Diff(cur, prev)
	w := &lines{}
	w.add("# Compiled Artifact v"+strconv.Itoa(n), "")

	w.add("## Metadata", "- **Thread ID**: "+diag.CollapseSpace(thread), "- **Version**: v"+strconv.Itoa(n))
	if n > 1 {
		w.add("- **Previous Version**: v" + strconv.Itoa(n-1))
	}
	at := "unknown"
	if !cur.CompiledAt.IsZero() {
		at = FormatTime(cur.CompiledAt)
	}
	w.add("- **Compiled At**: "+at, "- **Compiler**: "+diag.CollapseSpace(compiler), "")

	summary := text(info.Summary)
	if summary == "" {
		summary = autoSummary(cur, prev, ch)
	}
	w.add("## Summary", summary, "")

	w.add("## Contributors")
	if len(cur.Contributors) == 0 {
		w.add("No contributors.")
	} else {
		w.add("| Agent | Delta Count | Items Added/Modified |", "|-------|-------------|---------------------|")
		for _, c := range cur.Contributors {
			ids := append([]string(nil), c.Items...)
			sort.SliceStable(ids, func(i, j int) bool { return itemLess(ids[i], ids[j]) })
			w.add(fmt.Sprintf("| %s | %d | %s |", cell(c.Agent), c.Deltas, orDash(strings.Join(ids, ", "))))
		}
	}
	w.add("")

	switch {
	case n <= 1:
		w.add("## Changes", "- Initial version")
	case prev == nil:
		w.add("## Changes from v"+strconv.Itoa(n-1), "- Previous version not available; items are listed against an empty artifact")
	default:
		w.add("## Changes from v" + strconv.Itoa(n-1))
		if ch.Empty() {
			w.add("- No item changes")
		}
	}
	if len(ch.Added) > 0 {
		w.add("- **Added**: " + strings.Join(ch.Added, ", "))
	}
	if len(ch.Modified) > 0 {
		w.add("- **Modified**: " + strings.Join(ch.Modified, ", "))
	}
	if len(ch.Killed) > 0 {
		w.add("- **Killed**: " + strings.Join(ch.Killed, ", "))
	}
	w.add("")

	rt, _ := cur.Count(delta.ResearchThread)
	w.add("## Statistics", "- Research Thread: "+strconv.Itoa(rt))
	for _, s := range statNames {
		active, killed := cur.Count(s.Section)
		w.add(fmt.Sprintf("- %s: %d active, %d killed", s.Label, active, killed))
	}
	w.add("")

	schema := "FAIL"
	if info.SchemaPass {
		schema = "PASS"
	}
	third := "MISSING"
	if cur.HasThirdAlternative() {
		third = "Present"
	}
	w.add("## Validation Status", "- Schema: "+schema,
		"- Linter: "+diag.Count(info.LintWarnings, "warning", "warnings")+", "+diag.Count(info.LintErrors, "error", "errors"),
		"- Third Alternative: "+third, "")

	path := info.ArtifactPath
	if path == "" {
		path = "artifacts/" + thread + ".md"
	}
	status := info.Status
	if status == "" {
		status = "Draft"
	}
	w.add("## Persistence", "- **Artifact Path**: `"+diag.CollapseSpace(path)+"`")
	if info.GitCommit != "" {
		w.add("- **Git Commit**: " + diag.CollapseSpace(info.GitCommit))
	}
	w.add("- **Status**: "+diag.CollapseSpace(status), "")

	rendered := info.Rendered
	if rendered == nil {
		rendered = cur.Render()
	}
	art := string(rendered)
	fence := strings.Repeat("`", max(3, longestRun(art, '`')+1))
	w.add("## Full Artifact", "", fence+"markdown")
	w.add(strings.TrimSuffix(art, "\n")) // its lines, as they are
	w.add(fence)
	return w.bytes()
}

func autoSummary(cur, prev *Artifact, ch Changes) string {
	d := totalDeltas(cur)
	agents := 0
	for _, c := range cur.Contributors {
		before := 0
		if prev != nil {
			for _, p := range prev.Contributors {
				if p.Agent == c.Agent {
					before = p.Deltas
				}
			}
		}
		if c.Deltas > before {
			agents++
		}
	}
	if prev == nil {
		return fmt.Sprintf("Compiled from %s by %s: %s added, %s killed.",
			diag.Count(d, "applied delta", "applied deltas"), diag.Count(agents, "agent", "agents"),
			diag.Count(len(ch.Added), "item", "items"), diag.Count(len(ch.Killed), "item", "items"))
	}
	d -= totalDeltas(prev)
	return fmt.Sprintf("%s by %s since v%d: %s added, %s modified, %s killed.",
		diag.Count(d, "applied delta", "applied deltas"), diag.Count(agents, "agent", "agents"), prev.Version,
		diag.Count(len(ch.Added), "item", "items"), diag.Count(len(ch.Modified), "item", "items"), diag.Count(len(ch.Killed), "item", "items"))
}

// itemLess orders ids by section (artifact order), then id.
func itemLess(a, b string) bool {
	sa, sb := sectionRank(a), sectionRank(b)
	if sa != sb {
		return sa < sb
	}
	return idLess(a, b)
}

func sectionRank(id string) int {
	s := sectionOf(id)
	for i, x := range delta.Sections {
		if x == s {
			return i
		}
	}
	return len(delta.Sections)
}

func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			if run > best {
				best = run
			}
		} else {
			run = 0
		}
	}
	return best
}
