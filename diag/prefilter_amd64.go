package diag

import "golang.org/x/sys/cpu"

// anchorBlock is the number of bytes anchors tests at once.
const anchorBlock = 32

// vectorised reports whether anchors may run: it needs AVX2. It is read on
// every call so that a benchmark can time the plain form in the same run
// (GODEBUG=cpu.avx2=off turns it off for a whole process).
func vectorised() bool { return cpu.X86.HasAVX2 }

// anchorShapes are what anchors flags: byte i of s is a candidate when it
// and its neighbours s[i-2], s[i-1], s[i+1], s[i+2] fit one shape, each
// position one of the listed bytes ("" is any byte). Every text at which
// secretAnchor accepts fits one (TestPrefilterVector and
// FuzzPrefilterVector hold them to it); the shapes only thin out what
// secretAnchor is asked about.
var anchorShapes = [8][5]string{
	{"", "", "bB", "eE", "aAG"},        // bearer, -----BEGIN
	{"", "", "kK", "eE", "yY"},         // key (after "secret")
	{"", "", "A", "KSI", "Iz"},         // AKIA, ASIA, AIza
	{"", "y", "J", "", ""},             // eyJ
	{"hp", "", "_", "", ""},            // ghp_ gho_ ghu_ ghs_ ghr_, npm_
	{"uoOsr", "bnNk", "_", "ptTl", ""}, // github_pat_, registration_token, sk_live_, rk_live_
	{"sa", "kt", "-", "", ""},          // sk-, glpat-
	{"x", "abposr", "-", "", ""},       // xoxb- …
}

// anchorTables are anchorShapes as anchors reads them: for each of the five
// positions, a table by low nibble then one by high nibble, each 16 bytes
// written twice (VPSHUFB looks up within each 16-byte half), then a row of
// 0x0F. Bit k of lo[c&15] & hi[c>>4] is set when byte c may stand at that
// position in shape k. A table by nibble holds a set's product (low nibbles
// × high nibbles of its bytes), so it may allow more bytes than listed:
// more candidates, never fewer.
var anchorTables = buildAnchorTables()

func buildAnchorTables() *[11][32]byte {
	var t [11][32]byte
	for k, shape := range anchorShapes {
		bit := byte(1) << k
		for p, set := range shape {
			lo, hi := &t[2*p], &t[2*p+1]
			for n := 0; n < 16; n++ {
				if set == "" {
					lo[n] |= bit
					hi[n] |= bit
				}
			}
			for i := 0; i < len(set); i++ {
				lo[set[i]&15] |= bit
				hi[set[i]>>4] |= bit
			}
		}
	}
	for r := 0; r < 10; r++ {
		copy(t[r][16:], t[r][:16])
	}
	for i := range t[10] {
		t[10][i] = 0x0F
	}
	return &t
}

// anchors tests the 32-byte blocks of s from offset i on (i ≥ 2), while a
// block and the two bytes after it are in s, and returns the first block
// holding a candidate (see anchorShapes), with one bit per candidate (bit k
// for s[at+k]). With no candidate left it returns (the first block it did
// not test, 0).
func anchors(s string, i int) (at int, mask uint32) {
	if i < 2 {
		panic("diag: anchors reads two bytes before its first block")
	}
	return anchorsAVX2(s, i, anchorTables)
}

//go:noescape
func anchorsAVX2(s string, i int, tab *[11][32]byte) (at int, mask uint32)
