package sarif_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
	"github.com/brenner-ci/brenner-ci/reporters"
	"github.com/brenner-ci/brenner-ci/reporters/internal/fixture"
	"github.com/brenner-ci/brenner-ci/reporters/sarif"
)

func TestMain(m *testing.M) { os.Exit(fixture.Main(m)) }

func write(t testing.TB, r *diag.Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := sarif.Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// decoded is the subset of SARIF the tests look at.
type decoded struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID string `json:"id"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Invocations []struct {
			ExecutionSuccessful bool `json:"executionSuccessful"`
			Notifications       []struct {
				Level   string `json:"level"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
				AssociatedRule *struct {
					ID    string `json:"id"`
					Index int    `json:"index"`
				} `json:"associatedRule"`
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex *int   `json:"ruleIndex"`
			Level     string `json:"level"`
			Locations []struct {
				PhysicalLocation *struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region map[string]int `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			BaselineState       string            `json:"baselineState"`
		} `json:"results"`
	} `json:"runs"`
}

func decode(t testing.TB, data []byte) decoded {
	t.Helper()
	var d decoded
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Runs) != 1 {
		t.Fatalf("want one run, got %d", len(d.Runs))
	}
	return d
}

// normalize replaces the temporary repository root in the output so the
// golden file does not depend on it.
func normalize(t testing.TB, data []byte, root string) []byte {
	t.Helper()
	uri := reporters.NewPaths(root).RootURI()
	return bytes.ReplaceAll(data, []byte(uri), []byte("file:///REPO/"))
}

func TestGolden(t *testing.T) {
	r := fixture.Report(t)
	got := write(t, r)
	fixture.GoldenJSON(t, "report.sarif", normalize(t, got, r.RepoRoot))
	if !bytes.Equal(got, write(t, r)) {
		t.Error("two writes of the same report differ")
	}
}

// TestLinesTheRunRead: given the lines of the files the run read
// (Report.Lines), the log is the one written by reading each finding's
// file, and those files are not read again: they are gone from the disk
// when it is written.
func TestLinesTheRunRead(t *testing.T) {
	r := fixture.Report(t)
	want := normalize(t, write(t, r), r.RepoRoot)
	r = fixture.Report(t)
	cp := *r // a report's paths are settled when it is first read (reporters.PathsFor)
	r = &cp
	r.Lines = map[string]diag.Lines{}
	for name, text := range fixture.Files {
		if text == "" {
			continue // an empty file is never read whole as an input
		}
		r.Lines[name] = diag.CountLines([]byte(text))
		if err := os.Remove(filepath.Join(r.RepoRoot, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	if got := normalize(t, write(t, r), r.RepoRoot); !bytes.Equal(got, want) {
		t.Errorf("the log differs with the lines the run read:\n%s", testutil.FirstDiff(want, got))
	}
}

// TestWriteSplicesResults: Write, which puts the results Prepare encoded
// into the log's results array, writes what encoding the whole log
// writes, for reports with and without a baseline, many results, fixes,
// and messages with HTML characters, line separators and invalid UTF-8.
func TestWriteSplicesResults(t *testing.T) {
	odd := func(t *testing.T) *diag.Report {
		r := fixture.Many(t, fixture.Repo(t), 50)
		for i := range r.Findings {
			r.Findings[i].Message = []string{"<b>&amp;</b> \"results\":[", "line\u2028sep\u2029", "bad \xff\xfe utf-8", "tab\tand\x01"}[i%4]
		}
		return r
	}
	for name, report := range map[string]func(*testing.T) *diag.Report{
		"report":      func(t *testing.T) *diag.Report { return fixture.Report(t) },
		"no baseline": func(t *testing.T) *diag.Report { return fixture.NoBaseline(t) },
		"many":        func(t *testing.T) *diag.Report { return fixture.Many(t, fixture.Repo(t), 300) },
		"mixed":       func(t *testing.T) *diag.Report { return fixture.Mixed(t, fixture.Repo(t)) },
		"odd":         odd,
	} {
		t.Run(name, func(t *testing.T) {
			r := report(t)
			log, err := sarif.Build(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(log.Runs[0].Results) == 0 {
				t.Fatal("no results to write")
			}
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(log); err != nil {
				t.Fatal(err)
			}
			if got := write(t, r); !bytes.Equal(got, want.Bytes()) {
				t.Errorf("Write differs from the whole log encoded:\n%s", testutil.FirstDiff(want.Bytes(), got))
			}
		})
	}
}

func TestStructure(t *testing.T) {
	r := fixture.Report(t)
	data := write(t, r)
	d := decode(t, data)
	run := d.Runs[0]
	rules := run.Tool.Driver.Rules
	for i, want := range r.Rules {
		if rules[i].ID != want.ID {
			t.Errorf("rule %d is %s, want %s (registry order)", i, rules[i].ID, want.ID)
		}
	}
	if got := rules[len(rules)-1].ID; got != "XX-999" {
		t.Errorf("unregistered rule not appended: last rule %s", got)
	}
	index := map[string]int{}
	for i, rl := range rules {
		index[rl.ID] = i
	}
	for i, res := range run.Results {
		if len(res.Locations) != 1 || res.Locations[0].PhysicalLocation == nil {
			t.Errorf("result %d: want exactly one physical location, got %d", i, len(res.Locations))
			continue
		}
		if res.RuleIndex == nil || *res.RuleIndex != index[res.RuleID] {
			t.Errorf("result %d: ruleIndex %v does not match ruleId %s (index %d)", i, res.RuleIndex, res.RuleID, index[res.RuleID])
		}
		pl := res.Locations[0].PhysicalLocation
		if pl.ArtifactLocation.URIBaseID != "%SRCROOT%" || strings.HasPrefix(pl.ArtifactLocation.URI, "./") {
			t.Errorf("result %d: artifact location %+v", i, pl.ArtifactLocation)
		}
		for _, k := range []string{"startLine", "startColumn", "endLine", "endColumn"} {
			if pl.Region[k] < 1 {
				t.Errorf("result %d: region %v lacks %s", i, pl.Region, k)
			}
		}
		if fp := res.PartialFingerprints["primaryLocationLineHash"]; fp == "" || fp != res.PartialFingerprints["brenner-ci/v1"] {
			t.Errorf("result %d: fingerprints %v", i, res.PartialFingerprints)
		}
	}
	// 9 findings: no file, outside, missing and empty file become notifications.
	if len(run.Results) != 5 {
		t.Errorf("want 5 results, got %d", len(run.Results))
	}
	uris := map[string]bool{}
	for _, res := range run.Results {
		uris[res.Locations[0].PhysicalLocation.ArtifactLocation.URI] = true
	}
	if !uris["docs/with%20space.md"] {
		t.Errorf("space not percent-encoded: %v", uris)
	}
	notes := run.Invocations[0].Notifications
	if len(notes) != 5 { // 1 run notification + 4 findings without a location
		t.Errorf("want 5 notifications, got %d: %+v", len(notes), notes)
	}
	for _, n := range notes[1:] {
		if n.AssociatedRule == nil || n.AssociatedRule.ID != "IN-001" || n.AssociatedRule.Index != index["IN-001"] {
			t.Errorf("notification %q: associated rule %+v", n.Message.Text, n.AssociatedRule)
		}
	}
	if !run.Invocations[0].ExecutionSuccessful {
		t.Error("executionSuccessful is false without an internal error")
	}
	states := map[string]int{}
	for _, res := range run.Results {
		states[res.BaselineState]++
	}
	if states["unchanged"] != 1 || states["new"] != 4 {
		t.Errorf("baseline states %v", states)
	}
	assertNoNull(t, data)

	r.Internal = true
	r.CompareWith(nil)
	d = decode(t, write(t, r))
	if d.Runs[0].Invocations[0].ExecutionSuccessful {
		t.Error("executionSuccessful is true after an internal error")
	}
	for _, res := range d.Runs[0].Results {
		if res.BaselineState != "" {
			t.Error("baselineState without a baseline")
		}
	}
}

// assertNoNull fails when any JSON value in data is null.
func assertNoNull(t testing.TB, data []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(p string, v any)
	walk = func(p string, v any) {
		switch x := v.(type) {
		case nil:
			t.Errorf("null at %s", p)
		case map[string]any:
			for k, e := range x {
				walk(p+"/"+k, e)
			}
		case []any:
			for i, e := range x {
				walk(p+"/"+strconv.Itoa(i), e)
			}
		}
	}
	walk("", v)
}

func TestEmptyReportHasNoNull(t *testing.T) {
	root := t.TempDir()
	data := write(t, &diag.Report{RepoRoot: root})
	assertNoNull(t, data)
	if !bytes.Contains(data, []byte(`"results":[]`)) || !bytes.Contains(data, []byte(`"rules":[]`)) {
		t.Errorf("empty arrays missing: %s", data)
	}
}

func TestFingerprintsFollowMovedFindings(t *testing.T) {
	r := fixture.Report(t)
	moved := *r
	moved.Findings = append([]diag.Finding(nil), r.Findings...)
	for i := range moved.Findings {
		if moved.Findings[i].Pos.Line > 0 {
			moved.Findings[i].Pos.Line++
			moved.Findings[i].Pos.EndLine++
		}
	}
	moved.Fingerprints = diag.Fingerprints(moved.Findings)
	a, b := decode(t, write(t, r)), decode(t, write(t, &moved))
	if len(a.Runs[0].Results) != len(b.Runs[0].Results) {
		t.Fatalf("result counts differ")
	}
	seen := map[string]bool{}
	for i := range a.Runs[0].Results {
		fa := a.Runs[0].Results[i].PartialFingerprints["primaryLocationLineHash"]
		fb := b.Runs[0].Results[i].PartialFingerprints["primaryLocationLineHash"]
		if fa != fb {
			t.Errorf("result %d: fingerprint changed when its line moved: %s → %s", i, fa, fb)
		}
		if seen[fa] {
			t.Errorf("result %d: fingerprint %s repeats", i, fa)
		}
		seen[fa] = true
	}
}

func TestResultCap(t *testing.T) {
	root := fixture.Repo(t)
	r := fixture.Many(t, root, sarif.MaxResults+300)
	d := decode(t, write(t, r))
	run := d.Runs[0]
	if len(run.Results) != sarif.MaxResults {
		t.Fatalf("got %d results, want %d", len(run.Results), sarif.MaxResults)
	}
	// The 300 dropped must be notes (the least severe): every error and warning is kept.
	counts := map[string]int{}
	for _, res := range run.Results {
		counts[res.Level]++
	}
	e, w, n := r.Counts()
	if counts["error"] != e || counts["warning"] != w || counts["note"] != n-300 {
		t.Errorf("kept %v; have %d errors, %d warnings, %d notes", counts, e, w, n)
	}
	var found bool
	for _, nt := range run.Invocations[0].Notifications {
		if strings.HasPrefix(nt.Message.Text, "300 results left out") {
			found = true
		}
	}
	if !found {
		t.Errorf("no notification about the 300 results left out: %+v", run.Invocations[0].Notifications)
	}
}

func TestReportCheck(t *testing.T) {
	r := fixture.Report(t)
	file := filepath.Join(t.TempDir(), "report.sarif")
	if err := reporters.WriteFileAtomic(file, func(w io.Writer) error { return sarif.Write(w, r) }); err != nil {
		t.Fatal(err)
	}
	out := fixture.Check(t, file, "sarif", "--repo-root", r.RepoRoot)
	if strings.Contains(out, "warning[") {
		t.Errorf("reportcheck warnings:\n%s", out)
	}
	t.Log(out)

	many := fixture.Many(t, r.RepoRoot, sarif.MaxResults+10)
	if err := reporters.WriteFileAtomic(file, func(w io.Writer) error { return sarif.Write(w, many) }); err != nil {
		t.Fatal(err)
	}
	fixture.Check(t, file, "sarif", "--repo-root", r.RepoRoot)
}

func BenchmarkSARIF25000(b *testing.B) {
	root := fixture.Repo(b)
	r := fixture.Many(b, root, sarif.MaxResults)
	var buf bytes.Buffer
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf.Reset()
		if err := sarif.Write(&buf, r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1e6, "MB")
}

// TestSizeBudget: findings whose messages and hints do not compress
// (hostile input, each at the 2,000-byte echo bound) cannot make a SARIF
// file GitHub rejects (10 MB gzip-compressed): results are left out, most
// severe kept, and the overflow is counted. (The hints are needed since
// the file holds at most MaxResults results: 5,000 such messages alone
// fit.)
func TestSizeBudget(t *testing.T) {
	root := fixture.Repo(t)
	r := fixture.Many(t, root, 12000)
	rnd := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	random := func() string {
		b := make([]byte, 1990)
		for k := range b {
			b[k] = alphabet[rnd.IntN(len(alphabet))]
		}
		return string(b)
	}
	for i := range r.Findings {
		r.Findings[i].Message, r.Findings[i].Hint = random(), random()
	}
	data := write(t, r)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	if z.Len() > 10<<20 {
		t.Fatalf("SARIF is %d bytes compressed, over GitHub's 10 MB", z.Len())
	}
	d := decode(t, data)
	run := d.Runs[0]
	if len(run.Results) == 0 || len(run.Results) >= len(r.Findings) {
		t.Fatalf("%d results of %d findings: the budget did not apply", len(run.Results), len(r.Findings))
	}
	var counted bool
	for _, nt := range run.Invocations[0].Notifications {
		counted = counted || strings.Contains(nt.Message.Text, "left out of this SARIF file to keep it within GitHub's upload limit")
	}
	if !counted {
		t.Error("the results left out are not counted in a notification")
	}
	// Most severe first: no note is kept while an error is left out.
	e, _, _ := r.Counts()
	kept := map[string]int{}
	for _, res := range run.Results {
		kept[res.Level]++
	}
	if kept["note"] > 0 && kept["error"] < e {
		t.Errorf("kept %v with errors left out", kept)
	}
	t.Logf("%d of %d results kept; %d bytes raw, %d compressed", len(run.Results), len(r.Findings), len(data), z.Len())
}

// TestResultCapKeepsFiveThousand: GitHub code scanning keeps 5,000 results
// per run and drops the rest without saying which, so the file holds at
// most 5,000: the most severe, then, with a baseline, the new before the
// old, then in report order; the results stay in report order, and a
// notification counts what was left out and says where every finding is.
func TestResultCapKeepsFiveThousand(t *testing.T) {
	root := fixture.Repo(t)
	r := fixture.Many(t, root, 7500) // 2,500 errors, warnings and notes
	// The last 30 warnings and the last 20 notes are new; all else is old.
	base := map[string]bool{}
	fresh := map[string]bool{}
	warnings, notes := 0, 0
	for i := len(r.Findings) - 1; i >= 0; i-- {
		switch f := &r.Findings[i]; {
		case f.Severity == diag.Warning && warnings < 30:
			warnings++
			fresh[r.Fingerprints[i]] = true
		case f.Severity == diag.Note && notes < 20:
			notes++
			fresh[r.Fingerprints[i]] = true
		default:
			base[r.Fingerprints[i]] = true
		}
	}
	r.CompareWith(base)
	r.Outputs = []diag.Output{{Format: "sarif", Path: "out/r.sarif"}, {Format: "json", Path: "out/r.json"}, {Format: "github"}}
	p, err := sarif.Prepare(r)
	if err != nil {
		t.Fatal(err)
	}
	if p.Located != 7500 || p.Results != sarif.MaxResults || p.ByCount != 2500 || p.ByBytes != 0 {
		t.Fatalf("prepared %+v", p)
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	run := decode(t, buf.Bytes()).Runs[0]
	if len(run.Results) != sarif.MaxResults {
		t.Fatalf("%d results, want %d", len(run.Results), sarif.MaxResults)
	}
	levels := map[string]int{}
	states := map[string]int{}
	for _, res := range run.Results {
		levels[res.Level]++
		states[res.Level+" "+res.BaselineState]++
	}
	// Every error and warning; of the notes, the 20 new, then the old in
	// report order.
	if levels["error"] != 2500 || levels["warning"] != 2500 || levels["note"] != 0 {
		t.Errorf("kept %v", levels)
	}
	if states["warning new"] != 30 {
		t.Errorf("states %v", states)
	}
	// Report order: the kept results' fingerprints appear in the order of
	// the findings.
	pos := map[string]int{}
	for i, fp := range r.Fingerprints {
		pos[fp] = i
	}
	for k := 1; k < len(run.Results); k++ {
		if pos[run.Results[k-1].PartialFingerprints["brenner-ci/v1"]] > pos[run.Results[k].PartialFingerprints["brenner-ci/v1"]] {
			t.Fatalf("result %d is out of report order", k)
		}
	}
	var note string
	for _, n := range run.Invocations[0].Notifications {
		if strings.HasPrefix(n.Message.Text, "2500 results left out of this SARIF file") {
			note = n.Message.Text
		}
	}
	if !strings.Contains(note, "keeps at most 5000 results per run") || !strings.Contains(note, "new before old") ||
		!strings.HasSuffix(note, "Every finding is in this run's JSON report.") {
		t.Errorf("the file's notification: %q", note)
	}
	// What the other reports say.
	n := p.Notification()
	if n == nil || n.Level != diag.Warning || !strings.HasPrefix(n.Message, "The SARIF report holds 5000 of the 7500 findings that can be code scanning results") ||
		!strings.Contains(n.Message, "leaves out 2500") || !strings.HasSuffix(n.Message, "Every finding is in this run's JSON report.") {
		t.Errorf("the other reports' notification: %+v", n)
	}

	// Notes now: the new notes before the old ones.
	r2 := fixture.Many(t, root, 7500)
	for i := range r2.Findings {
		if r2.Findings[i].Severity == diag.Warning {
			r2.Findings[i].Severity = diag.Note
		}
	}
	r2.Fingerprints = diag.Fingerprints(r2.Findings)
	base2 := map[string]bool{}
	for i := range r2.Findings {
		if i < 7400 {
			base2[r2.Fingerprints[i]] = true
		}
	}
	r2.CompareWith(base2)
	run = decode(t, write(t, r2)).Runs[0]
	states = map[string]int{}
	for _, res := range run.Results {
		states[res.Level+" "+res.BaselineState]++
	}
	// 2,500 errors (none new: the last 100 findings hold 33 or 34 of
	// them), then the 67 new notes, then old notes in report order.
	newErrors := 0
	for i := 7400; i < 7500; i++ {
		if r2.Findings[i].Severity == diag.Error {
			newErrors++
		}
	}
	if states["note new"] != 100-newErrors || states["error new"]+states["error unchanged"] != 2500 {
		t.Errorf("states %v", states)
	}

	// Within the cap: nothing left out, no notification.
	small := fixture.Many(t, root, 100)
	if p, _ := sarif.Prepare(small); p.Results != 100 || p.Notification() != nil {
		t.Errorf("within the cap: %+v %+v", p, p.Notification())
	}
}
