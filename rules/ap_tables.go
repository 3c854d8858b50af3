package rules

// AP-011…AP-014: the publish spec's COMPILED validation table and version
// tracking rules that its Machine-Checkable Rules table (AP-001…AP-010,
// ap.go) does not number.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/subject"
	"github.com/brenner-ci/brenner-ci/diag"
)

var apTableRules = []Rule{
	{ID: "AP-011", Name: "compiled-version-skipped", Code: "AP-011", Family: "AP", Severity: diag.Error, Scope: ScopeThread, Spec: "artifact_publish_spec_v0.1.md, Version Numbering",
		Short: "COMPILED versions are not skipped.",
		Full:  "\"Each COMPILED message increments the version by 1; versions are never skipped or reused\": a COMPILED v3 after v1 skips v2. (A repeated or lower version is AP-002.)",
		Check: checkVersionSkipped},
	{ID: "AP-012", Name: "compiled-at-invalid", Code: "AP-012", Family: "AP", Severity: diag.Error, Scope: ScopeMessage, Spec: specAP + " (Compiled At: Required, valid ISO 8601)",
		Short: "COMPILED metadata has a valid ISO 8601 Compiled At.",
		Full:  "A COMPILED body's metadata must carry \"**Compiled At**:\" with an ISO 8601 date-time (2026-01-14T15:09:41Z, 2026-01-14T16:09:41+01:00, fractions allowed).",
		Check: checkCompiledAt},
	{ID: "AP-013", Name: "compiled-body-version-mismatch", Code: "AP-013", Family: "AP", Severity: diag.Error, Scope: ScopeMessage, Spec: specMB + "; message_body_schema_v0.1.md, COMPILED Validation (Version: v{N} in title or summary)",
		Short: "A COMPILED body states the subject's version.",
		Full:  "A COMPILED body must state its version — the \"# Compiled Artifact v{N}\" title or the \"**Version**: v{N}\" metadata line — and it must be the subject's v{N}.",
		Check: checkBodyVersion},
	{ID: "AP-014", Name: "previous-version-mismatch", Code: "AP-014", Family: "AP", Severity: diag.Warning, Scope: ScopeThread, Spec: "artifact_publish_spec_v0.1.md, Body Schema (Previous Version: v{N-1})",
		Short: "A COMPILED body's Previous Version is the previous COMPILED version.",
		Full:  "\"**Previous Version**: v{N-1} (if applicable)\" must name the version of the thread's previous COMPILED message; the first COMPILED message has none (\"none\", \"n/a\" and \"-\" are accepted).",
		Check: checkPreviousVersion},
}

func checkVersionSkipped(c *Ctx) {
	prev := 0
	for m := range compiledMsgs(c.T) {
		n := m.Subject.Version
		if n == 0 {
			continue // AP-001
		}
		if n > prev+1 {
			missing := fmt.Sprintf("v%d", prev+1)
			if n > prev+2 {
				missing += fmt.Sprintf("-v%d", n-1)
			}
			c.report(m, m.Pos("subject"), fmt.Sprintf("COMPILED v%d skips %s: the previous COMPILED message was v%d.", n, missing, prev),
				fmt.Sprintf("Number COMPILED messages one by one: this one is v%d.", prev+1), fmt.Sprintf("v%d after v%d", n, prev))
		}
		if n > prev {
			prev = n
		}
	}
}

