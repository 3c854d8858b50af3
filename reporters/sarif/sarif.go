// Package sarif writes a report as SARIF 2.1.0 shaped for GitHub code
// scanning: one run, every registered rule, and results that GitHub accepts
// (one physical location each, matching ruleIndex, fingerprints, no nulls).
package sarif

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters"
)

// GitHub code scanning limits (docs: sarif-limits, sarif-support-for-code-scanning).
const (
	// MaxResults is the most results a run holds: GitHub code scanning
	// accepts up to 25,000 results in a run but keeps only 5,000, dropping
	// the rest without saying which; the file chooses them instead (see
	// Prepare) and says how many it left out.
	MaxResults = 5000
	// MaxCompressed bounds the gzip-compressed JSON of the results and
	// notifications of one file, and MaxBytes their raw JSON. GitHub
	// rejects a SARIF file over 10 MB gzip-compressed (the rules take a few
	// hundred KB more). 5,000 typical results take about 2 MB raw and
	// 0.1 MB compressed, so the bounds only bite on hostile input (long,
	// incompressible or escape-heavy messages) — with the overflow counted.
	MaxCompressed   = 9 << 20
	MaxBytes        = 64 << 20
	maxDescription  = 1024
	maxRuleName     = 255
	maxTags         = 20
	srcRoot         = "%SRCROOT%"
	defaultCategory = "brenner-ci/"
	// FingerprintKey is brenner-ci's own partialFingerprints key (the same
	// value as primaryLocationLineHash), read back by --baseline.
	FingerprintKey = "brenner-ci/v1"
	// PrimaryKey is the fingerprint GitHub matches alerts by.
	PrimaryKey = "primaryLocationLineHash"
)

// Write writes r as one SARIF 2.1.0 log (compact JSON, one trailing
// newline). Findings that cannot be results (no file, a file outside
// r.RepoRoot or missing from it) become tool execution notifications; of
// the others, at most MaxResults are results, chosen as Prepare says, and
// a notification says how many were left out.
func Write(w io.Writer, r *diag.Report) error {
	p, err := Prepare(r)
	if err != nil {
		return err
	}
	return p.Write(w)
}

// Build returns the SARIF log for r without writing it: the log Prepare
// built, with go-sarif's structures of its results (result), which Write
// does not need (it writes each result's JSON as appendResult made it).
func Build(r *diag.Report) (*gosarif.Report, error) {
	p, err := Prepare(r)
	if err != nil {
		return nil, err
	}
	run := p.log.Runs[0]
	run.Results = make([]*gosarif.Result, 0, len(p.kept))
	for _, i := range p.kept {
		run.Results = append(run.Results, result(r, i, p.index[ruleID(&r.Findings[i])], p.infos[i], p.paths))
	}
	return p.log, nil
}

// Prepared is the SARIF log of a report, built and ready to write, with
// what it left out of its results.
type Prepared struct {
	r   *diag.Report
	log *gosarif.Report
	// results are the JSON of the run's results (appendResult), as the
	// size budget measured them, in report order: Write puts them in the
	// log's results array.
	results [][]byte
	// kept are the findings that are results, in the same order, and
	// index, infos and paths what Build needs to make their structures.
	kept  []int
	index map[string]int
	infos []reporters.FileInfo
	paths *reporters.Paths
	// Located counts the findings that can be results (a file in the
	// repository), Results those that are; the others were left out,
	// ByCount over MaxResults and ByBytes over the size budget.
	Located, Results, ByCount, ByBytes int
}

// Write writes the log (compact JSON, one trailing newline): the log
// without its results, with the results Prepare encoded put into its
// empty results array. TestWriteSplicesResults holds it to encoding the
// whole log that Build returns.
func (p *Prepared) Write(w io.Writer) error {
	// Copies of the log and its run without the results: the prepared log
	// is not changed (Build returns it, and a run may write it twice).
	log, run := *p.log, *p.log.Runs[0]
	run.Results = []*gosarif.Result{}
	log.Runs = []*gosarif.Run{&run}
	var doc bytes.Buffer
	if err := encode(&doc, &log); err != nil {
		return err
	}
	at := resultsAt(doc.Bytes())
	if at < 0 {
		return fmt.Errorf("sarif: the log has no results array to write its results into")
	}
	out := bufio.NewWriterSize(w, 64<<10)
	out.Write(doc.Bytes()[:at])
	for i, res := range p.results {
		if i > 0 {
			out.WriteByte(',')
		}
		out.Write(res)
	}
	out.Write(doc.Bytes()[at:])
	return out.Flush()
}

