// Package compile turns one Agent Mail thread into a compiled thread: every
// body parsed once, delta blocks validated, deltas merged deterministically,
// the artifact at each COMPILED message and the current artifact.
//
// The flow is files → messages (mailbox) → threads → compiled thread (this
// package) → findings (rules) → reporters.
package compile

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/chunk"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/compile/subject"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules/ruleid"
)

// Options control compilation.
type Options struct {
	// Agents are agents known from configuration (MG-007).
	Agents []string
	// ArchiveAgents are agents known from archive profiles (MG-007).
	ArchiveAgents []string
	// Epoch, when non-zero, is SOURCE_DATE_EPOCH: the compile time written
	// into the current artifact. Otherwise it is the thread's last message time.
	Epoch time.Time
	// ThreadTimeout, when positive, is the time budget of one thread (load,
	// compile and the caller's work); past it the thread is reported as
	// timed out (TimeoutError) and the others go on.
	ThreadTimeout time.Duration
	// Deadline, when set, ends the run's time budget: a thread not started
	// by then is not checked, one running then is given up (TimeoutError
	// with Run set). It is an instant, not a setting: no cache key holds it.
	Deadline time.Time `json:"-"`
	// MaxMessages and MaxBlocks bound the messages of one thread and the
	// delta blocks of one body (0: DefaultMaxMessages, DefaultMaxBlocks);
	// past them the rest is not compiled and IN-011 says so.
	MaxMessages, MaxBlocks int
	// Limits bound the parsers: a body over Limits.Body() is not parsed
	// (IN-008); delta JSON deeper than Limits.Depth() is a syntax error.
	Limits limits.Parse
	// ArtifactOnly is for a caller that reads of a thread only what the
	// compiler makes (its artifact, findings and suppression comments),
	// not the messages' outlines: the compile command. A body the artifact
	// is not built from (a message neither DELTA nor KICKOFF) and without
	// an HTML comment is then only guarded (IN-008), not parsed, and its
	// message has no Doc. Check's rules read every outline.
	ArtifactOnly bool
}

// Defaults of Options.MaxMessages and Options.MaxBlocks: far above real
// threads, low enough that one export cannot make a run quadratic.
const (
	DefaultMaxMessages = limits.DefaultMessages
	DefaultMaxBlocks   = limits.DefaultBlocks
)

// Msg is a message with its parsed body.
type Msg struct {
	*mailbox.Message
	Subject subject.Subject
	Doc     *body.Doc     // nil when the message has no body, or it is not parsed (IN-008, Options.ArtifactOnly)
	Blocks  []delta.Block // delta blocks (DELTA messages only)
	// agent is who its deltas are credited to (agentOf), and agentKey
	// that name lower-cased, as agent priorities and known agents are
	// keyed: set once per DELTA message by extractDeltas.
	agent, agentKey string
}

// BodyPos maps a byte range of the body to the file.
func (m *Msg) BodyPos(start, end int) diag.Pos { return m.Message.BodyPos(start, end) }

// Version is the artifact as of one COMPILED message.
type Version struct {
	N   int // the version the COMPILED message announces (or its ordinal)
	Msg int // index of the COMPILED message in Thread.Msgs
	// MessageID, CompiledAt and CompiledBy are the COMPILED message's.
	MessageID  string
	CompiledAt time.Time
	CompiledBy string
	// applied counts the deltas merged before this version: the artifact
	// of the version is rebuilt from them on demand (Thread.VersionArtifact),
	// never copied at every COMPILED message, whose cost would grow with
	// the square of the thread's length.
	applied int
	art     *artifact.Artifact
}

// Stats counts a thread's delta blocks.
type Stats struct {
	DeltaMsgs int
	Blocks    int
	Valid     int
	Invalid   int
	Applied   int
}

