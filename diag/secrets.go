package diag

import (
	"crypto/sha256"
	"encoding/hex"
	"math/bits"
	"regexp"
	"sort"
	"strings"
)

// Credential-looking strings in input text. brenner-ci never copies one into
// a report or a log: RedactSecrets replaces each by its kind and a short
// hash (so findings stay distinguishable), and the SC- rules report where
// they are so the team can rotate them.
//
// The kinds are one hand-kept table (see secretPatterns), each with its test
// in secrets_test.go. Token shapes with a fixed prefix (ghp_, npm_, glpat-,
// AIza …) never rely on a word boundary after the token: a token followed by
// "_old", letters or digits is still a token, and the whole run of token
// characters is the match. Where a boundary before the token keeps prose
// from matching (sk-, AKIA, eyJ, AIza, xox…-, bearer), it is "not after an
// ASCII letter or digit", written into the expression (boundary below), so
// that "key_AKIA…" still matches and the search stays linear.
//
// Case-insensitive key names are spelled with ASCII classes (ci), never
// (?i): Go's (?i) also folds ſ to s and K (Kelvin) to k, which the prefilter
// (mayHoldSecret) would have to follow byte by byte.
var secretPatterns = []secretPattern{
	{Kind: "GitHub token", RE: regexp.MustCompile(`(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}[A-Za-z0-9_]*`)},
	{Kind: "GitHub fine-grained token", RE: regexp.MustCompile(`github_pat_[A-Za-z0-9_]{22,}`)},
	{Kind: "GitLab token", RE: regexp.MustCompile(`glpat-[A-Za-z0-9_-]{20,}`)},
	{Kind: "npm token", RE: regexp.MustCompile(`npm_[A-Za-z0-9]{36}[A-Za-z0-9_]*`)},
	{Kind: "Stripe key", RE: regexp.MustCompile(`(?:sk|rk)_live_[A-Za-z0-9]{24}[A-Za-z0-9_]*`)},
	{Kind: "Slack token", RE: regexp.MustCompile(boundary + `(xox[abposr]-[0-9]{1,16}-[A-Za-z0-9-]{8,}[A-Za-z0-9_-]*)`)},
	{Kind: "Google API key", RE: regexp.MustCompile(boundary + `(AIza[A-Za-z0-9_-]{35,})`)},
	{Kind: "AWS access key", RE: regexp.MustCompile(boundary + `((?:AKIA|ASIA)[0-9A-Z]{16}[A-Za-z0-9_]*)`)},
	{Kind: "AWS secret access key", RE: regexp.MustCompile(
		`(?:` + ci("aws") + `[_.-]?` + ci("secret") + `[_.-]?(?:` + ci("access") + `[_.-]?)?` + ci("key") +
			`|` + ci("secret") + `[_.-]?` + ci("access") + `[_.-]?` + ci("key") + `)` +
			`["']?\s*[:=]\s*["']?([A-Za-z0-9/+]{40}[A-Za-z0-9/+=_]*)`)},
	{Kind: "API key", RE: regexp.MustCompile(boundary + `(sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,})`)},
	{Kind: "JWT", RE: regexp.MustCompile(boundary + `(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})`)},
	{Kind: "bearer token", RE: regexp.MustCompile(boundary + `(` + ci("bearer") + `\s+[A-Za-z0-9._~+/_-]{20,}=*)`)},
	{Kind: "registration token", RE: regexp.MustCompile(ci("registration_token") + `["']?\s*[:=]\s*["']?[A-Za-z0-9._-]{8,}`)},
	{Kind: "private key", find: findPrivateKeys},
}

// boundary starts an expression whose first group is the secret, which
// starts with a letter: the secret is at the start of the text or after a
// byte that is not an ASCII letter or digit. \b consumes nothing, so the
// byte may end the match before (FindAll goes on from there); "_" is the
// one word byte that may precede a secret, and a match before never ends
// just before it (each pattern's run of token characters takes "_").
const boundary = `(?:\b|_)`