// encode writes v as compact JSON with HTML characters as they are, and a
// newline.
func encode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// resultsPrefix opens the run's results array in the log's JSON.
var resultsPrefix = []byte(`"results":[`)

// resultsAt returns the offset just inside the run's results array in doc,
// the compact JSON of a log of one run, or -1. It follows the JSON's
// strings and nesting: the run's own keys are at depth 3 (the log, its
// runs, the run), so a "results" key of any property bag is not taken
// for it.
func resultsAt(doc []byte) int {
	depth := 0
	for i := 0; i < len(doc); i++ {
		switch doc[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			if depth == 3 && bytes.HasPrefix(doc[i:], resultsPrefix) {
				return i + len(resultsPrefix)
			}
			for i++; i < len(doc) && doc[i] != '"'; i++ { // to the closing quote
				if doc[i] == '\\' {
					i++
				}
			}
		}
	}
	return -1
}

// Notification is what the run's other reports say when the SARIF file
// left results out (nil when it left none out): the SARIF file itself
// says it in a notification of its own.
func (p *Prepared) Notification() *diag.Notification {
	left := p.ByCount + p.ByBytes
	if left == 0 {
		return nil
	}
	var why []string
	if p.ByCount > 0 {
		why = append(why, fmt.Sprintf("GitHub code scanning keeps at most %d results per run and drops the rest without saying which", MaxResults))
	}
	if p.ByBytes > 0 {
		why = append(why, "GitHub rejects a SARIF file over 10 MB compressed")
	}
	order := "the most severe"
	if p.r.HasBaseline {
		order = "the most severe (new before old)"
	}
	return &diag.Notification{Level: diag.Warning, Head: true, Message: fmt.Sprintf(
		"The SARIF report holds %d of the %s that can be code scanning results: %s, so it keeps %s and leaves out %d. %s",
		p.Results, reporters.Plural(p.Located, "finding"), strings.Join(why, ", and "), order, left, reporters.EveryFinding(p.r))}
}

// priority orders findings for the results' room: most severe first, then,
// with a baseline, new before old, then in report order.
func priority(r *diag.Report, idx []int) []int {
	order := append([]int(nil), idx...)
	sort.SliceStable(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if ri, rj := reporters.SeverityRank(r.Findings[i].Severity), reporters.SeverityRank(r.Findings[j].Severity); ri != rj {
			return ri < rj
		}
		return r.IsNew(i) && !r.IsNew(j)
	})
	return order
}

