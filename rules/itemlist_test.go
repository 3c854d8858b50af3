package rules

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
)

// TestItemListRoundTrip: the packed list gives back the items it was made
// of, writes the same JSON as the slice of ItemFact it replaced (shard and
// cache files keep their format), and survives JSON and gob.
func TestItemListRoundTrip(t *testing.T) {
	items := []ItemFact{
		{ID: "RT", Section: "research_thread"},
		{ID: "H1", Section: "hypothesis_slate", Hyp: &HypFact{Name: "Cache latency", ClaimKey: 42, Claim: &ClaimAt{Pos: diag.Pos{File: "t.json", Line: 3, Col: 5}, MsgID: "7"}}},
		{ID: "H2", Section: "hypothesis_slate", Killed: true, Hyp: &HypFact{Name: "ünïcode"}},
		{ID: "T1", Section: "discriminative_tests"},
		{ID: "X\xff9", Section: "not_a_section", Killed: true},
		{ID: "", Section: ""},
	}
	l := PackItems(items)
	if l.Len() != len(items) || !reflect.DeepEqual(l.Slice(), items) {
		t.Fatalf("Slice() = %+v, want %+v", l.Slice(), items)
	}
	f := Facts{Key: "k", Items: l}
	if it, ok := f.Items.Find("H2"); !ok || !it.Killed || it.Hyp.Name != "ünïcode" {
		t.Errorf("Find(H2) = %+v", it)
	}
	if f.Items.Has("H9") || !f.Items.Has("H1") {
		t.Error("Has(H9) or not Has(H1)")
	}
	got, _ := json.Marshal(f)
	want, _ := json.Marshal(struct {
		Key   string     `json:"key"`
		Items []ItemFact `json:"items,omitempty"`
	}{"k", items})
	if !bytes.Equal(got, want) {
		t.Errorf("JSON\n got %s\nwant %s", got, want)
	}
	empty, _ := json.Marshal(Facts{Key: "k"})
	if string(empty) != `{"key":"k"}` {
		t.Errorf("empty facts: %s", empty)
	}
	var back Facts
	var wantBack []ItemFact // JSON turns the invalid byte into U+FFFD
	json.Unmarshal(want, &struct {
		Items *[]ItemFact `json:"items"`
	}{&wantBack})
	if err := json.Unmarshal(got, &back); err != nil || !reflect.DeepEqual(back.Items.Slice(), wantBack) {
		t.Fatalf("JSON round trip: %v, %+v", err, back.Items.Slice())
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(f); err != nil {
		t.Fatal(err)
	}
	var g Facts
	if err := gob.NewDecoder(&buf).Decode(&g); err != nil || !reflect.DeepEqual(g.Items.Slice(), items) {
		t.Fatalf("gob: %v, %+v", err, g.Items.Slice())
	}
	bad := l
	bad.enc = bad.enc[:len(bad.enc)-3]
	var b2 bytes.Buffer
	gob.NewEncoder(&b2).Encode(bad)
	var x ItemList
	if err := gob.NewDecoder(&b2).Decode(&x); err == nil {
		t.Error("a truncated list decoded without error")
	}
}

// TestUnpackItemListRefusesCorrupt: a packed list read back from a file
// (cache entry, spilled result) is refused when it does not unpack to its
// count of items with one HypFact per hypothesis: cut short, with a
// section code past the schema's, or with counts that disagree.
func TestUnpackItemListRefusesCorrupt(t *testing.T) {
	l := PackItems([]ItemFact{{ID: "H1", Section: "hypothesis_slate", Hyp: &HypFact{Name: "n"}}, {ID: "X1", Section: "own_section"}})
	enc, n, hyps := l.Packed()
	if _, err := UnpackItemList(enc, n, hyps); err != nil {
		t.Fatalf("the list as packed: %v", err)
	}
	badCode := []byte(enc)
	badCode[len("\x02H1")] = byte(len(itemSections) + 1) // H1's section code
	for name, c := range map[string]struct {
		enc  string
		n    int
		hyps []HypFact
	}{
		"cut short":          {enc[:len(enc)-1], n, hyps},
		"section code":       {string(badCode), n, hyps},
		"one item more":      {enc, n + 1, hyps},
		"one item fewer":     {enc, n - 1, hyps},
		"no hypothesis fact": {enc, n, nil},
		"one fact too many":  {enc, n, append(hyps, HypFact{})},
	} {
		if _, err := UnpackItemList(c.enc, c.n, c.hyps); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
