package rules

// AP-: COMPILED messages and persisted artifacts (artifact_publish_spec_v0.1.md).

import (
	"fmt"
	"iter"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/subject"
	"github.com/brenner-ci/brenner-ci/diag"
)

var apRules = []Rule{
	{ID: "AP-001", Name: "compiled-subject-without-version", Code: "AP-001", Family: "AP", Severity: diag.Error, Scope: ScopeMessage, Spec: specAP,
		Short: "COMPILED subject matches \"COMPILED: v{N} …\".",
		Full:  "The version number must follow the prefix directly (COMPILED: v3 …) so that the latest artifact can be found from subjects alone.",
		Check: checkCompiledSubject},
	{ID: "AP-002", Name: "compiled-version-not-increasing", Code: "AP-002", Family: "AP", Severity: diag.Error, Scope: ScopeThread, Spec: specAP + "; Version Tracking",
		Short: "COMPILED version is greater than the previous one.",
		Full:  "Versions are monotonic integers v1, v2, v3 … in thread order; a COMPILED message must not repeat or go back to an earlier version.",
		Check: checkCompiledVersionOrder},
	{ID: "AP-003", Name: "compiled-thread-id-mismatch", Code: "AP-003", Family: "AP", Severity: diag.Error, Scope: ScopeMessage, Spec: specAP + "; COMPILED Message Extended Schema",
		Short: "Thread ID in the COMPILED body matches the message's thread_id.",
		Full:  "The \"**Thread ID**:\" line of a COMPILED body's Metadata section must equal the thread the message was posted in.",
		Check: checkCompiledThreadID},
	{ID: "AP-004", Name: "compiled-without-contributors", Code: "AP-004", Family: "AP", Severity: diag.Error, Scope: ScopeMessage, Spec: specAP,
		Short: "COMPILED lists at least one contributor.",
		Full:  "A COMPILED body needs a \"## Contributors\" section with at least one agent whose deltas were merged.",
		Check: checkCompiledContributors},
	{ID: "AP-005", Name: "artifact-path-mismatch", Code: "AP-005", Family: "AP", Severity: diag.Error, Scope: ScopeMessage, Spec: specAP + "; " + specTH + ", Artifact storage layout",
		Short: "Artifact path is artifacts/{thread_id}.md.",
		Full: "The \"**Artifact Path**:\" of a COMPILED body must be artifacts/<thread_id>.md, and so must a " +
			"persisted artifact among the inputs when its thread is one too: a file saved under another name " +
			"(artifacts/<thread_id>/artifact.md is accepted as well), or whose front-matter session_id is not " +
			"its thread id, is reported at its session_id. That check needs the whole batch (it pairs files " +
			"with threads), so it runs with the batch rules; DR-002, brenner-ci's earlier id for it, is " +
			"reported with it.",
		Check: checkCompiledArtifactPath, BatchCheck: checkPersistedArtifactPath},
	{ID: "AP-006", Name: "compiled-without-full-artifact", Code: "AP-006", Family: "AP", Severity: diag.Error, Scope: ScopeMessage, Spec: specAP,
		Short: "COMPILED carries the full artifact, inline or linked.",
		Full:  "A COMPILED body needs a \"## Full Artifact\" section holding the artifact inline or a link to the persisted file.",
		Check: checkCompiledSection("AP-006")},
	{ID: "AP-007", Name: "compiled-without-statistics", Code: "AP-007", Family: "AP", Severity: diag.Warning, Scope: ScopeMessage, Spec: specAP,
		Short: "COMPILED has a Statistics section.",
		Full:  "A COMPILED body should have a \"## Statistics\" section with item counts per section.",
		Check: checkCompiledSection("AP-007")},
	{ID: "AP-008", Name: "compiled-without-validation-status", Code: "AP-008", Family: "AP", Severity: diag.Warning, Scope: ScopeMessage, Spec: specAP,
		Short: "COMPILED has a Validation Status section.",
		Full:  "A COMPILED body should have a \"## Validation Status\" section with the schema and linter results.",
		Check: checkCompiledSection("AP-008")},
	{ID: "AP-009", Name: "unknown-artifact-version", Code: "AP-009", Family: "AP", Severity: diag.Warning, Scope: ScopeThread, Spec: specAP + "; Referencing Artifacts in Follow-Up Rounds",
		Short: "CRITIQUE/DELTA reference an artifact version that exists.",
		Full:  "A DELTA's \"**Base Version**: vN\" or a CRITIQUE's \"**Artifact Version**: vN\" must name a version already compiled in the thread.",
		Check: checkVersionReferences},
	{ID: "AP-010", Name: "front-matter-version-mismatch", Code: "AP-010", Family: "AP", Severity: diag.Error, Scope: ScopeBatch, Spec: specAP + "; Artifact File Front Matter",
		Short: "Persisted artifact's front-matter version matches the latest COMPILED version.",
		Full:  "When a thread and its persisted artifacts/<thread_id>.md are both inputs, the artifact's front-matter version must equal the thread's latest COMPILED vN.",
		Check: checkFrontMatterVersion},
}

