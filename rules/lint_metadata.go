package rules

// EM-/WM-/IM-: the artifact's YAML front matter (artifact_linter_spec_v0.1.md,
// Metadata; artifact_schema_v0.1.md, Metadata Header). When there is no
// front matter at all, EM-001 alone reports it.

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/brenner-ci/brenner-ci/diag"
)

const hintFront = "Start the file with a YAML front matter block: ---, session_id, created_at, updated_at, version, contributors, status, --- (artifact_schema_v0.1.md, Metadata Header)."

func checkMetadataPresent(c *ACtx) {
	if c.P.HasFrontMatter {
		return
	}
	msg := "The artifact has no YAML front matter (a --- block at the top of the file)."
	for _, s := range c.P.Sections {
		if s.Section == "" && alNorm(s.Title) == "metadata" {
			msg = "The artifact has no YAML front matter: a \"## Metadata\" section is prose, not front matter."
			break
		}
	}
	c.report(diag.Pos{Line: 1, Col: 1}, msg, hintFront, c.anchor("front matter"))
}

func checkSessionID(c *ACtx) {
	if !c.P.HasFrontMatter {
		return
	}
	f := alFront(c.P, "session_id")
	if f == nil {
		c.report(alFrontPos(c.P, nil), "Front matter has no session_id.",
			"Add session_id: \"<thread id>\" (the thread the artifact compiles, e.g. RS-20251230-cell-fate).", c.anchor("session_id"))
		return
	}
	v, ok := alScalar(f)
	switch {
	case !ok:
		c.report(alFrontPos(c.P, f), "Front matter session_id is not a string.",
			"Write session_id as a single quoted string, e.g. session_id: \"RS-20251230-cell-fate\".", c.anchor("session_id", "type"))
	case strings.TrimSpace(v) == "":
		c.report(alFrontPos(c.P, f), "Front matter session_id is empty.",
			"Set session_id to the thread id, e.g. session_id: \"RS-20251230-cell-fate\".", c.anchor("session_id", "empty"))
	}
}