var isoDateTime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$`)

// validISO reports whether s is an ISO 8601 date-time with valid fields.
func validISO(s string) bool {
	if !isoDateTime.MatchString(s) {
		return false
	}
	t := strings.Replace(s, " ", "T", 1)
	t = strings.Replace(t, ",", ".", 1)
	date, clock, _ := strings.Cut(t, "T")
	if _, err := time.Parse("2006-01-02", date); err != nil {
		return false
	}
	hh, _ := strconv.Atoi(clock[0:2])
	mm, _ := strconv.Atoi(clock[3:5])
	ss := 0
	if len(clock) >= 8 && clock[5] == ':' {
		ss, _ = strconv.Atoi(clock[6:8])
	}
	return hh < 24 && mm < 60 && ss < 61
}

func checkCompiledAt(c *Ctx) {
	m := c.M
	if m.Subject.Kind != subject.Compiled || m.Doc == nil {
		return
	}
	v, s, e, ok := c.metaField(m, "Compiled At")
	switch {
	case !ok:
		c.report(m, bodyStart(m), "COMPILED body has no \"**Compiled At**:\" metadata line.",
			"Add \"- **Compiled At**: <ISO 8601 date-time>\" to the \"## Metadata\" section.", "no compiled at")
	case !validISO(v):
		c.report(m, m.BodyPos(s, e), fmt.Sprintf("Compiled At %q is not an ISO 8601 date-time.", firstLineOf(v)),
			"Write it as 2026-01-14T15:09:41Z (or with an offset, +01:00).", "compiled at "+v)
	}
}

var titleVersion = regexp.MustCompile(`(?i)\bv(\d+)\b`)

// bodyVersion is the version a COMPILED body states: its Version metadata
// line, else its title's v{N}.
func bodyVersion(c *Ctx, m *compile.Msg) (n int, start, end int, ok bool) {
	if v, s, e, found := c.metaField(m, "Version"); found {
		if mm := titleVersion.FindStringSubmatch(v); mm != nil {
			n, _ = strconv.Atoi(mm[1])
			return n, s, e, true
		}
		return 0, s, e, true
	}
	if h := m.Doc.Title(); h != nil {
		if mm := titleVersion.FindStringSubmatch(h.Text); mm != nil {
			n, _ = strconv.Atoi(mm[1])
			return n, -1, -1, true
		}
	}
	return 0, 0, 0, false
}

func checkBodyVersion(c *Ctx) {
	m := c.M
	if m.Subject.Kind != subject.Compiled || m.Doc == nil || m.Subject.Version == 0 {
		return // AP-001 reports a subject without a version
	}
	n, s, e, ok := bodyVersion(c, m)
	if ok && n == m.Subject.Version {
		return
	}
	// A position costs a body's escape table: computed for a finding only.
	pos := bodyStart(m)
	if s >= 0 && e > s {
		pos = m.BodyPos(s, e)
	} else if h := m.Doc.Title(); h != nil && ok {
		pos = headingPos(m, h)
	}
	switch {
	case !ok:
		c.report(m, pos, fmt.Sprintf("COMPILED body does not state its version (v%d) in its title or a \"**Version**:\" line.", m.Subject.Version),
			fmt.Sprintf("Title the body \"# Compiled Artifact v%d\".", m.Subject.Version), "no body version")
	case n != m.Subject.Version:
		c.report(m, pos, fmt.Sprintf("COMPILED body says v%d but the subject says v%d.", n, m.Subject.Version),
			"Make the body's title and Version line match the subject.", fmt.Sprintf("body v%d subject v%d", n, m.Subject.Version))
	}
}

func checkPreviousVersion(c *Ctx) {
	prev := 0
	for m := range compiledMsgs(c.T) {
		n := m.Subject.Version
		if v, s, e, ok := c.metaField(m, "Previous Version"); ok {
			low := strings.ToLower(strings.Trim(v, "*_ ."))
			none := low == "" || low == "none" || low == "n/a" || low == "na" || low == "-" || low == "—"
			got := -1
			if mm := titleVersion.FindStringSubmatch(v); mm != nil {
				got, _ = strconv.Atoi(mm[1])
			}
			switch {
			case none && prev == 0:
			case prev == 0:
				c.report(m, m.BodyPos(s, e), fmt.Sprintf("Previous Version %q, but this is the thread's first COMPILED message.", firstLineOf(v)),
					"Leave the line out (or write none) on the first version.", "previous "+v)
			case got != prev:
				c.report(m, m.BodyPos(s, e), fmt.Sprintf("Previous Version %q, but the thread's previous COMPILED message is v%d.", firstLineOf(v), prev),
					fmt.Sprintf("Write \"**Previous Version**: v%d\".", prev), "previous "+v)
			}
		}
		if n > prev {
			prev = n
		}
	}
}
