// Package subject classifies Agent Mail subjects by their Brenner Protocol
// prefix (thread_subject_conventions_v0.1.md).
package subject

import (
	"regexp"
	"strconv"
	"strings"
)

// Kind is the message type named by the subject prefix.
type Kind int

const (
	Unknown Kind = iota
	Kickoff
	Delta
	Compiled
	Critique
	Ack
	Claim
	Handoff
	Blocked
	Question
	Info
)

var kindNames = [...]string{"UNKNOWN", "KICKOFF", "DELTA", "COMPILED", "CRITIQUE", "ACK", "CLAIM", "HANDOFF", "BLOCKED", "QUESTION", "INFO"}

func (k Kind) String() string { return kindNames[k] }

// Subject is a parsed subject line.
type Subject struct {
	Raw  string
	Kind Kind
	// Role is the DELTA[role] tag as written (empty for other kinds).
	Role string
	// Desc is the description after the prefix's colon, trimmed.
	Desc string
	// DescOff is the byte offset of Desc in Raw (len(Raw) when Desc is empty).
	DescOff int
	// Strict reports whether the subject matches the spec's prefix pattern
	// ^(KICKOFF|DELTA\[[a-z]+\]|COMPILED|…|INFO): exactly.
	Strict bool
	// Version is the N of "COMPILED: vN …" (0 when absent); StrictVersion is
	// true when vN directly follows the prefix, as the publish spec requires.
	Version       int
	StrictVersion bool
}

// StrictPrefix is the spec's subject pattern (thread conventions, Subject Validation).
var StrictPrefix = regexp.MustCompile(`^(KICKOFF|DELTA\[[a-z]+\]|COMPILED|CRITIQUE|ACK|CLAIM|HANDOFF|BLOCKED|QUESTION|INFO):`)

var (
	lenientDelta  = regexp.MustCompile(`(?i)^DELTA\[([^\]]*)\]\s*:`)
	lenientPrefix = regexp.MustCompile(`(?i)^(KICKOFF|COMPILED|CRITIQUE|ACK|CLAIM|HANDOFF|BLOCKED|QUESTION|INFO)\s*:`)
	strictVersion = regexp.MustCompile(`^v(\d+)\b`)
	anyVersion    = regexp.MustCompile(`(?i)\bv(\d+)\b`)
)

// Parse classifies s. Classification is case-insensitive, as the reference
// implementation's is, so that a subject with a wrong-case prefix still gets
// compiled and is reported (MB-001) instead of silently ignored.
//
// The patterns above define it (parseRegexp); Parse reads the bytes
// directly (parse.go), a sixth of the time, and falls back to the patterns
// for the rare subject it cannot decide by ASCII alone. FuzzParseFast holds
// the two to the same result.
func Parse(s string) Subject {
	if sub, ok := parseFast(s); ok {
		return sub
	}
	return parseRegexp(s)
}

// parseRegexp is Parse by the patterns: the definition parseFast is held to.
func parseRegexp(s string) Subject {
	sub := Subject{Raw: s, DescOff: len(s)}
	t := strings.TrimLeft(s, " \t")
	lead := len(s) - len(t)
	sub.Strict = StrictPrefix.MatchString(s)
	var end int
	if m := lenientDelta.FindStringSubmatchIndex(t); m != nil {
		sub.Kind = Delta
		sub.Role = t[m[2]:m[3]]
		end = m[1]
	} else if m := lenientPrefix.FindStringSubmatchIndex(t); m != nil {
		switch strings.ToUpper(t[m[2]:m[3]]) {
		case "KICKOFF":
			sub.Kind = Kickoff
		case "COMPILED":
			sub.Kind = Compiled
		case "CRITIQUE":
			sub.Kind = Critique
		case "ACK":
			sub.Kind = Ack
		case "CLAIM":
			sub.Kind = Claim
		case "HANDOFF":
			sub.Kind = Handoff
		case "BLOCKED":
			sub.Kind = Blocked
		case "QUESTION":
			sub.Kind = Question
		case "INFO":
			sub.Kind = Info
		}
		end = m[1]
	} else {
		return sub
	}
	rest := t[end:]
	trimmed := strings.TrimLeft(rest, " \t")
	sub.DescOff = lead + end + (len(rest) - len(trimmed))
	sub.Desc = strings.TrimRight(trimmed, " \t\r\n")
	if sub.Kind == Compiled {
		if m := strictVersion.FindStringSubmatch(sub.Desc); m != nil {
			sub.Version, _ = strconv.Atoi(m[1])
			sub.StrictVersion = true
		} else if m := anyVersion.FindStringSubmatch(sub.Desc); m != nil {
			sub.Version, _ = strconv.Atoi(m[1])
		}
	}
	return sub
}
