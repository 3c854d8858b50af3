package markdown_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
)

var emRE = regexp.MustCompile(`(?s) — <em>(.*?)</em></li>`)

// TestHintsRenderAsWritten: a hint, as GitHub renders the summary (GFM,
// through goldmark), reads as written — one italic run, without a
// backslash, an underscore or a star it did not have, whatever markdown
// punctuation it holds.
func TestHintsRenderAsWritten(t *testing.T) {
	for _, hint := range []string{
		`Write C:\path\to\file, not C:/path.`,
		`Use informed_by, not informed by.`,
		"Wrap the delta in ```delta and ``` lines; `refines` is a relation.",
		`*Not* emphasis, **not** strong, _not_ either.`,
		`A backslash at the end \`,
		`Already escaped: \_ \* \` + "\\`" + ` \\ stay as written.`,
		`Pipes | and <b>tags</b> & entities &amp; stay text.`,
		`  Padded with spaces.  `,
		`_Starts and ends with underscores_`,
		`Ends with a star *`,
	} {
		r := &diag.Report{FailOn: diag.Error, Findings: []diag.Finding{{Rule: "RF-003", Severity: diag.Warning, Message: "m", Hint: hint}}, Fingerprints: []string{"f"}}
		html := render(t, write(t, r, 0))
		m := emRE.FindStringSubmatch(html)
		if m == nil {
			t.Errorf("hint %q is not one italic run:\n%s", hint, html[strings.Index(html, "<li>"):])
			continue
		}
		if want := strings.TrimSpace(hint); m[1] != want {
			t.Errorf("hint %q renders as %q", hint, m[1])
		}
	}
}
