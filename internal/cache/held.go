package cache

import (
	"slices"
	"sync/atomic"

	"github.com/brenner-ci/brenner-ci/compile/binenc"
	"github.com/brenner-ci/brenner-ci/compile/tempfile"
	"github.com/brenner-ci/brenner-ci/rules"
)

// Held is a rules.Held for a run of many threads: the result of each
// thread checked during the scan is encoded as a cache entry is (codec.go)
// and written to a temporary file (tempfile.Spill), and read back at the
// thread's turn. A check of 50,000 threads that kept them in memory peaked
// 80 MB higher than one that checked every thread after the scan; in the
// file, a thread checked early holds less memory than one that is not (its
// packed records are not kept). A result that cannot be written, or is not
// the usual kind (persisted artifacts, another list of rules), stays in
// memory as it is.
type Held struct {
	// Written and Taken count the results written to the file and read
	// back from it.
	Written, Taken atomic.Int64

	file                 tempfile.Spill
	rules, artifactRules []string // the engine's (summaries list them)
	strs                 interner
}

// heldAt stands for a result in the file.
type heldAt tempfile.At

// NewHeld returns an empty Held for a run of eng's rules. Close removes its
// file.
func NewHeld(eng *rules.Engine) *Held {
	return &Held{file: tempfile.Spill{Pattern: "brenner-ci-held-*"}, rules: eng.Enabled(), artifactRules: eng.ArtifactRules()}
}

// Hold writes c to the file and returns its place, or returns c.
func (h *Held) Hold(c *rules.Checked) any {
	// An empty render would come back as none (decodeBinary).
	if len(c.Artifacts) > 0 || (c.Render != nil && len(c.Render) == 0) ||
		!(sameList(c.Thread.Summary.Rules, h.rules) || slices.Equal(c.Thread.Summary.Rules, h.rules)) {
		return c
	}
	// The thread id (which a cache entry does not keep), then the entry.
	e, ok := encodeBinary(entryOf(c, c.Render != nil))
	if !ok {
		return c
	}
	at, ok := h.file.Write(append(binenc.AppendString(nil, c.ID), e...))
	if !ok {
		return c
	}
	h.Written.Add(1)
	return heldAt(at)
}

// Take reads back the result at v's place.
func (h *Held) Take(v any) (*rules.Checked, bool) {
	at, ok := v.(heldAt)
	if !ok {
		return nil, false
	}
	data, err := h.file.Read(tempfile.At(at))
	if err != nil {
		return nil, false
	}
	r := binenc.Reader{B: data}
	id := r.Str()
	var e threadEntry
	if r.Bad || decodeBinary(r.B, &e, &h.strs) != nil {
		return nil, false
	}
	c := e.checked(h.rules, h.artifactRules)
	c.ID = id
	h.Taken.Add(1)
	return c, true
}

// Close removes the file.
func (h *Held) Close() { h.file.Close() }
