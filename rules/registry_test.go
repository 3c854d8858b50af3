package rules

import (
	"strings"
	"testing"
)

func TestMetadataComplete(t *testing.T) {
	if err := validate(); err != nil {
		t.Fatal(err)
	}
	seenName := map[string]string{}
	for _, m := range All() {
		if other, dup := seenName[m.Name]; dup {
			t.Errorf("%s and %s share the name %q", m.ID, other, m.Name)
		}
		seenName[m.Name] = m.ID
		if m.Short == "" || m.Short[len(m.Short)-1] != '.' {
			t.Errorf("%s: short description should be one sentence ending in a period", m.ID)
		}
	}
}

func TestRuleNames(t *testing.T) {
	for id, want := range map[string]string{
		"MG-001": "invalid-target", "TH-005": "subject-too-long", "DL-002": "invalid-section",
		"IN-002": "missing-body", "MB-001": "invalid-subject-prefix",
	} {
		if got := Lookup(id).Name; got != want {
			t.Errorf("%s name = %q, want %q", id, got, want)
		}
	}
}

func TestUnsafeThreadID(t *testing.T) {
	for id, unsafe := range map[string]bool{
		"RS-20251230-cell-fate": false, "brenner_bot-5so.3.4.2": false, "a/b": true, `a\b`: true,
		"RS-..-x": true, ".hidden": true, "": true, "a\x00b": true,
		"CON": true, "NUL": true, "LPT9": true, "com1": true, "aux.txt": true, "RS-20260102-ab.": true, "RS-20260102-ab ": true,
		"a:b": true, "a\x1bb": true, "COM0": false, "console": false, "lpt10": false, "nullable-thread": false,
		strings.Repeat("a", 201): true, strings.Repeat("a", 200): false,
	} {
		if got := UnsafeThreadID(id) != ""; got != unsafe {
			t.Errorf("UnsafeThreadID(%q) unsafe=%v, want %v", id, got, unsafe)
		}
	}
}

// TestFamilyTable: the family table lists the registry's families, in
// registry order, each once, and each family's spec is one its rules cite.
func TestFamilyTable(t *testing.T) {
	var order []string
	cites := map[string]bool{}
	for _, r := range All() {
		if len(order) == 0 || order[len(order)-1] != r.Family {
			order = append(order, r.Family)
		}
		if f := FamilyOf(r.Family); f != nil && strings.Contains(r.Spec, f.Spec) {
			cites[r.Family] = true
		}
	}
	var table []string
	for _, f := range Families() {
		table = append(table, f.Prefix)
		if f.Tag == "" || f.Title == "" || f.Spec == "" {
			t.Errorf("family %s: incomplete entry %+v", f.Prefix, f)
		}
		if !cites[f.Prefix] {
			t.Errorf("family %s: no rule cites its spec %q", f.Prefix, f.Spec)
		}
	}
	if strings.Join(order, " ") != strings.Join(table, " ") {
		t.Errorf("families in registry order %v, in the table %v", order, table)
	}
}
