package artifact

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// dumpParsed writes a parse as stable text: front matter, sections, items
// and fields with their regions, then the artifact.
func dumpParsed(p *Parsed) string {
	var b strings.Builder
	w := func(f string, a ...any) { fmt.Fprintf(&b, f+"\n", a...) }
	w("front matter: %t %s", p.HasFrontMatter, rg(p.FrontPos))
	for _, f := range p.Front {
		w("  %s = %#v raw=%q key=%s value=%s", f.Key, f.Value, f.Raw, rg(f.KeyPos), rg(f.Pos))
	}
	for _, f := range p.Findings {
		w("finding: %s", f.String())
	}
	if p.Title != nil {
		w("title: %s", rg(*p.Title))
	}
	for _, s := range p.Sections {
		w("section %q n=%d id=%q %s [%d,%d) empty=%q quote=%t", s.Title, s.Number, s.Section, rg(s.Pos), s.Start, s.End, s.Empty, s.Quote)
	}
	if p.Table != nil {
		w("table %s header=%q rows=%d", rg(p.Table.Pos), p.Table.Header, len(p.Table.Rows))
	}
	for _, it := range p.Items {
		w("item %q label=%q name=%q %s killed=%t %s [%d,%d)", it.ID, it.Label, it.Name, it.Section, it.Killed, rg(it.Pos), it.Start, it.End)
		for _, f := range it.Fields {
			alias := ""
			if f.Alias {
				alias = " alias"
			}
			w("  %s %q → %q%s %s = %q %s list=%q", f.Form, f.Label, f.Key, alias, rg(f.Pos), f.Value, rg(f.ValuePos), f.List)
		}
	}
	a := p.Art
	w("art: session=%q version=%d compiled=%s/%q msg=%q created=%s updated=%s status=%q", a.SessionID, a.Version, fmtTime(a.CompiledAt), a.CompiledBy, a.MessageID, fmtTime(a.CreatedAt), fmtTime(a.UpdatedAt), a.Status)
	for _, c := range a.Contributors {
		w("  contributor %q", c.Agent)
	}
	for _, s := range delta.Sections {
		for _, it := range a.Section(s) {
			kill := ""
			if it.Killed {
				kill = fmt.Sprintf(" killed by %q at %s: %q", it.KilledBy, fmtTime(it.KilledAt), it.KillReason)
			}
			w("  %s %q%s %s", s, it.ID, kill, it.Fields.Text())
		}
	}
	return b.String()
}

func fmtTime(t interface{ IsZero() bool }) string {
	if t.IsZero() {
		return "-"
	}
	return fmt.Sprint(t)
}

// TestParseFixtures compares the parse of each testdata/artifact-parse/*.md
// with its .golden dump (go test ./compile/artifact -run ParseFixtures -update).
func TestParseFixtures(t *testing.T) {
	dir := filepath.Join(testutil.ModuleRoot(t), "testdata", "artifact-parse")
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p := ParseMarkdown(src, name)
			golden(t, strings.TrimSuffix(f, ".md")+".golden", []byte(dumpParsed(p)))
		})
	}
}