// Thread is a compiled thread.
type Thread struct {
	Key      string
	ThreadID string
	Project  string
	// stop is set when the thread's time budget has run out (Each): the
	// compiler and the rules stop at the next message or rule (Stopped),
	// so timed-out work does not go on in the background.
	stop *atomic.Bool
	Msgs []*Msg
	// Findings are the input and compile findings of this thread: IN-002…
	// IN-005, MB-004, MB-005, DL-, MG-, RF-003.
	Findings []diag.Finding
	Versions []Version
	Current  *artifact.Artifact
	Version  int
	Stats    Stats
	// Known is the set of known agents (MG-007); empty when none are known.
	Known map[string]bool
	// priority ranks agents by config agents: order (see agentPriority).
	priority map[string]int
	// agentKeys are the agents of DELTA messages with their keys
	// (agentKeyOf).
	agentKeys [][2]string
	// deltas are the valid deltas in merge order (VersionArtifact replays them).
	deltas []pending
	// arena holds the delta blocks' JSON values, blocks the blocks and
	// their Deltas, and docs the parsed bodies, when the thread is compiled
	// by EachWith, which resets them when work returns; nil (Compile): they
	// are on the heap.
	arena  *jsonv.Arena
	blocks *delta.Arena
	docs   *body.Arena
	arts   *artifact.Arena // the items and writes maps of its artifacts
}

// ID is the thread's id: its thread_id, or its key when the export has
// none. Artifacts are named after it (artifacts/<ID>.md).
func (t *Thread) ID() string {
	if t.ThreadID != "" {
		return t.ThreadID
	}
	return t.Key
}

// File returns the main input file of the thread (the file of its first message).
func (t *Thread) File() string {
	if len(t.Msgs) == 0 {
		return ""
	}
	return t.Msgs[0].Src.File
}

// Thread compiles one loaded thread: bodies parsed once, delta blocks
// extracted and validated, deltas merged in order (every COMPILED message
// recorded as a Version, rebuilt on demand), then the section minimums
// checked.
func Compile(mt *mailbox.Thread, opt Options) *Thread { return compile(mt, opt, nil, nil) }

// Stopped reports whether the thread's time budget ran out while it was
// compiled or checked: what is left of the work is not done (its result is
// dropped). Long loops over a thread's messages or rules check it.
func (t *Thread) Stopped() bool { return t.stop != nil && t.stop.Load() }

