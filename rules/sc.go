package rules

// SC-: credentials in the input. brenner-ci never copies a credential into a
// report (see diag.RedactSecrets); these rules say where one is, and its
// kind, so the team can rotate it.

import (
	"fmt"

	"github.com/brenner-ci/brenner-ci/diag"
)

var scRules = []Rule{
	{ID: "SC-001", Name: "credential-in-message", Code: "CREDENTIAL_IN_MESSAGE", Family: "SC", Severity: diag.Error, Scope: ScopeMessage, Spec: "brenner-ci security (docs/security.md)",
		Short: "No credential in a message's subject, sender or body.",
		Full:  "A credential-looking string in a message — a GitHub token (ghp_…, github_pat_…), a GitLab token (glpat-…), an npm token (npm_…), a Stripe key (sk_live_…, rk_live_…), a Slack token (xoxb-… and the other xox?- kinds), a Google API key (AIza…), an AWS access key (AKIA…) or secret access key (after an aws_secret_access_key-like name), an sk-… API key, a JWT, a bearer token, a registration_token value, a PEM private key — is published with the export. The finding gives its place and kind, never the value (every report redacts it); rotate the credential and remove it from the export.",
		Check: checkMessageCredentials},
	{ID: "SC-002", Name: "credential-in-artifact", Code: "CREDENTIAL_IN_ARTIFACT", Family: "SC", Severity: diag.Error, Scope: ScopeArtifact, Spec: "brenner-ci security (docs/security.md)",
		Short: "No credential in a persisted artifact.",
		Full:  "A credential-looking string in a persisted artifact (see SC-001 for the kinds) is published with the repository. The finding gives its place and kind, never the value; rotate the credential and remove it from the file.",
		Check: checkArtifactCredentials},
}

func checkMessageCredentials(c *Ctx) {
	m := c.M
	for _, field := range []struct{ name, text string }{{"subject", m.Subject.Raw}, {"from", m.From}} {
		for _, s := range diag.FindSecrets(field.text) {
			c.report(m, m.Pos(field.name), fmt.Sprintf("The message's %s holds a credential (%s).", field.name, s.Kind),
				"Rotate the credential, then remove it from the export.", fmt.Sprintf("%s %s %d", field.name, s.Kind, s.Start))
		}
	}
	for _, s := range diag.FindSecrets(m.Body) {
		c.report(m, m.BodyPos(s.Start, s.End), fmt.Sprintf("The message body holds a credential (%s).", s.Kind),
			"Rotate the credential, then remove it from the export.", fmt.Sprintf("body %s %d", s.Kind, s.Start))
	}
}

func checkArtifactCredentials(c *Ctx) {
	src := string(c.P.Src)
	if len(src) == 0 {
		return
	}
	li := diag.NewLineIndex(c.P.Src)
	for _, s := range diag.FindSecrets(src) {
		c.reportAt(li.Span(c.P.File, s.Start, s.End), fmt.Sprintf("The artifact holds a credential (%s).", s.Kind),
			"Rotate the credential, then remove it from the file.", fmt.Sprintf("%s %d", s.Kind, s.Start))
	}
}
