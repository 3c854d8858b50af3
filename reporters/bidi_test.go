package reporters_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/brenner-ci/brenner-ci/reporters/internal/fixture"
	"github.com/brenner-ci/brenner-ci/reporters/junit"
	"github.com/brenner-ci/brenner-ci/reporters/markdown"
	"github.com/brenner-ci/brenner-ci/reporters/sarif"
)

// TestNoBidiControlsInReports: a right-to-left override (U+202E) or
// another invisible control in a file name, a thread id or a message never
// reaches a report raw — in the markdown as GitHub renders it (GFM through
// goldmark), the SARIF and the JUnit. Raw, it mirrored every finding line
// of that file in the job summary.
func TestNoBidiControlsInReports(t *testing.T) {
	const rlo, lri = "\u202e", "\u2066"
	r := fixture.Report(t)
	for i := range r.Findings {
		f := &r.Findings[i]
		f.Message = "before " + rlo + "txt.exe" + lri + " after"
		f.Thread = "RS-20260301-" + rlo + "x"
		f.Pos.File = "threads/" + rlo + "nosj.json"
	}
	for i := range r.Threads {
		r.Threads[i].Key = "RS-20260301-" + rlo + "x"
	}
	var md, sf, ju bytes.Buffer
	if err := markdown.Write(&md, r, 0); err != nil {
		t.Fatal(err)
	}
	var html bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(md.Bytes(), &html); err != nil {
		t.Fatal(err)
	}
	if err := sarif.Write(&sf, r); err != nil {
		t.Fatal(err)
	}
	if err := junit.Write(&ju, r); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"markdown": md.String(), "rendered markdown": html.String(), "SARIF": sf.String(), "JUnit": ju.String()} {
		for _, c := range []string{rlo, lri} {
			if strings.Contains(out, c) {
				t.Errorf("%s holds a raw U+%04X", name, []rune(c)[0])
			}
		}
	}
	if !strings.Contains(md.String(), `\u202e`) {
		t.Error("the markdown does not show the control escaped")
	}
}
