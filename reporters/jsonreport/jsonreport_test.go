package jsonreport_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
	"github.com/brenner-ci/brenner-ci/reporters/internal/fixture"
	"github.com/brenner-ci/brenner-ci/reporters/jsonreport"
	"github.com/brenner-ci/brenner-ci/reporters/sarif"
)

func TestMain(m *testing.M) { os.Exit(fixture.Main(m)) }

func write(t testing.TB, r *diag.Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jsonreport.Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	r := fixture.Report(t)
	got := write(t, r)
	fixture.GoldenJSON(t, "report.json", got)
	if !bytes.Equal(got, write(t, r)) {
		t.Error("two writes of the same report differ")
	}
}

func TestContents(t *testing.T) {
	r := fixture.Report(t)
	f := jsonreport.Build(r)
	if len(f.Findings) != len(r.Findings) {
		t.Fatalf("%d findings, want %d", len(f.Findings), len(r.Findings))
	}
	for i, x := range f.Findings {
		if x.Rule != r.Findings[i].Rule || x.Message != r.Findings[i].Message || x.Fingerprint != r.Fingerprints[i] {
			t.Errorf("finding %d out of order or altered: %+v", i, x)
		}
	}
	s := f.Summary
	if s.Errors != 2 || s.Warnings != 4 || s.Notes != 3 || s.Threads != 3 || s.FailOn != "error" || !s.Failed || s.Gating != 2 {
		t.Errorf("summary %+v", s)
	}
	// The TH-002 warning is in the baseline; the 8 others are new.
	if s.New != 8 || !s.Baseline {
		t.Errorf("baseline summary %+v", s)
	}
	paths := map[string]bool{}
	for _, x := range f.Findings {
		paths[x.Path] = true
	}
	for _, want := range []string{"threads/alpha.json", "../outside/x.json", "docs/with space.md", ""} {
		if !paths[want] {
			t.Errorf("path %q missing from %v", want, paths)
		}
	}
}

func TestReadRoundTrip(t *testing.T) {
	r := fixture.Report(t)
	f, err := jsonreport.Read(bytes.NewReader(write(t, r)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f, jsonreport.Build(r)) {
		t.Error("Read(Write(r)) differs from Build(r)")
	}
	fs, fps, err := f.Diag()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fps, r.Fingerprints) {
		t.Error("fingerprints do not round-trip")
	}
	for i := range fs {
		if fs[i].Rule != r.Findings[i].Rule || fs[i].Severity != r.Findings[i].Severity || fs[i].Message != r.Findings[i].Message {
			t.Errorf("finding %d: %+v", i, fs[i])
		}
	}
	for i := range fs {
		if (fs[i].Fix != nil) != (r.Findings[i].Fix != nil) {
			t.Errorf("finding %d: fix lost or invented", i)
		}
	}

	if _, err := jsonreport.Read(strings.NewReader(`{"format":"other"}`)); err == nil {
		t.Error("another format was accepted")
	}
	if _, err := jsonreport.Read(strings.NewReader(`{"format":"brenner-ci-report","format_version":3}`)); err == nil {
		t.Error("a newer format version was accepted")
	}
}