// compile is Compile, stopping early when stop is set (nil: never), with
// the delta blocks' values and the parsed bodies in w (nil: the heap).
func compile(mt *mailbox.Thread, opt Options, stop *atomic.Bool, w *workArena) *Thread {
	t := &Thread{Key: mt.Key, ThreadID: mt.ThreadID, Project: mt.Project, stop: stop}
	if w != nil {
		t.arena, t.blocks, t.docs, t.arts = &w.values, &w.blocks, &w.docs, &w.arts
	}
	t.Findings = append(t.Findings, mt.Findings...)
	msgs := mt.Messages
	maxMsgs := cmp.Or(opt.MaxMessages, DefaultMaxMessages)
	if len(msgs) > maxMsgs {
		m := msgs[maxMsgs]
		t.Findings = append(t.Findings, diag.Finding{Rule: ruleid.IN011, Severity: diag.Error,
			Message: fmt.Sprintf("Thread has %d messages, over the limit of %d; the messages after the first %d are not compiled or checked.", len(msgs), maxMsgs, maxMsgs),
			Hint:    "Split the export, or raise limits: messages-per-thread in .brenner-ci.yaml.",
			Pos:     m.Pos("subject"), Thread: t.Key, MsgID: m.ID, Anchor: "messages limit " + t.Key})
		msgs = msgs[:maxMsgs]
	}
	t.Msgs = make([]*Msg, len(msgs))
	var arr []Msg // in one array: the worker's (w.msgs), else the heap's
	if w != nil {
		arr = chunk.Take(&w.msgs, len(msgs), false)
	} else {
		arr = make([]Msg, len(msgs))
	}
	for i, m := range msgs {
		if t.Stopped() {
			t.Msgs = t.Msgs[:i]
			return t
		}
		msg := &arr[i]
		*msg = Msg{Message: m, Subject: subject.Parse(m.Subject)}
		if m.HasBody {
			// Only delta extraction reads code spans: the body of a message
			// that is not a DELTA gets its outline, or, when nothing reads
			// it, only the guard's test.
			var doc *body.Doc
			var why string
			if opt.ArtifactOnly && !buildsArtifact(msg.Subject.Kind) && !strings.Contains(m.Body, "<!--") {
				why = body.Guard(m.Body, opt.Limits.Body())
			} else {
				doc, why = body.ParseGuardedIn(t.docs, m.Body, opt.Limits.Body(), msg.Subject.Kind == subject.Delta)
			}
			if why != "" {
				t.Findings = append(t.Findings, diag.Finding{Rule: ruleid.IN008, Severity: diag.Error,
					Message: "Message body is not parsed as markdown: " + why + ". Its delta blocks are not extracted and its sections are not checked.",
					Hint:    "Split or simplify the body; such markdown makes parsers slow enough to stall a CI job.",
					Pos:     m.Pos("body_md"), Thread: t.Key, MsgID: m.ID, Anchor: "unparsed body " + m.ID})
			}
			msg.Doc = doc
		}
		t.Msgs[i] = msg
	}
	t.priority = agentPriority(opt.Agents)
	orderTies(t.Msgs, t.priority)
	t.Known = knownAgents(t, opt)
	var reuse []pending
	if w != nil {
		reuse = w.deltas
	}
	deltas := t.extractDeltas(reuse, cmp.Or(opt.MaxBlocks, DefaultMaxBlocks), opt.Limits)
	t.deltas = deltas
	if t.Stopped() {
		return t
	}
	art, lastMsg := t.merge(t.newArtifact(), deltas)
	art.Version = t.Version
	art.CompiledBy = "brenner-ci"
	switch {
	case !opt.Epoch.IsZero():
		art.CompiledAt = opt.Epoch.UTC()
	case len(t.Msgs) > 0:
		art.CompiledAt = t.Msgs[len(t.Msgs)-1].Created
	}
	if n := len(t.Versions); n > 0 && t.Versions[n-1].Msg > lastMsg {
		// The current artifact is the latest COMPILED version.
		art.MessageID = t.Versions[n-1].MessageID
	}
	// Section minimums apply to threads that build an artifact: those with
	// DELTA messages. A coordination thread has no artifact to be short of.
	if t.Stats.DeltaMsgs > 0 {
		for _, ev := range art.Check() {
			t.Findings = append(t.Findings, t.event(ev))
		}
	}
	t.Current = art
	return t
}

// buildsArtifact reports whether the compiler reads the bodies of
// messages of kind k: DELTA messages' delta blocks, and the KICKOFF's
// research question and context (kickoffQuestion).
func buildsArtifact(k subject.Kind) bool { return k == subject.Delta || k == subject.Kickoff }

// pending is a valid delta and where it was posted.
type pending struct {
	d     *delta.Delta
	msg   int
	block int
}

// extractDeltas parses the delta blocks of DELTA messages only (never
// examples embedded in KICKOFF bodies), reports their problems and returns
// the valid deltas in merge order, appended to deltas (an empty list with
// room, or nil).
func (t *Thread) extractDeltas(deltas []pending, maxBlocks int, lim limits.Parse) []pending {
	for i, m := range t.Msgs {
		if t.Stopped() {
			return deltas
		}
		if m.Subject.Kind != subject.Delta || m.Doc == nil {
			continue
		}
		t.Stats.DeltaMsgs++
		m.agent = agentOf(m)
		m.agentKey = t.agentKeyOf(m.agent)
		blocks, problems := delta.AnalyzeIn(t.arena, t.blocks, m.Doc, lim)
		if len(blocks) > maxBlocks {
			b := blocks[maxBlocks]
			t.Findings = append(t.Findings, diag.Finding{Rule: ruleid.IN011, Severity: diag.Error,
				Message: fmt.Sprintf("Message has %d delta blocks, over the limit of %d; the blocks after the first %d are not applied or checked.", len(blocks), maxBlocks, maxBlocks),
				Hint:    "Split the message, or raise limits: delta-blocks-per-body in .brenner-ci.yaml.",
				Pos:     m.BodyPos(b.Fence.Start, b.Fence.Start), Thread: t.Key, MsgID: m.ID, Anchor: "blocks limit " + m.ID})
			blocks = blocks[:maxBlocks]
			problems = problemsBefore(problems, b.Fence.Start)
		}
		m.Blocks = blocks
		for _, p := range problems {
			t.addLocal(m, p)
		}
		for j := range blocks {
			b := &blocks[j]
			t.Stats.Blocks++
			for _, p := range b.Problems {
				t.addLocal(m, p)
			}
			if b.Valid() {
				t.Stats.Valid++
				deltas = append(deltas, pending{b.Delta, i, j})
			} else {
				t.Stats.Invalid++
			}
		}
	}
	// Messages are already in protocol order (instant, then input order), so
	// (message index, block index), the order deltas were appended in, is the
	// merge order.
	return deltas
}

