package cache

import (
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/rules"
)

// filled returns a value of type T whose every exported field, at any
// depth, is set to something that is not its zero value (distinct per
// call through seed): a field added to a thread's result is then one the
// round trip must carry.
func filled[T any](seed int) T {
	var x T
	n := seed
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		n++
		switch v.Kind() {
		case reflect.String:
			v.SetString("s" + strconv.Itoa(n))
		case reflect.Int, reflect.Int64, reflect.Int32:
			v.SetInt(int64(n))
		case reflect.Uint64, reflect.Uint32, reflect.Uint8:
			v.SetUint(uint64(n))
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem())
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 2, 2))
			fill(v.Index(0))
			fill(v.Index(1))
		case reflect.Map:
			m := reflect.MakeMap(v.Type())
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k)
			fill(e)
			m.SetMapIndex(k, e)
			v.Set(m)
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					fill(v.Field(i))
				}
			}
		}
	}
	fill(reflect.ValueOf(&x).Elem())
	return x
}

// results are three thread results with every field set, sharing the
// run's rule list as a run's do.
func results() []rules.ThreadResult {
	list := []string{"MB-001", "LAB-001"}
	var out []rules.ThreadResult
	for i := range 3 {
		r := filled[rules.ThreadResult](100 * i)
		r.Summary.Rules = list
		if i == 2 {
			r.Summary.Rules = []string{"MB-001"}
		}
		r.Findings[0].Severity = diag.Warning // severities are 0-2
		r.Findings[1].Severity = diag.Note
		r.Facts.Items = rules.PackItems([]rules.ItemFact{{ID: "H1", Section: "hypothesis_slate", Hyp: &rules.HypFact{Name: "n", ClaimKey: 7,
			Claim: &rules.ClaimAt{Pos: diag.Pos{File: "a.json", Line: 3, Col: 4, EndLine: 3, EndCol: 9}, MsgID: "2"}}}, {ID: "T1", Section: "custom_section", Killed: true}})
		out = append(out, r)
	}
	return out
}

// TestResultsRoundTrip: every field of a thread's result comes back from
// the spill file as it went in, in order, with the run's rule list shared
// again; also when the file cannot be used (records kept in memory) and
// when every record is written apart. The file is gone once read.
func TestResultsRoundTrip(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	in := results()
	wantF, wantC := 0, 0
	for _, r := range in {
		wantF, wantC = wantF+len(r.Findings), wantC+len(r.Comments)
	}
	defer func(v int) { flushAt = v }(flushAt)
	for _, c := range []struct {
		name   string
		keep   int
		bad    bool
		flush  int
		expect int
	}{{"file", 1, false, 1 << 20, 0}, {"memory", 0, true, 1 << 20, 0}, {"a write per record", 0, false, 1, 0},
		// Expect is a hint: too few, as many, or more than KeepFirst.
		{"expecting fewer", 3, false, 1 << 20, 1}, {"expecting all", 2, false, 1 << 20, len(in)}, {"expecting more", 5, false, 1 << 20, 100}} {
		flushAt = c.flush
		s := &Results{KeepFirst: c.keep, bad: c.bad, Expect: c.expect}
		for _, r := range in {
			s.Add(r)
		}
		if nt, nf, nc := s.Sizes(); nt != len(in) || nf != wantF || nc != wantC {
			t.Errorf("%s: sizes %d threads, %d findings, %d comments; want %d, %d, %d", c.name, nt, nf, nc, len(in), wantF, wantC)
		}
		out, err := all(s)
		if err != nil || !reflect.DeepEqual(out, in) {
			t.Errorf("%s: read back (%v)\n%+v\nwant\n%+v", c.name, err, out, in)
		}
		if len(out) == 3 && &out[1].Summary.Rules[0] != &in[0].Summary.Rules[0] {
			t.Errorf("%s: the rule list is not shared again", c.name)
		}
		if left, _ := os.ReadDir(os.Getenv("TMPDIR")); len(left) > 0 {
			t.Errorf("%s: %s left in the temporary folder", c.name, left[0].Name())
		}
	}
}

// TestResultsLostRecord: a record that does not decode is an error that
// names it, with the results before it returned (the run reports an
// internal error instead of losing every report).
func TestResultsLostRecord(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	s := &Results{KeepFirst: 1, bad: true}
	for _, r := range results() {
		s.Add(r)
	}
	s.flush()
	s.parts[0].mem = s.parts[0].mem[:10] // the first encoded record cut short
	out, err := all(s)
	if err == nil || !strings.Contains(err.Error(), "thread 2 of 3") || len(out) != 1 {
		t.Fatalf("got %d results and %v, want the first and an error about thread 2 of 3", len(out), err)
	}
}

// all is every result s gives, in order.
func all(s *Results) ([]rules.ThreadResult, error) {
	var out []rules.ThreadResult
	err := s.Each(func(t *rules.ThreadResult) { out = append(out, *t) })
	return out, err
}

// TestOwnedStringsMadeOnce: a record's thread key and file, repeated by
// its findings, positions and facts, are read back as one string each,
// also without an interner (past its limit); equal strings of different
// records are not confused.
func TestOwnedStringsMadeOnce(t *testing.T) {
	s := &Results{}
	var got []rules.ThreadResult
	for i, file := range []string{"a.json", "b.json"} {
		r := filled[rules.ThreadResult](10 * i)
		r.Summary.Key, r.Summary.File = "key-"+file, file
		r.Facts.Key, r.Facts.ThreadID = r.Summary.Key, r.Summary.Key
		for j := range r.Findings {
			r.Findings[j].Thread, r.Findings[j].Pos.File = r.Summary.Key, file
		}
		back, err := s.decode(s.encode(nil, &r), nil)
		if err != nil || !reflect.DeepEqual(back, r) {
			t.Fatalf("%s: read back (%v)\n%+v\nwant\n%+v", file, err, back, r)
		}
		got = append(got, back)
	}
	for _, r := range got {
		key, file := unsafe.StringData(r.Summary.Key), unsafe.StringData(r.Summary.File)
		for _, s := range []string{r.Facts.Key, r.Facts.ThreadID, r.Findings[0].Thread, r.Findings[1].Thread} {
			if unsafe.StringData(s) != key {
				t.Errorf("%s: the thread key %q is made again", r.Summary.File, s)
			}
		}
		if unsafe.StringData(r.Findings[0].Pos.File) != file || unsafe.StringData(r.Findings[1].Pos.File) != file {
			t.Errorf("%s: the file is made again for a position", r.Summary.File)
		}
	}
}