// alISORE is an ISO-8601 calendar date or date-time (extended format).
var alISORE = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$`)

// alTimestamp parses an ISO-8601 timestamp (a date alone means midnight;
// no zone means UTC, for comparison only).
func alTimestamp(s string) (time.Time, bool) {
	m := alISORE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return time.Time{}, false
	}
	hh, mm, ss, frac, zone := m[4], m[5], m[6], m[7], m[8]
	if hh == "" {
		hh, mm = "00", "00"
	}
	if ss == "" {
		ss = "00"
	}
	if frac != "" {
		frac = "." + frac
	}
	switch {
	case zone == "" || zone == "z":
		zone = "Z"
	case len(zone) == 3:
		zone += ":00"
	case len(zone) == 5:
		zone = zone[:3] + ":" + zone[3:]
	}
	t, err := time.Parse(time.RFC3339Nano, m[1]+"-"+m[2]+"-"+m[3]+"T"+hh+":"+mm+":"+ss+frac+zone)
	return t, err == nil
}

func checkCreatedAt(c *ACtx) {
	if !c.P.HasFrontMatter {
		return
	}
	key := "created_at"
	f := alFront(c.P, key)
	if f == nil {
		// The publish spec's persisted form has compiled_at instead.
		if f = alFront(c.P, "compiled_at"); f == nil {
			c.report(alFrontPos(c.P, nil), "Front matter has no created_at timestamp.",
				"Add created_at: \"2025-12-30T19:00:00Z\" (ISO-8601), the instant the session started.", c.anchor("created_at"))
			return
		}
		key = "compiled_at"
	}
	v, ok := alScalar(f)
	if _, valid := alTimestamp(v); ok && valid {
		return
	}
	shown := alClip(v, 40)
	if !ok {
		shown = "(a list or map)"
	}
	c.report(alFrontPos(c.P, f), fmt.Sprintf("Front matter %s %q is not an ISO-8601 timestamp.", key, shown),
		fmt.Sprintf("Write %s as an ISO-8601 timestamp, e.g. \"2025-12-30T19:00:00Z\".", key), c.anchor(key, "format"))
}

// alPublishForm reports whether the front matter is artifact_publish_spec's
// persisted form (session_id, version, compiled_at, compiled_by,
// contributors, agent_mail_message_id), which has no created_at and no
// status.
func alPublishForm(c *ACtx) bool {
	return alFront(c.P, "compiled_at") != nil && alFront(c.P, "created_at") == nil
}

var alStatuses = map[string]bool{"draft": true, "active": true, "closed": true}

func checkStatus(c *ACtx) {
	if !c.P.HasFrontMatter {
		return
	}
	f := alFront(c.P, "status")
	if f == nil && alPublishForm(c) {
		return
	}
	if f == nil {
		c.report(alFrontPos(c.P, nil), "Front matter has no status.",
			"Add status: \"draft\", \"active\" or \"closed\".", c.anchor("status"))
		return
	}
	v, ok := alScalar(f)
	if ok && alStatuses[v] {
		return
	}
	hint := "Set status to draft, active or closed."
	if ok && alStatuses[strings.ToLower(strings.TrimSpace(v))] {
		hint = fmt.Sprintf("Write the status in lower case: status: %q.", strings.ToLower(strings.TrimSpace(v)))
	}
	if !ok {
		v = "(a list or map)"
	}
	c.report(alFrontPos(c.P, f), fmt.Sprintf("Front matter status %q is not one of draft, active, closed.", alClip(v, 40)), hint, c.anchor("status", "value"))
}

func checkContributors(c *ACtx) {
	if !c.P.HasFrontMatter {
		return
	}
	f := alFront(c.P, "contributors")
	if f == nil {
		c.report(alFrontPos(c.P, nil), "Front matter lists no contributors.",
			"Add a contributors list naming the agents whose deltas built the artifact (- agent: \"GreenDog\").", c.anchor("contributors"))
		return
	}
	list, ok := f.Value.([]any)
	switch {
	case !ok && f.Value != nil:
		c.report(alFrontPos(c.P, f), "Front matter contributors is not a list.",
			"Write contributors as a YAML list: one \"- agent: Name\" entry per agent.", c.anchor("contributors", "type"))
	case len(list) == 0:
		c.report(alFrontPos(c.P, f), "Front matter contributors list is empty.",
			"List the agents whose deltas built the artifact (- agent: \"GreenDog\").", c.anchor("contributors", "empty"))
	}
}

func checkUpdatedAt(c *ACtx) {
	if !c.P.HasFrontMatter {
		return
	}
	u := alFront(c.P, "updated_at")
	if u == nil {
		return
	}
	uv, ok := alScalar(u)
	ut, valid := alTimestamp(uv)
	if !ok || !valid {
		c.report(alFrontPos(c.P, u), fmt.Sprintf("Front matter updated_at %q is not an ISO-8601 timestamp, so it cannot be compared with created_at.", alClip(uv, 40)),
			"Write updated_at as an ISO-8601 timestamp, e.g. \"2025-12-30T20:30:00Z\".", c.anchor("updated_at", "format"))
		return
	}
	cf := alFront(c.P, "created_at")
	if cf == nil {
		return
	}
	cv, _ := alScalar(cf)
	ct, cok := alTimestamp(cv)
	if cok && ut.Before(ct) {
		c.report(alFrontPos(c.P, u), fmt.Sprintf("Front matter updated_at %s is earlier than created_at %s.", strings.TrimSpace(uv), strings.TrimSpace(cv)),
			"Set updated_at to the latest change, at or after created_at.", c.anchor("updated_at", "order"))
	}
}

var (
	alRSConvention   = regexp.MustCompile(`^RS-\d{8}-[a-z0-9-]+$`)
	alBeadConvention = regexp.MustCompile(`^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$`)
)

func checkSessionConvention(c *ACtx) {
	if !c.P.HasFrontMatter {
		return
	}
	f := alFront(c.P, "session_id")
	if f == nil {
		return
	}
	v, ok := alScalar(f)
	v = strings.TrimSpace(v)
	if !ok || v == "" || alRSConvention.MatchString(v) || alBeadConvention.MatchString(v) {
		return
	}
	c.report(alFrontPos(c.P, f), fmt.Sprintf("Front matter session_id %q follows neither the RS-YYYYMMDD-slug nor the bead id convention.", alClip(v, 60)),
		"Use the thread id: RS-YYYYMMDD-slug (lower-case slug) for research sessions, or a bead id such as brenner_bot-5so.3 (thread_subject_conventions_v0.1.md).",
		c.anchor("session_id", "convention"))
}

func checkVersionField(c *ACtx) {
	if !c.P.HasFrontMatter {
		return
	}
	f := alFront(c.P, "version")
	if f == nil {
		c.report(alFrontPos(c.P, nil), "Front matter has no version number.",
			"Add version: N, the COMPILED version the artifact is (an integer).", c.anchor("version"))
		return
	}
	switch f.Value.(type) {
	case int, int64, uint64, int32, uint, uint32:
		return
	}
	shown := strings.TrimSpace(f.Raw)
	switch v := f.Value.(type) {
	case string:
		shown = fmt.Sprintf("%q", v)
	case []any, map[string]any:
		shown = "(a list or map)"
	case nil:
		shown = "(empty)"
	}
	if shown == "" {
		shown = fmt.Sprint(f.Value)
	}
	c.report(alFrontPos(c.P, f), fmt.Sprintf("Front matter version %s is not an integer.", alClip(shown, 30)),
		"Write version as a bare integer, e.g. version: 3.", c.anchor("version", "type"))
}
