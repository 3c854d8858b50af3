package diag

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
)

// Credential-looking strings in input text. brenner-ci never copies one into
// a report or a log: RedactSecrets replaces each by its kind and a short
// hash (so findings stay distinguishable), and the SC- rules report where
// they are so the team can rotate them.
var secretPatterns = []struct {
	Kind string
	RE   *regexp.Regexp
}{
	{"GitHub token", regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b`)},
	{"GitHub fine-grained token", regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{22,255}\b`)},
	{"AWS access key", regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)},
	{"API key", regexp.MustCompile(`\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}\b`)},
	{"JWT", regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b`)},
	{"bearer token", regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/-]{20,}=*`)},
	{"registration token", regexp.MustCompile(`(?i)\bregistration_token["']?\s*[:=]\s*["']?[A-Za-z0-9._-]{8,}`)},
}

// Secret is one credential-looking match: its kind and byte range.
type Secret struct {
	Kind       string
	Start, End int
}

// mayHoldSecret is a cheap prefilter, run on every message body: a string
// it rejects cannot match a secret pattern. It looks for a rare byte of each
// pattern with IndexByte (vectorised) and checks the bytes around it, a
// handful of passes over the text instead of one search per pattern prefix
// (which stopped at every "e" and "s").
func mayHoldSecret(s string) bool {
	return anyAt(s, '_', func(i int) bool { // ghp_ gho_ ghu_ ghs_ ghr_, github_pat_, registration_token
		return i >= 3 && s[i-3] == 'g' && s[i-2] == 'h' && strings.IndexByte("pousr", s[i-1]) >= 0 ||
			i >= 6 && s[i-6:i] == "github" ||
			i >= 12 && strings.EqualFold(s[i-12:i], "registration")
	}) || anyAt(s, 'J', func(i int) bool { return i >= 2 && s[i-2:i] == "ey" }) || // JWT
		anyAt(s, '-', func(i int) bool { return i >= 2 && s[i-2:i] == "sk" }) || // sk- API keys
		anyAt(s, 'A', func(i int) bool { // AKIA, ASIA
			return i+4 <= len(s) && (s[i+1:i+4] == "KIA" || s[i+1:i+4] == "SIA")
		}) ||
		anyAt(s, 'b', isBearer(s)) || anyAt(s, 'B', isBearer(s))
}

func isBearer(s string) func(int) bool {
	return func(i int) bool { return i+6 <= len(s) && strings.EqualFold(s[i:i+6], "bearer") }
}

// anyAt reports whether ok holds at some index of byte c in s.
func anyAt(s string, c byte, ok func(int) bool) bool {
	for off := 0; ; {
		j := strings.IndexByte(s[off:], c)
		if j < 0 {
			return false
		}
		if ok(off + j) {
			return true
		}
		off += j + 1
	}
}

// FindSecrets returns the credential-looking strings of s, in order.
func FindSecrets(s string) []Secret {
	if !mayHoldSecret(s) {
		return nil
	}
	var out []Secret
	for _, p := range secretPatterns {
		for _, m := range p.RE.FindAllStringIndex(s, -1) {
			out = append(out, Secret{Kind: p.Kind, Start: m[0], End: m[1]})
		}
	}
	return out
}

// RedactSecrets replaces every credential-looking string of s with
// "[redacted KIND #hash]", the hash being the first 8 hex digits of the
// value's SHA-256 (stable, so findings stay distinguishable).
func RedactSecrets(s string) string {
	if !mayHoldSecret(s) {
		return s
	}
	for _, p := range secretPatterns {
		s = p.RE.ReplaceAllStringFunc(s, func(v string) string {
			sum := sha256.Sum256([]byte(v))
			return "[redacted " + p.Kind + " #" + hex.EncodeToString(sum[:4]) + "]"
		})
	}
	return s
}
