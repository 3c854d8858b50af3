// Package markdown writes a report as GitHub-flavoured markdown for
// $GITHUB_STEP_SUMMARY or a sticky pull-request comment: a verdict, counts,
// a per-rule table and the findings per thread, always within GitHub's size
// limits. With a baseline (pull-request mode) the new findings come first,
// in a section of their own, and the thread groups hold the old ones.
package markdown

import (
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters"
	"github.com/brenner-ci/brenner-ci/reporters/genealogy"
)

const (
	// Marker is the hidden comment that identifies brenner-ci's sticky PR
	// comment.
	Marker = "<!-- brenner-ci-report -->"
	// DefaultMaxChars is used when Write is given maxChars <= 0; GitHub
	// rejects comment bodies over 65,536 characters.
	DefaultMaxChars = 65000
	// MaxBytes bounds the output below GitHub's 1 MiB step-summary limit.
	MaxBytes = 1<<20 - 1
	// MinChars is the smallest limit Write honours (the verdict, counts and
	// footer take up to about 700 characters); a smaller maxChars is raised to it.
	MinChars = 1000
)

// Write writes r as markdown of fewer than maxChars characters (counted in
// UTF-16 code units, as GitHub counts them, which is never less than the
// number of code points) and at most MaxBytes bytes. When the findings do not
// fit, it stops adding them and ends with a footer saying how many were left
// out and where to find them; the findings it keeps are the most severe.
func Write(w io.Writer, r *diag.Report, maxChars int) error {
	if maxChars <= 0 {
		maxChars = DefaultMaxChars
	}
	if maxChars < MinChars {
		maxChars = MinChars
	}
	m := &writer{r: r, paths: reporters.PathsFor(r), maxChars: maxChars - 1, maxBytes: MaxBytes}
	m.render()
	_, err := io.WriteString(w, m.b.String())
	return err
}

type writer struct {
	r                  *diag.Report
	paths              *reporters.Paths
	b                  strings.Builder
	chars              int
	maxChars, maxBytes int
}

