// Package jsonreport writes and reads brenner-ci's own JSON report (see
// docs/json-report.md): a summary, the threads, and every finding in text
// order with its fingerprint. Shards exchange it, and --baseline reads the
// fingerprints back from it.
package jsonreport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/reporters"
)

// Format and FormatVersion identify the file; Read rejects a newer major
// format version.
const (
	Format        = "brenner-ci-report"
	FormatVersion = 2
)

// File is the JSON report.
type File struct {
	Format        string         `json:"format"`
	FormatVersion int            `json:"format_version"`
	Tool          Tool           `json:"tool"`
	Summary       Summary        `json:"summary"`
	Threads       []Thread       `json:"threads"`
	Findings      []Finding      `json:"findings"`
	Notifications []Notification `json:"notifications"`
	// Config is the configuration that governed the run.
	Config Config `json:"config"`
	// RuleSets are the distinct lists of rules evaluated on threads (and
	// artifacts), each in registry order; a thread names its list by index,
	// so the report grows with the threads, not with threads × rules.
	RuleSets [][]string `json:"rule_sets"`
	// RunID identifies the run's results; every report file of one run
	// carries the same id.
	RunID string `json:"run_id"`
}

// Config names the governing configuration: file ("" with the defaults),
// how it was chosen (pinned, repository, below-root, found) and, below the
// root, the root's configuration it was compared with; in pull-request
// mode, the revision whose version of it governed (rev, omitted otherwise).
type Config struct {
	File string `json:"file"`
	How  string `json:"how"`
	Base string `json:"base"`
	Rev  string `json:"rev,omitempty"`
}

// Tool names the program that wrote the report.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Summary holds the run's totals and verdict.
type Summary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Notes    int `json:"notes"`
	Findings int `json:"findings"`
	// Threads counts the compiled threads and Artifacts the persisted
	// artifacts checked on their own: the entries of File.Threads of
	// each kind.
	Threads   int `json:"threads"`
	Artifacts int `json:"artifacts"`
	Files     int `json:"files"`
	// New counts findings not in the baseline (all of them without one).
	New      int  `json:"new"`
	Baseline bool `json:"baseline"`
	// FailOn is error, warning, note or none.
	FailOn string `json:"fail_on"`
	// Gating counts findings at or above FailOn that are new.
	Gating        int  `json:"gating"`
	Failed        bool `json:"failed"`
	InternalError bool `json:"internal_error"`
	// Error says why brenner-ci could not run (usage, configuration or
	// input error); failed is then true.
	Error    string `json:"error,omitempty"`
	Time     string `json:"time"`
	Category string `json:"category"`
}

// Thread summarises one compiled thread, or one persisted artifact.
type Thread struct {
	Key string `json:"key"`
	// Kind is KindThread or KindArtifact.
	Kind     string `json:"kind"`
	File     string `json:"file"`
	Messages int    `json:"messages"`
	Blocks   int    `json:"blocks"`
	Valid    int    `json:"valid"`
	Invalid  int    `json:"invalid"`
	Applied  int    `json:"applied"`
	Version  int    `json:"version"`
	// RuleSet indexes File.RuleSets: the rules evaluated on the thread;
	// -1 when none was.
	RuleSet int `json:"rule_set"`
}

// The kinds of Thread entries.
const (
	KindThread   = "thread"
	KindArtifact = "artifact"
)

// Finding is one diagnostic. Line 0 means the file as a whole (all position
// fields are then 0).
type Finding struct {
	Rule      string `json:"rule"`
	Code      string `json:"code"`
	Severity  string `json:"severity"`
	Message   string `json:"message"`
	Hint      string `json:"hint"`
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Thread    string `json:"thread"`
	MessageID string `json:"message_id"`
	// Fingerprint is the stable diag.Fingerprints value ("<16 hex>:<n>").
	Fingerprint string `json:"fingerprint"`
	// BaselineState is "new" or "unchanged" with a baseline, else "".
	BaselineState string `json:"baseline_state"`
	Fix           *Fix   `json:"fix"`
}

// Fix is a machine-applicable replacement.
type Fix struct {
	Description string `json:"description"`
	Path        string `json:"path"`
	Line        int    `json:"line"`
	Column      int    `json:"column"`
	EndLine     int    `json:"end_line"`
	EndColumn   int    `json:"end_column"`
	Replacement string `json:"replacement"`
}

// Notification is a run-level message.
type Notification struct {
	Level   string `json:"level"`
	Message string `json:"message"`
	Rule    string `json:"rule"`
}