// Prepare builds the SARIF log of r. What becomes a result is decided in
// one place: the findings that can be results, in priority order (most
// severe first, then, with a baseline, new before old, then report order),
// while there is room — at most MaxResults, within the size budget — and
// then written in report order.
//
// It is long on purpose: the SARIF log built top to bottom (tool and rules, results, notifications, invocation) sharing one rule index and one path cache.
func Prepare(r *diag.Report) (*Prepared, error) {
	log, err := gosarif.New(gosarif.Version210)
	if err != nil {
		return nil, err
	}
	paths := reporters.PathsFor(r)

	name := r.Tool.Name
	if name == "" {
		name = "brenner-ci"
	}
	driver := gosarif.NewDriver(name)
	if r.Tool.Version != "" {
		driver.WithVersion(r.Tool.Version).WithSemanticVersion(strings.TrimPrefix(r.Tool.Version, "v"))
	}
	if absoluteURI(r.Tool.InfoURI) {
		driver.WithInformationURI(r.Tool.InfoURI)
	}
	driver.Rules = make([]*gosarif.ReportingDescriptor, 0, len(r.Rules))
	run := gosarif.NewRun(*gosarif.NewTool(driver))
	run.Results = []*gosarif.Result{}

	// Rules, in registry order. A finding of a rule missing from the
	// registry gets a generic descriptor appended, so its ruleIndex is valid.
	index := map[string]int{}
	for i := range r.Rules {
		if _, dup := index[r.Rules[i].ID]; dup || r.Rules[i].ID == "" {
			continue
		}
		index[r.Rules[i].ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, rule(r.Tool, &r.Rules[i], true))
	}
	for i := range r.Findings {
		id := ruleID(&r.Findings[i])
		if _, ok := index[id]; !ok {
			index[id] = len(driver.Rules)
			driver.Rules = append(driver.Rules, rule(r.Tool, unknownRule(id, r.Findings[i].Severity), false))
		}
	}

	category := r.Category
	if category == "" {
		category = defaultCategory
	}
	if !strings.HasSuffix(category, "/") {
		category += "/"
	}
	run.WithAutomationDetails(gosarif.NewRunAutomationDetails().WithID(category))
	run.WithOriginalUriBaseIds(map[string]*gosarif.ArtifactLocation{
		srcRoot: gosarif.NewSimpleArtifactLocation(paths.RootURI()),
	})
	run.WithColumnKind("unicodeCodePoints")
	inv := run.AddInvocation(!r.Internal && r.RunError == "")
	inv.ToolExecutionNotifications = []*gosarif.Notification{}
	budget := newByteBudget()
	// Which configuration governed the run (docs/security.md).
	inv.Properties = gosarif.Properties{"brenner-ci/configuration": reporters.ConfigLine(r)}
	if r.RunID != "" {
		inv.Properties["brenner-ci/run-id"] = r.RunID
	}
	if r.Config.File != "" {
		inv.Properties["brenner-ci/configuration-file"] = paths.Display(r.Config.File)
		inv.Properties["brenner-ci/configuration-how"] = r.Config.How
		if r.Config.Rev != "" {
			inv.Properties["brenner-ci/configuration-rev"] = r.Config.Rev
		}
	}
	for _, n := range r.Notifications {
		note := gosarif.NewNotification().WithLevel(level(n.Level)).WithTextMessage(nonEmpty(n.Message, "(no message)"))
		if i, ok := index[n.Rule]; ok && n.Rule != "" {
			note.WithAssociatedRule(gosarif.NewReportingDescriptorReference().WithId(n.Rule).WithIndex(i))
		}
		inv.AddTToolExecutionNotification(note)
	}

	// Which findings can be results.
	located := make([]int, 0, len(r.Findings))
	infos := make([]reporters.FileInfo, len(r.Findings))
	for i := range r.Findings {
		f := &r.Findings[i]
		infos[i] = paths.File(f.Pos.File)
		if infos[i].OK {
			located = append(located, i)
			continue
		}
		msg := fmt.Sprintf("%s (not a code scanning result: %s)", oneLine(f.String()), infos[i].Reason)
		note := gosarif.NewNotification().WithLevel(level(f.Severity)).WithTextMessage(msg).
			WithAssociatedRule(gosarif.NewReportingDescriptorReference().WithId(ruleID(f)).WithIndex(index[ruleID(f)]))
		if _, ok := budget.spend(note); !ok {
			budget.notes++
			continue
		}
		inv.AddTToolExecutionNotification(note)
	}
	// The results: in priority order while there is room, by count and by
	// size; then back in report order.
	p := &Prepared{r: r, log: log, Located: len(located), index: index, infos: infos, paths: paths}
	kept := make(map[int][]byte, min(len(located), MaxResults))
	var enc []byte
	for _, i := range priority(r, located) {
		if len(kept) == MaxResults {
			p.ByCount++
			continue
		}
		enc = appendResult(enc[:0], r, i, index[ruleID(&r.Findings[i])], infos[i], paths)
		data, ok := budget.add(enc)
		if !ok {
			budget.results++
			continue
		}
		kept[i] = data
	}
	p.Results, p.ByBytes = len(kept), budget.results
	order := "the most severe were kept"
	if r.HasBaseline {
		order = "the most severe were kept (new before old)"
	}
	if p.ByCount > 0 {
		inv.AddTToolExecutionNotification(gosarif.NewNotification().WithLevel("warning").WithTextMessage(fmt.Sprintf(
			"%s left out of this SARIF file: GitHub code scanning keeps at most %d results per run and drops the rest without saying which, so %s. %s",
			reporters.Plural(p.ByCount, "result"), MaxResults, order, reporters.EveryFinding(r))))
	}
	if budget.results+budget.notes > 0 {
		inv.AddTToolExecutionNotification(gosarif.NewNotification().WithLevel("warning").WithTextMessage(fmt.Sprintf(
			"%s and %s left out of this SARIF file to keep it within GitHub's upload limit of 10 MB compressed; the most severe were kept. %s",
			reporters.Plural(budget.results, "result"), reporters.Plural(budget.notes, "notification"), reporters.EveryFinding(r))))
	}
	if len(inv.ToolExecutionNotifications) == 0 {
		inv.ToolExecutionNotifications = nil // omitted, never null
	}
	p.results = make([][]byte, 0, len(kept))
	p.kept = make([]int, 0, len(kept))
	for _, i := range located {
		if data, ok := kept[i]; ok {
			p.results = append(p.results, data)
			p.kept = append(p.kept, i)
		}
	}
	log.AddRun(run)
	return p, nil
}