// cost is s's length in UTF-16 code units.
func cost(s string) int {
	n := 0
	for _, c := range s {
		if c >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// fits reports whether s can be added while keeping reserve characters (and
// bytes) free for what must follow.
func (m *writer) fits(s string, reserve int) bool {
	return m.chars+cost(s)+reserve <= m.maxChars && m.b.Len()+len(s)+reserve*4 <= m.maxBytes
}

func (m *writer) add(s string) {
	m.b.WriteString(s)
	m.chars += cost(s)
}

// addIf adds s when it fits with reserve to spare.
func (m *writer) addIf(s string, reserve int) bool {
	if !m.fits(s, reserve) {
		return false
	}
	m.add(s)
	return true
}

func (m *writer) render() {
	r := m.r
	e, wn, n := r.Counts()
	failed := reporters.Failed(r)
	gating := reporters.Gating(r)
	failOn := reporters.FailOnName(r.FailOn)

	// Head: never truncated (it is short and fixed in size).
	var h strings.Builder
	h.WriteString(Marker + "\n")
	if r.RunID != "" {
		h.WriteString("<!-- brenner-ci-run " + r.RunID + " -->\n")
	}
	switch {
	case r.RunError != "":
		fmt.Fprintf(&h, "## ❌ brenner-ci could not run: %s\n\n", escape(r.RunError))
	case r.Internal:
		h.WriteString("## ❌ brenner-ci: internal error\n\n")
	case failed && r.HasBaseline:
		// Only new findings gate: the headline counts them, as new, so
		// that it is not read as the count of the tables below.
		fmt.Fprintf(&h, "## ❌ brenner-ci: failed — %s at or above `%s`\n\n", reporters.Plural(gating, "new finding"), failOn)
	case failed:
		fmt.Fprintf(&h, "## ❌ brenner-ci: failed — %s at or above `%s`\n\n", reporters.Plural(gating, "finding"), failOn)
	case r.FailOn == diag.Off:
		h.WriteString("## ✅ brenner-ci: passed (`--fail-on none`)\n\n")
	case r.HasBaseline:
		fmt.Fprintf(&h, "## ✅ brenner-ci: passed — no new findings at or above `%s`\n\n", failOn)
	default:
		fmt.Fprintf(&h, "## ✅ brenner-ci: passed — no findings at or above `%s`\n\n", failOn)
	}
	fmt.Fprintf(&h, "%s, %s and %s in %s", reporters.Plural(e, "error"), reporters.Plural(wn, "warning"),
		reporters.Plural(n, "note"), reporters.Checked(r))
	if r.HasBaseline {
		fmt.Fprintf(&h, "; %d new since %s", reporters.NewCount(r), since(r))
	}
	fmt.Fprintf(&h, " (fail-on `%s`).\n\n", failOn)
	if r.RunError == "" {
		line := reporters.ConfigLine(r)
		h.WriteString(escape(strings.ToUpper(line[:1])+line[1:]) + ".\n\n")
	}
	if r.Internal {
		h.WriteString("brenner-ci had an internal error, so this report may be incomplete; see the notifications below and the job log.\n\n")
	}

	if r.HasBaseline {
		h.WriteString("| Severity | Findings | New |\n| :-- | --: | --: |\n")
		ne, nw, nn := newCounts(r)
		fmt.Fprintf(&h, "| ❌ Error | %d | %d |\n| ⚠️ Warning | %d | %d |\n| ℹ️ Note | %d | %d |\n\n", e, ne, wn, nw, n, nn)
	} else {
		h.WriteString("| Severity | Findings |\n| :-- | --: |\n")
		fmt.Fprintf(&h, "| ❌ Error | %d |\n| ⚠️ Warning | %d |\n| ℹ️ Note | %d |\n\n", e, wn, n)
	}
	m.add(h.String())

	footer := m.footer()
	// Room kept at every step for what is always written last: the
	// truncation notice, the footer, a </details> and section-ending newlines.
	maxNew := 0
	if r.HasBaseline {
		maxNew = len(r.Findings)
	}
	reserve := cost(footer) + cost(m.omitted(len(r.Findings), len(r.Findings), maxNew, len(r.Notifications))) + cost(closeDetails) + 4
	// And for the genealogy's word that it was cut, so that it is never
	// silently left out.
	genReserve := m.genealogyReserve()
	reserve += genReserve

	// What the other reports left out (SARIF's results) comes right under
	// the counts, before anything the size cap may cut.
	headNotes := 0
	for _, n := range r.Notifications {
		if !n.Head {
			continue
		}
		icon := "**" + escape(n.Level.String()) + "**"
		if k := reporters.SeverityRank(n.Level); k < 3 {
			icon = icons[k]
		}
		if m.addIf(icon+" "+escape(n.Message)+"\n\n", reserve) {
			headNotes++
		}
	}

	// With a baseline the new findings come first, expanded; the thread
	// groups then hold the old ones.
	shownNew := 0
	if r.HasBaseline {
		shownNew = m.newFindings(reserve)
	}
	m.rules(reserve)
	shown := shownNew + m.findings(reserve)
	notes := m.notifications(reserve)
	m.genealogy(reserve - genReserve)
	if notes += headNotes; shown < len(r.Findings) || notes < len(r.Notifications) {
		newLeft := 0
		if r.HasBaseline {
			newLeft = reporters.NewCount(r) - shownNew
		}
		m.add(m.omitted(len(r.Findings)-shown, len(r.Findings), newLeft, len(r.Notifications)-notes))
	}
	m.add(footer)
}

// newHead is the title of the section of new findings (with a baseline).
const newHead = "### New in this pull request\n\n"

// newFindings writes, with a baseline, the section of new findings, most
// severe first (then in input order), as a plain list that no one has to
// expand, and returns how many it wrote: it stops at the first that does
// not fit.
func (m *writer) newFindings(reserve int) int {
	r := m.r
	if len(r.Findings) == 0 {
		return 0 // rules() says "No findings."
	}
	var idx []int
	for i := range r.Findings {
		if r.IsNew(i) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		m.addIf(newHead+"No new findings.\n\n", reserve)
		return 0
	}
	sortBySeverity(r, idx)
	n := 0
	for _, i := range idx {
		s := m.item(i)
		if n == 0 {
			s = newHead + s
		}
		// Room for the item and the newline that ends the list.
		if !m.fits(s+"\n", reserve) {
			break
		}
		m.add(s)
		n++
	}
	if n > 0 {
		m.add("\n")
	}
	return n
}

func newCounts(r *diag.Report) (e, w, n int) {
	for i := range r.Findings {
		if !r.IsNew(i) {
			continue
		}
		switch r.Findings[i].Severity {
		case diag.Error:
			e++
		case diag.Warning:
			w++
		default:
			n++
		}
	}
	return
}

// rules writes the per-rule table: a row per severity and rule that has
// findings, errors first, then warnings, then notes, by rule id within a
// severity, each counting its findings; with a baseline a New column counts
// how many of them are new (without one every finding is new, and the
// column would repeat Findings).
func (m *writer) rules(reserve int) {
	r := m.r
	if len(r.Findings) == 0 {
		m.addIf("No findings.\n\n", reserve)
		return
	}
	type row struct {
		sev          diag.Severity
		id           string
		count, fresh int
	}
	type key struct {
		sev diag.Severity
		id  string
	}
	byKey := map[key]*row{}
	var rows []*row
	for i := range r.Findings {
		f := &r.Findings[i]
		k := key{f.Severity, f.Rule}
		rw, ok := byKey[k]
		if !ok {
			rw = &row{sev: f.Severity, id: f.Rule}
			byKey[k] = rw
			rows = append(rows, rw)
		}
		rw.count++
		if r.IsNew(i) {
			rw.fresh++
		}
	}
	sort.Slice(rows, func(a, b int) bool {
		if ra, rb := reporters.SeverityRank(rows[a].sev), reporters.SeverityRank(rows[b].sev); ra != rb {
			return ra < rb
		}
		if rows[a].sev != rows[b].sev { // out-of-range severities share a rank
			return rows[a].sev < rows[b].sev
		}
		return rows[a].id < rows[b].id
	})
	names := map[string]string{}
	for _, rl := range r.Rules {
		if _, dup := names[rl.ID]; !dup {
			names[rl.ID] = rl.Name
		}
	}
	head := "### Rules\n\n| Severity | Rule | Name | Findings |\n| :-- | :-- | :-- | --: |\n"
	if r.HasBaseline {
		head = "### Rules\n\n| Severity | Rule | Name | Findings | New |\n| :-- | :-- | :-- | --: | --: |\n"
	}
	if !m.addIf(head, reserve) {
		return
	}
	left := 0
	for _, rw := range rows {
		sev := escape(rw.sev.String())
		if k := reporters.SeverityRank(rw.sev); k < 3 {
			sev = sevCells[k]
		}
		line := fmt.Sprintf("| %s | %s | %s | %d |", sev, m.ruleRef(rw.id), escape(names[rw.id]), rw.count)
		if r.HasBaseline {
			line += fmt.Sprintf(" %d |", rw.fresh)
		}
		if left > 0 || !m.addIf(line+"\n", reserve) {
			left++
		}
	}
	m.add("\n")
	if left > 0 {
		m.addIf(fmt.Sprintf("%s not listed for lack of space.\n\n", reporters.Plural(left, "more row")), reserve)
	}
}

// sevCells are the severities as the Rules table shows them.
var sevCells = [...]string{"❌ error", "⚠️ warning", "ℹ️ note"}

const closeDetails = "\n</details>\n\n"

// findings writes the findings grouped by thread (in r.Threads order, then
// the findings of no known thread) inside <details> sections and returns how
// many it wrote. When not all fit, it picks the most severe (then in input
// order) and still lists them in thread order.
//
// With a baseline the new findings are in the section above (newFindings):
// the groups hold the old ones, under "Old findings", and each group's
// summary says how many of its thread's findings are new.
//
// It is long on purpose: selection under the size cap and grouped output share one budget.
func (m *writer) findings(reserve int) int {
	r := m.r
	if len(r.Findings) == 0 {
		return 0
	}
	known := make(map[string]int, len(r.Threads))
	for i, t := range r.Threads {
		if _, dup := known[t.Key]; !dup {
			known[t.Key] = i
		}
	}
	groupOf := make([]int, len(r.Findings))
	groups := make([][]int, len(r.Threads)+1)
	newIn := make([]int, len(groups)) // with a baseline: new findings per group, listed above
	var candidates []int              // the findings the groups list
	for i := range r.Findings {
		k, ok := known[r.Findings[i].Thread]
		if !ok || r.Findings[i].Thread == "" {
			k = len(r.Threads)
		}
		groupOf[i] = k
		if r.HasBaseline && r.IsNew(i) {
			newIn[k]++
			continue
		}
		groups[k] = append(groups[k], i)
		candidates = append(candidates, i)
	}
	if len(candidates) == 0 {
		return 0
	}
	head := "### Findings\n\n"
	if r.HasBaseline {
		head = "### Old findings\n\n"
	}
	// A group's <details> line and a finding's item are rendered when the
	// selection below first looks at them: the summary holds a few hundred
	// findings of thousands, and rendering every one was most of its cost.
	opens := make([]string, len(groups))
	open := func(g int) string {
		if opens[g] != "" {
			return opens[g]
		}
		idx := groups[g]
		var title string
		if g < len(r.Threads) {
			t := r.Threads[g]
			title = "<b>" + html(nonBlank(t.Key, "(no key)")) + "</b>"
			if t.File != "" {
				title += " · <code>" + html(m.paths.Display(t.File)) + "</code>"
			}
		} else {
			title = "<b>Other findings</b> (no thread)"
		}
		title += " · " + countLine(r, idx)
		if r.HasBaseline {
			if newIn[g] > 0 {
				title += fmt.Sprintf(" · 🆕 %d new, listed above", newIn[g])
			} else {
				title += " · 0 new"
			}
		}
		opens[g] = "<details><summary>" + title + "</summary>\n\n"
		return opens[g]
	}
	items := make([]string, len(r.Findings))
	item := func(i int) string {
		if items[i] == "" {
			items[i] = m.item(i)
		}
		return items[i]
	}

	// Choose what fits, most severe first.
	byRank := candidates // reordered in place: candidates is not used again
	sortBySeverity(r, byRank)
	chars, bytes := m.chars+cost(head)+reserve, m.b.Len()+len(head)+reserve*4
	if chars > m.maxChars || bytes > m.maxBytes {
		return 0
	}
	selected := make([]bool, len(r.Findings))
	opened := make([]bool, len(groups))
	n := 0
	for _, i := range byRank {
		g := groupOf[i]
		it := item(i)
		c, b := cost(it), len(it)
		if !opened[g] {
			c += cost(open(g)) + cost(closeDetails)
			b += len(open(g)) + len(closeDetails)
		}
		if chars+c > m.maxChars || bytes+b > m.maxBytes {
			break
		}
		chars, bytes = chars+c, bytes+b
		selected[i], opened[g] = true, true
		n++
	}
	if n == 0 {
		return 0
	}
	m.add(head)
	for g, idx := range groups {
		if !opened[g] {
			continue
		}
		m.add(open(g))
		for _, i := range idx {
			if selected[i] {
				m.add(item(i))
			}
		}
		m.add(closeDetails)
	}
	return n
}

// sortBySeverity orders finding indexes most severe first, keeping input
// order within a severity.
func sortBySeverity(r *diag.Report, idx []int) {
	sort.SliceStable(idx, func(a, b int) bool {
		return reporters.SeverityRank(r.Findings[idx[a]].Severity) < reporters.SeverityRank(r.Findings[idx[b]].Severity)
	})
}

func countLine(r *diag.Report, idx []int) string {
	var c [3]int
	for _, i := range idx {
		if k := reporters.SeverityRank(r.Findings[i].Severity); k < 3 {
			c[k]++
		}
	}
	var parts []string
	for k, noun := range []string{"error", "warning", "note"} {
		if c[k] > 0 {
			parts = append(parts, reporters.Plural(c[k], noun))
		}
	}
	return strings.Join(parts, ", ")
}

var icons = [...]string{"❌ **error**", "⚠️ **warning**", "ℹ️ **note**"}

// item renders one finding as a list item.
func (m *writer) item(i int) string {
	r := m.r
	f := &r.Findings[i]
	var b strings.Builder
	b.WriteString("- ")
	if k := reporters.SeverityRank(f.Severity); k < 3 {
		b.WriteString(icons[k])
	} else {
		b.WriteString("**" + f.Severity.String() + "**")
	}
	if r.HasBaseline && r.IsNew(i) {
		b.WriteString(" 🆕")
	}
	b.WriteString(" " + m.ruleRef(f.Rule) + " · " + m.location(f) + " · " + escape(f.Message))
	// Trimmed: "_" next to a space neither opens nor closes emphasis, and
	// would show as it is.
	if hint := strings.TrimSpace(reporters.OneLine(f.Hint)); hint != "" {
		b.WriteString(" — _" + escape(hint) + "_")
	}
	b.WriteString("\n")
	return b.String()
}

// ruleRef is the rule id in code, linked to its documentation.
func (m *writer) ruleRef(id string) string {
	text := escape(id)
	if id != "" && !strings.ContainsAny(id, "`\n\r|") {
		text = "`" + id + "`"
	}
	registered := false
	for k := range m.r.Rules {
		if m.r.Rules[k].ID == id {
			registered = !m.r.Rules[k].Own // a rule of its own has no documentation page
			break
		}
	}
	if link := reporters.DocsLink(m.r.Tool, id); link != "" && registered {
		return "[" + text + "](" + linkURL(link) + ")"
	}
	return text
}

// location is path:line:col, linked to the line on GitHub when the file is in
// the repository and the GitHub environment is known.
func (m *writer) location(f *diag.Finding) string {
	if f.Pos.File == "" {
		return "(no file)"
	}
	p := f.Pos.Normalize()
	text := m.paths.Display(f.Pos.File)
	if p.Line > 0 {
		text += fmt.Sprintf(":%d:%d", p.Line, p.Col)
	}
	g := m.r.GitHub
	rel, ok := m.paths.Rel(f.Pos.File)
	if !ok || g.ServerURL == "" || g.Repository == "" || g.SHA == "" {
		return escape(text)
	}
	u := strings.TrimRight(g.ServerURL, "/") + "/" + g.Repository + "/blob/" + g.SHA + "/" + reporters.EscapePath(rel)
	if p.Line > 0 {
		if renderedByGitHub(rel) {
			u += "?plain=1" // a rendered document has no line anchors
		}
		u += fmt.Sprintf("#L%d", p.Line)
	}
	return "[" + escape(text) + "](" + linkURL(u) + ")"
}

// renderedByGitHub reports whether GitHub shows the file rendered (a
// markdown document), where a line anchor works only on the plain view.
func renderedByGitHub(rel string) bool {
	switch strings.ToLower(path.Ext(rel)) {
	case ".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdx":
		return true
	}
	return false
}

// notifications writes the run's notifications (but those of the head,
// n.Head) and returns how many fit.
func (m *writer) notifications(reserve int) int {
	r := m.r
	if len(r.Notifications) == 0 {
		return 0
	}
	const head = "### Notifications\n\n"
	shown := 0
	for _, n := range r.Notifications {
		if n.Head {
			continue
		}
		line := "- "
		if k := reporters.SeverityRank(n.Level); k < 3 {
			line += icons[k]
		}
		line += " " + escape(n.Message)
		if n.Rule != "" {
			line += " (" + m.ruleRef(n.Rule) + ")"
		}
		line += "\n"
		if shown == 0 {
			line = head + line
		}
		if !m.addIf(line, reserve) {
			break
		}
		shown++
	}
	if shown > 0 {
		m.add("\n")
	}
	return shown
}

// omitted is the truncation notice; newLeft (with a baseline) is how many
// of the findings left out are new.
func (m *writer) omitted(findings, total, newLeft, notes int) string {
	var parts []string
	if findings > 0 {
		part := fmt.Sprintf("%d of %s", findings, reporters.Plural(total, "finding"))
		if newLeft > 0 {
			part += fmt.Sprintf(" (%d new)", newLeft)
		}
		parts = append(parts, part)
	}
	if notes > 0 {
		parts = append(parts, reporters.Plural(notes, "notification"))
	}
	if len(parts) == 0 {
		parts = []string{"0 findings"}
	}
	order := "the most severe findings first"
	if m.r.HasBaseline {
		order = "the new findings first, then the most severe"
	}
	return fmt.Sprintf("⚠️ **%s not shown**: this report is limited to %d characters, so it lists %s. %s\n\n",
		strings.Join(parts, " and "), m.maxChars+1, order, escape(reporters.EveryFinding(m.r)))
}

func (m *writer) footer() string {
	r := m.r
	s := "<sub>" + html(nonBlank(r.Tool.Name, "brenner-ci"))
	if r.Tool.Version != "" {
		s += " " + html(r.Tool.Version)
	}
	// The time is the data's (its last message), or SOURCE_DATE_EPOCH's;
	// never the run's, and the footer says which.
	switch t := r.Time.UTC().Format("2006-01-02 15:04:05 UTC"); {
	case r.Time.IsZero():
	case r.TimeFromEpoch:
		s += " · as of " + t + " (SOURCE_DATE_EPOCH)"
	default:
		s += " · data as of " + t
	}
	return s + "</sub>\n"
}

// since names what the new findings are new against: the baseline, the
// base revision of pull-request mode, or both.
func since(r *diag.Report) string {
	rev := r.BaseRev
	if (len(rev) == 40 || len(rev) == 64) && strings.Trim(rev, "0123456789abcdef") == "" {
		rev = "commit " + rev[:12] // the Action passes the base commit's id
	}
	switch {
	case rev == "":
		return "the baseline"
	case r.BaselineFile:
		return "the baseline and " + escape(rev)
	}
	return escape(rev)
}

// escape makes text safe inline in markdown and in table cells: one line,
// no control characters, markdown punctuation backslash-escaped ("|" too,
// for tables), and "@" followed by a zero-width space so that no one is
// mentioned.
func escape(s string) string {
	s = reporters.OneLine(s)
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case strings.ContainsRune("\\`*_[]<>|~&!#$", c):
			b.WriteByte('\\')
			b.WriteRune(c)
		case c == '@', c == ':' && strings.HasPrefix(s[i+1:], "//"):
			// GFM links e-mail addresses and bare URLs by themselves
			// ("https://…", "www.…"), and "@name" mentions someone: a
			// zero-width space keeps input text from becoming either.
			b.WriteRune(c)
			b.WriteString("\u200b")
		case (c == 'w' || c == 'W') && len(s)-i >= 4 && strings.EqualFold(s[i:i+4], "www."):
			b.WriteString(s[i : i+3])
			b.WriteString("\u200b")
			n = 3
		default:
			b.WriteRune(c)
		}
		i += n
	}
	return b.String()
}

