package run

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/body"
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
	// StdinTimeout is how long standard input may send nothing before the
	// body's first byte (0: no limit): a pipe whose writer neither writes
	// nor closes is an error then, not a hang.
	StdinTimeout time.Duration
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
	// The configuration first: it sets how much of the body is read.
	plan, err := settle(e.Rules, c.Config, []string{"."}, 1, 0, 0)
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
	b, err := c.readBody(e, plan.ParseLimits().Body())
	if err != nil {
		return err
	}
	findings, err := c.check(b, plan)
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

// A msgBody is the message body as read: all of it, or, when it is over
// the run's body limit, its first limit+1 bytes. No more is ever read, so
// an endless standard input cannot fill the memory, and the body over the
// limit is reported (IN-008), never truncated and checked.
type msgBody struct {
	text  string
	limit int   // limits: body-bytes
	over  bool  // longer than limit: text is its first limit+1 bytes
	size  int64 // when over: the body's size if known (a regular file), else 0
}

// readBody reads the body from the file argument or standard input. Like
// check, it never reads a device, a named pipe or a socket, and never
// waits for a terminal.
func (c *messageChecker) readBody(e *Env, limit int) (*msgBody, error) {
	var r io.Reader = e.stdin()
	stdin := c.Body == "" || c.Body == "-"
	if !stdin {
		f, err := openBody(c.Body)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	} else if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&fs.ModeDevice != 0 {
			return nil, usagef("standard input is a terminal or a device, not a message body: give the body as a file argument, or pipe it in (printf … | brenner-ci check-message …)")
		}
	}
	size := regularSize(r)
	var data []byte
	var err error
	if stdin && size < 0 { // a pipe, a socket: it may never send or end
		data, err = readStarted(r, int64(limit)+1, c.StdinTimeout)
	} else {
		data, err = io.ReadAll(io.LimitReader(r, int64(limit)+1))
	}
	if err == errNoData {
		return nil, usagef("no data on standard input for %v: give the message body as a file argument or pipe it in (--stdin-timeout waits longer)", c.StdinTimeout)
	} else if err != nil {
		return nil, usagef("reading the body: %v", err)
	}
	b := &msgBody{text: string(data), limit: limit, over: len(data) > limit}
	if b.over && size > int64(limit) {
		b.size = size
	}
	return b, nil
}

// errNoData is readStarted's error: nothing came within the timeout.
var errNoData = errors.New("no data")

// readStarted reads r to its end, at most max bytes; when wait > 0 and r
// sends neither a byte nor its end within wait, it gives up (errNoData).
// Once the first byte has come the rest is read however slowly it comes: a
// writer that has begun is writing the body. On errNoData the read goes on
// in the background until r ends (a process exits; a test closes r).
func readStarted(r io.Reader, max int64, wait time.Duration) ([]byte, error) {
	if wait <= 0 {
		return io.ReadAll(io.LimitReader(r, max))
	}
	type result struct {
		data []byte
		err  error
	}
	started := make(chan struct{})
	done := make(chan result, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(&startReader{r: r, started: started}, max))
		done <- result{data, err}
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-started:
	case res := <-done:
		return res.data, res.err
	case <-timer.C:
		return nil, errNoData
	}
	res := <-done
	return res.data, res.err
}

// startReader closes started when r gives its first byte.
type startReader struct {
	r       io.Reader
	started chan struct{}
}

func (s *startReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 && s.started != nil {
		close(s.started)
		s.started = nil
	}
	return n, err
}

// openBody opens the body file. It never blocks: anything but a regular
// file is refused before the open, and the open does not wait for a writer
// (O_NONBLOCK, which changes nothing for a regular file) in case a named
// pipe took the file's place since; what was opened is checked again.
func openBody(name string) (*os.File, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, usagef("%v", err)
	}
	if err := regularBody(name, fi.Mode()); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, usagef("%v", err)
	}
	if fi, err = f.Stat(); err == nil {
		err = regularBody(name, fi.Mode())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// regularBody refuses a body file that is not a regular file, naming what
// it is.
func regularBody(name string, m fs.FileMode) error {
	if m.IsRegular() {
		return nil
	}
	kind := "not a regular file"
	switch {
	case m.IsDir():
		kind = "a folder"
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	case m&fs.ModeDevice != 0:
		kind = "a device"
	}
	return usagef("%s is %s; check-message reads the message body from a regular file or standard input", name, kind)
}

// regularSize is the number of bytes left to read in r when it is a
// regular file, else -1.
func regularSize(r io.Reader) int64 {
	f, ok := r.(*os.File)
	if !ok {
		return -1
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return -1
	}
	at, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return -1
	}
	return fi.Size() - at
}