// Build converts r to the JSON report.
func Build(r *diag.Report) *File {
	paths := reporters.PathsFor(r)
	e, w, n := r.Counts()
	threads, artifacts := r.ThreadCounts()
	f := &File{
		Format: Format, FormatVersion: FormatVersion,
		Tool: Tool{Name: nonEmpty(r.Tool.Name, "brenner-ci"), Version: r.Tool.Version},
		Summary: Summary{
			Errors: e, Warnings: w, Notes: n, Findings: len(r.Findings), Threads: threads, Artifacts: artifacts,
			New: reporters.NewCount(r), Baseline: r.HasBaseline,
			FailOn: reporters.FailOnName(r.FailOn), Gating: reporters.Gating(r), InternalError: r.Internal,
			Category: r.Category,
		},
		Threads:       make([]Thread, 0, len(r.Threads)),
		Findings:      make([]Finding, 0, len(r.Findings)),
		Notifications: make([]Notification, 0, len(r.Notifications)),
	}
	f.Summary.Failed = f.Summary.Gating > 0 || r.RunError != ""
	f.RunID = r.RunID
	if r.Config.File != "" {
		f.Config = Config{File: paths.Display(r.Config.File), How: r.Config.How}
		if r.Config.Base != "" {
			f.Config.Base = paths.Display(r.Config.Base)
		}
		f.Config.Rev = r.Config.Rev
	}
	f.Summary.Error = r.RunError
	if !r.Time.IsZero() {
		f.Summary.Time = r.Time.UTC().Format("2006-01-02T15:04:05Z")
	}
	files := map[string]bool{}
	f.RuleSets = [][]string{}
	sets := map[string]int{}
	// Threads checked in one run share one list of rule ids: a list that
	// is the previous thread's is its set, without joining it again.
	var prevRules []string
	prevSet := -1
	for _, t := range r.Threads {
		set := -1
		switch {
		case len(t.Rules) == 0:
		case len(t.Rules) == len(prevRules) && &t.Rules[0] == &prevRules[0]:
			set = prevSet
		default:
			key := strings.Join(t.Rules, " ")
			i, ok := sets[key]
			if !ok {
				i = len(f.RuleSets)
				sets[key] = i
				f.RuleSets = append(f.RuleSets, append([]string{}, t.Rules...))
			}
			set, prevRules, prevSet = i, t.Rules, i
		}
		p := ""
		if t.File != "" {
			p = paths.Display(t.File)
			files[p] = true
		}
		kind := KindThread
		if t.Artifact {
			kind = KindArtifact
		}
		f.Threads = append(f.Threads, Thread{Key: t.Key, Kind: kind, File: p, Messages: t.Messages, Blocks: t.Blocks,
			Valid: t.Valid, Invalid: t.Invalid, Applied: t.Applied, Version: t.Version, RuleSet: set})
	}
	for i := range r.Findings {
		d := &r.Findings[i]
		pos := d.Pos.Normalize()
		out := Finding{
			Rule: d.Rule, Code: d.Code, Severity: d.Severity.String(), Message: d.Message, Hint: d.Hint,
			Line: pos.Line, Column: pos.Col, EndLine: pos.EndLine, EndColumn: pos.EndCol,
			Thread: d.Thread, MessageID: d.MsgID,
		}
		if pos.Line <= 0 {
			out.Line, out.Column, out.EndLine, out.EndColumn = 0, 0, 0, 0
		}
		if d.Pos.File != "" {
			out.Path = paths.Display(d.Pos.File)
			files[out.Path] = true
		}
		if i < len(r.Fingerprints) {
			out.Fingerprint = r.Fingerprints[i]
		}
		out.BaselineState = r.BaselineState(i)
		if d.Fix != nil {
			fp := d.Fix.Pos.Normalize()
			file := fp.File
			if file == "" {
				file = d.Pos.File
			}
			fx := &Fix{Description: d.Fix.Description, Line: fp.Line, Column: fp.Col, EndLine: fp.EndLine,
				EndColumn: fp.EndCol, Replacement: d.Fix.Text}
			if file != "" {
				fx.Path = paths.Display(file)
			}
			out.Fix = fx
		}
		f.Findings = append(f.Findings, out)
	}
	f.Summary.Files = len(files)
	for _, nt := range r.Notifications {
		f.Notifications = append(f.Notifications, Notification{Level: nt.Level.String(), Message: nt.Message, Rule: nt.Rule})
	}
	return f
}

