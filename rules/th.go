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

var thRules = []Rule{
	{ID: "TH-001", Name: "invalid-rs-thread-id", Code: "INVALID_RS_THREAD_ID", Family: "TH", Severity: diag.Error, Scope: ScopeThread, Spec: specTH,
		Short: "Research thread id matches RS-YYYYMMDD-slug.",
		Full:  "A thread id starting with RS- must match ^RS-\\d{8}-[a-z0-9-]{2,40}$ with a real calendar date: lower-case slug, digits and hyphens only.",
		Check: checkThreadID("TH-001")},
	{ID: "TH-002", Name: "invalid-bead-id", Code: "INVALID_BEAD_ID", Family: "TH", Severity: diag.Error, Scope: ScopeThread, Spec: specTH,
		Short: "Engineering thread id is a valid bead id.",
		Full:  "A thread id that is neither RS- nor COORD- is a bead id and must match ^[a-z0-9_-]+(?:\\.[a-z0-9_-]+)*$ (lower case, dot-separated, no empty segment).",
		Check: checkThreadID("TH-002")},
	{ID: "TH-003", Name: "invalid-coord-thread-id", Code: "INVALID_COORD_THREAD_ID", Family: "TH", Severity: diag.Error, Scope: ScopeThread, Spec: specTH,
		Short: "Coordination thread id matches COORD-topic.",
		Full:  "A thread id starting with COORD- must match ^COORD-[a-z0-9-]{2,30}$.",
		Check: checkThreadID("TH-003")},
	{ID: "TH-004", Name: "empty-subject-description", Code: "EMPTY_SUBJECT_DESCRIPTION", Family: "TH", Severity: diag.Error, Scope: ScopeMessage, Spec: specTH,
		Short: "Subject prefix is followed by a description.",
		Full:  "A subject needs a human-readable description after its prefix; \"ACK:\" alone tells an operator nothing.",
		Check: checkSubjectDescription},
	{ID: "TH-005", Name: "subject-too-long", Code: "SUBJECT_TOO_LONG", Family: "TH", Severity: diag.Error, Scope: ScopeMessage, Spec: specTH,
		Short: "Subject is at most 120 characters.",
		Full:  "The total subject length must be at most 120 characters. (A description over 80 characters in a subject within the limit is TH-007, a note.)",
		Check: checkSubjectLength},
	{ID: "TH-006", Name: "unsafe-thread-id", Code: "UNSAFE_THREAD_ID", Family: "TH", Severity: diag.Error, Scope: ScopeThread, Spec: specTH + ", Cross-Reference Contract",
		Short: "Thread id is safe as a file name.",
		Full:  "The thread id is used verbatim as artifacts/{thread_id}.md, so it must be a portable file name: no /, \\, .., NUL or other control character, no leading dot, no trailing dot or space, none of < > : \" | ? *, not a Windows device name (CON, NUL, COM1, LPT9, aux.txt …), at most 200 bytes. brenner-ci never writes an artifact for such a thread. An id that also breaks its kind's pattern is reported by that rule as well (brenner_bot-5so.3. is TH-002 and TH-006).",
		Check: checkUnsafeThreadID},
	{ID: "TH-007", Name: "subject-description-long", Code: "SUBJECT_DESCRIPTION_LONG", Family: "TH", Severity: diag.Note, Scope: ScopeMessage, Spec: specTH,
		Short: "A subject's description stays under 80 characters.",
		Full:  "The conventions ask for a brief description, under 80 characters, after the prefix; a subject over 120 characters in total is TH-005 instead. (Split from TH-005 so that each id has one severity.)",
		Check: checkDescriptionLength},
	{ID: "TH-008", Name: "thread-id-case-collision", Code: "THREAD_ID_CASE_COLLISION", Family: "TH", Severity: diag.Error, Scope: ScopeBatch, Spec: specTH + ", Cross-Reference Contract",
		Short: "No two thread ids differ only in case.",
		Full:  "The thread id names the artifact file artifacts/{thread_id}.md. Two ids that differ only in case (RS-20260102-ab and rs-20260102-AB) are one file on case-insensitive file systems (Windows, macOS), so one thread's artifact would overwrite the other's. brenner-ci never writes the second one.",
		Check: checkThreadIDCollision},
	{ID: "TH-009", Name: "rs-slug-length", Code: "RS_SLUG_LENGTH", Family: "TH", Severity: diag.Note, Scope: ScopeThread, Spec: "thread_subject_conventions_v0.1.md, Research Sessions (Human-Initiated)",
		Short: "A research thread's slug is 10-40 characters.",
		Full:  "The conventions ask for a slug of 2-5 words, \"10-40 characters total\", after RS-YYYYMMDD-. A slug outside that length is noted; whether the id is valid is TH-001's (its pattern allows 2-40 characters), so an id that TH-001 reports gets no TH-009.",
		Check: checkSlugLength},
}

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
	case len(id) > 200:
		return "it is longer than 200 bytes (with .md it would pass common file-name limits)"
	case strings.HasSuffix(id, ".") || strings.HasSuffix(id, " "):
		return "it ends with a dot or a space, which Windows drops from file names"
	case strings.ContainsAny(id, "<>:\"|?*"):
		return "it contains a character Windows forbids in file names (< > : \" | ? *)"
	case strings.IndexFunc(id, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0:
		return "it contains a control character"
	case windowsDevice(id):
		return "it is a Windows device name (CON, PRN, AUX, NUL, COM1-9, LPT1-9), which no file can have"
	}
	return ""
}

