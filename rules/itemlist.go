package rules

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"iter"

	"github.com/brenner-ci/brenner-ci/compile/delta"
)

// ItemList is a thread's items as its facts keep them until the batch rules
// run. A nightly audit keeps the facts of every thread (100,000 threads of
// ~19 items each), so the items are packed into one string — per item its
// id, a section code and its kill state, ~8 bytes instead of a 48-byte
// struct — and only hypotheses keep a HypFact. In JSON (shard files, cache
// entries) it is the array of ItemFact it always was.
type ItemList struct {
	enc  string
	hyps []HypFact // the hypotheses' facts, in item order
	n    int
}

// itemSections are the section codes: index+1 (0: the name follows inline).
var itemSections = append([]string{"research_thread"}, delta.Sections...)

func sectionCode(s string) byte {
	for i, n := range itemSections {
		if n == s {
			return byte(i + 1)
		}
	}
	return 0
}

// uvarintString is binary.Uvarint on a string.
func uvarintString(s string) (uint64, int) {
	var v uint64
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		if c < 0x80 {
			return v | uint64(c)<<(7*i), i + 1
		}
		v |= uint64(c&0x7f) << (7 * i)
	}
	return 0, 0
}

// PackItems packs items into a list.
func PackItems(items []ItemFact) ItemList {
	var b []byte
	l := ItemList{n: len(items)}
	nh := 0
	for _, it := range items {
		if it.Hyp != nil {
			nh++
		}
	}
	if nh > 0 {
		l.hyps = make([]HypFact, 0, nh)
	}
	for _, it := range items {
		b = binary.AppendUvarint(b, uint64(len(it.ID)))
		b = append(b, it.ID...)
		code := sectionCode(it.Section)
		b = append(b, code)
		if code == 0 {
			b = binary.AppendUvarint(b, uint64(len(it.Section)))
			b = append(b, it.Section...)
		}
		var fl byte
		if it.Killed {
			fl |= 1
		}
		if it.Hyp != nil {
			fl |= 2
			l.hyps = append(l.hyps, *it.Hyp)
		}
		b = append(b, fl)
	}
	l.enc = string(b)
	return l
}

// Len is the number of items.
func (l *ItemList) Len() int { return l.n }

// IsZero reports an empty list (so JSON leaves it out, as it did the empty
// slice).
func (l ItemList) IsZero() bool { return l.n == 0 }

// All yields the items in order. Hyp points into the list: read it, do
// not keep it past the list.
func (l *ItemList) All() iter.Seq[ItemFact] {
	return func(yield func(ItemFact) bool) {
		for s, h := l.enc, 0; len(s) > 0; {
			var it ItemFact
			var ok bool
			if it, s, h, ok = l.next(s, h); !ok || !yield(it) {
				return
			}
		}
	}
}

// Find returns the item with id. It reads the list from its start (a
// thread has a few dozen items) without the iterator All returns, which
// is made on the heap: the genealogy of a nightly audit asked for 670,000
// items.
func (l *ItemList) Find(id string) (ItemFact, bool) {
	for s, h := l.enc, 0; len(s) > 0; {
		var it ItemFact
		var ok bool
		if it, s, h, ok = l.next(s, h); !ok {
			break
		}
		if it.ID == id {
			return it, true
		}
	}
	return ItemFact{}, false
}

// Has reports whether the list holds an item with id.
func (l *ItemList) Has(id string) bool {
	_, ok := l.Find(id)
	return ok
}

// next reads the item s starts with, h the hypotheses before it; ok is
// false when s was not written by PackItems (a corrupt record: consistent
// refuses it, so All and Find never see one).
func (l *ItemList) next(s string, h int) (it ItemFact, rest string, hyps int, ok bool) {
	n, k := uvarintString(s)
	if k <= 0 || uint64(len(s)-k) < n+2 {
		return it, "", h, false
	}
	it.ID, s = s[k:k+int(n)], s[k+int(n):]
	code := s[0]
	s = s[1:]
	if code == 0 {
		n, k := uvarintString(s)
		if k <= 0 || uint64(len(s)-k) < n+1 {
			return it, "", h, false
		}
		it.Section, s = s[k:k+int(n)], s[k+int(n):]
	} else if int(code) <= len(itemSections) {
		it.Section = itemSections[code-1]
	} else {
		return it, "", h, false
	}
	fl := s[0]
	it.Killed = fl&1 != 0
	if fl&2 != 0 { // a hypothesis: counted even without its fact (consistent)
		if h < len(l.hyps) {
			it.Hyp = &l.hyps[h]
		}
		h++
	}
	return it, s[1:], h, true
}

// Slice unpacks the items.
func (l *ItemList) Slice() []ItemFact {
	out := make([]ItemFact, 0, l.n)
	for it := range l.All() {
		out = append(out, it)
	}
	return out
}

// MarshalJSON writes the items as an array of ItemFact.
func (l ItemList) MarshalJSON() ([]byte, error) { return json.Marshal(l.Slice()) }

// UnmarshalJSON reads an array of ItemFact.
func (l *ItemList) UnmarshalJSON(b []byte) error {
	var items []ItemFact
	if err := json.Unmarshal(b, &items); err != nil {
		return err
	}
	*l = PackItems(items)
	return nil
}

// itemListGob is ItemList's gob form (shard files and cache entries use gob
// when a string is not UTF-8, which JSON would change).
type itemListGob struct {
	Enc  string
	Hyps []HypFact
	N    int
}

// GobEncode writes the packed list as it is.
func (l ItemList) GobEncode() ([]byte, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(itemListGob{l.enc, l.hyps, l.n})
	return buf.Bytes(), err
}

// GobDecode reads what GobEncode wrote, and checks that it unpacks to n
// items (a corrupt file must not yield a wrong list).
func (l *ItemList) GobDecode(b []byte) error {
	var g itemListGob
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&g); err != nil {
		return err
	}
	*l = ItemList{enc: g.Enc, hyps: g.Hyps, n: g.N}
	if !l.consistent() {
		return errCorruptItems
	}
	return nil
}

// Packed returns the list as it is stored: the packed items, their count
// and the hypotheses' facts (for binary encoders outside the package).
func (l ItemList) Packed() (enc string, n int, hyps []HypFact) { return l.enc, l.n, l.hyps }

// UnpackItemList is the list Packed returned; an error when the parts do
// not make a consistent list (a corrupt record must not yield a wrong
// list).
func UnpackItemList(enc string, n int, hyps []HypFact) (ItemList, error) {
	l := ItemList{enc: enc, n: n, hyps: hyps}
	if !l.consistent() {
		return ItemList{}, errCorruptItems
	}
	return l, nil
}

var errCorruptItems = errors.New("facts: corrupt item list")

// consistent reports whether the packed list unpacks to its n items and
// holds one HypFact per hypothesis (a corrupt entry must not yield a wrong
// list).
func (l *ItemList) consistent() bool {
	n, h := 0, 0
	for s := l.enc; len(s) > 0; n++ {
		var ok bool
		if _, s, h, ok = l.next(s, h); !ok {
			return false
		}
	}
	return n == l.n && h == len(l.hyps)
}
