package cache

import (
	"reflect"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules"
)

// TestResultsRoundTrip: every field of a thread's result comes back from
// the spill file as it went in, in order, with the run's rule list shared
// again; also when the file cannot be used (records kept in memory) and
// when every record is written apart.
func TestResultsRoundTrip(t *testing.T) {
	ruleList := []string{"MB-001", "LAB-001"}
	other := []string{"MB-001"}
	items := rules.PackItems([]rules.ItemFact{{ID: "H1", Section: "hypothesis_slate", Hyp: &rules.HypFact{Name: "n", ClaimKey: 7,
		Pos: diag.Pos{File: "a.json", Line: 3, Col: 4, EndLine: 3, EndCol: 9}, MsgID: "2"}}, {ID: "T1", Section: "custom_section", Killed: true}})
	in := []rules.ThreadResult{
		{Summary: diag.Thread{Key: "k1", File: "a.json", Messages: 3, Blocks: 2, Valid: 1, Invalid: 1, Applied: 1, Version: 2, Rules: ruleList}},
		{Summary: diag.Thread{Key: "k2", File: "b.json", Rules: ruleList, Artifact: true},
			Findings: []diag.Finding{{Rule: "MB-001", Code: "C", Severity: diag.Warning, Message: "m", Pos: diag.Pos{File: "b.json", Line: 1, Col: 2},
				Thread: "k2", MsgID: "9", Hint: "h", Fix: &diag.Fix{Description: "d", Pos: diag.Pos{File: "b.json", Line: 1}, Text: "t"}, Anchor: "a"}},
			Comments: []diag.Comment{{Text: "brenner-ci-disable MB-001: ok", Pos: diag.Pos{File: "b.json", Line: 2}, File: "b.json", Thread: "k2", MsgID: "9"}},
			Internal: []string{"rule X panicked"},
			Facts: rules.Facts{Key: "k2", ThreadID: "RS-1", Latest: 3, Items: items, Artifact: "artifacts/RS-1.md",
				Refs: []rules.RefFact{{From: "H1", Session: "RS-2", Item: "H3", Relation: "extends", Pos: diag.Pos{File: "b.json", Line: 5}, MsgID: "4"}}},
			Cost: map[string]uint64{"LAB-001": 12}, Incomplete: true},
		{Summary: diag.Thread{Key: "k3", File: "c.json", Rules: other}},
	}
	defer func(v int) { flushAt = v }(flushAt)
	for _, c := range []struct {
		name  string
		keep  int
		bad   bool
		flush int
	}{{"file", 1, false, 1 << 20}, {"memory", 0, true, 1 << 20}, {"a write per record", 0, false, 1}} {
		flushAt = c.flush
		s := &Results{KeepFirst: c.keep, bad: c.bad}
		for _, r := range in {
			s.Add(r)
		}
		out := s.All()
		if !reflect.DeepEqual(out, in) {
			t.Errorf("%s: read back\n%+v\nwant\n%+v", c.name, out, in)
		}
		if len(out) == 3 && &out[1].Summary.Rules[0] != &ruleList[0] {
			t.Errorf("%s: the rule list is not shared again", c.name)
		}
	}
}
