package rules

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// ExampleThread is the thread id of an example that names none.
const ExampleThread = "RS-20251230-cell-fate"

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

// ExampleFiles turns an example into the files of a repository (path →
// content): a script of "@@" lines, "Subject: …" lines, a message object,
// a bare thread id (threadID), or the body of one message with subject
// (see Rule.Bad for the forms). Thread files are mailbox/thread-N.json.
func ExampleFiles(ex, subject string, threadID bool) (map[string]string, error) {
	var threads []*exThread
	files := map[string]string{}
	cur := func() *exThread {
		if len(threads) == 0 {
			threads = append(threads, &exThread{ID: ExampleThread})
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
			return nil, fmt.Errorf("example is not a message object: %v", err)
		}
		add(exMsg{Subject: meta.Subject, AckRequired: meta.AckRequired, Body: "# Note\n\nSee the thread."})
	case threadID && !strings.ContainsAny(trimmed, " \n"):
		threads = append(threads, &exThread{ID: trimmed})
		add(exMsg{Subject: "INFO: status", Body: "# Status\n\nOn track."})
	default:
		add(exMsg{Subject: subject, Body: ex})
	}
	for i, th := range threads {
		data, err := json.MarshalIndent(th, "", " ")
		if err != nil {
			return nil, err
		}
		files[fmt.Sprintf("mailbox/thread-%d.json", i)] = string(data)
	}
	return files, nil
}

func allLines(s, prefix string) bool {
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, prefix) {
			return false
		}
	}
	return true
}