// ci spells an ASCII word case-insensitively: ci("key") is [Kk][Ee][Yy].
func ci(word string) string {
	var b strings.Builder
	for i := 0; i < len(word); i++ {
		c := word[i]
		lo, up := c|0x20, c&^0x20
		if lo < 'a' || lo > 'z' {
			b.WriteString(regexp.QuoteMeta(word[i : i+1]))
			continue
		}
		b.WriteByte('[')
		b.WriteByte(up)
		b.WriteByte(lo)
		b.WriteByte(']')
	}
	return b.String()
}

// secretPattern is one kind of credential: an expression (the secret is its
// first group when it has one, else the whole match) or, where an
// expression cannot say it in linear time, a function.
type secretPattern struct {
	Kind string
	RE   *regexp.Regexp
	find func(s string) [][2]int
}

// spans returns the byte ranges of p's secrets in s, in order.
func (p *secretPattern) spans(s string) [][2]int {
	if p.find != nil {
		return p.find(s)
	}
	var out [][2]int
	if p.RE.NumSubexp() == 0 {
		for _, m := range p.RE.FindAllStringIndex(s, -1) {
			out = append(out, [2]int{m[0], m[1]})
		}
		return out
	}
	for _, m := range p.RE.FindAllStringSubmatchIndex(s, -1) {
		out = append(out, [2]int{m[2], m[3]})
	}
	return out
}

// PEM private keys: "-----BEGIN <label>PRIVATE KEY<rest>-----" through the
// matching END line, or, when the next "-----" is not that line, through
// the base64 body that follows the BEGIN line (a pasted key cut short is
// still a key). A block whose body holds no run of 16 base64 characters
// (a placeholder such as "...") is not a key. Each byte is looked at a
// bounded number of times, whatever the text.
const (
	pemBegin = "-----BEGIN "
	maxLabel = 64
)

func findPrivateKeys(s string) [][2]int {
	var out [][2]int
	for off := 0; off < len(s); {
		i := strings.Index(s[off:], pemBegin)
		if i < 0 {
			break
		}
		start := off + i
		off = start + len(pemBegin)
		head := s[off:min(len(s), off+maxLabel+5)]
		j := strings.Index(head, "-----")
		if j < 0 || !pemLabel(head[:j]) {
			continue
		}
		label := head[:j]
		body := off + j + 5
		// A key's body holds no "-----": the first one after it is its END
		// line, and no other BEGIN starts before it.
		end := -1
		if k := strings.Index(s[body:], "-----"); k >= 0 && strings.HasPrefix(s[body+k:], "-----END "+label+"-----") && base64Run(s[body:body+k]) {
			end = body + k + len("-----END "+label+"-----")
		} else if n := pemBody(s[body:]); n > 0 {
			end = body + n
		}
		if end < 0 {
			continue
		}
		out = append(out, [2]int{start, end})
		off = end
	}
	return out
}

// pemLabel reports whether l is the label of a private key block ("RSA
// PRIVATE KEY", "OPENSSH PRIVATE KEY", "PGP PRIVATE KEY BLOCK" …).
func pemLabel(l string) bool {
	if !strings.Contains(l, "PRIVATE KEY") {
		return false
	}
	for i := 0; i < len(l); i++ {
		if c := l[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ' || c == '-') {
			return false
		}
	}
	return true
}

func isBase64(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '='
}

// base64Run reports whether s holds 16 base64 characters in a row.
func base64Run(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		if isBase64(s[i]) {
			if n++; n == 16 {
				return true
			}
		} else {
			n = 0
		}
	}
	return false
}

// pemBody is the length of the base64 body at the start of s: base64
// characters and line breaks (also written as \n, \r in JSON text), or 0
// when it holds no run of 16 base64 characters.
func pemBody(s string) int {
	n := 0
	for n < len(s) {
		switch c := s[n]; {
		case isBase64(c), c == '\n', c == '\r':
			n++
		case c == '\\' && n+1 < len(s) && (s[n+1] == 'n' || s[n+1] == 'r'):
			n += 2
		default:
			if !base64Run(s[:n]) {
				return 0
			}
			return trimBreaks(s, n)
		}
	}
	if !base64Run(s[:n]) {
		return 0
	}
	return trimBreaks(s, n)
}

