package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The tests of this file: check-message reads its input as check reads
// any other (issue 23, item 7).

// msgReport is check-message's JSON report.
type msgReport struct {
	Findings []struct {
		Rule, Severity, Message, Field string
		Line, Column                   int
	} `json:"findings"`
	Failed bool `json:"failed"`
}

func parseMsgReport(t *testing.T, out string) msgReport {
	t.Helper()
	var rep msgReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("check-message --format json: %v\n%s", err, out)
	}
	return rep
}

// runMsg runs the CLI with stdin in a goroutine; a run that has not ended
// after 10 s is a hang: release is called (it must unblock the run) and the
// test fails.
func runMsg(t *testing.T, stdin io.Reader, release func(), args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- MainIO(args, stdin, &out, &errb) }()
	select {
	case code := <-done:
		return code, out.String(), errb.String()
	case <-time.After(10 * time.Second):
		if release != nil {
			release()
		}
		<-done
		t.Fatalf("%v: the run hangs", args)
	}
	return 0, "", ""
}

const validKickoff = "# Cell fate\n\n## Research Question\nLineage or gradient?\n\n## Context\nEmbryos.\n"

// TestCheckMessageBinaryBody: a body holding a NUL byte is binary input
// (IN-001, worded as check words it), wherever the byte is, from standard
// input or a file; it is not checked further.
func TestCheckMessageBinaryBody(t *testing.T) {
	t.Chdir(t.TempDir())
	if code, out, errs := runIn(t, validKickoff, "check-message", "--subject", "KICKOFF: Cell fate", "--ack-required"); code != 0 {
		t.Fatalf("the valid KICKOFF fails: exit %d\n%s%s", code, out, errs)
	}
	for _, tc := range []struct {
		body       string
		line, col  int
		fromFile   bool
		wantInText string
	}{
		{body: strings.Replace(validKickoff, "Lineage", "Line\x00age", 1), line: 4, col: 5, wantInText: "Standard input holds NUL bytes (binary data)"},
		{body: validKickoff + strings.Repeat("More context.\n", 100) + "end\x00\n", line: 108, col: 4, wantInText: "holds NUL bytes (binary data)"},
		{body: "\x00", line: 1, col: 1, fromFile: true, wantInText: "body.md holds NUL bytes (binary data)"},
	} {
		args := []string{"check-message", "--subject", "KICKOFF: Cell fate", "--ack-required"}
		stdin := tc.body
		if tc.fromFile {
			file := filepath.Join(t.TempDir(), "body.md")
			if err := os.WriteFile(file, []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			args, stdin = append(args, file), ""
		}
		code, out, errs := runIn(t, stdin, args...)
		if code != 1 || !strings.Contains(out, "[IN-001]") || !strings.Contains(out, tc.wantInText) || !strings.Contains(out, "error:") {
			t.Errorf("body %q: exit %d, want 1 and an IN-001 error %q\n%s%s", tc.body, code, tc.wantInText, out, errs)
			continue
		}
		_, out, _ = runIn(t, stdin, append(args, "--format", "json")...)
		rep := parseMsgReport(t, out)
		if len(rep.Findings) != 1 || rep.Findings[0].Rule != "IN-001" || rep.Findings[0].Field != "body" ||
			rep.Findings[0].Line != tc.line || rep.Findings[0].Column != tc.col || !rep.Failed {
			t.Errorf("body %q: want one IN-001 at body:%d:%d, got %+v", tc.body, tc.line, tc.col, rep)
		}
	}
}

var ruleRef = regexp.MustCompile(`\[(MB-\d+)\]`)

// TestCheckMessageBlankBody: an empty or blank body is checked as check
// checks the same message in a thread export (body_md ""), not skipped as a
// missing body.
func TestCheckMessageBlankBody(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		subject, body string
		ack           bool
		want          string
	}{
		{"DELTA[gpt]: H1", "", false, "MB-004"},
		{"DELTA[gpt]: H1", " \t\n\n", false, "MB-004"},
		{"KICKOFF: Cell fate", "", true, "MB-002"},
		{"KICKOFF: Cell fate", "  \n\n", true, "MB-002"},
		{"CRITIQUE: H2 timing", "\n", true, "MB-006"},
		{"CRITIQUE: H2 timing", "\r\n\u00a0\n", true, "MB-006"},
	} {
		// check, on the message in a thread export
		const tid = "RS-20260101-blank-body"
		thread := map[string]any{"thread_id": tid, "messages": []map[string]any{{"id": 1, "thread_id": tid, "subject": tc.subject,
			"from": "Sender", "to": []string{}, "ack_required": tc.ack, "created_ts": "2026-01-01T00:00:00Z", "body_md": tc.body}}}
		data, _ := json.MarshalIndent(thread, "", " ")
		file := filepath.Join(t.TempDir(), "thread.json")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, out, _ := runCLI(t, "check", "--format", "text", file)
		var want []string
		for _, m := range ruleRef.FindAllStringSubmatch(out, -1) {
			want = append(want, m[1])
		}
		slices.Sort(want)
		want = slices.Compact(want)
		if !slices.Contains(want, tc.want) {
			t.Fatalf("%s %q: check does not report %s (the test's premise):\n%s", tc.subject, tc.body, tc.want, out)
		}
		// check-message, on the same message
		args := []string{"check-message", "--subject", tc.subject, "--format", "json"}
		if tc.ack {
			args = append(args, "--ack-required")
		}
		code, out, errs := runIn(t, tc.body, args...)
		rep := parseMsgReport(t, out)
		var got []string
		bodyField := false
		for _, f := range rep.Findings {
			if strings.HasPrefix(f.Rule, "MB-") {
				got = append(got, f.Rule)
			}
			if f.Rule == tc.want && f.Field == "body" {
				bodyField = true
			}
		}
		slices.Sort(got)
		got = slices.Compact(got)
		if code != 1 || !slices.Equal(got, want) || !bodyField {
			t.Errorf("%s %q: check-message exit %d, rules %v (%s in the body: %v); check reports %v\n%s%s", tc.subject, tc.body, code, got, tc.want, bodyField, want, out, errs)
		}
	}
	// The text format names the body.
	code, out, _ := runIn(t, "", "check-message", "--subject", "DELTA[gpt]: H1")
	if code != 1 || !strings.Contains(out, "body:1:1: error: DELTA message body is empty") {
		t.Errorf("an empty DELTA body, text: exit %d\n%s", code, out)
	}
}

