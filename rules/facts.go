package rules

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
)

// Facts are what the batch rules (RF-, AP-010, DR-002, TH-008) and the
// genealogy graph know of a compiled thread, or of a persisted artifact
// among the inputs (the RF- rules and the graph): its items, their kill
// state and their references to other sessions. They are small and
// serialisable, so a batch never keeps compiled threads alive.
type Facts struct {
	Key      string    `json:"key"` // a thread's key; an artifact's session id
	ThreadID string    `json:"thread_id,omitempty"`
	Latest   int       `json:"latest,omitempty"` // latest COMPILED version (0 when none)
	Items    ItemList  `json:"items,omitzero"`   // in section order, then id order
	Refs     []RefFact `json:"refs,omitempty"`   // in item order, then reference order
	// Artifact is the file of an artifact's facts ("" for a thread's).
	Artifact string `json:"artifact,omitempty"`
}

// ItemFact is one item of a thread's current artifact. Hypotheses carry
// more (Hyp): a short name for graph labels and a hash of the normalised
// claim (not the texts), so that facts stay small — a few dozen bytes per
// item.
type ItemFact struct {
	ID      string   `json:"id"`
	Section string   `json:"section"`
	Killed  bool     `json:"killed,omitempty"`
	Hyp     *HypFact `json:"hyp,omitempty"`
}

// HypFact is what the genealogy rules and graph keep of a hypothesis.
type HypFact struct {
	Name     string `json:"name,omitempty"` // at most maxFactName bytes
	ClaimKey uint64 `json:"claim_key,omitempty"`
	// Claim is where the ADD block's claim is written, looked for only in
	// facts that reference other sessions (RF-006 reports there); nil in
	// the rest, most of a run's. A nightly audit of 200,000 threads held
	// 790,000 hypotheses' facts through its batch rules: 88 bytes each
	// with the place inline, 32 without.
	Claim *ClaimAt `json:"claim,omitempty"`
}

// ClaimAt is where a hypothesis's claim is written: the ADD block's claim
// in its message, or the item's entry in an artifact file (MsgID empty).
type ClaimAt struct {
	Pos   diag.Pos `json:"pos"`
	MsgID string   `json:"message_id,omitempty"`
}

// Name is the item's name when the facts keep it (hypotheses), else "".
func (it *ItemFact) Name() string {
	if it.Hyp == nil {
		return ""
	}
	return it.Hyp.Name
}

// maxFactName bounds the item names kept in facts.
const maxFactName = 60

// RefFact is one entry of an item's references: From refers to Item of
// Session with Relation; Pos and MsgID locate the delta block carrying it
// (an artifact's: Pos is the entry in the artifact file, MsgID is empty).
type RefFact struct {
	From     string   `json:"from"`
	Session  string   `json:"session"`
	Item     string   `json:"item"`
	Relation string   `json:"relation,omitempty"`
	Pos      diag.Pos `json:"pos"`
	MsgID    string   `json:"message_id,omitempty"`
}

// CollectFacts extracts a compiled thread's facts.
func CollectFacts(t *compile.Thread) Facts {
	sc := itemScratchPool.Get().(*itemScratch)
	defer sc.release()
	return collectFacts(t, sc)
}

// collectFacts is CollectFacts with the item lists made in sc.
func collectFacts(t *compile.Thread, sc *itemScratch) Facts {
	f := Facts{Key: t.Key, ThreadID: t.ThreadID}
	if n := len(t.Versions); n > 0 {
		f.Latest = t.Versions[n-1].N
	}
	if t.Current == nil {
		return f
	}
	items, claims := itemFacts(t.Current, sc, func(it *artifact.Item) {
		refs := it.Get("references")
		if refs == nil || refs.Kind != jsonv.Array {
			return
		}
		for _, r := range refs.Arr() {
			s, item, rel := refFields(r)
			if s == "" || item == "" {
				continue // RF-003 reports malformed entries
			}
			pos, msgID := refPos(t, s, item)
			f.Refs = append(f.Refs, RefFact{From: it.ID, Session: s, Item: item, Relation: rel, Pos: pos, MsgID: msgID})
		}
	})
	// Where a claim is written is needed only by RF-006, which reports an
	// active hypothesis of a thread that references other sessions; finding
	// it maps a body offset to a file position, so it is done for those
	// alone.
	if len(f.Refs) > 0 {
		for i, it := range items {
			if h := it.Hyp; h != nil && !it.Killed && claims[i] != "" {
				pos, msgID := claimPos(t, claims[i])
				h.Claim = &ClaimAt{Pos: pos, MsgID: msgID}
			}
		}
	}
	f.Items = PackItems(items)
	return f
}

// refFields are a reference entry's session, item and relation ("" when
// absent or not a string).
func refFields(r *jsonv.Value) (session, item, relation string) {
	session, _ = r.Get("session").AsString()
	item, _ = r.Get("item").AsString()
	relation, _ = r.Get("relation").AsString()
	return session, item, relation
}