// windowsDevice reports whether a file name is reserved on Windows: a
// device name, alone or before an extension ("aux.txt"), in any case.
func windowsDevice(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	base = strings.TrimRight(base, " ")
	if n := utf8.RuneCountInString(base); n != 3 && n != 4 {
		return false // upper-casing keeps the number of runes: no device name
	}
	base = strings.ToUpper(base)
	switch base {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	return len(base) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) && base[3] >= '1' && base[3] <= '9'
}

// checkThreadIDCollision (TH-008): two threads whose ids differ only in
// case would write one artifact file on a case-insensitive file system.
func checkThreadIDCollision(c *Ctx) {
	first := make(map[string]*ThreadFacts, len(c.Batch.Threads))
	for i := range c.Batch.Threads {
		tr := &c.Batch.Threads[i]
		id := tr.Facts.ThreadID
		if id == "" {
			id = tr.Facts.Key
		}
		k := strings.ToLower(id)
		prev, ok := first[k]
		if !ok {
			first[k] = tr
			continue
		}
		pid := prev.Facts.ThreadID
		if pid == "" {
			pid = prev.Facts.Key
		}
		if pid == id {
			continue
		}
		c.emit(diag.Finding{
			Message: fmt.Sprintf("Thread id %q differs from thread %q only in case: both would be artifacts/%s.md on a case-insensitive file system (Windows, macOS); the second artifact is not written.", id, pid, id),
			Hint:    "Use one spelling of the thread id (ids are lower case by convention).",
			Pos:     diag.Pos{File: tr.File, Line: 1, Col: 1}, Thread: tr.Facts.Key, Anchor: "case collision " + strings.ToLower(id)})
	}
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

func checkThreadID(id string) func(*Ctx) {
	return func(c *Ctx) {
		tid := c.T.ThreadID
		m := threadIDMsg(c.T)
		// An id unsafe as a file name gets TH-006 too; the spec's own id for a
		// thread id that breaks its kind's pattern is reported all the same.
		if tid == "" || m == nil || threadIDKind(tid) != id {
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
	m := c.M
	if m.Subject.Kind == subject.Unknown || m.Subject.Desc != "" {
		return
	}
	c.report(m, m.Pos("subject"), fmt.Sprintf("Subject %q has a prefix but no description.", m.Subject.Raw),
		"Add a brief human-readable summary after the prefix.", "subject "+m.Subject.Raw)
}

func checkSubjectLength(c *Ctx) {
	m := c.M
	if len(m.Subject.Raw) <= 120 {
		return // no more characters than bytes
	}
	if n := utf8.RuneCountInString(m.Subject.Raw); n > 120 {
		c.report(m, m.Pos("subject"), fmt.Sprintf("Subject is %d characters long; the limit is 120.", n),
			"Shorten the description; keep it under 80 characters.", "subject "+m.Subject.Raw)
	}
}

func checkDescriptionLength(c *Ctx) {
	m := c.M
	if len(m.Subject.Raw) > 120 && utf8.RuneCountInString(m.Subject.Raw) > 120 {
		return // TH-005
	}
	if m.Subject.Kind == subject.Unknown || len(m.Subject.Desc) <= 80 {
		return // no more characters than bytes
	}
	if d := utf8.RuneCountInString(m.Subject.Desc); d > 80 {
		c.report(m, m.Pos("subject"), fmt.Sprintf("Subject description is %d characters long; the conventions ask for under 80.", d),
			"Shorten the description to a brief summary.", "description "+m.Subject.Raw)
	}
}

// validThreadID reports whether s is a research-session or coordination
// thread id: enough to recognise artifacts/<thread_id>.md by its name (bead
// ids are too general for that; a bead thread is recognised when it is
// among the inputs).
func validThreadID(s string) bool { return rsID.MatchString(s) || coordID.MatchString(s) }

// Research slugs "should be 10-40 characters total" (thread_subject_conventions_v0.1.md).
const minSlug, maxSlug = 10, 40

// checkSlugLength (TH-009): the slug of a valid research thread id is
// outside 10-40 characters.
func checkSlugLength(c *Ctx) {
	tid := c.T.ThreadID
	m := threadIDMsg(c.T)
	if tid == "" || m == nil || !rsID.MatchString(tid) {
		return
	}
	if slug, ok := slugLengthOK(tid); !ok {
		n := len(slug)
		c.report(m, m.Pos("thread_id"), fmt.Sprintf("Thread id slug %q is %d characters long; the conventions ask for %d-%d.", slug, n, minSlug, maxSlug),
			"Use a descriptive slug of 2-5 lower-case words, e.g. RS-20251230-gradient-vs-lineage.", "slug "+tid)
	}
}

// slugLengthOK returns the slug of a research thread id (RS-YYYYMMDD-slug)
// and whether its length is within 10-40 characters.
func slugLengthOK(tid string) (string, bool) {
	slug := strings.TrimPrefix(tid, "RS-")
	if _, rest, ok := strings.Cut(slug, "-"); ok {
		slug = rest
	}
	return slug, len(slug) >= minSlug && len(slug) <= maxSlug
}