// agentKeyOf returns strings.ToLower(agent), from the thread's few agents
// already seen when it can (a thread's DELTA messages come from a handful
// of agents whose names have capitals).
func (t *Thread) agentKeyOf(agent string) string {
	for _, k := range t.agentKeys {
		if k[0] == agent {
			return k[1]
		}
	}
	key := strings.ToLower(agent)
	if len(t.agentKeys) < 16 {
		t.agentKeys = append(t.agentKeys, [2]string{agent, key})
	}
	return key
}

// merge applies the deltas in order, snapshotting the artifact at every
// COMPILED message (Versions), and sets the thread's current version. It
// returns the artifact and the message index of the last delta (-1: none).
func (t *Thread) merge(art *artifact.Artifact, deltas []pending) (*artifact.Artifact, int) {
	next, ordinal, lastVersion := 0, 0, 0
	for i, m := range t.Msgs {
		if t.Stopped() {
			break
		}
		// Apply every delta posted before this message.
		for next < len(deltas) && deltas[next].msg < i {
			t.apply(art, deltas[next].d, deltas[next].msg, deltas[next].block)
			next++
		}
		if m.Subject.Kind == subject.Compiled {
			ordinal++
			n := m.Subject.Version
			if n == 0 {
				n = ordinal
			}
			art.EndRound()
			t.Versions = append(t.Versions, Version{N: n, Msg: i, MessageID: m.ID, CompiledAt: m.Created, CompiledBy: m.From, applied: next})
			lastVersion = n
		}
	}
	for ; next < len(deltas); next++ {
		t.apply(art, deltas[next].d, deltas[next].msg, deltas[next].block)
	}
	t.Version = lastVersion
	lastMsg := -1
	if len(deltas) > 0 {
		lastMsg = deltas[len(deltas)-1].msg
	}
	if len(t.Versions) == 0 || lastMsg > t.Versions[len(t.Versions)-1].Msg {
		t.Version = lastVersion + 1
	}
	return art, lastMsg
}

// newArtifact is the artifact before any delta: the thread's id and the
// research thread its KICKOFF seeds.
func (t *Thread) newArtifact() *artifact.Artifact {
	art := artifact.NewIn(t.ID(), t.arena, t.arts)
	if k, question, context := t.kickoffQuestion(); k != nil {
		art.SeedRT(question, context, strings.TrimSpace(k.From), k.Created)
	}
	return art
}

// VersionArtifact returns the artifact as it was at the COMPILED message of
// Versions[i]: the thread's deltas up to it merged again, silently (their
// findings were reported by the merge), once; later calls return the same
// artifact.
func (t *Thread) VersionArtifact(i int) *artifact.Artifact {
	v := &t.Versions[i]
	if v.art != nil {
		return v.art
	}
	art := t.newArtifact()
	next := 0
	for k := 0; k <= i; k++ {
		for ; next < t.Versions[k].applied; next++ {
			art.Apply(t.applied(t.deltas[next].d, t.deltas[next].msg, t.deltas[next].block))
		}
		if k < i {
			art.EndRound()
		}
	}
	art.Version, art.CompiledAt, art.CompiledBy, art.MessageID = v.N, v.CompiledAt, v.CompiledBy, v.MessageID
	v.art = art
	return art
}