// compiledMsgs yields the thread's COMPILED messages in order.
func compiledMsgs(t *compile.Thread) iter.Seq[*compile.Msg] {
	return func(yield func(*compile.Msg) bool) {
		for _, m := range t.Msgs {
			if m.Subject.Kind == subject.Compiled && !yield(m) {
				return
			}
		}
	}
}

func checkCompiledSubject(c *Ctx) {
	m := c.M
	if m.Subject.Kind != subject.Compiled {
		return
	}
	if m.Subject.StrictVersion {
		return
	}
	c.report(m, m.Pos("subject"), fmt.Sprintf("COMPILED subject %q does not start with a version \"v{N}\".", m.Subject.Raw),
		"Write the subject as \"COMPILED: v{N} <description>\", e.g. \"COMPILED: v2 integrated critique on H2\".", "subject "+m.Subject.Raw)
}

func checkCompiledVersionOrder(c *Ctx) {
	prev := 0
	for m := range compiledMsgs(c.T) {
		n := m.Subject.Version
		if n == 0 {
			continue // AP-001 reports it
		}
		if n <= prev {
			c.report(m, m.Pos("subject"), fmt.Sprintf("COMPILED version v%d does not increase: the previous COMPILED message was v%d.", n, prev),
				fmt.Sprintf("Versions are monotonic: this one should be v%d.", prev+1), fmt.Sprintf("v%d after v%d", n, prev))
		}
		if n > prev {
			prev = n
		}
	}
}

// metaField finds "**Label**: value" (optionally in a list item) in m's
// body: the first line that matches fieldLine, the label in any case. Only
// lines holding "**" can match, so those are searched for rather than
// every line visited.
func (c *Ctx) metaField(m *compile.Msg, label string) (value string, start, end int, ok bool) {
	body := m.Body
	for from := 0; from < len(body); {
		k := strings.Index(body[from:], "**")
		if k < 0 {
			break
		}
		at := from + k
		ls := strings.LastIndexByte(body[:at], '\n') + 1
		le := len(body)
		if j := strings.IndexByte(body[at:], '\n'); j >= 0 {
			le = at + j
		}
		if vs, ve, ok := fieldLine(body[ls:le], label); ok {
			v := strings.TrimSpace(body[ls+vs : ls+ve])
			return strings.Trim(v, "`"), ls + vs, ls + ve, true
		}
		from = le + 1 // fieldLine read the whole line
	}
	return "", 0, 0, false
}

