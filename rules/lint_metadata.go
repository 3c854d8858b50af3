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

var metadataRules = []Rule{
	{ID: "EM-001", Name: "metadata-missing", Code: "METADATA_MISSING", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Metadata (M)",
		Short: "The artifact starts with a YAML front matter block.",
		Full:  "Every artifact file begins with YAML front matter between --- lines (session_id, created_at, updated_at, version, contributors, status; artifact_schema_v0.1.md, Metadata Header). Tools read the session and version from it; a \"## Metadata\" bullet list is prose and is not read. When the front matter is missing, only this rule reports it (EM-002…IM-002 stay silent).",
		Check: checkMetadataPresent},
	{ID: "EM-002", Name: "session-id-missing", Code: "SESSION_ID_MISSING", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Metadata (M)",
		Short: "The front matter has a non-empty session_id.",
		Full:  "session_id names the thread the artifact belongs to (artifacts/<session_id>.md); it must be present, a string and not blank.",
		Check: checkSessionID},
	{ID: "EM-003", Name: "created-at-invalid", Code: "CREATED_AT_INVALID", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Metadata (M)",
		Short: "The front matter has an ISO-8601 created_at timestamp.",
		Full:  "created_at must be present and an ISO-8601 date or date-time (2025-12-30, 2025-12-30T19:00:00Z, 2025-12-30T19:00:00.5+01:00). Upstream accepts anything JavaScript's Date.parse reads (\"Dec 30 2025\"); brenner-ci requires ISO-8601 as the spec says. A front matter in artifact_publish_spec's persisted form (compiled_at, no created_at) is checked on compiled_at instead." + divergeArt,
		Check: checkCreatedAt},
	{ID: "EM-004", Name: "status-invalid", Code: "STATUS_INVALID", Family: "AL", Severity: diag.Error, Scope: ScopeArtifact, Spec: specAL + "Metadata (M)",
		Short: "The front matter status is draft, active or closed.",
		Full:  "status must be present and exactly one of draft, active, closed (lower case; the hint offers the lower-case form of \"Active\"). A front matter in artifact_publish_spec's persisted form (compiled_at, no created_at), which has no status field, may omit it." + divergeArt,
		Check: checkStatus},
	{ID: "WM-001", Name: "contributors-missing", Code: "CONTRIBUTORS_MISSING", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Metadata (M)",
		Short: "The front matter lists the contributors.",
		Full:  "contributors should be a non-empty list of the agents whose deltas built the artifact (strings or {agent, program, model} objects).",
		Check: checkContributors},
	{ID: "WM-002", Name: "updated-before-created", Code: "UPDATED_BEFORE_CREATED", Family: "AL", Severity: diag.Warning, Scope: ScopeArtifact, Spec: specAL + "Metadata (M)",
		Short: "updated_at is an ISO-8601 timestamp no earlier than created_at.",
		Full:  "When present, updated_at must be an ISO-8601 timestamp (otherwise it cannot be compared) at or after created_at. Upstream reports an unparsable updated_at under a separate id (EM-003b, an error); brenner-ci reports it here, as a warning, because updated_at is optional.",
		Check: checkUpdatedAt},
	{ID: "IM-001", Name: "session-id-convention", Code: "SESSION_ID_CONVENTION", Family: "AL", Severity: diag.Note, Scope: ScopeArtifact, Spec: specAL + "Metadata (M)",
		Short: "session_id follows the RS-YYYYMMDD-slug or bead id convention.",
		Full:  "The session id should be a research thread id (RS-\\d{8}-[a-z0-9-]+) or a bead id ([a-z0-9_-]+ segments separated by dots), so that artifacts, threads and evidence packs join on it.",
		Check: checkSessionConvention},
	{ID: "IM-002", Name: "version-not-integer", Code: "VERSION_NOT_INTEGER", Family: "AL", Severity: diag.Note, Scope: ScopeArtifact, Spec: specAL + "Metadata (M)",
		Short: "The front matter has an integer version.",
		Full:  "version is the COMPILED version the artifact is; it should be present and a bare integer (1.5, \"v2\" and \"2\" as a string are reported).",
		Check: checkVersionField},
}

const hintFront = "Start the file with a YAML front matter block: ---, session_id, created_at, updated_at, version, contributors, status, --- (artifact_schema_v0.1.md, Metadata Header)."

func checkMetadataPresent(c *Ctx) {
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
	c.reportAt(diag.Pos{Line: 1, Col: 1}, msg, hintFront, c.anchor("front matter"))
}

