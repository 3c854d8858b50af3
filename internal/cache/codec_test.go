package cache

import (
	"reflect"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules"
)

func sampleEntry() *threadEntry {
	pos := diag.Pos{File: "threads/a\xffb.json", Line: 3, Col: 7, EndLine: 3, EndCol: 19}
	items := rules.PackItems([]rules.ItemFact{
		{ID: "RT", Section: "research_thread"},
		{ID: "H1", Section: "hypothesis_slate", Hyp: &rules.HypFact{Name: "Connection churn", ClaimKey: 0xfeedface12345678, Claim: &rules.ClaimAt{Pos: pos, MsgID: "1207"}}},
		{ID: "X9", Section: "custom_section", Killed: true},
		{ID: "H2", Section: "hypothesis_slate", Hyp: &rules.HypFact{Name: "Placed nowhere", ClaimKey: 3}},
	})
	return &threadEntry{
		Format: threadFormat, Key: "k",
		Summary: diag.Thread{Key: "RS-1", File: "threads/a.json", Messages: 14, Blocks: 9, Valid: 8, Invalid: 1, Applied: 7, Version: 2,
			Rules: []string{"MB-001", "DL-002"}},
		Findings: []diag.Finding{
			{Rule: "DL-002", Code: "INVALID_JSON", Severity: diag.Error, Message: "bad \u00e9", Pos: pos, Thread: "RS-1", MsgID: "5", Hint: "h",
				Fix: &diag.Fix{Description: "d", Pos: pos, Text: "```delta\n{}\n```"}, Anchor: "a"},
			{Rule: "MB-003", Severity: diag.Note, Message: "m"},
		},
		Comments: []diag.Comment{{Text: "brenner-ci-disable MB-001: x", Pos: pos, From: pos, To: pos, Thread: "RS-1", MsgID: "2"}},
		Internal: []string{"rule X panicked"},
		Facts: rules.Facts{Key: "RS-1", ThreadID: "RS-1", Latest: 2, Items: items,
			Refs: []rules.RefFact{{From: "H1", Session: "RS-0", Item: "H2", Relation: "extends", Pos: pos, MsgID: "9"}}},
		Arts: []cachedArt{{Summary: diag.Thread{Key: "artifacts/RS-1.md"}, Front: rules.FrontRecord{File: "artifacts/RS-1.md", HasFrontMatter: true,
			Front: []rules.FrontValue{{Key: "version", Value: float64(2), Raw: "2", Pos: diag.Pos{File: "artifacts/RS-1.md", Line: 2, Col: 10}}}}}},
		Last:    time.Date(2026, 1, 5, 9, 3, 47, 120, time.FixedZone("", 3600)),
		Render:  []byte("# Artifact\n"),
		HasRend: true,
	}
}

// TestCacheCodecRoundTrip: the binary entry decodes to what was encoded,
// bytes that are not UTF-8 included.
func TestCacheCodecRoundTrip(t *testing.T) {
	for _, e := range []*threadEntry{sampleEntry(), {Format: threadFormat, Key: "empty"}} {
		b, ok := encodeBinary(e)
		if !ok {
			t.Fatal("not encoded")
		}
		var got threadEntry
		if err := decodeBinary(b, &got, nil); err != nil {
			t.Fatal(err)
		}
		if !got.Last.Equal(e.Last) || got.Last.String() != e.Last.String() {
			t.Errorf("Last = %v, want %v", got.Last, e.Last)
		}
		got.Last, e.Last = time.Time{}, time.Time{}
		if !reflect.DeepEqual(&got, e) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, *e)
		}
		// Every truncation is an error, never a panic or a shorter entry.
		for n := 0; n < len(b); n++ {
			var cut threadEntry
			if decodeBinary(b[:n], &cut, &interner{}) == nil {
				t.Fatalf("entry cut at %d of %d bytes decoded", n, len(b))
			}
		}
	}
}

// TestCacheEncodeKeepsBytes: an entry whose artifacts' JSON would replace
// a byte that is not UTF-8 is stored in gob, which keeps it.
func TestCacheEncodeKeepsBytes(t *testing.T) {
	e := sampleEntry()
	e.Arts[0].Front.Front[0].Raw = "\xff"
	var c Threads
	data := c.encode("k", e)
	if len(data) == 0 || data[0] != 'G' {
		t.Fatalf("stored as %q, want gob", data[:1])
	}
}

// FuzzDecodeCacheEntry: any bytes decode to an entry or an error, without
// panicking (a damaged cache is a miss).
func FuzzDecodeCacheEntry(f *testing.F) {
	b, _ := encodeBinary(sampleEntry())
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		var e threadEntry
		if decodeBinary(data, &e, nil) == nil {
			if _, ok := encodeBinary(&e); !ok {
				t.Fatal("a decoded entry does not encode")
			}
		}
	})
}

// TestCachedRuleListsShared: entries decoded with one interner share one
// list of rule ids when their lists are equal (a cached run of 200,000
// threads held a copy of the run's rule list per thread).
func TestCachedRuleListsShared(t *testing.T) {
	in := &interner{}
	b, _ := encodeBinary(sampleEntry())
	var first, second threadEntry
	if decodeBinary(b, &first, in) != nil || decodeBinary(b, &second, in) != nil {
		t.Fatal("not decoded")
	}
	if &first.Summary.Rules[0] != &second.Summary.Rules[0] {
		t.Error("two equal rule lists decoded into two copies")
	}
	other := sampleEntry()
	other.Summary.Rules = []string{"MB-001"}
	b2, _ := encodeBinary(other)
	var third threadEntry
	if decodeBinary(b2, &third, in) != nil || !reflect.DeepEqual(third.Summary.Rules, []string{"MB-001"}) {
		t.Errorf("a different list decoded as %v", third.Summary.Rules)
	}
}

// TestNotesRoundTrip: a thread's findings and comments come back from
// AppendNotes as they went in, with what follows them; a cut record does
// not read.
func TestNotesRoundTrip(t *testing.T) {
	e := sampleEntry()
	b := AppendNotes([]byte(nil), e.Findings, e.Comments)
	fs, cs, rest, ok := ReadNotes(append(b, "tail"...))
	if !ok || !reflect.DeepEqual(fs, e.Findings) || !reflect.DeepEqual(cs, e.Comments) || string(rest) != "tail" {
		t.Errorf("read back %v: %+v %+v %q", ok, fs, cs, rest)
	}
	if _, _, _, ok := ReadNotes(b[:len(b)/2]); ok {
		t.Error("half a record read")
	}
}
