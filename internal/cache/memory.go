package cache

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/rules"
)

// Memory holds the thread results of one run in memory, keyed as the
// thread cache keys them (threadKey), for a second run in the same process
// to reuse: in pull-request mode, the base revision's files that the pull
// request did not change are the working tree's, and their threads check
// the same. The second run's files lie elsewhere (a revision written to a
// temporary folder); its Reuser names them by the paths they have in the
// working tree, so the keys meet. Reused results keep the first run's file
// names, which are the names the second run's findings are given anyway.
type Memory struct {
	mu      sync.Mutex
	results map[string]*rules.Checked
	// Hits and Misses count the second run's lookups.
	Hits, Misses atomic.Int64
}

// NewMemory returns an empty Memory.
func NewMemory() *Memory { return &Memory{results: map[string]*rules.Checked{}} }

// Recorder is the Reuser of the run that fills m, whose options hash to
// salt and whose threads have budget each (0: no limit): inner (the thread
// cache, or nil) answers first, and every result, reused or checked in
// time, is kept in m.
func (m *Memory) Recorder(salt string, budget time.Duration, inner rules.Reuser) rules.Reuser {
	return &recorder{m: m, salt: salt, budget: budget, inner: inner, pending: map[string]pending{}}
}

// Reuser is the Reuser of a run, with options that hash to salt, that
// reuses m's results: its files are named by name in the keys.
func (m *Memory) Reuser(salt string, name func(string) string) rules.Reuser {
	return &memReuser{m: m, salt: salt, name: name}
}

type recorder struct {
	m       *Memory
	salt    string
	budget  time.Duration
	inner   rules.Reuser
	mu      sync.Mutex
	pending map[string]pending // thread key → result key and start
}

func (r *recorder) Reuse(ref *mailbox.ThreadRef, arts []rules.ArtifactInput) (*rules.Checked, bool) {
	start := time.Now()
	key, err := threadKey(r.salt, ref, arts, nil)
	if err == nil {
		r.mu.Lock()
		r.pending[ref.Key] = pending{key, start}
		r.mu.Unlock()
	}
	if r.inner == nil {
		return nil, false
	}
	c, ok := r.inner.Reuse(ref, arts)
	if ok && err == nil {
		r.m.put(key, c)
	}
	return c, ok
}

func (r *recorder) Keep(threadKey string, c *rules.Checked) {
	if r.inner != nil {
		r.inner.Keep(threadKey, c)
	}
	r.mu.Lock()
	p := r.pending[threadKey]
	r.mu.Unlock()
	// A thread past its budget was cut short: its result is not its own.
	if p.key != "" && (r.budget <= 0 || time.Since(p.start) < r.budget) {
		r.m.put(p.key, c)
	}
}

// put keeps a copy of c without what only the first run writes (its
// rendered artifact).
func (m *Memory) put(key string, c *rules.Checked) {
	cp := *c
	cp.Render = nil
	m.mu.Lock()
	m.results[key] = &cp
	m.mu.Unlock()
}

type memReuser struct {
	m    *Memory
	salt string
	name func(string) string
}

func (r *memReuser) Reuse(ref *mailbox.ThreadRef, arts []rules.ArtifactInput) (*rules.Checked, bool) {
	key, err := threadKey(r.salt, ref, arts, r.name)
	if err != nil {
		r.m.Misses.Add(1)
		return nil, false
	}
	r.m.mu.Lock()
	c := r.m.results[key]
	r.m.mu.Unlock()
	if c == nil {
		r.m.Misses.Add(1)
		return nil, false
	}
	r.m.Hits.Add(1)
	cp := *c
	return &cp, true
}

func (r *memReuser) Keep(string, *rules.Checked) {}
