package rules

import (
	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/diag"
)

// Facts are what the batch rules (RF-, AP-010, DR-002, TH-008) and the
// genealogy graph know of a compiled thread: its items, their kill state and
// their references to other sessions. They are small and serialisable, so a
// batch never keeps compiled threads alive.
type Facts struct {
	Key      string     `json:"key"`
	ThreadID string     `json:"thread_id,omitempty"`
	Latest   int        `json:"latest,omitempty"` // latest COMPILED version (0 when none)
	Items    []ItemFact `json:"items,omitempty"`  // in section order, then id order
	Refs     []RefFact  `json:"refs,omitempty"`   // in item order, then reference order
	index    map[string]int
}

// ItemFact is one item of a thread's current artifact.
type ItemFact struct {
	ID         string `json:"id"`
	Section    string `json:"section"`
	Name       string `json:"name,omitempty"`
	Claim      string `json:"claim,omitempty"` // hypotheses: the claim
	Killed     bool   `json:"killed,omitempty"`
	KillReason string `json:"kill_reason,omitempty"`
}

// RefFact is one entry of an item's references: From refers to Item of
// Session with Relation; Pos and MsgID locate the delta block carrying it.
type RefFact struct {
	From     string   `json:"from"`
	Session  string   `json:"session"`
	Item     string   `json:"item"`
	Relation string   `json:"relation,omitempty"`
	Pos      diag.Pos `json:"pos"`
	MsgID    string   `json:"message_id,omitempty"`
}

// Item returns the item with id, or nil.
func (f *Facts) Item(id string) *ItemFact {
	if f.index == nil {
		f.index = make(map[string]int, len(f.Items))
		for i := range f.Items {
			f.index[f.Items[i].ID] = i
		}
	}
	if i, ok := f.index[id]; ok {
		return &f.Items[i]
	}
	return nil
}

// CollectFacts extracts a compiled thread's facts.
func CollectFacts(t *compile.Thread) Facts {
	f := Facts{Key: t.Key, ThreadID: t.ThreadID}
	if n := len(t.Versions); n > 0 {
		f.Latest = t.Versions[n-1].N
	}
	if t.Current == nil {
		return f
	}
	if t.Current.RT != nil {
		f.Items = append(f.Items, ItemFact{ID: "RT", Section: "research_thread"})
	}
	for _, sec := range delta.Sections {
		for _, it := range t.Current.Section(sec) {
			f.Items = append(f.Items, ItemFact{ID: it.ID, Section: sec, Name: it.Str("name"), Claim: it.Str("claim"),
				Killed: it.Killed, KillReason: it.KillReason})
			refs := it.Get("references")
			if refs == nil || refs.Kind != jsonv.Array {
				continue
			}
			for _, r := range refs.Arr {
				s, _ := r.Get("session").AsString()
				item, _ := r.Get("item").AsString()
				rel, _ := r.Get("relation").AsString()
				if s == "" || item == "" {
					continue // RF-003 reports malformed entries
				}
				pos, msgID := refPos(t, s, item)
				f.Refs = append(f.Refs, RefFact{From: it.ID, Session: s, Item: item, Relation: rel, Pos: pos, MsgID: msgID})
			}
		}
	}
	return f
}