// agent is the name a delta of message m is credited to.
func agentOf(m *Msg) string {
	if a := strings.TrimSpace(m.From); a != "" {
		return a
	}
	return "unknown"
}

// applied is the merge's view of delta d (block of message msg).
func (t *Thread) applied(d *delta.Delta, msg, block int) artifact.Applied {
	m := t.Msgs[msg]
	return artifact.Applied{Delta: d, Agent: m.agent, At: m.Created, Msg: msg, MsgID: m.ID, Block: block,
		Priority: t.priority[m.agentKey]}
}

func (t *Thread) apply(art *artifact.Artifact, d *delta.Delta, msg, block int) {
	m := t.Msgs[msg]
	agent := m.agent
	if len(t.Known) > 0 && !t.Known[m.agentKey] {
		b := &m.Blocks[block]
		t.Findings = append(t.Findings, diag.Finding{
			Rule: ruleid.MG007, Code: "UNKNOWN_AGENT", Severity: diag.Warning,
			Message: fmt.Sprintf("DELTA from %q, who is not a registered contributor of this thread; the delta is still applied.", agent),
			Hint:    "Register the agent (config agents:, archive profile) or send the KICKOFF to it.",
			Pos:     m.BodyPos(b.Fence.Start, b.Fence.End), Thread: t.Key, MsgID: m.ID,
			Anchor: "agent " + agent,
		})
	}
	applied, events := art.Apply(t.applied(d, msg, block))
	if applied {
		t.Stats.Applied++
	}
	for _, ev := range events {
		t.Findings = append(t.Findings, t.event(ev))
	}
}

// event turns a merge event into a finding at its delta block.
func (t *Thread) event(ev artifact.Event) diag.Finding {
	f := diag.Finding{Rule: ev.Rule, Severity: ev.Severity, Message: ev.Message,
		Hint: ev.Hint, Thread: t.Key, Anchor: ev.Anchor}
	if ev.Msg >= 0 && ev.Msg < len(t.Msgs) {
		m := t.Msgs[ev.Msg]
		f.MsgID = m.ID
		if ev.Block >= 0 && ev.Block < len(m.Blocks) {
			b := &m.Blocks[ev.Block]
			f.Pos = m.BodyPos(b.Fence.Start, b.Fence.End)
			if ev.Field != "" && b.Delta != nil && b.Delta.Payload != nil {
				if off, ok := b.Delta.Payload.KeyOffset(ev.Field); ok {
					f.Pos = m.BodyPos(b.BodyOffset(off), b.BodyOffset(off+len(ev.Field)+2))
				}
			}
		} else {
			f.Pos = m.Pos("subject")
		}
	} else if len(t.Msgs) > 0 {
		// Whole-artifact events (BELOW_MINIMUM) point at the thread's last message.
		m := t.Msgs[len(t.Msgs)-1]
		f.Pos = m.Pos("subject")
		f.MsgID = m.ID
	}
	f.Pos = f.Pos.Normalize()
	return f
}

// addLocal converts a body-relative problem to a finding.
func (t *Thread) addLocal(m *Msg, p diag.Local) {
	f := diag.Finding{Rule: p.Rule, Severity: p.Severity, Message: p.Message, Hint: p.Hint,
		Anchor: p.Anchor, Thread: t.Key, MsgID: m.ID, Pos: m.BodyPos(p.Start, p.End).Normalize()}
	if p.Fix != nil {
		// A fix is offered only where it can be written as it must land:
		// verbatim in an archive file, JSON-string-escaped inside a JSON
		// export, never where only the body's line is known.
		text, ok := p.Fix.Text, true
		switch m.Encoding() {
		case mailbox.BodyJSONString:
			text = jsonStringContent(text)
		case mailbox.BodyVerbatim:
		default:
			ok = false
		}
		if ok {
			f.Fix = &diag.Fix{Description: p.Fix.Description, Pos: m.BodyPos(p.Fix.Start, p.Fix.End).Normalize(), Text: text}
		}
	}
	t.Findings = append(t.Findings, f)
}