func checkSessionID(c *Ctx) {
	if !c.P.HasFrontMatter {
		return
	}
	f := c.P.Field("session_id")
	if f == nil {
		c.reportAt(alFrontPos(c.P, nil), "Front matter has no session_id.",
			"Add session_id: \"<thread id>\" (the thread the artifact compiles, e.g. RS-20251230-cell-fate).", c.anchor("session_id"))
		return
	}
	v, ok := alScalar(f)
	switch {
	case !ok:
		c.reportAt(alFrontPos(c.P, f), "Front matter session_id is not a string.",
			"Write session_id as a single quoted string, e.g. session_id: \"RS-20251230-cell-fate\".", c.anchor("session_id", "type"))
	case strings.TrimSpace(v) == "":
		c.reportAt(alFrontPos(c.P, f), "Front matter session_id is empty.",
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

func checkCreatedAt(c *Ctx) {
	if !c.P.HasFrontMatter {
		return
	}
	key := "created_at"
	f := c.P.Field(key)
	if f == nil {
		// The publish spec's persisted form has compiled_at instead.
		if f = c.P.Field("compiled_at"); f == nil {
			c.reportAt(alFrontPos(c.P, nil), "Front matter has no created_at timestamp.",
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
	c.reportAt(alFrontPos(c.P, f), fmt.Sprintf("Front matter %s %q is not an ISO-8601 timestamp.", key, shown),
		fmt.Sprintf("Write %s as an ISO-8601 timestamp, e.g. \"2025-12-30T19:00:00Z\".", key), c.anchor(key, "format"))
}

// alPublishForm reports whether the front matter is artifact_publish_spec's
// persisted form (session_id, version, compiled_at, compiled_by,
// contributors, agent_mail_message_id), which has no created_at and no
// status.
func alPublishForm(c *Ctx) bool {
	return c.P.Field("compiled_at") != nil && c.P.Field("created_at") == nil
}

var alStatuses = map[string]bool{"draft": true, "active": true, "closed": true}

func checkStatus(c *Ctx) {
	if !c.P.HasFrontMatter {
		return
	}
	f := c.P.Field("status")
	if f == nil && alPublishForm(c) {
		return
	}
	if f == nil {
		c.reportAt(alFrontPos(c.P, nil), "Front matter has no status.",
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
	c.reportAt(alFrontPos(c.P, f), fmt.Sprintf("Front matter status %q is not one of draft, active, closed.", alClip(v, 40)), hint, c.anchor("status", "value"))
}

func checkContributors(c *Ctx) {
	if !c.P.HasFrontMatter {
		return
	}
	f := c.P.Field("contributors")
	if f == nil {
		c.reportAt(alFrontPos(c.P, nil), "Front matter lists no contributors.",
			"Add a contributors list naming the agents whose deltas built the artifact (- agent: \"GreenDog\").", c.anchor("contributors"))
		return
	}
	list, ok := f.Value.([]any)
	switch {
	case !ok && f.Value != nil:
		c.reportAt(alFrontPos(c.P, f), "Front matter contributors is not a list.",
			"Write contributors as a YAML list: one \"- agent: Name\" entry per agent.", c.anchor("contributors", "type"))
	case len(list) == 0:
		c.reportAt(alFrontPos(c.P, f), "Front matter contributors list is empty.",
			"List the agents whose deltas built the artifact (- agent: \"GreenDog\").", c.anchor("contributors", "empty"))
	}
}

func checkUpdatedAt(c *Ctx) {
	if !c.P.HasFrontMatter {
		return
	}
	u := c.P.Field("updated_at")
	if u == nil {
		return
	}
	uv, ok := alScalar(u)
	ut, valid := alTimestamp(uv)
	if !ok || !valid {
		c.reportAt(alFrontPos(c.P, u), fmt.Sprintf("Front matter updated_at %q is not an ISO-8601 timestamp, so it cannot be compared with created_at.", alClip(uv, 40)),
			"Write updated_at as an ISO-8601 timestamp, e.g. \"2025-12-30T20:30:00Z\".", c.anchor("updated_at", "format"))
		return
	}
	cf := c.P.Field("created_at")
	if cf == nil {
		return
	}
	cv, _ := alScalar(cf)
	ct, cok := alTimestamp(cv)
	if cok && ut.Before(ct) {
		c.reportAt(alFrontPos(c.P, u), fmt.Sprintf("Front matter updated_at %s is earlier than created_at %s.", strings.TrimSpace(uv), strings.TrimSpace(cv)),
			"Set updated_at to the latest change, at or after created_at.", c.anchor("updated_at", "order"))
	}
}

var (
	alRSConvention   = regexp.MustCompile(`^RS-\d{8}-[a-z0-9-]+$`)
	alBeadConvention = regexp.MustCompile(`^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$`)
)

func checkSessionConvention(c *Ctx) {
	if !c.P.HasFrontMatter {
		return
	}
	f := c.P.Field("session_id")
	if f == nil {
		return
	}
	v, ok := alScalar(f)
	v = strings.TrimSpace(v)
	if !ok || v == "" || alRSConvention.MatchString(v) || alBeadConvention.MatchString(v) {
		return
	}
	c.reportAt(alFrontPos(c.P, f), fmt.Sprintf("Front matter session_id %q follows neither the RS-YYYYMMDD-slug nor the bead id convention.", alClip(v, 60)),
		"Use the thread id: RS-YYYYMMDD-slug (lower-case slug) for research sessions, or a bead id such as brenner_bot-5so.3 (thread_subject_conventions_v0.1.md).",
		c.anchor("session_id", "convention"))
}

func checkVersionField(c *Ctx) {
	if !c.P.HasFrontMatter {
		return
	}
	f := c.P.Field("version")
	if f == nil {
		c.reportAt(alFrontPos(c.P, nil), "Front matter has no version number.",
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
	c.reportAt(alFrontPos(c.P, f), fmt.Sprintf("Front matter version %s is not an integer.", alClip(shown, 30)),
		"Write version as a bare integer, e.g. version: 3.", c.anchor("version", "type"))
}