// endless is a body that never ends; it counts the bytes read from it.
type endless struct{ n int64 }

func (r *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	r.n += int64(len(p))
	return len(p), nil
}

// TestCheckMessageBodyLimit: a body over the run's limits: body-bytes is
// IN-008 with its true size (or "over the limit" when standard input does
// not say), never truncated and parsed; at most limit+1 bytes are read.
func TestCheckMessageBodyLimit(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	cfg := filepath.Join(dir, "limits.yaml")
	if err := os.WriteFile(cfg, []byte("limits:\n  body-bytes: 1000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"check-message", "--subject", "INFO: note", "--config", cfg, "--format", "json"}
	in008 := func(rep msgReport) string {
		for _, f := range rep.Findings {
			if f.Rule == "IN-008" && f.Severity == "error" && f.Field == "body" && f.Line == 1 && f.Column == 1 {
				return f.Message
			}
		}
		return ""
	}

	// An endless standard input: limit+1 bytes are read, and the finding
	// does not claim a size it does not know.
	src := &endless{}
	var out, errb bytes.Buffer
	code := MainIO(args, src, &out, &errb)
	rep := parseMsgReport(t, out.String())
	msg := in008(rep)
	if code != 1 || !strings.Contains(msg, "over the limit of 1000") || strings.Contains(msg, "1001") {
		t.Errorf("an endless body: exit %d, IN-008 %q\n%s%s", code, msg, out.String(), errb.String())
	}
	if src.n > 1001 {
		t.Errorf("an endless body: %d bytes read, want at most 1001", src.n)
	}

	// A file: its size is known.
	file := filepath.Join(dir, "big.md")
	if err := os.WriteFile(file, bytes.Repeat([]byte("word "), 600), 0o644); err != nil {
		t.Fatal(err)
	}
	code, o, errs := runIn(t, "", append(args, file)...)
	if msg := in008(parseMsgReport(t, o)); code != 1 || !strings.Contains(msg, "it is 3000 bytes, over the limit of 1000") {
		t.Errorf("a 3000-byte file: exit %d, IN-008 %q\n%s%s", code, msg, o, errs)
	}

	// Leading blank lines count: the body is over the limit as sent.
	body := "\n\n\n" + strings.Repeat("a", 999) + "\n"
	code, o, errs = runIn(t, body, args...)
	if msg := in008(parseMsgReport(t, o)); code != 1 || msg == "" {
		t.Errorf("a %d-byte body after blank lines: exit %d, no IN-008\n%s%s", len(body), code, o, errs)
	}

	// A NUL byte in what is read: binary input, at its place.
	code, o, _ = runIn(t, "# x\n\x00"+strings.Repeat("a", 2000), args...)
	if rep := parseMsgReport(t, o); code != 1 || len(rep.Findings) != 1 || rep.Findings[0].Rule != "IN-001" || rep.Findings[0].Line != 2 {
		t.Errorf("a long binary body: exit %d\n%s", code, o)
	}

	// At the limit: parsed.
	code, o, _ = runIn(t, strings.Repeat("a", 999)+"\n", args...)
	if msg := in008(parseMsgReport(t, o)); code != 0 || msg != "" {
		t.Errorf("a body at the limit: exit %d, IN-008 %q\n%s", code, msg, o)
	}
}

// TestCheckMessageSilentPipe: a pipe that sends nothing and stays open is a
// clear error after --stdin-timeout; once data flows the body is read to
// its end however slowly; a pipe closed at once is an empty body.
func TestCheckMessageSilentPipe(t *testing.T) {
	t.Chdir(t.TempDir())
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	code, out, errs := runMsg(t, r, func() { w.Close() }, "check-message", "--subject", "INFO: note", "--stdin-timeout", "50ms")
	w.Close()
	if code != 2 || !strings.Contains(errs, "standard input") || !strings.Contains(errs, "no data") {
		t.Errorf("a silent pipe: exit %d, want 2 and a clear error\n%s%s", code, out, errs)
	}

	// Slow data: the first byte at once, the rest after the timeout.
	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	go func() {
		defer w2.Close()
		io.WriteString(w2, validKickoff[:5])
		time.Sleep(150 * time.Millisecond)
		io.WriteString(w2, validKickoff[5:])
	}()
	code, out, errs = runMsg(t, r2, func() { w2.Close() }, "check-message", "--subject", "KICKOFF: Cell fate", "--ack-required", "--stdin-timeout", "50ms")
	if code != 0 || !strings.Contains(out, "0 errors") {
		t.Errorf("a slow pipe: exit %d, want 0\n%s%s", code, out, errs)
	}

	// Closed with no data: an empty body, checked.
	r3, w3, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r3.Close()
	w3.Close()
	code, out, errs = runMsg(t, r3, nil, "check-message", "--subject", "CRITIQUE: H2", "--ack-required", "--stdin-timeout", "50ms")
	if code != 1 || !strings.Contains(out, "[MB-006]") {
		t.Errorf("a closed empty pipe: exit %d, want 1 and MB-006\n%s%s", code, out, errs)
	}
}