func result(r *diag.Report, i, ruleIndex int, fi reporters.FileInfo, paths *reporters.Paths) *gosarif.Result {
	f := &r.Findings[i]
	res := gosarif.NewRuleResult(ruleID(f)).WithRuleIndex(ruleIndex).WithLevel(level(f.Severity))
	res.WithMessage(gosarif.NewTextMessage(resultText(f)))
	reg := reporters.ClampRegion(f.Pos.Line, f.Pos.Col, f.Pos.EndLine, f.Pos.EndCol, fi)
	res.AddLocation(gosarif.NewLocationWithPhysicalLocation(gosarif.NewPhysicalLocation().
		WithArtifactLocation(artifact(fi.Rel)).WithRegion(region(reg))))
	fp := fingerprint(r, i)
	res.WithPartialFingerPrints(map[string]interface{}{PrimaryKey: fp, FingerprintKey: fp})
	if r.HasBaseline {
		state := r.BaselineState(i)
		res.BaselineState = &state
	}
	props := gosarif.Properties{}
	if f.Thread != "" {
		props["thread"] = f.Thread
	}
	if f.MsgID != "" {
		props["messageId"] = f.MsgID
	}
	if f.Code != "" && f.Code != f.Rule {
		props["code"] = f.Code
	}
	if len(props) > 0 {
		res.Properties = props
	}
	if fx := fix(f, paths); fx != nil {
		res.Fixes = []*gosarif.Fix{fx}
	}
	return res
}

// fix converts a finding's fix; it is left out (the JSON report keeps it)
// when its file cannot be located in the repository.
func fix(f *diag.Finding, paths *reporters.Paths) *gosarif.Fix {
	fi, reg, ok := fixPlace(f, paths)
	if !ok {
		return nil
	}
	rep := gosarif.NewReplacement(region(reg)).WithInsertedContent(gosarif.NewArtifactContent().WithText(f.Fix.Text))
	fx := gosarif.NewFix().WithArtifactChanges([]*gosarif.ArtifactChange{
		gosarif.NewArtifactChange(artifact(fi.Rel)).WithReplacement(rep),
	})
	fx.WithDescriptionText(fixDescription(f))
	return fx
}

// fixPlace is the file and region a finding's fix replaces; false when it
// has no fix, or its file cannot be located in the repository.
func fixPlace(f *diag.Finding, paths *reporters.Paths) (reporters.FileInfo, reporters.Region, bool) {
	if f.Fix == nil || f.Fix.Pos.Line <= 0 {
		return reporters.FileInfo{}, reporters.Region{}, false
	}
	file := f.Fix.Pos.File
	if file == "" {
		file = f.Pos.File
	}
	fi := paths.File(file)
	if !fi.OK {
		return reporters.FileInfo{}, reporters.Region{}, false
	}
	p := f.Fix.Pos
	return fi, reporters.ClampRegion(p.Line, p.Col, p.EndLine, p.EndCol, fi), true
}