// Write writes r as an indented JSON report (see docs/json-report.md).
func Write(w io.Writer, r *diag.Report) error {
	f := Build(r)
	sw := &streamWriter{w: bufio.NewWriterSize(w, 64<<10)}
	sw.raw("{\n")
	sw.field("format", f.Format)
	sw.field("format_version", f.FormatVersion)
	sw.field("tool", f.Tool)
	sw.field("summary", f.Summary)
	if f.Threads == nil {
		sw.field("threads", f.Threads)
	} else {
		sw.array("threads", len(f.Threads), func(b []byte, i int) []byte { return appendThread(b, &f.Threads[i]) })
	}
	if f.Findings == nil {
		sw.field("findings", f.Findings)
	} else {
		sw.array("findings", len(f.Findings), func(b []byte, i int) []byte { return appendFinding(b, &f.Findings[i]) })
	}
	sw.field("notifications", f.Notifications)
	sw.field("config", f.Config)
	sw.field("rule_sets", f.RuleSets)
	sw.last = true
	sw.field("run_id", f.RunID)
	sw.raw("}\n")
	if sw.err != nil {
		return sw.err
	}
	return sw.w.Flush()
}

// streamWriter writes File as json.Encoder with SetEscapeHTML(false) and
// SetIndent("", "  ") would, one field and one array element at a time:
// at 100,000 threads the report is ~60 MB, which encoding it whole held in
// memory twice over (the encoding and its indented copy). TestGolden and
// TestWriteMatchesEncoder hold it to the encoder's bytes.
type streamWriter struct {
	w    *bufio.Writer
	buf  bytes.Buffer
	enc  *json.Encoder
	last bool // the next field is the object's last
	err  error
}

func (s *streamWriter) raw(t string) {
	if s.err == nil {
		_, s.err = s.w.WriteString(t)
	}
}

// value writes v as it appears nested at depth levels of indentation.
func (s *streamWriter) value(v any, depth int) {
	if s.err != nil {
		return
	}
	if s.enc == nil {
		s.enc = json.NewEncoder(&s.buf)
		s.enc.SetEscapeHTML(false)
	}
	s.buf.Reset()
	s.enc.SetIndent(strings.Repeat("  ", depth), "  ")
	if s.err = s.enc.Encode(v); s.err != nil {
		return
	}
	_, s.err = s.w.Write(bytes.TrimSuffix(s.buf.Bytes(), []byte("\n")))
}

func (s *streamWriter) name(n string) { s.raw("  \"" + n + "\": ") }

func (s *streamWriter) end() {
	if s.last {
		s.raw("\n")
	} else {
		s.raw(",\n")
	}
}

func (s *streamWriter) field(n string, v any) {
	s.name(n)
	s.value(v, 1)
	s.end()
}

// array writes a non-empty or empty (not nil) array of n elements as the
// encoder would, element i appended by hand by elem (each on its own line
// at depth 2): the threads and findings, one per thread or finding, whose
// encoding by reflection was most of the report's time.
func (s *streamWriter) array(name string, n int, elem func(b []byte, i int) []byte) {
	s.name(name)
	if n == 0 {
		s.raw("[]")
		s.end()
		return
	}
	s.raw("[\n")
	var b []byte
	for i := range n {
		b = elem(append(b[:0], "    "...), i)
		if i < n-1 {
			b = append(b, ",\n"...)
		} else {
			b = append(b, '\n')
		}
		if s.err == nil {
			_, s.err = s.w.Write(b)
		}
	}
	s.raw("  ]")
	s.end()
}

// Read decodes a JSON report. It accepts unknown fields (written by a newer
// minor version) but rejects another format or a newer format version.
func Read(rd io.Reader) (*File, error) {
	var f File
	dec := json.NewDecoder(rd)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("reading JSON report: %w", err)
	}
	if f.Format != Format {
		return nil, fmt.Errorf("reading JSON report: format is %q, want %q", f.Format, Format)
	}
	if f.FormatVersion < 1 || f.FormatVersion > FormatVersion {
		return nil, fmt.Errorf("reading JSON report: format_version %d is not supported (this brenner-ci reads %d)", f.FormatVersion, FormatVersion)
	}
	if f.Threads == nil {
		f.Threads = []Thread{}
	}
	if f.Findings == nil {
		f.Findings = []Finding{}
	}
	if f.Notifications == nil {
		f.Notifications = []Notification{}
	}
	return &f, nil
}