// fieldLine matches one line (no "\n") against
// `(?i)^\s*(?:[-*]\s+)?\*\*LABEL\*\*\s*:\s*(.*?)\s*$` and returns the
// group's byte range. It is that pattern written out (a regexp per label
// was a tenth of the rules' time): \s is RE2's ASCII white space and the
// label matches under Unicode simple case folding, as (?i) does.
func fieldLine(line, label string) (vs, ve int, ok bool) {
	i := skipRESpace(line, 0)
	if i+1 < len(line) && (line[i] == '-' || line[i] == '*') && isRESpace(line[i+1]) {
		i = skipRESpace(line, i+1)
	}
	if !strings.HasPrefix(line[i:], "**") {
		return 0, 0, false
	}
	i += 2
	for _, l := range label {
		r, n := utf8.DecodeRuneInString(line[i:])
		if n == 0 || !foldEq(r, l) {
			return 0, 0, false
		}
		i += n
	}
	if !strings.HasPrefix(line[i:], "**") {
		return 0, 0, false
	}
	i = skipRESpace(line, i+2)
	if i >= len(line) || line[i] != ':' {
		return 0, 0, false
	}
	vs = skipRESpace(line, i+1)
	ve = len(line)
	for ve > vs && isRESpace(line[ve-1]) {
		ve--
	}
	return vs, ve, true
}

// isRESpace is RE2's \s: [\t\n\f\r ].
func isRESpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

func skipRESpace(s string, i int) int {
	for i < len(s) && isRESpace(s[i]) {
		i++
	}
	return i
}

// foldEq reports whether r and l are equal under Unicode simple case folding.
func foldEq(r, l rune) bool {
	if r == l {
		return true
	}
	for f := unicode.SimpleFold(l); f != l; f = unicode.SimpleFold(f) {
		if f == r {
			return true
		}
	}
	return false
}

func checkCompiledThreadID(c *Ctx) {
	want := c.T.ID()
	m := c.M
	if m.Subject.Kind != subject.Compiled {
		return
	}
	if m.Doc == nil {
		return
	}
	v, s, e, ok := c.metaField(m, "Thread ID")
	if !ok {
		c.report(m, bodyStart(m), "COMPILED body has no \"**Thread ID**:\" metadata line to match the message's thread.",
			"Add a \"## Metadata\" section with \"- **Thread ID**: "+want+"\".", "no thread id")
		return
	}
	if v != want {
		c.report(m, m.BodyPos(s, e), fmt.Sprintf("COMPILED body names thread %q but the message belongs to thread %q.", v, want),
			"Set \"**Thread ID**:\" to the thread the COMPILED message is posted in.", "thread id "+v)
	}
}

func checkCompiledContributors(c *Ctx) {
	m := c.M
	if m.Subject.Kind != subject.Compiled {
		return
	}
	if m.Doc == nil {
		return
	}
	h := section(m.Doc, 0, "contributors")
	if h != nil && countEntries(sectionText(m.Doc, h)) > 0 {
		return
	}
	pos := bodyStart(m)
	msg := "COMPILED body has no \"## Contributors\" section."
	if h != nil {
		pos = headingPos(m, h)
		msg = "COMPILED body lists no contributors."
	}
	c.report(m, pos, msg, "List every agent whose deltas were merged (table Agent | Delta Count | Items Added/Modified).", "contributors")
}

// sameLevelText is the text under h up to the next heading of h's level or
// higher, except that an inlined artifact's H1 title does not end it.
func sameLevelText(d *body.Doc, h *body.Heading) string {
	end := len(d.Src)
	for i := range d.Headings {
		o := &d.Headings[i]
		if o.Start > h.Start && o.Level == h.Level {
			end = o.Start
			break
		}
	}
	if h.End > end {
		return ""
	}
	return strings.TrimSpace(d.Src[h.End:end])
}

// noneLine matches a line that says there is nothing ("_None recorded._", "n/a").
var noneLine = regexp.MustCompile(`^(?i)(none\b|no\s|n/a$|nobody|-$|—$)`)

