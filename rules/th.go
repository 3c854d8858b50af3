package rules

// TH-: thread ids and subjects (thread_subject_conventions_v0.1.md).

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/subject"
	"github.com/brenner-ci/brenner-ci/diag"
)

var (
	rsID    = regexp.MustCompile(`^RS-(\d{8})-[a-z0-9-]{2,40}$`)
	coordID = regexp.MustCompile(`^COORD-[a-z0-9-]{2,30}$`)
	beadID  = regexp.MustCompile(`^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$`)
)

// threadIDKind says which TH rule applies to id: by prefix RS-, COORD-, else bead.
func threadIDKind(id string) string {
	switch {
	case strings.HasPrefix(id, "RS-"):
		return "TH-001"
	case strings.HasPrefix(id, "COORD-"):
		return "TH-003"
	}
	return "TH-002"
}

// UnsafeThreadID reports why id cannot be used as artifacts/{id}.md ("" when it can).
func UnsafeThreadID(id string) string {
	switch {
	case id == "":
		return "it is empty"
	case strings.ContainsRune(id, 0):
		return "it contains a NUL byte"
	case strings.Contains(id, "/"):
		return "it contains '/'"
	case strings.Contains(id, `\`):
		return "it contains '\\'"
	case strings.Contains(id, ".."):
		return "it contains '..'"
	case strings.HasPrefix(id, "."):
		return "it starts with '.'"
	}
	return ""
}

// threadIDMsg is the first message carrying the thread id.
func threadIDMsg(t *compile.Thread) *compile.Msg {
	for _, m := range t.Msgs {
		if m.ThreadID != "" {
			return m
		}
	}
	return nil
}

func checkThreadID(id string) threadCheck {
	return func(c *Ctx) {
		tid := c.T.ThreadID
		m := threadIDMsg(c.T)
		if tid == "" || m == nil || threadIDKind(tid) != id || UnsafeThreadID(tid) != "" {
			return
		}
		var problem, hint string
		switch id {
		case "TH-001":
			mm := rsID.FindStringSubmatch(tid)
			if mm == nil {
				problem = "it does not match RS-YYYYMMDD-slug (^RS-\\d{8}-[a-z0-9-]{2,40}$)"
				hint = "Use RS-<start date YYYYMMDD>-<2-5 lower-case words joined by hyphens>, e.g. RS-20251230-cell-fate."
			} else if _, err := time.Parse("20060102", mm[1]); err != nil {
				problem = fmt.Sprintf("%s is not a calendar date", mm[1])
				hint = "Use the session's real start date as YYYYMMDD."
			}
		case "TH-003":
			if !coordID.MatchString(tid) {
				problem = "it does not match COORD-topic (^COORD-[a-z0-9-]{2,30}$)"
				hint = "Use COORD-<lower-case topic with hyphens>, e.g. COORD-daily-sync."
			}
		case "TH-002":
			if !beadID.MatchString(tid) {
				problem = "it is not a bead id (^[a-z0-9_-]+(?:\\.[a-z0-9_-]+)*$: lower case, dot-separated, no empty segment)"
				hint = "Use the beads issue id verbatim (e.g. brenner_bot-5so.3.4.2), RS-YYYYMMDD-slug for research or COORD-topic for coordination."
			}
		}
		if problem == "" {
			return
		}
		c.report(m, m.Pos("thread_id"), fmt.Sprintf("Thread id %q is invalid: %s.", tid, problem), hint, "thread "+tid)
	}
}

func checkUnsafeThreadID(c *Ctx) {
	tid := c.T.ThreadID
	m := threadIDMsg(c.T)
	if tid == "" || m == nil {
		return
	}
	if why := UnsafeThreadID(tid); why != "" {
		c.report(m, m.Pos("thread_id"), fmt.Sprintf("Thread id %q is unsafe as a file name: %s, so artifacts/{thread_id}.md could escape the artifacts folder.", tid, why),
			"Use a thread id of letters, digits, '.', '_' and '-' only; brenner-ci writes no artifact for this thread.", "thread "+tid)
	}
}

func checkSubjectDescription(c *Ctx) {
	for _, m := range c.T.Msgs {
		if m.Subject.Kind == subject.Unknown || m.Subject.Desc != "" {
			continue
		}
		c.report(m, m.Pos("subject"), fmt.Sprintf("Subject %q has a prefix but no description.", m.Subject.Raw),
			"Add a brief human-readable summary after the prefix.", "subject "+m.Subject.Raw)
	}
}

func checkSubjectLength(c *Ctx) {
	for _, m := range c.T.Msgs {
		n := utf8.RuneCountInString(m.Subject.Raw)
		if n > 120 {
			c.report(m, m.Pos("subject"), fmt.Sprintf("Subject is %d characters long; the limit is 120.", n),
				"Shorten the description; keep it under 80 characters.", "subject "+m.Subject.Raw)
			continue
		}
		if d := utf8.RuneCountInString(m.Subject.Desc); m.Subject.Kind != subject.Unknown && d > 80 {
			f := c.report(m, m.Pos("subject"), fmt.Sprintf("Subject description is %d characters long; the conventions ask for under 80.", d),
				"Shorten the description to a brief summary.", "description "+m.Subject.Raw)
			f.Severity = diag.Note
		}
	}
}