// trimBreaks moves n back over trailing line breaks.
func trimBreaks(s string, n int) int {
	for n > 0 {
		switch {
		case s[n-1] == '\n' || s[n-1] == '\r':
			n--
		case n >= 2 && s[n-2] == '\\' && (s[n-1] == 'n' || s[n-1] == 'r'):
			n -= 2
		default:
			return n
		}
	}
	return n
}

// Secret is one credential-looking match: its kind and byte range.
type Secret struct {
	Kind       string
	Start, End int
}

// mayHoldSecret is a cheap prefilter, run on every message body: a string
// it rejects cannot match a secret pattern (TestPrefilterMatchesPatterns and
// FuzzPrefilter hold it to the patterns). Every pattern's match holds one of
// a few anchor bytes with fixed bytes around it ("_" after "ghp", "J" after
// "ey" …); secretAnchor tests one. Where the processor has it, a vectorised
// search (anchors, prefilter_amd64.s) finds the candidate anchors 32 bytes at
// a time, else mayHoldSecretPlain searches for each anchor byte in turn.
func mayHoldSecret(s string) bool {
	if vectorised() {
		return mayHoldSecretVector(s)
	}
	return mayHoldSecretPlain(s)
}

// mayHoldSecretPlain is the prefilter as IndexByte passes (vectorised by Go
// itself), one per anchor byte: the plain form the vectorised search is held
// to (FuzzPrefilterVector).
func mayHoldSecretPlain(s string) bool {
	for _, c := range []byte("_-JAbBkK") {
		for off := 0; ; {
			j := strings.IndexByte(s[off:], c)
			if j < 0 {
				break
			}
			if secretAnchor(s, off+j) {
				return true
			}
			off += j + 1
		}
	}
	return false
}

// secretAnchor reports whether a credential pattern may match around s[i]:
// s[i] is an anchor byte with the bytes that must surround it.
func secretAnchor(s string, i int) bool {
	switch s[i] {
	case '_':
		return i >= 3 && s[i-3] == 'g' && s[i-2] == 'h' && strings.IndexByte("pousr", s[i-1]) >= 0 || // ghp_ gho_ ghu_ ghs_ ghr_
			i >= 6 && s[i-6:i] == "github" && strings.HasPrefix(s[i+1:], "pat_") || // github_pat_
			i >= 12 && asciiFold(s[i-12:i], "registration") && i+6 <= len(s) && asciiFold(s[i+1:i+6], "token") || // registration_token
			i >= 3 && s[i-3:i] == "npm" || // npm_
			i >= 2 && (s[i-2:i] == "sk" || s[i-2:i] == "rk") && strings.HasPrefix(s[i+1:], "live_") // sk_live_ rk_live_
	case '-':
		return i >= 2 && s[i-2:i] == "sk" || // sk- API keys
			i >= 5 && s[i-5:i] == "glpat" || // glpat-
			i >= 4 && s[i-4:i-1] == "xox" && strings.IndexByte("abposr", s[i-1]) >= 0 // xoxb- …
	case 'J': // JWT
		return i >= 2 && s[i-2:i] == "ey"
	case 'A': // AKIA, ASIA, AIza
		return i+4 <= len(s) && (s[i+1:i+4] == "KIA" || s[i+1:i+4] == "SIA" || s[i+1:i+4] == "Iza")
	case 'b', 'B':
		return i+6 <= len(s) && asciiFold(s[i:i+6], "bearer") ||
			i >= 5 && strings.HasPrefix(s[i-5:], pemBegin) // -----BEGIN
	case 'k', 'K': // "key" with "secret" in the 14 bytes before it (the AWS
		// secret access key names put at most "_access_" between them)
		if i+3 > len(s) || !asciiFold(s[i:i+3], "key") {
			return false
		}
		before := s[max(0, i-14):i]
		for j := 0; j+6 <= len(before); j++ {
			if asciiFold(before[j:j+6], "secret") {
				return true
			}
		}
	}
	return false
}

