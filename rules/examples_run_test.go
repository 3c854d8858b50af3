package rules_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/internal/config"
	"github.com/brenner-ci/brenner-ci/internal/run"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
	"github.com/brenner-ci/brenner-ci/rules"
)

// This file runs every non-artifact rule's Bad and Good example through the
// real flow — files on disk, mailbox.Scan, the engine, the findings
// pipeline — so the documentation cannot drift from the checks. (Artifact
// rules' examples are run by TestArtifactRuleExamples.) How an example
// becomes input (see the Rule type's doc comment):
//
//   - "@@" lines make a script: "@@ SUBJECT | FROM | to: A, B | ack" starts a
//     message (FROM, recipients and ack_required optional; "tie" gives it
//     the previous message's created_ts), "@@ thread ID"
//     starts another thread file, "@@ file PATH" a file with the lines that
//     follow as its content, "@@ flag --thread-timeout=D" the command-line
//     flag;
//   - "Subject: …" lines are one message each;
//   - a JSON object with "subject" is one message's metadata;
//   - a TH- example without spaces is a thread id;
//   - anything else is the body of one message whose subject is the
//     rule's message type (exampleSubject).

const exampleThread = "RS-20251230-cell-fate"

// exampleSubject is the subject of a body example, by rule id or family.
func exampleSubject(id string) string {
	switch {
	case id == "MB-002" || id == "MB-003" || id == "SP-001" || id == "SP-003" || id == "SP-004":
		return "KICKOFF: Cell fate coordinates"
	case id == "MB-006" || id == "MB-007" || id == "SP-002":
		return "CRITIQUE: H2 timing"
	case id == "MB-008":
		return "HANDOFF: brenner_bot-5so.3 to BlueDog"
	case strings.HasPrefix(id, "AP-"):
		return "COMPILED: v1 initial artifact"
	}
	return "DELTA[gpt]: Hypotheses"
}

type exMsg struct {
	ID          int      `json:"id"`
	Thread      string   `json:"thread_id"`
	Subject     string   `json:"subject"`
	From        string   `json:"from"`
	To          []string `json:"to,omitempty"`
	Created     string   `json:"created_ts"`
	AckRequired *bool    `json:"ack_required,omitempty"`
	Body        string   `json:"body_md"`
	tie         bool     // same created_ts as the previous message
}

type exThread struct {
	ID   string  `json:"thread_id"`
	Msgs []exMsg `json:"messages"`
}