func fixDescription(f *diag.Finding) string {
	return nonEmpty(f.Fix.Description, "Apply the suggested fix.")
}

// resultText is a result's message: the finding's, and its hint on a line
// of its own.
func resultText(f *diag.Finding) string {
	text := nonEmpty(f.Message, f.Rule)
	if f.Hint != "" {
		text += "\n" + f.Hint
	}
	return text
}

// fingerprint is finding i's fingerprint, both partial fingerprints'
// value.
func fingerprint(r *diag.Report, i int) string {
	if i < len(r.Fingerprints) && r.Fingerprints[i] != "" {
		return r.Fingerprints[i]
	}
	return diag.FingerprintHash(&r.Findings[i]) + ":1"
}

func artifact(rel string) *gosarif.ArtifactLocation {
	return gosarif.NewSimpleArtifactLocation(reporters.EscapePath(rel)).WithUriBaseId(srcRoot)
}

func region(g reporters.Region) *gosarif.Region {
	return gosarif.NewRegion().WithStartLine(g.StartLine).WithStartColumn(g.StartColumn).
		WithEndLine(g.EndLine).WithEndColumn(g.EndColumn)
}

// rule builds a complete reporting descriptor: every text GitHub requires is
// non-empty and within its limits, so nothing serialises as null.
// Rules outside the registry (registered false) have no documentation link.
func rule(t diag.Tool, m *diag.Rule, registered bool) *gosarif.ReportingDescriptor {
	short := clip(firstNonEmpty(m.Short, m.Name, m.ID), maxDescription)
	full := clip(firstNonEmpty(m.Full, m.Short, m.Name, m.ID), maxDescription)
	helpText := firstNonEmpty(m.HelpText, m.Full, m.Short, m.ID)
	link := ""
	if registered && !m.Own {
		link = reporters.DocsLink(t, m.ID)
	}
	helpMD := firstNonEmpty(m.HelpMarkdown, helpText)
	if link != "" && !strings.Contains(helpMD, link) {
		helpMD = strings.TrimRight(helpMD, "\n") + fmt.Sprintf("\n\nDocumentation: [%s](%s)", m.ID, link)
	}
	d := gosarif.NewRule(m.ID).
		WithShortDescription(gosarif.NewMultiformatMessageString(short)).
		WithFullDescription(gosarif.NewMultiformatMessageString(full)).
		WithHelp(gosarif.NewMultiformatMessageString(helpText).WithMarkdown(helpMD))
	if m.Name != "" {
		d.WithName(clip(m.Name, maxRuleName))
	}
	if absoluteURI(link) {
		d.WithHelpURI(link)
	}
	cfg := gosarif.NewReportingConfiguration().WithLevel(level(m.DefaultSeverity))
	if m.DefaultSeverity == diag.Off {
		cfg.WithEnabled(false)
	}
	d.WithDefaultConfiguration(cfg)
	props := gosarif.Properties{"problem.severity": problemSeverity(m.DefaultSeverity)}
	if tags := tags(m.Tags); len(tags) > 0 {
		props["tags"] = tags
	}
	switch m.Precision {
	case "very-high", "high", "medium", "low":
		props["precision"] = m.Precision
	}
	d.WithProperties(props)
	return d
}

// ruleID is the finding's rule id; a finding without one is filed under
// "unknown" so that its result still names a rule.
func ruleID(f *diag.Finding) string { return nonEmpty(f.Rule, "unknown") }

func unknownRule(id string, sev diag.Severity) *diag.Rule {
	text := fmt.Sprintf("Findings reported under %s, which is not in brenner-ci's rule registry.", id)
	return &diag.Rule{ID: id, DefaultSeverity: sev, Short: text, Full: text, HelpText: text}
}

// tags drops empty and repeated tags (the schema wants unique items) and
// keeps at most GitHub's 20.
func tags(in []string) []string {
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, t := range in {
		if t = strings.TrimSpace(t); t == "" || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
		if len(out) == maxTags {
			break
		}
	}
	return out
}

func level(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	case diag.Note:
		return "note"
	}
	return "none"
}

