package diag

import (
	"strings"
	"testing"
)

// secretKinds holds, for every kind of the table, credentials it must find
// (each alone is exactly one secret of that kind) and near misses it must
// not. TestSecretKinds checks that every kind has a case.
var secretKinds = map[string]struct{ yes, no []string }{
	"GitHub token": {
		yes: []string{"ghp_" + strings.Repeat("a1B2", 9), "gho_" + strings.Repeat("x", 36), "ghu_" + strings.Repeat("x", 36),
			"ghs_" + strings.Repeat("x", 36), "ghr_" + strings.Repeat("x", 36)},
		no: []string{"ghp_short", "ghx_" + strings.Repeat("x", 36), "ghp_" + strings.Repeat("x", 35)},
	},
	"GitHub fine-grained token": {
		yes: []string{"github_pat_" + strings.Repeat("x", 30), "github_pat_11ABCDEFG0_" + strings.Repeat("z", 59)},
		no:  []string{"github_pat_short", "github_token"},
	},
	"GitLab token": {
		yes: []string{"glpat-" + strings.Repeat("Ab3_-", 4), "glpat-xxxxxxxxxxxxxxxxxxxx"},
		no:  []string{"glpat-short", "glpat_" + strings.Repeat("x", 20)},
	},
	"npm token": {
		yes: []string{"npm_" + strings.Repeat("aZ09", 9)},
		no:  []string{"npm_install", "npm_" + strings.Repeat("a", 35), "npm_config_cache"},
	},
	"Stripe key": {
		yes: []string{"sk_live_" + strings.Repeat("4eC39HqL", 3), "rk_live_" + strings.Repeat("Ab1", 33)},
		no:  []string{"sk_test_" + strings.Repeat("4eC39HqL", 3), "sk_live_short", "task_live_view"},
	},
	"Slack token": {
		yes: []string{"xoxb-" + "17653672481-19874698323-" + strings.Repeat("pdFZKVeT", 3), "xoxp-1234567890-1234567890-1234567890-" + strings.Repeat("ab12", 8),
			"xoxa-2-" + strings.Repeat("Q", 40), "xoxs-1-abcdefghij", "xoxr-99-" + strings.Repeat("r", 30), "xoxo-7-" + strings.Repeat("o", 30)},
		no: []string{"xoxo-hugs", "xoxz-1234-abcdefghij", "xoxb-" + strings.Repeat("a", 30), "xoxb-12-short"},
	},
	"Google API key": {
		yes: []string{"AIza" + strings.Repeat("SyA-", 8) + "1_2", "AIza" + strings.Repeat("SyDa-Gm_W", 4)},
		no:  []string{"AIza" + strings.Repeat("x", 34), "AIzaSy short", "xAIza" + strings.Repeat("x", 35)},
	},
	"AWS access key": {
		yes: []string{"AKIAIOSFODNN7EXAMPLE", "ASIAIOSFODNN7EXAMPLE"},
		no:  []string{"AKIAshort", "AKIAIOSFODNN7EXAMPL", "XAKIAIOSFODNN7EXAMPLE"},
	},
	"AWS secret access key": {
		yes: []string{
			"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
			"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
			`"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"`,
			"aws-secret-key: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
			"export MY_AWS_SECRET_ACCESS_KEY='wJalrXUtnFEMI+K7MDENG+bPxRfiCYEXAMPLEKEY'",
		},
		no: []string{
			"aws_secret_access_key = short",
			"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKE", // 39 characters
			"secret = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
			"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		},
	},
	"API key": {
		yes: []string{"sk-" + strings.Repeat("Z", 32), "sk-proj-" + strings.Repeat("Z", 32), "sk-ant-api03-" + strings.Repeat("Z", 40)},
		no:  []string{"sk-short", "task-" + strings.Repeat("z", 30)},
	},
	"JWT": {
		yes: []string{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"},
		no:  []string{"eyJ alone", "eyJhbGciOiJIUzI1NiJ9.notjwt.x"},
	},
	"bearer token": {
		yes: []string{"Bearer " + strings.Repeat("q", 40), "bEaReR " + strings.Repeat("q", 40), "BEARER\t" + strings.Repeat("q", 40)},
		no:  []string{"the bearer of the message", "Bearer short"},
	},
	"registration token": {
		yes: []string{`registration_token: "AABBCCDDEEFF0011"`, `REGISTRATION_TOKEN="AABBCCDDEEFF0011"`, `Registration_Token='AABBCCDDEEFF0011'`,
			"RUNNER_REGISTRATION_TOKEN=AABBCCDDEEFF0011"},
		no: []string{"registration_tokens: []", "registration token: AABBCCDDEEFF0011"},
	},
	"private key": {
		yes: []string{
			"-----BEGIN " + "RSA PRIVATE KEY-----\n" + strings.Repeat("MIIEowIBAAKCAQEA", 4) + "\n" + strings.Repeat("VTLw7onL+q/0Rnrq", 4) + "\n-----END RSA PRIVATE KEY-----",
			"-----BEGIN " + "PRIVATE KEY-----\r\n" + strings.Repeat("MIIEvQIBADANBgkq", 4) + "\r\n-----END PRIVATE KEY-----",
			// as JSON text:
			`-----BEGIN ` + `OPENSSH PRIVATE KEY-----\n` + strings.Repeat("b3BlbnNzaC1rZXkt", 4) + `\n-----END OPENSSH PRIVATE KEY-----`,
			// cut short:
			"-----BEGIN " + "EC PRIVATE KEY-----\n" + strings.Repeat("MHcCAQEEIIrYSSNQ", 3),
		},
		no: []string{
			"-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo\n-----END PUBLIC KEY-----",
			"-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
			"start the file with -----BEGIN OPENSSH PRIVATE KEY----- and end it with the END line",
		},
	},
}

// TestSecretKinds: every kind of the table finds its credentials, alone
// and in text, as exactly one secret spanning the credential, redacted
// stably; its near misses are left alone.
func TestSecretKinds(t *testing.T) {
	for _, p := range secretPatterns {
		if _, ok := secretKinds[p.Kind]; !ok {
			t.Errorf("kind %q has no test case", p.Kind)
		}
	}
	for kind, c := range secretKinds {
		for _, v := range c.yes {
			in := "before " + v + " after"
			got := FindSecrets(in)
			if len(got) != 1 || got[0].Kind != kind {
				t.Errorf("%s: %q: found %v", kind, v, got)
				continue
			}
			if s := in[got[0].Start:got[0].End]; !strings.Contains(v, s) || len(s) < 16 {
				t.Errorf("%s: %q: the secret is %q", kind, v, s)
			}
			out := RedactSecrets(in)
			if strings.Contains(out, in[got[0].Start:got[0].End]) || !strings.Contains(out, "[redacted "+kind+" #") ||
				!strings.HasPrefix(out, "before ") || !strings.HasSuffix(out, " after") {
				t.Errorf("%s: %q redacted as %q", kind, v, out)
			}
			if RedactSecrets(in) != out || RedactSecrets(out) != out {
				t.Errorf("%s: redaction is not stable: %q", kind, out)
			}
		}
		for _, v := range c.no {
			if got := FindSecrets(v); got != nil || RedactSecrets(v) != v {
				t.Errorf("%s: %q: false positive %v", kind, v, got)
			}
		}
	}
	for _, s := range []string{"a plain subject", "the token is in the vault", "snake_case and kebab-case", "-----BEGIN", "AIza"} {
		if FindSecrets(s) != nil || RedactSecrets(s) != s {
			t.Errorf("%q: false positive", s)
		}
	}
}

// TestTokenGluedToWordCharacters: a token with a fixed prefix is found and
// redacted whole when word characters follow it ("_old", letters, digits)
// or precede it ("dir_ghp_…"): no character of it stays visible.
func TestTokenGluedToWordCharacters(t *testing.T) {
	tok := "ghp_" + strings.Repeat("Zq9x", 9)
	for _, tc := range []struct{ in, kind, secret string }{
		{"use " + tok + "_old now", "GitHub token", tok + "_old"},
		{"use " + tok + "X9 now", "GitHub token", tok + "X9"},
		{"dir_" + tok + ".json", "GitHub token", tok},
		{"x" + tok + "_1", "GitHub token", tok + "_1"},
		{"github_pat_" + strings.Repeat("a", 30) + "_old.", "GitHub fine-grained token", "github_pat_" + strings.Repeat("a", 30) + "_old"},
		{"key_AKIAIOSFODNN7EXAMPLE_old", "AWS access key", "AKIAIOSFODNN7EXAMPLE_old"},
		{"npm_" + strings.Repeat("n", 36) + "_v2", "npm token", "npm_" + strings.Repeat("n", 36) + "_v2"},
		{"sk_live_" + strings.Repeat("s", 24) + "_old", "Stripe key", "sk_live_" + strings.Repeat("s", 24) + "_old"},
	} {
		got := FindSecrets(tc.in)
		if len(got) != 1 || got[0].Kind != tc.kind || tc.in[got[0].Start:got[0].End] != tc.secret {
			t.Errorf("%q: found %v, want %s %q", tc.in, got, tc.kind, tc.secret)
		}
		out := RedactSecrets(tc.in)
		if strings.Contains(out, tc.secret[4:16]) || !strings.Contains(out, "[redacted "+tc.kind+" #") {
			t.Errorf("%q redacted as %q", tc.in, out)
		}
	}
}

// TestRedactOverlapping: text two kinds match is one redacted value, named
// by the match that starts first.
func TestRedactOverlapping(t *testing.T) {
	jwt := secretKinds["JWT"].yes[0]
	in := "Authorization: Bearer " + jwt + " end"
	out := RedactSecrets(in)
	if strings.Count(out, "[redacted ") != 1 || !strings.Contains(out, "[redacted bearer token #") || strings.Contains(out, "eyJ") {
		t.Errorf("redacted as %q", out)
	}
	if out != RedactSecrets(in) {
		t.Error("not deterministic")
	}
}

// TestPrefilterMatchesPatterns: the prefilter never rejects a string that a
// pattern matches, whatever surrounds the secret.
func TestPrefilterMatchesPatterns(t *testing.T) {
	for _, c := range secretKinds {
		for _, v := range c.yes {
			for _, in := range []string{v, "x " + v, "- sk_ ey A b B k K _ " + v + "\n", "é" + v + "é", "_" + v + "_"} {
				if !mayHoldSecret(in) {
					t.Errorf("prefilter rejects %q", in)
				}
				if len(FindSecrets(in)) == 0 {
					t.Errorf("no secret found in %q", in)
				}
			}
		}
	}
	for _, in := range []string{"", "plain text with - dashes and A capitals", "snake_case_names and ey-J", "keys and secrets"} {
		if mayHoldSecret(in) {
			t.Errorf("prefilter accepts %q", in)
		}
	}
}

// FuzzPrefilter holds the prefilter to the patterns: when it rejects a
// string, no pattern matches it. It also checks that redaction is
// deterministic and leaves nothing to find.
func FuzzPrefilter(f *testing.F) {
	for _, c := range secretKinds {
		for _, v := range append(append([]string(nil), c.yes...), c.no...) {
			f.Add(v)
			f.Add("a " + v + "_b")
		}
	}
	// Near misses of the prefilter's anchors: non-ASCII case folds (ſ, K)
	// that (?i) would accept, and separators at the edges.
	f.Add("regiſtration_token: AABBCCDDEEFF0011")
	f.Add("aws_secret_access_\u212aey = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
	f.Add("ſecret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
	f.Add("SECRET.ACCESS.KEY:'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'")
	f.Add("xoxb-1-abcdefgh xoxp-")
	f.Add("-----BEGIN X PRIVATE KEY-----AAAAAAAAAAAAAAAAAAAA")
	f.Fuzz(func(t *testing.T, s string) {
		if !mayHoldSecret(s) {
			if got := findSecrets(s); len(got) > 0 {
				t.Fatalf("prefilter rejects %q, but %s matches %q", s, got[0].Kind, s[got[0].Start:got[0].End])
			}
			return
		}
		out := RedactSecrets(s)
		if out != RedactSecrets(s) {
			t.Fatalf("redaction of %q is not deterministic", s)
		}
		if got := findSecrets(out); len(got) > 0 {
			t.Fatalf("redaction of %q leaves %s %q", s, got[0].Kind, out[got[0].Start:got[0].End])
		}
	})
}
