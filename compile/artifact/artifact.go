// Package artifact holds the Brenner Protocol research artifact: the model of
// its seven sections, the deterministic merge of delta operations into it
// (artifact_delta_spec_v0.1.md), its markdown rendering
// (artifact_schema_v0.1.md, artifact_publish_spec_v0.1.md) and the body of a
// COMPILED message (artifact_publish_spec_v0.1.md, extended schema).
//
// Nothing here reads the wall clock: every time comes from the inputs, so the
// same deltas always give the same bytes.
package artifact

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/relit"
)

// Contributor is an agent whose deltas were applied.
type Contributor struct {
	Agent   string
	FirstAt time.Time // instant of the first applied delta
	LastAt  time.Time // latest instant among the applied deltas
	Deltas  int       // applied deltas
	// Items are the ids this agent added, modified or killed, in the order
	// first touched. A KILL of an already-killed item is counted in Deltas
	// but adds no id (it changed nothing).
	Items []string
	// touched is the set of Items, built once they are 16 or more
	// (crediting stays linear in a thread's deltas; fewer are scanned).
	touched map[string]bool
}

// Item is one enumerated artifact item (or the research thread).
type Item struct {
	ID      string
	Section string       // one of delta.Sections
	Fields  *jsonv.Value // an object: the payload fields, document order kept
	// Kill state (soft delete; the item stays in the artifact).
	Killed     bool
	KilledBy   string
	KilledAt   time.Time
	KillReason string
	AddedBy    string
	AddedAt    time.Time
}

// Get returns the field k of the item, or nil.
func (it *Item) Get(k string) *jsonv.Value {
	if it == nil {
		return nil
	}
	return it.Fields.Get(k)
}

// Str returns the field k when it is a string ("" otherwise).
func (it *Item) Str(k string) string {
	s, _ := it.Get(k).AsString()
	return s
}

// Clone returns a deep copy of the item.
func (it *Item) Clone() *Item {
	if it == nil {
		return nil
	}
	c := *it
	c.Fields = it.Fields.Clone()
	return &c
}

// Artifact is the merged state of a session.
type Artifact struct {
	SessionID  string
	Version    int       // the compiled version this state is (0 before the first COMPILED)
	CompiledAt time.Time // set by the caller
	CompiledBy string    // set by the caller ("operator" or an agent name)
	MessageID  string    // agent_mail_message_id of the COMPILED message, when known
	CreatedAt  time.Time // set by the caller (e.g. the KICKOFF instant); omitted when zero
	UpdatedAt  time.Time // latest instant among the applied deltas
	Status     string    // draft | active | closed; omitted from the front matter when ""

	Contributors []*Contributor // in first-applied order
	RT           *Item          // the research thread, nil until its first EDIT
	// Items per section id (every section but research_thread), in id order.
	Items map[string][]*Item

	// writes remembers the last EDIT of each field, for conflict detection.
	writes map[fieldKey]fieldWrite
	// round counts the rounds ended by EndRound (one per COMPILED
	// message): two EDITs of one field conflict only within a round.
	round int
	// idTop is, per section, the highest item number among its first n
	// items (nextID), so that adding an item scans only those added since.
	idTop [maxTopSections]idTop
	// arena holds the fields of the items ADDs create, as it holds the
	// deltas' values they share, and own the items, lists and maps
	// (nil: the heap; see NewIn).
	arena *jsonv.Arena
	own   *Arena
}

// maxTopSections is how many of delta.Sections, in order, nextID keeps an
// idTop for (all of them: the schema has fewer).
const maxTopSections = 16

// idTop is what nextID has seen of a section: its first n items, the
// last of them, and their highest number.
type idTop struct {
	n, max int
	last   *Item
}

// fieldKey names a field an EDIT writes: the item's section and id, the
// field, and the sub-key of an object field ("" for the whole field).
type fieldKey struct{ section, id, field, sub string }

// fieldWrite is one EDIT's write of one field.
type fieldWrite struct {
	Agent    string
	Value    *jsonv.Value
	Round    int // the round (see EndRound) the write happened in
	Msg      int
	Block    int
	At       time.Time
	Priority int
	// Tied holds the values of an unresolved conflict (MG-010), in the
	// order applied; empty otherwise.
	Tied []tiedValue
}

// New returns an empty artifact for a session.
func New(sessionID string) *Artifact {
	return &Artifact{SessionID: sessionID, Items: map[string][]*Item{}, writes: map[fieldKey]fieldWrite{}}
}

// Clone returns a deep copy: the snapshot taken at each COMPILED message.
// Taking a snapshot also ends the current round of deltas for conflict
// detection (MG-008): an EDIT after the snapshot revises, rather than
// conflicts with, an EDIT before it. Clone is safe to call concurrently.
// EndRound ends the current round of deltas (the caller does this at each
// COMPILED message): later EDITs revise the compiled values instead of
// conflicting with them (MG-008).
func (a *Artifact) EndRound() { a.round++ }

