package run

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/pipeline"
	"github.com/brenner-ci/brenner-ci/reporters"
	"github.com/brenner-ci/brenner-ci/rules"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

// MessageOptions are check-message's options: the pre-send check of
// message_body_schema ("Before sending, validate: subject has valid prefix,
// body matches schema for message type, required sections present,
// ack_required matches expected value"): one body, every message-level
// rule, positions inside the body.
type MessageOptions struct {
	Body        string // a file; "" or "-": standard input
	Subject     string
	AckRequired bool
	Thread      string // the thread id it will be sent to ("": not checked)
	From        string
	To          []string
	Config      string
	FailOn      string
	Format      string // text or json
}

type messageChecker struct{ MessageOptions }

// CheckMessage checks one message before it is sent.
func CheckMessage(o MessageOptions, e *Env) error { return (&messageChecker{o}).run(e) }

// msgHeaderLines is the number of lines before the body in the archive
// message file check-message writes: "---json", the JSON, "---", "".
const msgHeaderLines = 4

// exportBodyLine is the line of body_md in the JSON export check-message
// writes for a body an archive file cannot hold: the metadata on line 1,
// body_md alone on line 2.
const exportBodyLine = 2

// placeholderThread stands in for --thread when none is given; findings
// about it are not reported.
const placeholderThread = "RS-20260101-pre-send-check"

