package reporters

import (
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
)

func TestSafe(t *testing.T) {
	for in, want := range map[string]string{
		"plain id":                "plain id",
		"::warning file=a::pwned": `\x3a:warning file=a::pwned`,
		"x\n::add-mask::secret":   `x\n::add-mask::secret`,
		"red \x1b[31mtext\x1b[0m": `red \x1b[31mtext\x1b[0m`,
		"csi \u009b31m":           `csi \u009b31m`,
		"nul\x00 del\x7f cr\r":    `nul\x00 del\x7f cr\r`,
		"bad \xff utf8":           `bad \xff utf8`,
		"tab\tand § é":            "tab\tand § é",
		"::":                      `\x3a:`,
		"a::stop-commands::tok b": "a::stop-commands::tok b",
		"x ##[error]forged":       `x #\x23[error]forged`,
		"rtl \u202eevil":          `rtl \u202eevil`,
		"line\u2028sep":           `line\u2028sep`,
	} {
		got := Safe(in)
		if got != want {
			t.Errorf("Safe(%q) = %q, want %q", in, got, want)
		}
		if strings.ContainsAny(got, "\n\r\x1b\x00") || strings.HasPrefix(got, "::") {
			t.Errorf("Safe(%q) = %q is not one safe line", in, got)
		}
	}
}

// TestPathsShared: the reporters of one report share one path resolver, so
// each input path is resolved once per run, not once per format.
func TestPathsShared(t *testing.T) {
	r1, r2 := &diag.Report{RepoRoot: t.TempDir()}, &diag.Report{RepoRoot: t.TempDir()}
	if a, b := PathsFor(r1), PathsFor(r1); a != b {
		t.Error("one report, two resolvers")
	}
	if PathsFor(r2) == PathsFor(r1) {
		t.Error("two reports, one resolver")
	}
}