// itemScratch holds the lists itemFacts makes, which a thread's facts
// need only until PackItems has packed them: pooled, they are not made
// again for every thread (a 10,000-thread check allocated 15 MB of them).
type itemScratch struct {
	items  []ItemFact
	claims []string
	hyps   []HypFact
}

var itemScratchPool = sync.Pool{New: func() any { return new(itemScratch) }}

// maxScratchItems is the most items a pooled itemScratch keeps room for.
const maxScratchItems = 4096

// release clears the lists and pools them, unless they grew past
// maxScratchItems.
func (sc *itemScratch) release() {
	if cap(sc.items) > maxScratchItems || cap(sc.hyps) > maxScratchItems {
		return
	}
	clear(sc.items)
	clear(sc.claims)
	clear(sc.hyps)
	sc.items, sc.claims, sc.hyps = sc.items[:0], sc.claims[:0], sc.hyps[:0]
	itemScratchPool.Put(sc)
}

// itemFacts lists the items of a, research thread first, then by section,
// with each hypothesis's claim (aligned with the items; "" for other
// items), in sc's lists: valid until sc is released. visit, when set, is
// called for every item of every section in that order.
func itemFacts(a *artifact.Artifact, sc *itemScratch, visit func(it *artifact.Item)) (items []ItemFact, claims []string) {
	n := 1 // the research thread
	for _, sec := range delta.Sections {
		n += len(a.Section(sec))
	}
	// Room for every hypothesis first: the facts point into the list.
	sc.items, sc.claims = slices.Grow(sc.items[:0], n), slices.Grow(sc.claims[:0], n)
	sc.hyps = slices.Grow(sc.hyps[:0], len(a.Section(delta.HypothesisSlate)))
	items, claims = sc.items, sc.claims
	if a.RT != nil {
		items = append(items, ItemFact{ID: "RT", Section: "research_thread"})
		claims = append(claims, "")
	}
	for _, sec := range delta.Sections {
		for _, it := range a.Section(sec) {
			fact := ItemFact{ID: it.ID, Section: sec, Killed: it.Killed}
			claim := ""
			if sec == "hypothesis_slate" {
				// A copy: the name must not keep the payload it was read from alive.
				sc.hyps = append(sc.hyps, HypFact{Name: strings.Clone(clipName(it.Str("name")))})
				h := &sc.hyps[len(sc.hyps)-1]
				if claim = it.Str("claim"); claim != "" {
					h.ClaimKey = ClaimKey(claim)
				}
				fact.Hyp = h
			}
			items = append(items, fact)
			claims = append(claims, claim)
			if visit != nil {
				visit(it)
			}
		}
	}
	sc.items, sc.claims = items, claims
	return items, claims
}

// ClaimKey is a hash of a claim's normalised text: letters and digits
// only, lower case, words separated by one space. Two claims that differ
// only in case, white space or punctuation have the same key. ASCII is read
// a byte at a time; any other rune is lowered as strings.ToLower would
// (FuzzClaimKey holds the two ways equal).
func ClaimKey(claim string) uint64 {
	h := uint64(14695981039346656037)
	space := false
	wrote := false
	var enc [utf8.UTFMax]byte
	for i := 0; i < len(claim); {
		var word []byte
		if c := claim[i]; c < utf8.RuneSelf {
			i++
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
				enc[0] = c
				word = enc[:1]
			}
		} else {
			r, n := utf8.DecodeRuneInString(claim[i:])
			i += n
			if r = unicode.ToLower(r); unicode.IsLetter(r) || unicode.IsDigit(r) {
				word = utf8.AppendRune(enc[:0], r)
			}
		}
		if word == nil {
			space = true
			continue
		}
		if space && wrote {
			h = (h ^ ' ') * 1099511628211
		}
		space = false
		for _, b := range word {
			h = (h ^ uint64(b)) * 1099511628211
		}
		wrote = true
	}
	if !wrote {
		return 0
	}
	return h
}

// clipName bounds an item name kept in facts (the genealogy graph shows
// it), its credentials redacted first: cut short, a credential no longer
// looks like one.
func clipName(s string) string {
	s = diag.RedactSecrets(s)
	if len(s) <= maxFactName {
		return s
	}
	cut := maxFactName
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// claimPos finds the hypothesis ADD block whose claim is claim.
func claimPos(t *compile.Thread, claim string) (diag.Pos, string) {
	for _, m := range t.Msgs {
		for j := range m.Blocks {
			b := &m.Blocks[j]
			if b.Delta == nil || b.Delta.Payload == nil || b.Delta.Section != "hypothesis_slate" {
				continue
			}
			v := b.Delta.Payload.Get("claim")
			if s, _ := v.AsString(); s == claim {
				return m.BodyPos(b.BodyOffset(v.Off), b.BodyOffset(v.End)).Normalize(), m.ID
			}
		}
	}
	return diag.Pos{}, ""
}