// jsonStringContent is s escaped as the content of a JSON string literal
// (without the quotes).
func jsonStringContent(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	out := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	return string(out[1 : len(out)-1])
}

// knownAgents is the set of agents allowed to contribute (MG-007): from
// config, archive profiles, and the KICKOFF's sender and recipients. It is
// empty (no check) when nothing is known.
func knownAgents(t *Thread, opt Options) map[string]bool {
	known := map[string]bool{}
	add := func(names ...string) {
		for _, n := range names {
			if n = strings.TrimSpace(n); n != "" {
				known[strings.ToLower(n)] = true
			}
		}
	}
	add(opt.Agents...)
	add(opt.ArchiveAgents...)
	for _, m := range t.Msgs {
		if m.Subject.Kind == subject.Kickoff && m.RecipientsKnown {
			add(m.From)
			add(m.To...)
			add(m.CC...)
			add(m.BCC...)
		}
	}
	return known
}

// problemsBefore keeps the body-level problems that start before offset end.
func problemsBefore(ps []diag.Local, end int) []diag.Local {
	out := ps[:0]
	for _, p := range ps {
		if p.Start < end {
			out = append(out, p)
		}
	}
	return out
}

// kickoffQuestion returns the thread's first KICKOFF with a non-empty
// "## Research Question" section, that question and its "## Context" (white
// space folded): "will become the RT if this is a research session"
// (message_body_schema_v0.1.md, KICKOFF).
func (t *Thread) kickoffQuestion() (*Msg, string, string) {
	for _, m := range t.Msgs {
		if m.Subject.Kind != subject.Kickoff || m.Doc == nil {
			continue
		}
		q := diag.CollapseSpace(m.Doc.SectionText(m.Doc.Find(2, "research question")))
		if q == "" {
			continue
		}
		return m, q, diag.CollapseSpace(m.Doc.SectionText(m.Doc.Find(2, "context")))
	}
	return nil, "", ""
}

// agentPriority ranks the agents of config agents: for conflict resolution
// ("If timestamps are identical, use agent priority order (if defined)",
// artifact_delta_spec_v0.1.md): the first listed agent has the highest
// priority. Agents not listed have priority 0.
func agentPriority(agents []string) map[string]int {
	if len(agents) == 0 {
		return nil // every agent has priority 0
	}
	p := map[string]int{}
	for i, a := range agents {
		if k := strings.ToLower(strings.TrimSpace(a)); k != "" && p[k] == 0 {
			p[k] = len(agents) - i
		}
	}
	return p
}

// orderTies orders DELTA messages posted at the same instant by what they
// are, not by where they are in the export: by agent priority, lowest first
// (the highest priority is applied last, so its EDIT wins), then sender,
// body and message id. Other messages keep their places. Messages without a
// valid timestamp are never tied. So the merge is a function of the deltas:
// swapping two tied messages in an export gives the same artifact.
func orderTies(msgs []*Msg, priority map[string]int) {
	for i := 0; i < len(msgs); {
		j := i + 1
		for j < len(msgs) && !msgs[i].Created.IsZero() && msgs[j].Created.Equal(msgs[i].Created) {
			j++
		}
		if j-i < 2 {
			i = j // a message alone at its instant: nothing to order
			continue
		}
		var places []int
		var tied []*Msg
		for k := i; k < j; k++ {
			if msgs[k].Subject.Kind == subject.Delta {
				places = append(places, k)
				tied = append(tied, msgs[k])
			}
		}
		if len(tied) > 1 {
			sort.SliceStable(tied, func(a, b int) bool {
				x, y := tied[a], tied[b]
				fx, fy := strings.TrimSpace(x.From), strings.TrimSpace(y.From)
				if px, py := priority[strings.ToLower(fx)], priority[strings.ToLower(fy)]; px != py {
					return px < py
				}
				return cmp.Or(strings.Compare(fx, fy), strings.Compare(x.Body, y.Body), strings.Compare(x.ID, y.ID)) < 0
			})
			for n, k := range places {
				msgs[k] = tied[n]
			}
		}
		i = j
	}
}