// A msgFinding is a finding of check-message: in the body (line and column
// within it) or in the subject or metadata (Field).
type msgFinding struct {
	Rule      string `json:"rule"`
	Severity  string `json:"severity"`
	Message   string `json:"message"`
	Hint      string `json:"hint,omitempty"`
	Field     string `json:"field"` // body, subject or metadata
	Line      int    `json:"line,omitempty"`
	Column    int    `json:"column,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	EndColumn int    `json:"end_column,omitempty"`
}

func (c *messageChecker) run(e *Env) error {
	body, err := c.readBody(e)
	if err != nil {
		return err
	}
	plan, err := settle(c.Config, []string{"."}, 1, 0)
	if err != nil {
		return err
	}
	failOn := diag.Error
	if fo := cmp.Or(c.FailOn, plan.Policy.FailOn()); fo != "" {
		var ok bool
		if failOn, ok = config.ParseFailOn(fo); !ok {
			return usagef("--fail-on %q is not one of error, warning, note, none", fo)
		}
	}
	findings, err := c.check(body, plan)
	if err != nil {
		return err
	}
	if c.Format == "json" {
		err = writeMsgJSON(e.Stdout, findings, failOn)
	} else {
		err = writeMsgText(e.Stdout, findings)
	}
	if err != nil {
		return err
	}
	if failOn != diag.Off {
		for _, f := range findings {
			if sev, _ := diag.ParseSeverity(f.Severity); sev.AtLeast(failOn) {
				return &ExitError{ExitFindings}
			}
		}
	}
	return nil
}

// readBody reads the body from the file argument or standard input.
func (c *messageChecker) readBody(e *Env) (string, error) {
	var r io.Reader = e.stdin()
	if c.Body != "" && c.Body != "-" {
		f, err := os.Open(c.Body)
		if err != nil {
			return "", usagef("%v", err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, 16<<20))
	if err != nil {
		return "", usagef("reading the body: %v", err)
	}
	return string(data), nil
}

// check runs the engine on the message as a one-message thread, written
// as an Agent Mail archive message file (the body verbatim after a JSON
// front matter, so body positions are file positions less the header).
// A blank body is written as a one-message JSON export instead: an archive
// file cannot say "empty body" (a blank one is read as no body, IN-002),
// while body_md "" in an export is the empty body check checks (MB-002,
// MB-004, MB-006…); its findings are in the body, with no position.
func (c *messageChecker) check(body string, plan *Plan) ([]msgFinding, error) {
	dir, err := os.MkdirTemp("", "brenner-ci-message-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	thread := cmp.Or(c.Thread, placeholderThread)
	meta := map[string]any{"id": 1, "thread_id": thread, "subject": c.Subject, "from": cmp.Or(c.From, "Sender"),
		"to": c.To, "ack_required": c.AckRequired, "created": "2026-01-01T00:00:00Z"}
	if c.To == nil {
		meta["to"] = []string{}
	}
	js, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "message.md")
	export := strings.TrimSpace(body) == ""
	in := &pipeline.Input{Config: plan.Cfg}
	if nul := strings.IndexByte(body, 0); nul >= 0 {
		// Binary input is not checked, as check does not read a binary
		// file: the finding alone.
		in.Findings = []diag.Finding{c.binary(body, nul, path)}
	} else {
		content := []byte("---json\n" + string(js) + "\n---\n\n" + body)
		if export {
			bjs, err := json.Marshal(body)
			if err != nil {
				return nil, err
			}
			path = filepath.Join(dir, "message.json")
			content = []byte("[" + string(js[:len(js)-1]) + ",\n\"body_md\": " + string(bjs) + "}]\n")
		}
		if err := os.WriteFile(path, content, 0o600); err != nil {
			return nil, err
		}
		batch, err := mailbox.Scan([]string{path}, plan.ScanOptions())
		if err != nil {
			return nil, err
		}
		res := plan.Engine().Run(batch, rules.RunOptions{Compile: plan.CompileOptions(nil), Jobs: 1})
		if res.Internal {
			return nil, fmt.Errorf("internal error: %v", res.Notifications)
		}
		in.Findings, in.Comments = res.Findings, res.Comments
	}
	out := pipeline.Run(in)
	var fs []msgFinding
	for _, f := range out.Findings {
		r := rules.Lookup(f.Rule)
		if r == nil || !(messageLevel(r) || c.Thread != "" && r.Family == "TH" && r.Scope != rules.ScopeBatch) {
			continue
		}
		if c.Thread == "" && strings.Contains(f.Message, placeholderThread) {
			continue
		}
		mf := msgFinding{Rule: f.Rule, Severity: f.Severity.String(), Message: pipeline.Echo(f.Message, pipeline.MaxMessageBytes),
			Hint: pipeline.Echo(f.Hint, pipeline.MaxMessageBytes), Field: "metadata"}
		if p := f.Pos; export && p.Line == exportBodyLine {
			mf.Field = "body"
		} else if !export && p.Line > msgHeaderLines {
			mf.Field, mf.Line, mf.Column, mf.EndLine, mf.EndColumn = "body", p.Line-msgHeaderLines, p.Col, max(p.EndLine-msgHeaderLines, 0), p.EndCol
		} else if strings.Contains(strings.ToLower(f.Message), "subject") || strings.HasPrefix(f.Rule, "TH-") || f.Rule == "MB-001" {
			mf.Field = "subject"
		}
		fs = append(fs, mf)
	}
	return fs, nil
}

// binary is the IN-001 finding of a body holding a NUL byte (the first at
// offset nul), worded as check words a binary input file, at the byte in
// the body (path is the message file, whose body starts after
// msgHeaderLines lines).
func (c *messageChecker) binary(body string, nul int, path string) diag.Finding {
	what := "Standard input"
	if c.Body != "" && c.Body != "-" {
		what = "Input file " + c.Body
	}
	pos := diag.NewLineIndex([]byte(body)).Span(path, nul, nul+1)
	pos.Line, pos.EndLine = pos.Line+msgHeaderLines, pos.EndLine+msgHeaderLines
	return diag.Finding{Rule: ruleid.IN001, Code: "UNREADABLE_INPUT", Severity: diag.Error,
		Message: what + " holds NUL bytes (binary data).", Hint: "Give check-message the message body as UTF-8 text.",
		Pos: pos, Anchor: "body binary"}
}

// messageLevel reports whether a rule speaks about one message: the
// message scope, the suppression rules (directives live in bodies) and the
// input rules about a body that is binary (IN-001: check-message reports it
// before the engine runs) or not parsed (IN-008).
func messageLevel(r *rules.Rule) bool {
	return r.Scope == rules.ScopeMessage || r.Family == "SP" || r.ID == ruleid.IN001 || r.ID == ruleid.IN008
}

func writeMsgText(w io.Writer, fs []msgFinding) error {
	e, wn, n := 0, 0, 0
	for _, f := range fs {
		loc := f.Field
		if f.Line > 0 {
			loc = fmt.Sprintf("body:%d:%d", f.Line, max(f.Column, 1))
		}
		fmt.Fprintf(w, "%s: %s: %s [%s]\n", loc, f.Severity, reporters.SafeOneLine(f.Message), f.Rule)
		switch f.Severity {
		case "error":
			e++
		case "warning":
			wn++
		default:
			n++
		}
	}
	_, err := fmt.Fprintf(w, "brenner-ci check-message: %s, %s, %s\n", reporters.Plural(e, "error"), reporters.Plural(wn, "warning"), reporters.Plural(n, "note"))
	return err
}

func writeMsgJSON(w io.Writer, fs []msgFinding, failOn diag.Severity) error {
	if fs == nil {
		fs = []msgFinding{}
	}
	failed := false
	for _, f := range fs {
		if sev, _ := diag.ParseSeverity(f.Severity); failOn != diag.Off && sev.AtLeast(failOn) {
			failed = true
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Findings []msgFinding `json:"findings"`
		Failed   bool         `json:"failed"`
		FailOn   string       `json:"fail_on"`
	}{fs, failed, reporters.FailOnName(failOn)})
}
