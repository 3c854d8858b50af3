package pipeline

import (
	"reflect"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules"
)

func TestStagesInOrder(t *testing.T) {
	want := []string{"stamp", "bound", "severity", "ignore", "suppress", "policy", "sort", "dedupe", "fingerprint", "baseline"}
	if got := Stages(); !reflect.DeepEqual(got, want) {
		t.Fatalf("stages %v, want %v", got, want)
	}
}

// TestStampGivesOneSeverity: whatever severity and code a producer set, the
// finding leaves the pipeline with its rule's (no config).
func TestStampGivesOneSeverity(t *testing.T) {
	in := &Input{Findings: []diag.Finding{
		{Rule: "MB-001", Severity: diag.Note, Code: "X", Pos: diag.Pos{File: "a.json", Line: 1}},
		{Rule: "TH-007", Severity: diag.Error, Pos: diag.Pos{File: "a.json", Line: 2}},
	}}
	out := Run(in)
	if out.Findings[0].Severity != diag.Error || out.Findings[0].Code != "MB-001" {
		t.Errorf("MB-001 stamped as %s/%s", out.Findings[0].Severity, out.Findings[0].Code)
	}
	if out.Findings[1].Severity != diag.Note || out.Findings[1].Code != "SUBJECT_DESCRIPTION_LONG" {
		t.Errorf("TH-007 stamped as %s/%s", out.Findings[1].Severity, out.Findings[1].Code)
	}
	if in.Findings[0].Severity != diag.Note {
		t.Error("Run modified its input")
	}
}

// TestEveryRuleCanBeSuppressed: a directive for any registered id (EP-P01,
// WP-P02 … included) silences that rule's finding in a message body and in
// an artifact, as a file directive and as a block directive, and is not
// reported as unused.
func TestEveryRuleCanBeSuppressed(t *testing.T) {
	for _, r := range rules.All() {
		at := diag.Pos{File: "f", Line: 5, Col: 3}
		msgFinding := diag.Finding{Rule: r.ID, Pos: at, Thread: "T", MsgID: "7", Message: "m"}
		artFinding := diag.Finding{Rule: r.ID, Pos: at, Thread: "S", Message: "m"}
		block := func(c diag.Comment) diag.Comment {
			c.From, c.To = diag.Pos{File: "f", Line: 4, Col: 1}, diag.Pos{File: "f", Line: 6, Col: 1}
			return c
		}
		for _, tc := range []struct {
			name string
			f    diag.Finding
			c    diag.Comment
		}{
			{"message file", msgFinding, diag.Comment{Text: " brenner-ci-disable-file " + r.ID + ": ok ", Pos: diag.Pos{File: "f", Line: 1}, Thread: "T", MsgID: "7"}},
			{"message block", msgFinding, block(diag.Comment{Text: "brenner-ci-disable " + r.ID + ": ok", Pos: diag.Pos{File: "f", Line: 3}, Thread: "T", MsgID: "7"})},
			{"artifact file", artFinding, diag.Comment{Text: "brenner-ci-disable-file " + r.ID + ": ok", Pos: diag.Pos{File: "f", Line: 1}, File: "f", Thread: "S"}},
			{"artifact block", artFinding, block(diag.Comment{Text: "brenner-ci-disable " + r.ID + ": ok", Pos: diag.Pos{File: "f", Line: 3}, File: "f", Thread: "S"})},
		} {
			out := Run(&Input{Findings: []diag.Finding{tc.f}, Comments: []diag.Comment{tc.c}})
			for _, f := range out.Findings {
				if f.Rule == r.ID || f.Rule == "SP-002" {
					t.Errorf("%s, %s: %s still reported", r.ID, tc.name, f.String())
				}
			}
		}
	}
}

func TestMalformedDirectives(t *testing.T) {
	for _, tc := range []struct {
		text, want string
		suppressed bool
	}{
		{"brenner-ci-disabel MB-003: kickoff pack", "SP-003", false},
		{"BRENNER-CI-DISABLE MB-003: kickoff pack", "SP-003", false},
		{"brenner_ci-disable MB-003: kickoff pack", "SP-003", false},
		{"brenner-ci-disable: kickoff pack", "SP-003", false},
		{"brenner-ci-disable MB-03: kickoff pack", "SP-004", false},
		{"brenner-ci-disable MB-03, MB-003: kickoff pack", "SP-004", true},
		{"brenner-ci-disable mb-003: kickoff pack", "", true},
		{"brenner-ci-disable MB-003", "SP-001", true},
		{"an ordinary comment", "", false},
	} {
		f := diag.Finding{Rule: "MB-003", Pos: diag.Pos{File: "f", Line: 5}, Thread: "T", MsgID: "1"}
		c := diag.Comment{Text: tc.text, Pos: diag.Pos{File: "f", Line: 1, Col: 1}, Thread: "T", MsgID: "1",
			From: diag.Pos{File: "f", Line: 2}, To: diag.Pos{File: "f", Line: 9}}
		out := Run(&Input{Findings: []diag.Finding{f}, Comments: []diag.Comment{c}})
		var ids []string
		suppressed := true
		for _, g := range out.Findings {
			ids = append(ids, g.Rule)
			if g.Rule == "MB-003" {
				suppressed = false
			}
		}
		if suppressed != tc.suppressed {
			t.Errorf("%q: suppressed %v, want %v (%v)", tc.text, suppressed, tc.suppressed, ids)
		}
		if tc.want != "" && !strings.Contains(strings.Join(ids, " "), tc.want) {
			t.Errorf("%q: findings %v, want %s", tc.text, ids, tc.want)
		}
		if tc.want == "" && strings.Contains(strings.Join(ids, " "), "SP-") {
			t.Errorf("%q: unexpected %v", tc.text, ids)
		}
	}
}

func TestSortDedupeFingerprintBaseline(t *testing.T) {
	a := diag.Finding{Rule: "MB-003", Pos: diag.Pos{File: "b", Line: 2}, Thread: "T", Message: "x", Anchor: "a"}
	b := diag.Finding{Rule: "MB-002", Pos: diag.Pos{File: "a", Line: 9}, Thread: "T", Message: "y", Anchor: "b"}
	out := Run(&Input{Findings: []diag.Finding{a, b, a}})
	if len(out.Findings) != 2 || out.Findings[0].Rule != "MB-002" {
		t.Fatalf("sort/dedupe: %+v", out.Findings)
	}
	base := map[string]bool{out.Fingerprints[0]: true}
	out2 := Run(&Input{Findings: []diag.Finding{a, b}, Baseline: base})
	if !reflect.DeepEqual(out2.New, []bool{false, true}) {
		t.Fatalf("baseline: New %v", out2.New)
	}
}