// Diag converts the report's findings back to diag findings, with their
// fingerprints aligned. Paths are as written (repo-relative when inside the
// repository) and the anchors are not in the file, so keep the returned
// fingerprints rather than recomputing them.
func (f *File) Diag() ([]diag.Finding, []string, error) {
	out := make([]diag.Finding, len(f.Findings))
	fps := make([]string, len(f.Findings))
	for i, x := range f.Findings {
		sev, ok := diag.ParseSeverity(x.Severity)
		if !ok || sev == diag.Off {
			return nil, nil, fmt.Errorf("finding %d: unknown severity %q", i, x.Severity)
		}
		out[i] = diag.Finding{
			Rule: x.Rule, Code: x.Code, Severity: sev, Message: x.Message, Hint: x.Hint,
			Pos:    diag.Pos{File: x.Path, Line: x.Line, Col: x.Column, EndLine: x.EndLine, EndCol: x.EndColumn},
			Thread: x.Thread, MsgID: x.MessageID,
		}
		if x.Fix != nil {
			out[i].Fix = &diag.Fix{Description: x.Fix.Description, Text: x.Fix.Replacement,
				Pos: diag.Pos{File: x.Fix.Path, Line: x.Fix.Line, Col: x.Fix.Column, EndLine: x.Fix.EndLine, EndCol: x.Fix.EndColumn}}
		}
		fps[i] = x.Fingerprint
	}
	return out, fps, nil
}

// Fingerprints reads the fingerprints of a baseline file. It accepts:
//
//   - a JSON report (this package): every finding's "fingerprint";
//   - a SARIF log: every result's partialFingerprints "brenner-ci/v1", else
//     its "primaryLocationLineHash" (findings that were notifications, or
//     left out by the 5,000-result cap, are not in a SARIF file, so the JSON
//     report is the better baseline);
//   - a JSON array of fingerprint strings;
//   - plain text: one fingerprint per line; blank lines and lines starting
//     with "#" are ignored.
func Fingerprints(rd io.Reader) (map[string]bool, error) {
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, err
	}
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	out := map[string]bool{}
	switch {
	case len(trimmed) == 0:
		return out, nil
	case trimmed[0] == '[':
		var list []string
		if err := json.Unmarshal(trimmed, &list); err != nil {
			return nil, fmt.Errorf("baseline: a JSON array must hold fingerprint strings: %w", err)
		}
		for i, s := range list {
			if s = strings.TrimSpace(s); s != "" {
				if !fingerprintRE.MatchString(s) {
					return nil, fmt.Errorf("baseline: element %d, %q, is not a brenner-ci fingerprint (16 hex digits, a colon, a number)", i, clip(s))
				}
				out[s] = true
			}
		}
		return out, nil
	case trimmed[0] == '{':
		return objectFingerprints(trimmed, out)
	}
	sc := bufio.NewScanner(bytes.NewReader(trimmed))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		// Any other text (an XML report, a log) is not a baseline: read
		// silently, it accepted nothing and hid the mistake.
		if !fingerprintRE.MatchString(line) {
			return nil, fmt.Errorf("baseline: line %d, %q, is not a brenner-ci fingerprint (16 hex digits, a colon, a number); a baseline is a list of fingerprints (--write-baseline), a brenner-ci JSON report or a SARIF log", n, clip(line))
		}
		out[line] = true
	}
	return out, sc.Err()
}

// fingerprintRE is the form of diag.Fingerprints: a hash and an occurrence.
var fingerprintRE = regexp.MustCompile(`^[0-9a-f]{16}:[0-9]+$`)

// clip shortens text quoted from a file that is not a baseline.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// WriteFingerprints writes the fingerprints of r's findings, one a line
// after a comment line: what --write-baseline writes and --baseline reads.
func WriteFingerprints(w io.Writer, r *diag.Report) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("# brenner-ci baseline: the fingerprints of accepted findings (brenner-ci check --baseline FILE)\n")
	seen := map[string]bool{}
	fps := append([]string(nil), r.Fingerprints...)
	sort.Strings(fps)
	for _, fp := range fps {
		if fp != "" && !seen[fp] {
			seen[fp] = true
			bw.WriteString(fp)
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

func objectFingerprints(data []byte, out map[string]bool) (map[string]bool, error) {
	var probe struct {
		Format   string            `json:"format"`
		Findings []json.RawMessage `json:"findings"`
		Runs     []struct {
			Results []struct {
				PartialFingerprints map[string]any `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	switch {
	case probe.Format == Format:
		f, err := Read(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("baseline: %w", err)
		}
		for _, x := range f.Findings {
			if x.Fingerprint != "" {
				out[x.Fingerprint] = true
			}
		}
		return out, nil
	case probe.Runs != nil:
		for _, run := range probe.Runs {
			for _, res := range run.Results {
				for _, key := range []string{"brenner-ci/v1", "primaryLocationLineHash"} {
					if s, ok := res.PartialFingerprints[key].(string); ok && s != "" {
						out[s] = true
						break
					}
				}
			}
		}
		return out, nil
	}
	return nil, errors.New("baseline: a JSON object must be a brenner-ci JSON report or a SARIF log")
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
