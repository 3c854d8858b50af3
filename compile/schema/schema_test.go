package schema

import (
	"strings"
	"testing"
)

// TestSchemaConsistent: the one table is internally consistent.
func TestSchemaConsistent(t *testing.T) {
	if len(Sections) != 7 {
		t.Fatalf("%d sections", len(Sections))
	}
	seenPrefix := map[string]bool{}
	for i, s := range Sections {
		if s.Number != i+1 {
			t.Errorf("%s: number %d at position %d", s.ID, s.Number, i)
		}
		if s.Prefix == "" || seenPrefix[s.Prefix] {
			t.Errorf("%s: prefix %q missing or shared", s.ID, s.Prefix)
		}
		seenPrefix[s.Prefix] = true
		first := s.Prefix + "1"
		if s.ID == ResearchThread {
			first = "RT"
		}
		if !s.IDPattern.MatchString(first) || s.IDForm == "" {
			t.Errorf("%s: id pattern %s does not match %s, or no id form", s.ID, s.IDPattern, first)
		}
		if (s.Min > 0) != (s.One != "" && s.Many != "" && s.MinHint != "") {
			t.Errorf("%s: minimum %d without names and hint (or the reverse)", s.ID, s.Min)
		}
		if (s.StatLabel == "") != (s.ID == ResearchThread) {
			t.Errorf("%s: statistics label %q", s.ID, s.StatLabel)
		}
		if Get(s.ID) != &Sections[i] {
			t.Errorf("Get(%s) does not return the section", s.ID)
		}
		if !strings.HasPrefix(s.Heading(), "## ") || !strings.HasSuffix(s.Heading(), s.Title) {
			t.Errorf("%s: heading %q", s.ID, s.Heading())
		}
		keys := map[string]bool{}
		labels := map[string]string{}
		for _, f := range s.Fields {
			if keys[f.Key] {
				t.Errorf("%s: field %s twice", s.ID, f.Key)
			}
			keys[f.Key] = true
			if f.Default != "" && f.Required != Lenient {
				t.Errorf("%s.%s: a default on a field that is not lenient", s.ID, f.Key)
			}
			if (f.Label == "") != (f.Render == Elsewhere) {
				t.Errorf("%s.%s: label %q with render %d", s.ID, f.Key, f.Label, f.Render)
			}
			for _, l := range append(append([]string{}, f.Labels...), f.Aliases...) {
				if l != strings.ToLower(l) {
					t.Errorf("%s.%s: label %q is not lower case", s.ID, f.Key, l)
				}
				if k, ok := labels[l]; ok && k != f.Key {
					t.Errorf("%s: label %q names both %s and %s", s.ID, l, k, f.Key)
				}
				labels[l] = f.Key
			}
		}
		if s.ID != ResearchThread && !keys["references"] {
			t.Errorf("%s: no references field", s.ID)
		}
		if len(s.Statuses) > 0 && s.Field("status") == nil {
			t.Errorf("%s: status values without a status field", s.ID)
		}
	}
}
