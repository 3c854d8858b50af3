package cache

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/rules"
)

// heldSample is a thread's result as an early check leaves it: no
// persisted artifacts, the engine's rule list, a render, a thread id and
// file name that are not UTF-8.
func heldSample(eng *rules.Engine) *rules.Checked {
	e := sampleEntry()
	e.Arts = nil
	c := e.checked(eng.Enabled(), eng.ArtifactRules())
	c.ID = "RS-1\xff"
	return c
}

// TestHeldRoundTrip: a result held in the file comes back as it went in,
// with the engine's rule list shared, from any goroutine; one without a
// render comes back without one.
func TestHeldRoundTrip(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	eng := rules.NewEngine(rules.All(), nil, limits.Parse{})
	h := NewHeld(eng)
	defer h.Close()
	in := []*rules.Checked{heldSample(eng), heldSample(eng)}
	in[1].Render, in[1].ID = nil, ""
	held := make([]any, len(in))
	for i, c := range in {
		held[i] = h.Hold(c)
		if _, ok := held[i].(*rules.Checked); ok {
			t.Fatalf("result %d kept in memory", i)
		}
	}
	done := make(chan *rules.Checked, len(in))
	for i := range in {
		go func() {
			c, ok := h.Take(held[i])
			if !ok {
				t.Errorf("result %d lost", i)
			}
			done <- c
		}()
	}
	for range in {
		<-done
	}
	for i, c := range in {
		out, ok := h.Take(held[i]) // taken again: the file keeps it
		if !ok || !reflect.DeepEqual(out, c) {
			t.Errorf("result %d read back as\n%+v\nwant\n%+v", i, out, c)
			continue
		}
		if &out.Thread.Summary.Rules[0] != &eng.Enabled()[0] {
			t.Errorf("result %d: the rule list is not the engine's", i)
		}
	}
	if h.Written.Load() != 2 || h.Taken.Load() != 4 {
		t.Errorf("%d written, %d taken; want 2 and 4", h.Written.Load(), h.Taken.Load())
	}
	if _, ok := h.Take("something else"); ok {
		t.Error("a value Hold never returned was taken")
	}
}

// TestHeldKeptInMemory: a result the file would not give back as it is
// (persisted artifacts, another rule list, an empty render) and one that
// cannot be written (no temporary folder) are held as they are; a result
// whose file is gone is lost, not made up.
func TestHeldKeptInMemory(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	eng := rules.NewEngine(rules.All(), nil, limits.Parse{})
	h := NewHeld(eng)
	arts, other, empty := heldSample(eng), heldSample(eng), heldSample(eng)
	arts.Artifacts = []rules.ArtifactResult{{}}
	other.Thread.Summary.Rules = []string{"MB-001"}
	empty.Render = []byte{}
	for _, c := range []*rules.Checked{arts, other, empty} {
		if got := h.Hold(c); got != any(c) {
			t.Errorf("held as %T, want the result itself", got)
		}
	}
	v := h.Hold(heldSample(eng))
	h.Close()
	if _, ok := h.Take(v); ok {
		t.Error("a result taken from a closed file")
	}

	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	h = NewHeld(eng)
	defer h.Close()
	c := heldSample(eng)
	if got := h.Hold(c); got != any(c) {
		t.Errorf("with no temporary folder, held as %T, want the result itself", got)
	}
}
