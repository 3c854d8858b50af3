package compile

import (
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
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

// TestStoppedThreadStops: a thread whose time budget ran out (its stop
// flag set, as withBudget sets it) is compiled no further: the compiler
// stops at the next message, so the work of a timed-out thread does not
// go on in the background. Unset, the same thread compiles whole.
func TestStoppedThreadStops(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	mt := &mailbox.Thread{Key: "RS-20260301-stop"}
	for i := range 50 {
		mt.Messages = append(mt.Messages, &mailbox.Message{ID: strconv.Itoa(i + 1), Subject: "DELTA[gpt]: d", From: "A",
			Body:    "```delta\n{\"operation\": \"ADD\", \"section\": \"assumption_ledger\", \"target_id\": null, \"payload\": {\"name\": \"a\", \"statement\": \"s\", \"load\": \"l\", \"test\": \"t\"}}\n```\n",
			HasBody: true, Created: t0.Add(time.Duration(i) * time.Minute)})
	}
	whole := compile(mt, Options{}, new(atomic.Bool), nil)
	if whole.Stopped() || len(whole.Msgs) != 50 || len(whole.Current.Section("assumption_ledger")) != 50 {
		t.Fatalf("unstopped: %d messages, %d items", len(whole.Msgs), len(whole.Current.Section("assumption_ledger")))
	}
	stop := new(atomic.Bool)
	stop.Store(true)
	cut := compile(mt, Options{}, stop, nil)
	if !cut.Stopped() || len(cut.Msgs) != 0 || cut.Current != nil {
		t.Errorf("stopped: %d messages compiled, artifact %v; want none", len(cut.Msgs), cut.Current != nil)
	}
}

// TestWithBudgetStopsTheWork: when the budget runs out, withBudget sets
// the stop flag the work watches, and the work ends.
func TestWithBudgetStopsTheWork(t *testing.T) {
	stop := new(atomic.Bool)
	ended := make(chan struct{})
	_, err := withBudget(time.Millisecond, false, stop, func() (int, error) {
		defer close(ended)
		for !stop.Load() {
			time.Sleep(time.Millisecond)
		}
		return 0, nil
	})
	if _, ok := err.(*TimeoutError); !ok {
		t.Fatalf("err = %v, want a TimeoutError", err)
	}
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the work went on after its budget ran out")
	}
}

// TestWithBudgetWorkFinishedLate: work that returns after its budget went
// over it even when its result reaches withBudget before the timer does
// (a 1ns budget on a quick thread: the rule IN-010's own example).
func TestWithBudgetWorkFinishedLate(t *testing.T) {
	for i := range 50000 {
		stop := new(atomic.Bool)
		_, err := withBudget(time.Nanosecond, false, stop, func() (int, error) { return i, nil })
		if _, ok := err.(*TimeoutError); !ok || !stop.Load() {
			t.Fatalf("try %d: err = %v, stop = %v; want a TimeoutError and the stop flag set", i, err, stop.Load())
		}
	}
}

// TestRunnersAreReused: a budgeted call runs on the goroutine of the call
// before it once that one ended, and a runner stuck in a call past its
// budget does not hold up the next call.
func TestRunnersAreReused(t *testing.T) {
	goid := func() string {
		buf := make([]byte, 64)
		f := strings.Fields(string(buf[:runtime.Stack(buf, false)]))
		return f[1] // "goroutine N [running]:"
	}
	on := func() string {
		ids := make(chan string, 1)
		if _, err := withBudget(time.Minute, false, new(atomic.Bool), func() (int, error) { ids <- goid(); return 0, nil }); err != nil {
			t.Fatal(err)
		}
		return <-ids
	}
	// A runner rejoins the idle list just after its call returns: give it
	// the time to, a few times over.
	prev, reused := on(), false
	for try := 0; try < 100 && !reused; try++ {
		time.Sleep(5 * time.Millisecond)
		cur := on()
		reused, prev = cur == prev, cur
	}
	if !reused {
		t.Fatal("every call ran on a goroutine of its own: runners are not reused")
	}

	release := make(chan struct{})
	defer close(release)
	stop := new(atomic.Bool)
	if _, err := withBudget(time.Millisecond, false, stop, func() (int, error) { <-release; return 0, nil }); err == nil {
		t.Fatal("a blocked call returned within its budget")
	}
	if _, err := withBudget(time.Minute, false, new(atomic.Bool), func() (int, error) { return 1, nil }); err != nil {
		t.Fatalf("the call after a stuck one: %v", err)
	}
}

