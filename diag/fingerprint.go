package diag

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Fingerprints returns one stable fingerprint per finding, in the shape
// "<16 hex digits>:<n>" that GitHub code scanning expects for
// primaryLocationLineHash. The hash covers the rule id, thread, message id,
// file and the normalized anchor text, never line numbers, so a finding keeps
// its fingerprint when edits move it; n counts earlier findings with the same
// hash (in the given order) so that equal findings still differ.
func Fingerprints(fs []Finding) []string {
	out := make([]string, len(fs))
	seen := make(map[string]int, len(fs))
	for i := range fs {
		h := FingerprintHash(&fs[i])
		seen[h]++
		out[i] = fmt.Sprintf("%s:%d", h, seen[h])
	}
	return out
}

// FingerprintHash is the hash part of a finding's fingerprint.
func FingerprintHash(f *Finding) string {
	anchor := f.Anchor
	if anchor == "" {
		anchor = f.Message
	}
	h := sha256.New()
	// White space collapsed: re-indentation does not change a fingerprint.
	for _, part := range []string{f.Rule, f.Thread, f.MsgID, f.Pos.File, CollapseSpace(anchor)} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