// mayHoldSecretVector is mayHoldSecretPlain with the anchors found by the
// vectorised search: anchors returns the next 32-byte block holding a
// candidate (an anchor byte whose neighbours fit one of its shapes, a
// superset of what secretAnchor accepts), and secretAnchor decides each.
// The search reads two bytes before and after each block: the first two
// bytes and the last two are tested here one by one, and the bytes after
// the last whole block by one more block, [n-34, n-2), whose reads end
// where the text does (its bytes tested before are masked off).
func mayHoldSecretVector(s string) bool {
	i := 0
	if n := len(s); n >= 2+anchorBlock+2 {
		if secretAnchor(s, 0) || secretAnchor(s, 1) {
			return true
		}
		i = 2
		for {
			at, mask := anchors(s, i)
			if mask == 0 {
				i = at
				break
			}
			if anyAnchor(s, at, mask) {
				return true
			}
			i = at + anchorBlock
		}
		if last := n - 2 - anchorBlock; i < n-2 {
			if _, mask := anchors(s, last); anyAnchor(s, last, mask&^(1<<(i-last)-1)) {
				return true
			}
			i = n - 2
		}
	}
	for ; i < len(s); i++ {
		if secretAnchor(s, i) {
			return true
		}
	}
	return false
}

// anyAnchor reports whether secretAnchor accepts one of the candidates of
// the block at s[at:] that mask flags.
func anyAnchor(s string, at int, mask uint32) bool {
	for ; mask != 0; mask &= mask - 1 {
		if secretAnchor(s, at+bits.TrailingZeros32(mask)) {
			return true
		}
	}
	return false
}

// asciiFold reports whether s equals the lower-case ASCII word w, ignoring
// ASCII case only (as ci does).
func asciiFold(s, w string) bool {
	if len(s) != len(w) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}

// FindSecrets returns the credential-looking strings of s: pattern by
// pattern (table order), each in text order. Two kinds may match the same
// text ("Bearer eyJ…" is a bearer token and a JWT).
func FindSecrets(s string) []Secret {
	if !mayHoldSecret(s) {
		return nil
	}
	return findSecrets(s)
}

// findSecrets is FindSecrets without the prefilter.
func findSecrets(s string) []Secret {
	var out []Secret
	for i := range secretPatterns {
		p := &secretPatterns[i]
		for _, m := range p.spans(s) {
			out = append(out, Secret{Kind: p.Kind, Start: m[0], End: m[1]})
		}
	}
	return out
}

// RedactSecrets replaces every credential-looking string of s with
// "[redacted KIND #hash]", the hash being the first 8 hex digits of the
// value's SHA-256 (stable, so findings stay distinguishable). Overlapping
// matches are one value, named by the match that starts first (the
// longest, then the first in the table, when two start together). The
// result holds no credential-looking string, so redacting it again changes
// nothing.
func RedactSecrets(s string) string {
	found := FindSecrets(s)
	if len(found) == 0 {
		return s
	}
	order := make([]int, len(found)) // found is in table order: the index breaks ties
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := &found[order[a]], &found[order[b]]
		if x.Start != y.Start {
			return x.Start < y.Start
		}
		return x.End > y.End
	})
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for k := 0; k < len(order); {
		cur := found[order[k]]
		for k++; k < len(order) && found[order[k]].Start < cur.End; k++ {
			cur.End = max(cur.End, found[order[k]].End)
		}
		sum := sha256.Sum256([]byte(s[cur.Start:cur.End]))
		b.WriteString(s[at:cur.Start])
		b.WriteString("[redacted " + cur.Kind + " #" + hex.EncodeToString(sum[:4]) + "]")
		at = cur.End
	}
	b.WriteString(s[at:])
	return b.String()
}
