package artifact

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// Real artifacts from the shared corpus (skipped when it is absent).

func readShared(t *testing.T, elem ...string) ([]byte, string) {
	t.Helper()
	path := testutil.Shared(t, elem...)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b, filepath.ToSlash(path)
}

// counts returns the number of items per section prefix ("H4 P5 …").
func counts(a *Artifact) string {
	var out []string
	for _, s := range delta.Sections {
		if s == delta.ResearchThread {
			continue
		}
		out = append(out, delta.Prefix[s]+strconv.Itoa(len(a.Items[s])))
	}
	return strings.Join(out, " ")
}

func sectionIDs(a *Artifact, s string) []string {
	var out []string
	for _, it := range a.Section(s) {
		out = append(out, it.ID)
	}
	return out
}

func TestCorpusGoldenExample(t *testing.T) {
	src, path := readShared(t, "corpus", "artifacts", "golden-example-cell-fate.md")
	p := ParseMarkdown(src, path)
	a := p.Art
	if len(p.Findings) != 0 || !p.HasFrontMatter || a.SessionID != "GOLDEN-EXAMPLE-CELL-FATE" || a.Version != 1 || a.Status != "active" {
		t.Fatalf("front: %v %+v", p.Findings, a)
	}
	if len(a.Contributors) != 3 || a.Contributors[2].Agent != "GreenMountain" {
		t.Errorf("contributors %+v", a.Contributors)
	}
	for _, c := range []struct{ sec, ids string }{
		{delta.HypothesisSlate, "H1 H2 H3 H4"}, {delta.PredictionsTable, "P1 P2 P3 P4 P5"}, {delta.DiscriminativeTests, "T1 T2 T3 T4"},
		{delta.AssumptionLedger, "A1 A2 A3 A4 A5 A6"}, {delta.AnomalyRegister, "X1 X2 X3"}, {delta.AdversarialCritique, "C1 C2 C3 C4"},
	} {
		if got := strings.Join(sectionIDs(a, c.sec), " "); got != c.ids {
			t.Errorf("%s: %s, want %s", c.sec, got, c.ids)
		}
	}
	if a.RT == nil || !strings.HasPrefix(a.RT.Str("statement"), "How does the C. elegans embryo") || len(a.RT.Get("anchors").Arr()) != 4 {
		t.Errorf("RT %s", a.RT.Fields.Text())
	}
	var titles []string
	for _, s := range p.Sections {
		titles = append(titles, s.Section)
	}
	if strings.Join(titles, ",") != "research_thread,hypothesis_slate,predictions_table,discriminative_tests,assumption_ledger,anomaly_register,adversarial_critique,," {
		t.Errorf("sections %q", titles)
	}
	if p.Table == nil || len(p.Table.Rows) != 5 || len(p.Table.Header) != 6 {
		t.Errorf("table %+v", p.Table)
	}
	if !a.HasThirdAlternative() || !a.HasScaleCheck() {
		t.Error("third alternative / scale check not recognised")
	}
	if s := Score(a.Find(delta.DiscriminativeTests, "T1")); s != 10 {
		t.Errorf("T1 score %v", s)
	}
	// The anchors of H1 keep their quoted commas.
	if an := a.Find(delta.HypothesisSlate, "H1").Get("anchors"); len(an.Arr()) != 2 {
		t.Errorf("H1 anchors %s", an.Text())
	}
	for _, it := range p.Items {
		for _, f := range it.Fields {
			if f.Alias {
				t.Errorf("%s: alias %q in the golden example", it.ID, f.Label)
			}
		}
	}
}

func TestCorpusRolePrompting(t *testing.T) {
	src, path := readShared(t, "corpus", "artifacts", "RS-20251230-role-prompting.md")
	p := ParseMarkdown(src, path)
	a := p.Art
	if len(p.Findings) != 0 || a.SessionID != "RS-20251230-role-prompting" || len(a.Contributors) != 1 || a.Contributors[0].Agent != "BlackCastle" {
		t.Fatalf("front %v %+v", p.Findings, a)
	}
	if got := counts(a); got != "H3 P4 T3 A3 X0 C2" {
		t.Errorf("counts %s", got)
	}
	h3 := a.Find(delta.HypothesisSlate, "H3")
	if h3.Str("name") != "Both Wrong: Structure vs Content Confusion" || !IsThirdAlternative(h3) {
		t.Errorf("H3 %s", h3.Fields.Text())
	}
	// The predictions rows have no condition and only "—" cells.
	for _, pr := range a.Items[delta.PredictionsTable] {
		if len(pr.Fields.Keys()) != 0 {
			t.Errorf("%s %s", pr.ID, pr.Fields.Text())
		}
	}
	// "**Test**: " with nothing after it: a field with an empty value, no payload.
	a1 := item(t, p, "A1")
	if f := field(t, a1, "Test"); f.Value != "" || f.Key != "test" || a.Find(delta.AssumptionLedger, "A1").Get("test") != nil {
		t.Errorf("A1 test %+v", f)
	}
	if !IsScaleCheck(a.Find(delta.AssumptionLedger, "A2")) {
		t.Error("A2 scale check")
	}
	if v := a.Find(delta.AdversarialCritique, "C1").Get("real_third_alternative"); v == nil || v.Kind != jsonv.Bool || !v.Bool {
		t.Error("C1 real third alternative")
	}
	if s := p.Sections[5]; s.Section != delta.AnomalyRegister || s.Empty != "None registered." {
		t.Errorf("anomaly register %+v", s)
	}
	// Tests are read in document (rank) order, Art in id order.
	var doc []string
	for _, it := range p.Items {
		if it.Section == delta.DiscriminativeTests {
			doc = append(doc, it.ID)
		}
	}
	if strings.Join(doc, " ") != "T1 T2 T3" || strings.Join(sectionIDs(a, delta.DiscriminativeTests), " ") != "T1 T2 T3" {
		t.Errorf("tests %v", doc)
	}
}

