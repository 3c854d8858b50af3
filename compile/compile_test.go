package compile

import (
	"strings"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/compile/subject"
)

func msg(id, subj, from, body string, at time.Time) *Msg {
	return &Msg{Message: &mailbox.Message{ID: id, From: from, Body: body, Created: at}, Subject: subject.Parse(subj)}
}

func ids(ms []*Msg) string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return strings.Join(out, ",")
}

// TestOrderTies: DELTA messages at one instant are ordered by agent
// priority (lowest first), sender, body and id, whatever their input order;
// other messages and messages at other instants keep their places.
func TestOrderTies(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	build := func() []*Msg {
		return []*Msg{
			msg("1", "KICKOFF: k", "K", "", t0.Add(-time.Hour)),
			msg("2", "DELTA[gpt]: b", "Zed", "b", t0),
			msg("3", "ACK: ok", "Amy", "", t0),
			msg("4", "DELTA[gpt]: a", "Amy", "a", t0),
			msg("5", "DELTA[gpt]: c", "Amy", "0", t0),
			msg("6", "DELTA[gpt]: z", "Amy", "z", time.Time{}),
			msg("7", "DELTA[gpt]: y", "Amy", "y", time.Time{}),
		}
	}
	ms := build()
	orderTies(ms, agentPriority(nil))
	if got := ids(ms); got != "1,5,3,4,2,6,7" {
		t.Errorf("no priority: %s", got)
	}
	ms = build()
	orderTies(ms, agentPriority([]string{"Amy", "Zed"}))
	if got := ids(ms); got != "1,2,3,5,4,6,7" {
		t.Errorf("Amy first listed (applied last): %s", got)
	}
	// The order does not depend on the input order.
	ms = build()
	ms[1], ms[3] = ms[3], ms[1]
	orderTies(ms, agentPriority(nil))
	if got := ids(ms); got != "1,5,3,4,2,6,7" {
		t.Errorf("swapped input: %s", got)
	}
}