func (a *Artifact) Clone() *Artifact {
	c := *a
	c.idTop = [maxTopSections]idTop{} // rebuilt when first needed: never shared with a
	c.arena, c.own = nil, nil         // an arena is not safe for concurrent use
	c.Contributors = make([]*Contributor, len(a.Contributors))
	for i, k := range a.Contributors {
		kk := *k
		kk.Items = append([]string(nil), k.Items...)
		kk.touched = nil
		c.Contributors[i] = &kk
	}
	c.RT = a.RT.Clone()
	c.Items = make(map[string][]*Item, len(a.Items))
	for s, items := range a.Items {
		cs := make([]*Item, len(items))
		for i, it := range items {
			cs[i] = it.Clone()
		}
		c.Items[s] = cs
	}
	c.writes = make(map[fieldKey]fieldWrite, len(a.writes))
	for k, w := range a.writes {
		w.Value = w.Value.Clone()
		w.Tied = append([]tiedValue(nil), w.Tied...)
		c.writes[k] = w
	}
	return &c
}

// Section returns the items of a section in id order (the research thread,
// when present, for research_thread).
func (a *Artifact) Section(section string) []*Item {
	if section == delta.ResearchThread {
		if a.RT == nil {
			return nil
		}
		return []*Item{a.RT}
	}
	return a.Items[section]
}

// Find returns the item id of a section, or nil.
func (a *Artifact) Find(section, id string) *Item {
	for _, it := range a.Section(section) {
		if it.ID == id {
			return it
		}
	}
	return nil
}

// Lookup returns the item with this id in any section, or nil.
func (a *Artifact) Lookup(id string) *Item {
	for _, s := range delta.Sections {
		if it := a.Find(s, id); it != nil {
			return it
		}
	}
	return nil
}

// Active returns the non-killed items of a section, in id order.
func (a *Artifact) Active(section string) []*Item {
	var out []*Item
	for _, it := range a.Section(section) {
		if !it.Killed {
			out = append(out, it)
		}
	}
	return out
}

// activeCount is len(a.Active(section)), without the list.
func (a *Artifact) activeCount(section string) int {
	n := 0
	for _, it := range a.Section(section) {
		if !it.Killed {
			n++
		}
	}
	return n
}

// Count returns the number of active and of killed items of a section.
// research_thread counts 1 active when the research thread exists.
func (a *Artifact) Count(section string) (active, killed int) {
	for _, it := range a.Section(section) {
		if it.Killed {
			killed++
		} else {
			active++
		}
	}
	return active, killed
}

// The names these patterns are asked about (every hypothesis and assumption
// of every artifact, and each hypothesis heading rendered) seldom hold
// their literals: the prefilter answers most (compile/relit).
var (
	thirdAltName   = relit.MustCompile(`(?i)third\s+alternative`)
	scaleName      = relit.MustCompile(`(?i)\b(scale|physics)\b`)
	altFramingName = relit.MustCompile(`(?i)third\s+alternative|alternative\s+framing`)
)

// IsAlternativeFraming reports whether a critique offers a specific
// alternative framing (the "real third alternative"):
// "real_third_alternative": true, or a name with "third alternative" or
// "alternative framing" (as the artifact linter's WC-001 reads it).
func IsAlternativeFraming(it *Item) bool {
	if v := it.Get("real_third_alternative"); v != nil && v.Kind == jsonv.Bool && v.Bool {
		return true
	}
	return altFramingName.MatchString(it.Str("name"))
}

// HasAlternativeFraming reports whether an active critique offers an
// alternative framing.
func (a *Artifact) HasAlternativeFraming() bool {
	for _, it := range a.Active(delta.AdversarialCritique) {
		if IsAlternativeFraming(it) {
			return true
		}
	}
	return false
}

// IsThirdAlternative reports whether a hypothesis is the third alternative:
// "third_alternative": true, or a name matching /third\s+alternative/i.
func IsThirdAlternative(it *Item) bool {
	if v := it.Get("third_alternative"); v != nil && v.Kind == jsonv.Bool && v.Bool {
		return true
	}
	return thirdAltName.MatchString(it.Str("name"))
}

// IsScaleCheck reports whether an assumption is a scale/physics check:
// "scale_check": true, or a name with the word "scale" or "physics".
func IsScaleCheck(it *Item) bool {
	if v := it.Get("scale_check"); v != nil && v.Kind == jsonv.Bool && v.Bool {
		return true
	}
	return scaleName.MatchString(it.Str("name"))
}

// HasThirdAlternative reports whether an active hypothesis is a third alternative.
func (a *Artifact) HasThirdAlternative() bool {
	for _, it := range a.Section(delta.HypothesisSlate) {
		if !it.Killed && IsThirdAlternative(it) {
			return true
		}
	}
	return false
}