// TestArtifactOnly: with Options.ArtifactOnly a body the artifact is not
// built from and without an HTML comment is guarded, not parsed (its
// message has no Doc), and the thread compiles to the same artifact,
// findings and comments as without: a body past the guard is still
// reported (IN-008), a KICKOFF's question still reaches the artifact and a
// suppression comment in any body is still read.
func TestArtifactOnly(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	mt := &mailbox.Thread{Key: "RS-20260301-only"}
	add := func(subj, body string) {
		mt.Messages = append(mt.Messages, &mailbox.Message{ID: strconv.Itoa(len(mt.Messages) + 1), Subject: subj, From: "Amy",
			Body: body, HasBody: true, Created: t0.Add(time.Duration(len(mt.Messages)) * time.Minute)})
	}
	add("KICKOFF: only (RS-20260301-only)", "## Research Question\nWhy?\n\n## Context\nBecause.\n")
	add("DELTA[gpt]: A1", "```delta\n{\"operation\": \"ADD\", \"section\": \"assumption_ledger\", \"target_id\": null, \"payload\": {\"name\": \"a\", \"statement\": \"s\", \"load\": \"l\", \"test\": \"t\"}}\n```\n")
	add("COMPILED: v1", "# Artifact\n\n## 1. Research Thread\n\n- a\n- b\n")
	add("CRITIQUE: deep", strings.Repeat("> ", 150)+"too deep\n")
	add("ACK: ok", "Fine.\n\n<!-- brenner-ci-disable MB-006 -- not needed here -->\n")
	whole := compile(mt, Options{}, new(atomic.Bool), nil)
	only := compile(mt, Options{ArtifactOnly: true}, new(atomic.Bool), nil)
	if a, b := string(whole.Current.RenderInto(nil)), string(only.Current.RenderInto(nil)); a != b || !strings.Contains(a, "Why?") {
		t.Errorf("the artifacts differ, or lack the question:\n%s\nagainst\n%s", a, b)
	}
	if !reflect.DeepEqual(whole.Findings, only.Findings) {
		t.Errorf("the findings differ:\n%+v\nagainst\n%+v", whole.Findings, only.Findings)
	}
	in008 := 0
	for _, f := range only.Findings {
		if f.Rule == "IN-008" && f.MsgID == "4" {
			in008++
		}
	}
	if in008 != 1 {
		t.Errorf("the guarded CRITIQUE has %d IN-008 findings, want 1", in008)
	}
	for i, m := range only.Msgs {
		w := whole.Msgs[i]
		switch {
		case m.Subject.Kind == subject.Compiled:
			if m.Doc != nil || w.Doc == nil {
				t.Errorf("COMPILED: parsed %v with ArtifactOnly, %v without; want false, true", m.Doc != nil, w.Doc != nil)
			}
		case (m.Doc == nil) != (w.Doc == nil):
			t.Errorf("message %s: parsed %v with ArtifactOnly, %v without", m.ID, m.Doc != nil, w.Doc != nil)
		case m.Doc != nil && !reflect.DeepEqual(m.Doc.Comments, w.Doc.Comments):
			t.Errorf("message %s: comments %+v, want %+v", m.ID, m.Doc.Comments, w.Doc.Comments)
		}
	}
	if ack := only.Msgs[4]; ack.Doc == nil || len(ack.Doc.Comments) != 1 {
		t.Errorf("the ACK's comment is not read with ArtifactOnly")
	}
}
