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