// writeExample turns example ex of rule r into files under dir.
func writeExample(t *testing.T, r *rules.Rule, ex, dir string) {
	t.Helper()
	var threads []*exThread
	files := map[string]string{}
	cur := func() *exThread {
		if len(threads) == 0 {
			threads = append(threads, &exThread{ID: exampleThread})
		}
		return threads[len(threads)-1]
	}
	n := 0
	add := func(m exMsg) *exMsg {
		th := cur()
		n++
		m.ID, m.Thread = 100+n, th.ID
		m.Created = time.Date(2025, 12, 30, 10, n, 0, 0, time.UTC).Format(time.RFC3339)
		if m.tie && len(th.Msgs) > 0 {
			m.Created = th.Msgs[len(th.Msgs)-1].Created
		}
		if m.From == "" {
			m.From = "GreenDog"
		}
		th.Msgs = append(th.Msgs, m)
		return &th.Msgs[len(th.Msgs)-1]
	}
	trimmed := strings.TrimSpace(ex)
	switch {
	case strings.HasPrefix(trimmed, "@@"):
		var body *strings.Builder
		var msg *exMsg
		var file string
		flush := func() {
			switch {
			case msg != nil:
				msg.Body = strings.TrimSuffix(body.String(), "\n")
			case file != "":
				files[file] = body.String()
			}
			msg, file, body = nil, "", &strings.Builder{}
		}
		body = &strings.Builder{}
		for _, line := range strings.Split(ex, "\n") {
			h, ok := strings.CutPrefix(line, "@@ ")
			if !ok {
				body.WriteString(line + "\n")
				continue
			}
			flush()
			switch {
			case strings.HasPrefix(h, "thread "):
				threads = append(threads, &exThread{ID: strings.TrimSpace(strings.TrimPrefix(h, "thread "))})
			case strings.HasPrefix(h, "file "):
				file = strings.TrimSpace(strings.TrimPrefix(h, "file "))
			case strings.HasPrefix(h, "flag --thread-timeout="):
				files[".thread-timeout"] = strings.TrimPrefix(h, "flag --thread-timeout=")
			default:
				parts := strings.Split(h, " | ")
				m := exMsg{Subject: strings.TrimSpace(parts[0])}
				for _, p := range parts[1:] {
					p = strings.TrimSpace(p)
					switch {
					case p == "tie":
						m.tie = true
					case p == "ack":
						yes := true
						m.AckRequired = &yes
					case strings.HasPrefix(p, "to: "):
						for _, a := range strings.Split(strings.TrimPrefix(p, "to: "), ",") {
							m.To = append(m.To, strings.TrimSpace(a))
						}
					default:
						m.From = p
					}
				}
				msg = add(m)
			}
		}
		flush()
	case allLines(trimmed, "Subject: "):
		for _, l := range strings.Split(trimmed, "\n") {
			add(exMsg{Subject: strings.TrimPrefix(l, "Subject: "), Body: "# Note\n\nSee the thread."})
		}
	case strings.HasPrefix(trimmed, "{") && strings.Contains(trimmed, `"subject"`):
		var meta struct {
			Subject     string `json:"subject"`
			AckRequired *bool  `json:"ack_required"`
		}
		if err := json.Unmarshal([]byte(trimmed), &meta); err != nil {
			t.Fatalf("%s: example is not a message object: %v", r.ID, err)
		}
		add(exMsg{Subject: meta.Subject, AckRequired: meta.AckRequired, Body: "# Note\n\nSee the thread."})
	case r.Family == "TH" && !strings.ContainsAny(trimmed, " \n"):
		threads = append(threads, &exThread{ID: trimmed})
		add(exMsg{Subject: "INFO: status", Body: "# Status\n\nOn track."})
	default:
		add(exMsg{Subject: exampleSubject(r.ID), Body: ex})
	}
	for i, th := range threads {
		data, err := json.MarshalIndent(th, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		files[fmt.Sprintf("mailbox/thread-%d.json", i)] = string(data)
	}
	testutil.WriteTree(t, dir, files)
}

func allLines(s, prefix string) bool {
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, prefix) {
			return false
		}
	}
	return true
}

// runExample returns the findings of rule id on example ex.
func runExample(t *testing.T, r *rules.Rule, ex string) []string {
	t.Helper()
	dir := t.TempDir()
	writeExample(t, r, ex, dir)
	// The example folder is the repository root; its configuration is
	// found the way check finds it, from the folder of the thread files
	// upward.
	first := dir
	if fi, err := os.Stat(filepath.Join(dir, "mailbox")); err == nil && fi.IsDir() {
		first = filepath.Join(dir, "mailbox")
	}
	resolved, err := config.Resolve("", first, dir, rules.Known)
	if err != nil {
		t.Fatalf("%s: example configuration: %v", r.ID, err)
	}
	plan := run.NewPlan([]string{dir}, resolved, 1)
	if d, err := os.ReadFile(filepath.Join(dir, ".thread-timeout")); err == nil {
		if plan.ThreadTimeout, err = time.ParseDuration(strings.TrimSpace(string(d))); err != nil {
			t.Fatal(err)
		}
	}
	res, out, err := plan.Lint()
	if err != nil {
		t.Fatal(err)
	}
	if res.Internal {
		t.Fatalf("%s: internal error: %+v", r.ID, res.Notifications)
	}
	var got []string
	for _, f := range out.Findings {
		if f.Rule == r.ID {
			got = append(got, f.String())
		}
	}
	return got
}

// TestExamples: every rule's Bad example triggers it and its Good example
// does not, through the real flow (artifact-scope rules: see
// TestArtifactRuleExamples).
func TestExamples(t *testing.T) {
	var ran []string
	for _, r := range rules.All() {
		if r.Scope == rules.ScopeArtifact {
			continue
		}
		ran = append(ran, r.ID)
		t.Run(r.ID, func(t *testing.T) {
			if got := runExample(t, r, r.Bad); len(got) == 0 {
				t.Errorf("the Bad example does not trigger %s:\n%s", r.ID, r.Bad)
			}
			if got := runExample(t, r, r.Good); len(got) > 0 {
				t.Errorf("the Good example triggers %s:\n%s\n%s", r.ID, strings.Join(got, "\n"), r.Good)
			}
		})
	}
	sort.Strings(ran)
	t.Logf("ran the examples of %d rules", len(ran))
}