// html escapes text for use inside an HTML block (<summary>).
func html(s string) string {
	s = reporters.OneLine(s)
	return htmlEscaper.Replace(s)
}

// The replacers are built once: a strings.Replacer compiles its table on
// first use, and these run for every finding of a report.
var (
	htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\"", "&quot;", "@", "@\u200b")
	urlEscaper  = strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E", "\n", "", "\r", "")
)

// linkURL makes a URL safe as a markdown link destination.
func linkURL(u string) string {
	if !utf8.ValidString(u) {
		u = strings.ToValidUTF8(u, "")
	}
	return urlEscaper.Replace(u)
}

func nonBlank(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// graphCommand is where the whole genealogy graph can be had.
const graphCommand = "The full graph: `brenner-ci graph --format mermaid|dot|json PATH…`.\n\n"

const genealogyTitle = "### Session genealogy\n\n"

// genealogyCut is the notice of a genealogy cut short, left references of
// its total left out.
func (m *writer) genealogyCut(left int) string {
	return fmt.Sprintf("⚠️ **%d of %s not shown**: this summary is limited to %d characters, and the findings come first. %s",
		left, reporters.Plural(len(m.r.Genealogy.Edges), "cross-session reference"), m.maxChars+1, graphCommand)
}

// genealogyReserve is the room the genealogy's title and cut notice take
// (0 without a genealogy to write).
func (m *writer) genealogyReserve() int {
	if g := m.r.Genealogy; g == nil || len(g.Edges) == 0 {
		return 0
	}
	return cost(genealogyTitle+m.genealogyCut(len(m.r.Genealogy.Edges))) + 1
}

// genealogy writes the session genealogy when the run has cross-session
// references: one Mermaid block (GitHub draws it) per connected part of
// the graph that stays legible drawn, under a legend of the arrows' styles;
// the references of the parts too large to read drawn, or past
// genealogy.MaxDiagrams, in a table. The findings of the RF- rules are
// marked on the references they are about. When the room left by the
// findings runs out it says so, and how many references it left out.
//
// It is long on purpose: the parts, the table and the cut share one budget.
func (m *writer) genealogy(reserve int) {
	g := m.r.Genealogy
	if g == nil || len(g.Edges) == 0 {
		return
	}
	parts := genealogy.Parts(g)
	marks := genealogy.Marks(g, m.r.Findings)
	total := len(g.Edges)
	cut := m.genealogyCut
	// Room kept at every step for the cut notice (and the newline that
	// ends a table before it); render kept it for the title and notice.
	keep := reserve + m.genealogyReserve()

	var drawn, listed []int // parts
	tooLarge, artifacts, marked := 0, false, false
	for k := range parts {
		p := &parts[k]
		if p.Dir == "" || len(drawn) == genealogy.MaxDiagrams {
			listed = append(listed, k)
			if p.Dir == "" {
				tooLarge++
			}
			continue
		}
		drawn = append(drawn, k)
		for _, e := range p.Edges {
			artifacts = artifacts || g.Edges[e].Artifact != ""
			marked = marked || e < len(marks) && len(marks[e]) > 0
		}
	}

	head := genealogyTitle + reporters.Plural(total, "cross-session reference") + " between " + reporters.Plural(len(g.Sessions), "session")
	if len(parts) > 1 {
		head += fmt.Sprintf(", in %d unconnected groups", len(parts))
	}
	head += ".\n\n"
	if !m.addIf(head, keep) {
		m.add(genealogyTitle + cut(total))
		return
	}
	// The legend comes with the first diagram, or not at all.
	legend := "Solid arrows: references made by deltas."
	if artifacts {
		legend += " Dotted arrows: references read from persisted artifacts, not from deltas."
	}
	if marked {
		legend += " Red arrows, their relation followed by " + genealogy.MarkLabel + " and rule ids: references with findings of those rules."
	}
	legend += "\n\n"
	shown := 0
	for i, k := range drawn {
		block := "```mermaid\n" + parts[k].Mermaid(marks) + "```\n\n"
		if i == 0 {
			block = legend + block
		}
		if !m.addIf(block, keep) {
			m.add(cut(total - shown))
			return
		}
		shown += len(parts[k].Edges)
	}
	if len(listed) > 0 {
		var why string
		if tooLarge == len(parts) && len(parts) == 1 {
			why = "The graph is too large to draw here: it would be shrunk below a readable size. Its references:\n\n"
		} else {
			var reasons []string
			if tooLarge > 0 {
				reasons = append(reasons, reporters.Plural(tooLarge, "group")+" too large to draw here (shrunk below a readable size)")
			}
			if n := len(listed) - tooLarge; n > 0 {
				reasons = append(reasons, fmt.Sprintf("%s past the %d this summary draws", reporters.Plural(n, "group"), genealogy.MaxDiagrams))
			}
			why = "The references of " + strings.Join(reasons, " and ") + ":\n\n"
		}
		if !m.addIf(why+"| From | Relation | To | Findings |\n| :-- | :-- | :-- | :-- |\n", keep) {
			m.add(cut(total - shown))
			return
		}
		rows := genealogy.Rows(g)
		for _, k := range listed {
			for _, e := range parts[k].Edges {
				var found string
				if e < len(marks) {
					found = strings.Join(marks[e], ", ")
				}
				row := "| " + escape(rows[e].From) + " | " + escape(rows[e].Relation) + " | " + escape(rows[e].To) + " | " + found + " |\n"
				if !m.addIf(row, keep) {
					m.add("\n" + cut(total-shown))
					return
				}
				shown++
			}
		}
		m.add("\n")
	}
	m.addIf(graphCommand, reserve)
}
