package markdown_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/reporters/internal/fixture"
)

var (
	tableRE = regexp.MustCompile(`(?s)<table>(.*?)</table>`)
	trRE    = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	cellRE  = regexp.MustCompile(`(?s)<t[hd][^>]*>(.*?)</t[hd]>`)
	tagRE   = regexp.MustCompile(`<[^>]+>`)
)

// table is the rendered table of md's section title, as rows of cells'
// text.
func table(t *testing.T, md, title string) [][]string {
	t.Helper()
	sec, ok := section(md, title)
	if !ok {
		t.Fatalf("no %s section:\n%s", title, md)
	}
	m := tableRE.FindStringSubmatch(render(t, sec))
	if m == nil {
		t.Fatalf("no table in the %s section:\n%s", title, sec)
	}
	var rows [][]string
	for _, tr := range trRE.FindAllStringSubmatch(m[1], -1) {
		var cells []string
		for _, c := range cellRE.FindAllStringSubmatch(tr[1], -1) {
			cells = append(cells, strings.TrimSpace(tagRE.ReplaceAllString(c[1], "")))
		}
		rows = append(rows, cells)
	}
	return rows
}

// TestRulesTableSeverityFirstEverywhere: the Rules table, as GitHub renders
// it, starts with the severity and lists errors, then warnings, then
// notes, by rule id within a severity, in every run; it has a New column
// only when new-ness is known (a baseline). Without a baseline it was by
// registry order, severities listed together in a third column.
func TestRulesTableSeverityFirstEverywhere(t *testing.T) {
	for _, c := range []struct {
		name string
		md   string
		want []string
	}{
		{"no baseline", write(t, fixture.NoBaseline(t), 0), []string{
			"Severity|Rule|Name|Findings",
			"❌ error|IN-001|unreadable-input|1",
			"❌ error|MG-001|invalid-target|1",
			"⚠️ warning|IN-001|unreadable-input|2",
			"⚠️ warning|TH-002|thread-id-mismatch|1",
			"⚠️ warning|XX-999||1",
			"ℹ️ note|IN-001|unreadable-input|1",
			"ℹ️ note|MB-001|body-markup|2",
		}},
		{"baseline", write(t, fixture.Report(t), 0), []string{
			"Severity|Rule|Name|Findings|New",
			"❌ error|IN-001|unreadable-input|1|1",
			"❌ error|MG-001|invalid-target|1|1",
			"⚠️ warning|IN-001|unreadable-input|2|2",
			"⚠️ warning|TH-002|thread-id-mismatch|1|0",
			"⚠️ warning|XX-999||1|1",
			"ℹ️ note|IN-001|unreadable-input|1|1",
			"ℹ️ note|MB-001|body-markup|2|2",
		}},
	} {
		var got []string
		for _, row := range table(t, c.md, "Rules") {
			got = append(got, strings.Join(row, "|"))
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s: rules table\n%s\nwant\n%s", c.name, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}
