package artifact

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/artifact")

// defaultCompiledAt is the compile instant of a case's implicit final compile.
var defaultCompiledAt = time.Date(2026, 1, 20, 0, 0, 0, 0, time.UTC)

// step is one entry of a case's deltas.json: a delta from an agent at an
// instant, or a COMPILED marker ({"compile": {...}}) that sets the version,
// snapshots the artifact and starts a new round.
type step struct {
	Agent string
	At    time.Time
	Msg   int
	Block int
	Delta *delta.Delta
	// compile marker
	Compile    bool
	MessageID  string
	CompiledBy string
}

// toDelta builds a Delta from a delta block object, as delta.Extract would
// after validation.
func toDelta(t testing.TB, v *jsonv.Value) *delta.Delta {
	t.Helper()
	if v == nil || v.Kind != jsonv.Object {
		t.Fatalf("delta is not an object: %s", v.Text())
	}
	d := &delta.Delta{Value: v}
	d.Op, _ = v.Get("operation").AsString()
	d.Section, _ = v.Get("section").AsString()
	d.Target, _ = v.Get("target_id").AsString()
	d.Rationale, _ = v.Get("rationale").AsString()
	d.Payload = v.Get("payload")
	if d.Payload == nil || d.Payload.Kind != jsonv.Object {
		d.Payload = jsonv.NewObject()
	}
	return d
}

func parseTime(t testing.TB, v *jsonv.Value) time.Time {
	t.Helper()
	s, ok := v.AsString()
	if !ok {
		t.Fatalf("at is not a string: %s", v.Text())
	}
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("at: %v", err)
	}
	return tm
}

func loadSteps(t testing.TB, path string) []step {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	root, err := jsonv.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if root.Kind != jsonv.Array {
		t.Fatalf("%s: want a list", path)
	}
	var out []step
	for i, e := range root.Arr() {
		var s step
		if c := e.Get("compile"); c != nil {
			s.Compile = true
			s.At = defaultCompiledAt
			if c.Has("at") {
				s.At = parseTime(t, c.Get("at"))
			}
			s.MessageID, _ = c.Get("message_id").AsString()
			s.CompiledBy, _ = c.Get("by").AsString()
			out = append(out, s)
			continue
		}
		s.Agent, _ = e.Get("agent").AsString()
		s.At = parseTime(t, e.Get("at"))
		s.Msg, s.Block = i, 0
		if f, ok := e.Get("msg").Float(); ok {
			s.Msg = int(f)
		}
		if f, ok := e.Get("block").Float(); ok {
			s.Block = int(f)
		}
		s.Delta = toDelta(t, e.Get("delta"))
		out = append(out, s)
	}
	return out
}

func formatEvent(e Event) string {
	loc := "artifact"
	if e.Msg >= 0 {
		loc = fmt.Sprintf("msg %d block %d", e.Msg, e.Block)
	}
	s := fmt.Sprintf("[%s] %s %s applied=%t", loc, e.Severity, e.Rule, e.Applied)
	if e.Field != "" {
		s += " field=" + e.Field
	}
	s += fmt.Sprintf(" anchor=%q\n  %s\n  hint: %s\n", e.Anchor, e.Message, e.Hint)
	return s
}

// result of running a case.
type result struct {
	final    *Artifact
	events   string
	compiled []byte // the last compile's COMPILED body; nil when the case has no compile marker
}

func runCase(t testing.TB, steps []step, session string) result {
	t.Helper()
	a := New(session)
	a.Status = "active"
	var ev strings.Builder
	var prev *Artifact // last compiled snapshot
	var compiled []byte
	pending, marked := false, false
	compile := func(at time.Time, by, msgID string) *Artifact {
		a.Version++
		a.CompiledAt = at
		a.CompiledBy = by
		if a.CompiledBy == "" {
			a.CompiledBy = "operator"
		}
		a.MessageID = msgID
		for _, e := range a.Check() {
			ev.WriteString(fmt.Sprintf("v%d check: ", a.Version) + formatEvent(e))
		}
		snap := a.Clone()
		a.EndRound()
		return snap
	}
	for _, s := range steps {
		if s.Compile {
			snap := compile(s.At, s.CompiledBy, s.MessageID)
			compiled = RenderCompiledBody(snap, prev, CompiledInfo{SchemaPass: true, LintWarnings: len(snap.Check())})
			prev = snap
			pending, marked = false, true
			continue
		}
		if a.CreatedAt.IsZero() {
			a.CreatedAt = s.At
		}
		ok, events := a.Apply(Applied{Delta: s.Delta, Agent: s.Agent, At: s.At, Msg: s.Msg, Block: s.Block})
		if !ok && len(events) == 0 {
			t.Errorf("msg %d block %d: not applied and no event", s.Msg, s.Block)
		}
		for _, e := range events {
			if e.Applied != ok {
				t.Errorf("event %s: Applied=%t but Apply returned %t", e.Rule, e.Applied, ok)
			}
			ev.WriteString(formatEvent(e))
		}
		pending = true
	}
	final := prev
	if pending || prev == nil {
		final = compile(defaultCompiledAt, "", "")
		if marked {
			compiled = RenderCompiledBody(final, prev, CompiledInfo{SchemaPass: true, LintWarnings: len(final.Check())})
		}
	}
	return result{final: final, events: ev.String(), compiled: compiled}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./compile/artifact -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (run go test ./compile/artifact -update and review the diff):\n%s", path, testutil.FirstDiff(want, got))
	}
}

func TestGolden(t *testing.T) {
	dir := filepath.Join(testutil.ModuleRoot(t), "testdata", "artifact")
	cases, err := filepath.Glob(filepath.Join(dir, "*", "deltas.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no golden cases under testdata/artifact")
	}
	// One buffer, stale bytes in it, rendered into case after case as
	// compile does (RenderInto), and a buffer too small to hold any.
	reused := bytes.Repeat([]byte("stale "), 2000)
	for _, c := range cases {
		cdir := filepath.Dir(c)
		name := filepath.Base(cdir)
		t.Run(name, func(t *testing.T) {
			steps := loadSteps(t, c)
			r := runCase(t, steps, "TEST-"+strings.ToUpper(strings.ReplaceAll(name, "_", "-")))
			md := r.final.Render()
			if again := r.final.Render(); !bytes.Equal(md, again) {
				t.Fatal("rendering twice gave different bytes")
			}
			if reused = r.final.RenderInto(reused); !bytes.Equal(reused, md) {
				t.Fatal("RenderInto a used buffer gave different bytes")
			}
			if small := r.final.RenderInto(make([]byte, 3, 4)); !bytes.Equal(small, md) {
				t.Fatal("RenderInto a small buffer gave different bytes")
			}
			golden(t, filepath.Join(cdir, "expected.md"), md)
			golden(t, filepath.Join(cdir, "events.txt"), []byte(r.events))
			if r.compiled != nil {
				golden(t, filepath.Join(cdir, "compiled.md"), r.compiled)
			}
			// A second run from scratch gives the same bytes.
			r2 := runCase(t, loadSteps(t, c), "TEST-"+strings.ToUpper(strings.ReplaceAll(name, "_", "-")))
			if !bytes.Equal(md, r2.final.Render()) || r.events != r2.events {
				t.Fatal("two runs gave different output")
			}
		})
	}
}