func TestFingerprints(t *testing.T) {
	r := fixture.Report(t)
	all := map[string]bool{}
	for _, fp := range r.Fingerprints {
		all[fp] = true
	}
	got, err := jsonreport.Fingerprints(bytes.NewReader(write(t, r)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, all) {
		t.Errorf("from the JSON report: %v, want %v", got, all)
	}

	var sb bytes.Buffer
	if err := sarif.Write(&sb, r); err != nil {
		t.Fatal(err)
	}
	got, err = jsonreport.Fingerprints(&sb)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 { // only the located findings are SARIF results
		t.Errorf("from SARIF: %d fingerprints, want 5", len(got))
	}
	for fp := range got {
		if !all[fp] {
			t.Errorf("SARIF fingerprint %s is not a finding's", fp)
		}
	}

	const a, b = "0123456789abcdef:1", "fedcba9876543210:2"
	got, err = jsonreport.Fingerprints(strings.NewReader("# baseline\n\n" + a + "\n  " + b + " \n"))
	if err != nil || !reflect.DeepEqual(got, map[string]bool{a: true, b: true}) {
		t.Errorf("plain list: %v %v", got, err)
	}
	got, err = jsonreport.Fingerprints(strings.NewReader(`["` + a + `", "` + b + `"]`))
	if err != nil || !reflect.DeepEqual(got, map[string]bool{a: true, b: true}) {
		t.Errorf("JSON list: %v %v", got, err)
	}
	// A file of another kind is not read as a baseline that accepts
	// nothing: an XML report, a log, a list of other strings.
	for _, bad := range []string{"<?xml version=\"1.0\"?>\n<testsuites/>\n", "brenner-ci: 3 errors\n", `["abc:1"]`} {
		if _, err := jsonreport.Fingerprints(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "not a brenner-ci fingerprint") {
			t.Errorf("%q: %v; want an error", bad, err)
		}
	}
	if _, err := jsonreport.Fingerprints(strings.NewReader(`{"x": 1}`)); err == nil {
		t.Error("an unknown JSON object was accepted")
	}
	got, err = jsonreport.Fingerprints(strings.NewReader(""))
	if err != nil || len(got) != 0 {
		t.Errorf("empty baseline: %v %v", got, err)
	}
}

// TestDocumented checks that docs/json-report.md names every field.
func TestDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(t), "docs", "json-report.md"))
	if err != nil {
		t.Fatal(err)
	}
	var walk func(typ reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct {
			return
		}
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			name := strings.Split(f.Tag.Get("json"), ",")[0]
			if !bytes.Contains(doc, []byte("`"+name+"`")) {
				t.Errorf("docs/json-report.md does not document %s.%s (`%s`)", typ.Name(), f.Name, name)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(jsonreport.File{}))
}

// TestWriteMatchesEncoder: the streamed report is byte for byte what
// encoding/json writes for the whole File (no HTML escaping, two-space
// indentation), for the fixture, an empty report and one of each.
func TestWriteMatchesEncoder(t *testing.T) {
	full := fixture.Report(t)
	one := fixture.Report(t)
	one.Threads, one.Findings, one.Fingerprints = one.Threads[:1], one.Findings[:1], one.Fingerprints[:1]
	one.Findings[0].Message = "<a href=\"x\">&\u2028\xff</a>"
	// Thread entries are written by hand: keys and paths that need quoting.
	one.Threads = append(one.Threads, one.Threads[0], one.Threads[0], one.Threads[0])
	one.Threads[1].Key, one.Threads[1].File = `odd \u003c "key" <&>`, "dir/\x01\t\n\u2029\xfe.json"
	one.Threads[2].Key, one.Threads[2].File = "é~\x7f", "plain/path.json"
	big := int64(1) << 40 // past 32 bits (a variable, so that the test builds where int has 32)
	one.Threads[3].Key, one.Threads[3].Messages, one.Threads[3].Version = "", -1, int(big)
	for _, k := range []string{`back\slash`, `quote"only`, "ctl\x01only", "del\x7fonly", "\u2028only", "\xffonly", "<tag>&amp"} {
		th := one.Threads[0]
		th.Key, th.File = k, k+".json"
		one.Threads = append(one.Threads, th)
	}
	for name, r := range map[string]*diag.Report{"fixture": full, "empty": {}, "one": one} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(jsonreport.Build(r)); err != nil {
			t.Fatal(err)
		}
		if got := write(t, r); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: streamed report differs from the encoder's:\n%s\nwant\n%s", name, got, want.Bytes())
		}
	}
}

// TestThreadsAndArtifactsApart: the summary counts threads and persisted
// artifacts apart, and each entry of threads says which it is.
func TestThreadsAndArtifactsApart(t *testing.T) {
	r := fixture.Mixed(t, fixture.Repo(t))
	data := write(t, r)
	f, err := jsonreport.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if f.Summary.Threads != 2 || f.Summary.Artifacts != 1 {
		t.Errorf("summary counts %d threads and %d artifacts, want 2 and 1", f.Summary.Threads, f.Summary.Artifacts)
	}
	var kinds []string
	for _, th := range f.Threads {
		kinds = append(kinds, th.Kind)
	}
	if got := strings.Join(kinds, ","); got != "artifact,thread,thread" {
		t.Errorf("kinds %s", got)
	}
}