// HasScaleCheck reports whether an active assumption is a scale/physics check.
func (a *Artifact) HasScaleCheck() bool {
	for _, it := range a.Section(delta.AssumptionLedger) {
		if !it.Killed && IsScaleCheck(it) {
			return true
		}
	}
	return false
}

type scorePart struct{ Key, Label string }

// scoreParts are the evidence-per-week score dimensions, in rendering order.
var scoreParts = []scorePart{
	{"likelihood_ratio", "LR"}, {"cost", "Cost"}, {"speed", "Speed"}, {"ambiguity", "Ambiguity"},
}

// Score returns a test's total evidence-per-week score: the sum of the
// numeric likelihood_ratio, cost, speed and ambiguity parts. Missing or
// non-numeric parts (and a missing score) count 0.
func Score(it *Item) float64 {
	sc := it.Get("score")
	var t float64
	for _, p := range scoreParts {
		if f, ok := sc.Get(p.Key).Float(); ok {
			t += f
		}
	}
	return t
}

// RankedTests returns all tests (killed included) by descending total score,
// ties by id.
func (a *Artifact) RankedTests() []*Item {
	ts := append([]*Item(nil), a.Items[delta.DiscriminativeTests]...)
	sort.SliceStable(ts, func(i, j int) bool {
		si, sj := Score(ts[i]), Score(ts[j])
		if si != sj {
			return si > sj
		}
		return idLess(ts[i].ID, ts[j].ID)
	})
	return ts
}

// Cell returns the value a prediction gives for hypothesis hid (the member of
// its "predictions" object keyed hid, or failing that keyed hid in another
// letter case), and whether the cell is N/A because hypothesis hid is killed.
// The stored value is kept: N/A is a rendering of a killed hypothesis' cell.
func (a *Artifact) Cell(p *Item, hid string) (v *jsonv.Value, na bool) {
	preds := p.Get("predictions")
	if preds == nil || preds.Kind != jsonv.Object {
		return nil, false
	}
	v = preds.Get(hid)
	if v == nil {
		for _, k := range preds.Keys() {
			if strings.EqualFold(k, hid) {
				v = preds.Get(k)
				break
			}
		}
	}
	if v == nil {
		return nil, false
	}
	h := a.Find(delta.HypothesisSlate, hid)
	return v, h != nil && h.Killed
}

// resolveHyp maps a predictions key to an existing hypothesis id ("" when none).
func (a *Artifact) resolveHyp(key string) string {
	if a.Find(delta.HypothesisSlate, key) != nil {
		return key
	}
	for _, h := range a.Items[delta.HypothesisSlate] {
		if strings.EqualFold(h.ID, key) {
			return h.ID
		}
	}
	return ""
}

// idNum splits an id into its prefix and number (-1 when it has none).
func idNum(id string) (string, int) {
	i := len(id)
	for i > 0 && id[i-1] >= '0' && id[i-1] <= '9' {
		i--
	}
	if i == len(id) || i == 0 {
		return id, -1
	}
	n, err := strconv.Atoi(id[i:])
	if err != nil {
		return id, -1
	}
	return id[:i], n
}

// IDLess orders item ids by prefix, then number, then text (H2 < H10 < T1).
func IDLess(a, b string) bool { return idLess(a, b) }

// idLess orders ids by prefix, then number, then text.
func idLess(a, b string) bool {
	pa, na := idNum(a)
	pb, nb := idNum(b)
	if pa != pb {
		return pa < pb
	}
	if na != nb {
		return na < nb
	}
	return a < b
}

// sectionOf returns the section whose prefix the id has ("" when none).
func sectionOf(id string) string {
	if id == "RT" {
		return delta.ResearchThread
	}
	p, n := idNum(id)
	if n < 0 {
		return ""
	}
	for _, s := range delta.Sections {
		if s != delta.ResearchThread && delta.Prefix[s] == p {
			return s
		}
	}
	return ""
}

// nextID returns max+1 over the section's ids of the form <prefix><n>
// (killed items count, so ids are never reused). Merging only appends to a
// section, so it scans only the items added since its last call (idTop):
// adding 100,000 items to one thread is linear, not quadratic. A list
// replaced by another is scanned again (TestNextIDAgreesWithPlainScan).
func (a *Artifact) nextID(section string) string {
	prefix := delta.Prefix[section]
	items := a.Items[section]
	k := slices.Index(delta.Sections, section)
	var t idTop
	if k >= 0 && k < maxTopSections {
		t = a.idTop[k]
	}
	if t.n > len(items) || t.n > 0 && items[t.n-1] != t.last {
		t = idTop{} // not the list seen, grown: scan it again
	}
	for _, it := range items[t.n:] {
		if p, n := idNum(it.ID); p == prefix && n > t.max {
			t.max = n
		}
	}
	t.n = len(items)
	if t.n > 0 {
		t.last = items[t.n-1]
	}
	if k >= 0 && k < maxTopSections {
		a.idTop[k] = t
	}
	return prefix + strconv.Itoa(t.max+1)
}