// check runs the engine on the message as a one-message thread, written
// as an Agent Mail archive message file (the body verbatim after a JSON
// front matter, so body positions are file positions less the header).
// A blank body is written as a one-message JSON export instead: an archive
// file cannot say "empty body" (a blank one is read as no body, IN-002),
// while body_md "" in an export is the empty body check checks (MB-002,
// MB-004, MB-006…). So is a body over the limit: body_md holds all limit+1
// bytes read (an archive file would drop its leading blank lines), which
// the compiler reports (IN-008) and does not parse. Findings about a body
// written in an export are at body:1:1, where findings about a whole body
// written in an archive file are.
func (c *messageChecker) check(b *msgBody, plan *Plan) ([]msgFinding, error) {
	text := b.text
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
	nul := strings.IndexByte(text, 0)
	export := nul < 0 && (b.over || strings.TrimSpace(text) == "")
	in := &pipeline.Input{Config: plan.Cfg, Rules: plan.reg()}
	if nul >= 0 {
		// Binary input is not checked, as check does not read a binary
		// file: the finding alone.
		in.Findings = []diag.Finding{c.binary(text, nul, path)}
	} else {
		var content, bjs []byte
		if export {
			if bjs, err = json.Marshal(text); err != nil {
				return nil, err
			}
			path = filepath.Join(dir, "message.json")
			content = []byte("[" + string(js[:len(js)-1]) + ",\n\"body_md\": " + string(bjs) + "}]\n")
		} else {
			content = []byte("---json\n" + string(js) + "\n---\n\n" + text)
		}
		if err := os.WriteFile(path, content, 0o600); err != nil {
			return nil, err
		}
		// The file is check-message's own: the body limit bounds it, not
		// limits: file-bytes (escapes may make it larger than the body).
		opt := plan.ScanOptions()
		if n := int64(len(content)); n > cmp.Or(opt.MaxFileBytes, mailbox.DefaultMaxFileBytes) {
			opt.MaxFileBytes = n
		}
		batch, err := mailbox.Scan([]string{path}, opt)
		if err != nil {
			return nil, err
		}
		res := plan.Engine().Run(batch, rules.RunOptions{Compile: plan.CompileOptions(nil), Jobs: 1})
		if res.Internal {
			return nil, fmt.Errorf("internal error: %v", res.Notifications)
		}
		in.Findings, in.Comments = res.Findings, res.Comments
		if b.over {
			b.trueSize(in.Findings, bjs)
		}
	}
	out := pipeline.Run(in)
	var fs []msgFinding
	for _, f := range out.Findings {
		r := plan.reg().Lookup(f.Rule)
		if r == nil || !(messageLevel(r) || c.Thread != "" && r.Family == "TH" && r.Scope != rules.ScopeBatch) {
			continue
		}
		if c.Thread == "" && strings.Contains(f.Message, placeholderThread) {
			continue
		}
		mf := msgFinding{Rule: f.Rule, Severity: f.Severity.String(), Message: pipeline.Echo(f.Message, pipeline.MaxMessageBytes),
			Hint: pipeline.Echo(f.Hint, pipeline.MaxMessageBytes), Field: "metadata"}
		if p := f.Pos; export && p.Line == exportBodyLine {
			mf.Field, mf.Line, mf.Column = "body", 1, 1 // where a finding about the whole body is
		} else if !export && p.Line > msgHeaderLines {
			mf.Field, mf.Line, mf.Column, mf.EndLine, mf.EndColumn = "body", p.Line-msgHeaderLines, p.Col, max(p.EndLine-msgHeaderLines, 0), p.EndCol
		} else if strings.Contains(strings.ToLower(f.Message), "subject") || strings.HasPrefix(f.Rule, "TH-") || f.Rule == "MB-001" {
			mf.Field = "subject"
		}
		fs = append(fs, mf)
	}
	return fs, nil
}

// trueSize corrects the IN-008 finding of a body over the limit: the
// compiler saw the limit+1 bytes read (bjs, as written in body_md) and
// gives that size; the body's is b.size when known, else only "over".
func (b *msgBody) trueSize(fs []diag.Finding, bjs []byte) {
	var seen string
	if json.Unmarshal(bjs, &seen) != nil {
		return
	}
	from := body.Guard(seen, b.limit)
	if from == "" {
		return
	}
	to := fmt.Sprintf("it is over the limit of %d bytes", b.limit)
	if b.size > 0 {
		to = fmt.Sprintf("it is %d bytes, over the limit of %d", b.size, b.limit)
	}
	for i := range fs {
		if fs[i].Rule == ruleid.IN008 {
			fs[i].Message = strings.Replace(fs[i].Message, from, to, 1)
		}
	}
}

// binary is the IN-001 finding of a body holding a NUL byte (the first at
// offset nul), worded as check words a binary input file, at the byte in
// the body (path is the message file, whose body starts after
// msgHeaderLines lines).
func (c *messageChecker) binary(text string, nul int, path string) diag.Finding {
	what := "Standard input"
	if c.Body != "" && c.Body != "-" {
		what = "Input file " + c.Body
	}
	pos := diag.NewLineIndex([]byte(text)).Span(path, nul, nul+1)
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