func TestCorpusNonConformant(t *testing.T) {
	src, path := readShared(t, "corpus", "artifacts", "RS-20260101-cell-fate", "artifact.md")
	p := ParseMarkdown(src, path)
	if p.HasFrontMatter || len(p.Front) != 0 || len(p.Findings) != 0 || p.Art.SessionID != "" {
		t.Errorf("front matter: %v %v %v", p.HasFrontMatter, p.Front, p.Findings)
	}
	if got := counts(p.Art); got != "H3 P3 T1 A3 X0 C2" {
		t.Errorf("counts %s", got)
	}
	var aliases []string
	for _, it := range p.Items {
		for _, f := range it.Fields {
			if f.Alias {
				aliases = append(aliases, it.ID+":"+f.Label+"→"+f.Key)
			}
		}
	}
	want := "RT:Question→statement H1:Statement→claim H2:Statement→claim H3:Statement→claim T1:Design→procedure A1:Assumption→statement A2:Assumption→statement A3:Assumption→statement"
	if strings.Join(aliases, " ") != want {
		t.Errorf("aliases:\n%s\nwant\n%s", strings.Join(aliases, " "), want)
	}
	// Predictions without hypothesis columns: no condition, no predictions.
	if p1 := p.Art.Find(delta.PredictionsTable, "P1"); p1.Get("predictions") != nil || p1.Str("hypothesis") != "H1" {
		t.Errorf("P1 %s", p1.Fields.Text())
	}
	for _, c := range p.Art.Items[delta.AdversarialCritique] {
		if c.ID != "" {
			t.Errorf("critique id %q", c.ID)
		}
	}
	if s := p.Sections; len(s) != 9 || s[0].Title != "Metadata" || s[6].Empty != "*No anomalies registered in this pilot session.*" {
		t.Errorf("sections %+v", s)
	}
}

// TestCorpusUpstreamRenderings reads upstream's own renderings and compares
// item ids and kill states with upstream's merged artifact objects.
func TestCorpusUpstreamRenderings(t *testing.T) {
	root := testutil.Shared(t, "corpus", "upstream-outputs")
	dirs, _ := filepath.Glob(filepath.Join(root, "*"))
	if len(dirs) == 0 {
		t.Skip("no upstream outputs")
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, "artifact.md"))
			if err != nil {
				t.Fatal(err)
			}
			p := ParseMarkdown(src, name+".md")
			if len(p.Findings) != 0 || p.Art.SessionID != name {
				t.Errorf("%v %q", p.Findings, p.Art.SessionID)
			}
			want := readJSON(t, filepath.Join(dir, "artifact.json")).Get("sections")
			for _, s := range delta.Sections {
				if s == delta.ResearchThread {
					continue // upstream renders an empty RT block for a null one
				}
				var w []string
				for _, e := range want.Get(s).Arr() {
					id, _ := e.Get("id").AsString()
					if k := e.Get("killed"); k != nil && k.Kind == jsonv.Bool && k.Bool {
						id += "†"
					}
					w = append(w, id)
				}
				var g []string
				for _, it := range p.Art.Items[s] {
					id := it.ID
					if it.Killed {
						id += "†"
					}
					g = append(g, id)
				}
				if strings.Join(w, ",") != strings.Join(g, ",") {
					t.Errorf("%s: %v, upstream %v", s, g, w)
				}
			}
		})
	}
}

// TestCorpusLintFixtures reads the upstream linter's JSON artifact objects.
func TestCorpusLintFixtures(t *testing.T) {
	root := testutil.Shared(t, "corpus", "lint-fixtures")
	files, _ := filepath.Glob(filepath.Join(root, "*.json"))
	if len(files) == 0 {
		t.Skip("no lint fixtures")
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p := ParseJSONObject(src, name)
			if !p.FromJSON || p.Origin != name || p.File != name || len(p.Findings) != 0 || len(p.Src) == 0 {
				t.Fatalf("parsed %v %q %v", p.FromJSON, p.Origin, p.Findings)
			}
			obj := readJSON(t, f)
			for _, s := range delta.Sections {
				v := obj.Get("sections").Get(s)
				var w []string
				switch {
				case v == nil || v.IsNull():
				case v.Kind == jsonv.Object:
					w = []string{"RT"}
				default:
					for _, e := range v.Arr() {
						id, _ := e.Get("id").AsString()
						w = append(w, id)
					}
				}
				sort.SliceStable(w, func(i, j int) bool { return idLess(w[i], w[j]) })
				if g := sectionIDs(p.Art, s); strings.Join(g, ",") != strings.Join(w, ",") {
					t.Errorf("%s: %v, JSON %v", s, g, w)
				}
			}
			// The metadata reaches the front matter as written.
			meta := obj.Get("metadata")
			if len(p.Front) != len(meta.Keys()) {
				t.Errorf("front %d keys, metadata %d", len(p.Front), len(meta.Keys()))
			}
			for i, k := range meta.Keys() {
				if i < len(p.Front) && p.Front[i].Key != k {
					t.Errorf("front key %d %q, metadata %q", i, p.Front[i].Key, k)
				}
			}
			if st, _ := meta.Get("status").AsString(); p.Art.Status != st {
				t.Errorf("status %q, metadata %q", p.Art.Status, st)
			}
		})
	}
}