func problemSeverity(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "recommendation"
}

func absoluteURI(s string) bool {
	if s == "" {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && u.Host != ""
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

func nonEmpty(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

func oneLine(s string) string { return reporters.OneLine(s) }

// byteBudget measures what goes into the file: its raw JSON bytes and an
// upper bound of their gzip-compressed size (what is compressed so far,
// plus what is pending, counted as if it did not compress).
//
// Compressing is put off while it cannot change an answer: until the raw
// bytes, with the most gzip can add to them, could pass maxCompressed,
// spend keeps them (held) and notes where it would have flushed; then it
// compresses them, flushing at the same places, and goes on as if it had
// compressed from the start. A typical check's results (2.4 MB raw for
// 10,000 threads) are never compressed: that took 11 ms, on the SARIF
// report's path, of the end of a check. TestBudgetPutsOffCompressing
// holds its answers and its compressed size to compressing at once.
type byteBudget struct {
	maxBytes, maxCompressed int
	raw                     int
	z                       *gzip.Writer // nil while compressing is put off
	out                     countWriter
	pending                 int
	held                    [][]byte     // what spend took while z is nil
	flushAt                 []int        // after which of held compressing would have flushed
	results, notes          int          // left out for want of room
	enc                     bytes.Buffer // the JSON of what spend was given
}

type countWriter struct{ n int }

func (c *countWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// flushEvery is how many raw bytes are compressed between flushes, so that
// out.n follows what was compressed.
const flushEvery = 256 << 10

func newByteBudget() *byteBudget {
	return &byteBudget{maxBytes: MaxBytes, maxCompressed: MaxCompressed}
}

// spend adds v's JSON, as the log holds it, to the file's size and
// returns it (see add).
func (b *byteBudget) spend(v any) ([]byte, bool) {
	b.enc.Reset()
	if err := encode(&b.enc, v); err != nil {
		return nil, false
	}
	return b.add(bytes.TrimSuffix(b.enc.Bytes(), []byte{'\n'}))
}

// add adds data, JSON as the log holds it, to the file's size and returns
// a copy of its own (which the budget may hold); false (and nothing added)
// when it would go over maxBytes raw or maxCompressed compressed.
func (b *byteBudget) add(data []byte) ([]byte, bool) {
	if b.raw+len(data) > b.maxBytes {
		return nil, false
	}
	if b.z == nil && gzipBound(b.raw)+flushEvery+len(data) > b.maxCompressed {
		b.compress()
	}
	if b.z != nil && b.out.n+b.pending+len(data) > b.maxCompressed {
		return nil, false
	}
	data = bytes.Clone(data)
	b.raw += len(data)
	b.pending += len(data)
	if b.z == nil {
		b.held = append(b.held, data)
		if b.pending >= flushEvery {
			b.flushAt = append(b.flushAt, len(b.held))
			b.pending = 0
		}
		return data, true
	}
	b.z.Write(data)
	if b.pending >= flushEvery {
		b.z.Flush()
		b.pending = 0
	}
	return data, true
}

// compress starts compressing: what is held is compressed as spend would
// have compressed it, flushed at the same places.
func (b *byteBudget) compress() {
	b.z, _ = gzip.NewWriterLevel(&b.out, gzip.BestSpeed)
	flushes := b.flushAt
	for i, data := range b.held {
		b.z.Write(data)
		if len(flushes) > 0 && flushes[0] == i+1 {
			b.z.Flush()
			flushes = flushes[1:]
		}
	}
	b.held, b.flushAt = nil, nil
}

// gzipBound bounds out.n after raw bytes were compressed at
// gzip.BestSpeed, flushing every flushEvery bytes: the gzip header, the
// bytes themselves as stored blocks (compress/flate stores a block that
// does not compress, never anything larger), at most six bytes a block of
// at most 65,535 bytes, and six an empty stored block a flush. spend adds
// flushEvery for pending, which counts again what out.n may already hold.
func gzipBound(raw int) int {
	flushes := raw/flushEvery + 1
	blocks := raw/65535 + flushes + 1
	return raw + 10 + 6*blocks + 6*flushes
}
