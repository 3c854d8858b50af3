package rules_test

import (
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/rules"
)

// TestCredentialKinds: SC-001 finds every kind of credential in a message
// body through the real flow, once, and names its kind.
func TestCredentialKinds(t *testing.T) {
	r := rules.Lookup("SC-001")
	for kind, v := range map[string]string{
		"GitHub token":          "ghp_" + strings.Repeat("Zq9x", 9) + "_old",
		"AWS secret access key": "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"Stripe key":            "sk_live_" + strings.Repeat("4eC39HqLyjWDarjt", 2),
		"Slack token":           "xoxb-" + "17653672481-19874698323-" + strings.Repeat("pdFZKVeT", 3),
		"Google API key":        "AIza" + strings.Repeat("SyDa-Gm_W", 4),
		"npm token":             "npm_" + strings.Repeat("aZ09", 9),
		"GitLab token":          "glpat-" + strings.Repeat("Ab3_-", 4),
		"private key":           "-----BEGIN " + "OPENSSH PRIVATE KEY-----\n" + strings.Repeat("b3BlbnNzaC1rZXkt", 4) + "\n-----END OPENSSH PRIVATE KEY-----",
	} {
		got := runExample(t, r, "# Notes\n\nUse this to fetch the data:\n\n"+v+"\n\nThanks.\n")
		if len(got) != 1 || !strings.Contains(got[0], "("+kind+")") {
			t.Errorf("%s: SC-001 reports %q", kind, got)
		}
	}
}