// countEntries counts list items or table data rows in a section's text.
func countEntries(text string) int {
	n := 0
	rows := 0
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "|"):
			rows++
			if strings.Trim(l, "|-: ") == "" {
				rows-- // separator row
			}
		case strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* ") || listItem.MatchString(l):
			if !noneLine.MatchString(strings.Trim(l[2:], "_*()[]. ")) {
				n++
			}
		case l != "" && !noneLine.MatchString(strings.Trim(l, "_*()[]. ")):
			n++
		}
	}
	if rows > 1 {
		n += rows - 1 // minus the header row
	}
	return n
}

func checkCompiledArtifactPath(c *Ctx) {
	m := c.M
	if m.Subject.Kind != subject.Compiled || m.Doc == nil {
		return
	}
	want := "artifacts/" + c.T.ID() + ".md"
	v, s, e, ok := c.metaField(m, "Artifact Path")
	if !ok {
		c.report(m, bodyStart(m), "COMPILED body has no \"**Artifact Path**:\" line.",
			"Add a \"## Persistence\" section with \"- **Artifact Path**: `"+want+"`\".", "no artifact path")
		return
	}
	if strings.TrimPrefix(v, "./") != want {
		c.report(m, m.BodyPos(s, e), fmt.Sprintf("Artifact path %q is not %q.", v, want),
			"The persisted artifact lives at artifacts/{thread_id}.md.", "artifact path "+v)
	}
}

var compiledSections = map[string]struct {
	names       []string
	title, hint string
}{
	"AP-006": {[]string{"full artifact"}, "Full Artifact", "Inline the compiled artifact or link the persisted file."},
	"AP-007": {[]string{"statistics"}, "Statistics", "Add item counts per section (Hypotheses, Predictions, Tests, …)."},
	"AP-008": {[]string{"validation status"}, "Validation Status", "Add Schema PASS/FAIL, linter counts and third-alternative presence."},
}

func checkCompiledSection(id string) func(*Ctx) {
	s := compiledSections[id]
	return func(c *Ctx) {
		m := c.M
		if m.Subject.Kind != subject.Compiled {
			return
		}
		if m.Doc == nil {
			return
		}
		h := section(m.Doc, 0, s.names...)
		if h != nil && (id != "AP-006" || sameLevelText(m.Doc, h) != "") {
			return
		}
		msg := fmt.Sprintf("COMPILED body has no \"## %s\" section.", s.title)
		if h != nil {
			msg = fmt.Sprintf("COMPILED body's \"## %s\" section is empty.", s.title)
		}
		c.report(m, bodyStart(m), msg, s.hint, strings.ToLower(s.title))
	}
}

var listItem = regexp.MustCompile(`^\\d+\\.\\s`)

var versionRef = regexp.MustCompile(`(?i)^v?(\d+)\b`)

func checkVersionReferences(c *Ctx) {
	compiled := map[int]bool{}
	maxV := 0
	for _, m := range c.T.Msgs {
		switch m.Subject.Kind {
		case subject.Compiled:
			if n := m.Subject.Version; n > 0 {
				compiled[n] = true
				if n > maxV {
					maxV = n
				}
			}
			continue
		case subject.Delta, subject.Critique:
		default:
			continue
		}
		if m.Doc == nil {
			continue
		}
		label := "Base Version"
		if m.Subject.Kind == subject.Critique {
			label = "Artifact Version"
		}
		v, s, e, ok := c.metaField(m, label)
		if !ok {
			continue
		}
		mm := versionRef.FindStringSubmatch(v)
		if mm == nil {
			continue
		}
		n, _ := strconv.Atoi(mm[1])
		if compiled[n] {
			continue
		}
		have := "no version has been compiled yet"
		if maxV > 0 {
			have = fmt.Sprintf("the latest compiled version is v%d", maxV)
		}
		c.report(m, m.BodyPos(s, e), fmt.Sprintf("%s v%d names an artifact version that does not exist in this thread: %s.", label, n, have),
			"Reference a version some COMPILED message has published.", fmt.Sprintf("%s v%d", label, n))
	}
}
