package diag

import (
	"strings"
	"testing"
)

func TestSecrets(t *testing.T) {
	for _, v := range []string{
		"ghp_" + strings.Repeat("a1B2", 9),
		"github_pat_" + strings.Repeat("x", 30),
		"AKIAIOSFODNN7EXAMPLE",
		"sk-" + strings.Repeat("Z", 32),
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
		"Bearer " + strings.Repeat("q", 40),
		`registration_token: "AABBCCDDEEFF0011"`,
	} {
		in := "before " + v + " after"
		if got := FindSecrets(in); len(got) != 1 || in[got[0].Start:got[0].End] == "" {
			t.Errorf("%q: found %v", v, got)
		}
		out := RedactSecrets(in)
		if strings.Contains(out, v) || !strings.Contains(out, "[redacted ") || !strings.HasPrefix(out, "before ") || !strings.HasSuffix(out, " after") {
			t.Errorf("%q redacted as %q", v, out)
		}
		if RedactSecrets(in) != out {
			t.Error("redaction is not stable")
		}
	}
	for _, s := range []string{"a plain subject", "sk-short", "the token is in the vault", "ghp_short", "eyJ alone"} {
		if FindSecrets(s) != nil || RedactSecrets(s) != s {
			t.Errorf("%q: false positive", s)
		}
	}
}

// TestPrefilterMatchesPatterns: the prefilter never rejects a string that a
// pattern matches, whatever surrounds the secret or how it is cased.
func TestPrefilterMatchesPatterns(t *testing.T) {
	secrets := []string{
		"ghp_" + strings.Repeat("a1B2", 9), "gho_" + strings.Repeat("x", 36), "ghu_" + strings.Repeat("x", 36),
		"ghs_" + strings.Repeat("x", 36), "ghr_" + strings.Repeat("x", 36), "github_pat_" + strings.Repeat("x", 30),
		"AKIAIOSFODNN7EXAMPLE", "ASIAIOSFODNN7EXAMPLE", "sk-" + strings.Repeat("Z", 32), "sk-proj-" + strings.Repeat("Z", 32),
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
		"Bearer " + strings.Repeat("q", 40), "bEaReR " + strings.Repeat("q", 40), "BEARER\t" + strings.Repeat("q", 40),
		`registration_token: "AABBCCDDEEFF0011"`, `REGISTRATION_TOKEN="AABBCCDDEEFF0011"`, `Registration_Token='AABBCCDDEEFF0011'`,
	}
	for _, v := range secrets {
		for _, in := range []string{v, "x " + v, "- sk_ ey A b B _ " + v + "\n", "é" + v + "é"} {
			if !mayHoldSecret(in) {
				t.Errorf("prefilter rejects %q", in)
			}
			if len(FindSecrets(in)) == 0 {
				t.Errorf("no secret found in %q", in)
			}
		}
	}
	for _, in := range []string{"", "plain text with - dashes and A capitals", "snake_case_names and ey-J"} {
		if mayHoldSecret(in) {
			t.Errorf("prefilter accepts %q", in)
		}
	}
}
