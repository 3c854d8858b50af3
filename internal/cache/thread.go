package cache

// The thread cache (check --cache DIR): a nightly audit re-checks a corpus
// that barely changes, so each thread's results are stored under a hash of
// everything they depend on — the run's options (Salt: the program, the
// configuration, the rules, the compile options; see internal/run), the
// thread's input bytes and their positions (mailbox.ThreadRef.Digest), and
// its persisted artifacts and evidence packs — and a thread whose hash is
// in the cache is neither loaded nor parsed nor compiled. Concurrent runs
// can share a cache: an entry that does not decode (being written, or cut
// short) or whose recorded key differs is a miss, never a wrong result.
// Batch rules always run on the facts of every thread.

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/safefile"
	"github.com/brenner-ci/brenner-ci/rules"
)

// threadFormat changes whenever an entry's meaning changes.
const threadFormat = 7

// Threads is a folder of per-thread results; it is the engine's
// rules.Reuser. The entries of a run are one bundle file (internal/bundle),
// which replaces the bundles the run read; an entry a run reused is carried
// over into its bundle.
type Threads struct {
	dir string
	// salt identifies everything outside the thread that its results
	// depend on (Key of the run's options).
	salt string
	// render: entries must hold the rendered artifact (the run writes it).
	render bool
	// budget is the thread time budget: a thread checked past it is not
	// stored (its run reports IN-010; a later run must too).
	budget time.Duration
	// rules and artifactRules are the engine's (summaries list them).
	rules, artifactRules []string

	Hits, Misses atomic.Int64

	store *Store
	strs  interner // strings the entries repeat

	mu      sync.Mutex
	pending map[string]pending // thread key → its cache key and start
}

type pending struct {
	key   string
	start time.Time
}

// OpenThreads opens the thread cache in dir for a run whose options hash to
// salt, with eng's rules; render says entries must hold the rendered
// artifact, budget is the thread time budget. Close puts the run's entries
// in place.
func OpenThreads(dir, salt string, eng *rules.Engine, render bool, budget time.Duration) *Threads {
	return &Threads{dir: dir, salt: salt, render: render, budget: budget, rules: eng.Enabled(), artifactRules: eng.ArtifactRules(),
		store: OpenStore(dir, threadBundles), pending: map[string]pending{}}
}

// Close puts this run's bundle in place of the ones read. A failure only
// costs misses in the next run.
func (c *Threads) Close() { c.store.Close() }

// Problems are the store's (Store.Problems).
func (c *Threads) Problems() []string { return c.store.Problems() }

type threadEntry struct {
	Format   int               `json:"format"`
	Key      string            `json:"key"`
	Summary  diag.Thread       `json:"summary"`
	Findings []diag.Finding    `json:"findings"`
	Comments []diag.Comment    `json:"comments"`
	Internal []string          `json:"internal"`
	Facts    rules.Facts       `json:"facts"`
	Arts     []cachedArt       `json:"artifacts"`
	Last     time.Time         `json:"last"`
	Render   []byte            `json:"render,omitempty"`
	HasRend  bool              `json:"has_render"`
	Cost     map[string]uint64 `json:"cost,omitempty"`
}

type cachedArt struct {
	Summary  diag.Thread       `json:"summary"`
	NoRules  bool              `json:"no_rules"`
	Findings []diag.Finding    `json:"findings"`
	Comments []diag.Comment    `json:"comments"`
	Internal []string          `json:"internal"`
	Front    rules.FrontRecord `json:"front"`
}

// key hashes the thread's inputs and its persisted artifacts.
func (c *Threads) key(ref *mailbox.ThreadRef, arts []rules.ArtifactInput) (string, error) {
	return threadKey(c.salt, ref, arts, nil)
}

// threadKey is the key of a thread's results: everything they depend on
// outside the thread (salt), the thread's inputs and its persisted
// artifacts, with every file named by name (nil: as it is).
func threadKey(salt string, ref *mailbox.ThreadRef, arts []rules.ArtifactInput, name func(string) string) (string, error) {
	if name == nil {
		name = func(s string) string { return s }
	}
	h := sha256.New()
	fmt.Fprintf(h, "brenner-ci cache %d\n%s\n", threadFormat, salt)
	if err := ref.DigestAs(h, name); err != nil {
		return "", err
	}
	for _, a := range arts {
		fmt.Fprintf(h, "artifact %q %t %t\n", name(a.Path), a.JSON, a.AtPath)
		for _, p := range []string{a.Path, rules.EvidencePath(a.Path)} {
			hashFile(h, p, name(p))
		}
	}
	return string(h.Sum(nil)), nil // 32 bytes, not 64 hex digits: 100,000 keys are held
}

// hashFile writes what the engine will read of file p, named shown, into h: its bytes,
// or why it cannot be read. It reads as the engine does (safefile: a link
// or a device is not read) and streams, so no file's size matters.
func hashFile(h io.Writer, p, shown string) {
	f, st, err := safefile.Open(filepath.FromSlash(p))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(h, "file %q absent\n", shown)
		} else {
			fmt.Fprintf(h, "file %q unreadable %s\n", shown, err)
		}
		return
	}
	defer f.Close()
	fmt.Fprintf(h, "file %q %d\n", shown, st.Size())
	if _, err := io.Copy(h, f); err != nil {
		fmt.Fprintf(h, "read error %s\n", err)
	}
}

// Reuse returns the recorded results of ref and its persisted artifacts
// (rules.Reuser).
func (c *Threads) Reuse(ref *mailbox.ThreadRef, arts []rules.ArtifactInput) (*rules.Checked, bool) {
	start := time.Now()
	key, err := c.key(ref, arts)
	if err != nil {
		return nil, false // unreadable: the load reports it
	}
	c.mu.Lock()
	c.pending[ref.Key] = pending{key, start}
	c.mu.Unlock()
	ent, ok := c.get(key)
	if !ok || (c.render && !ent.HasRend) {
		c.Misses.Add(1)
		return nil, false
	}
	c.Hits.Add(1)
	return ent.checked(c.rules, c.artifactRules), true
}

// Keep stores the results of a thread checked in this run (rules.Reuser),
// unless it went past its time budget.
func (c *Threads) Keep(threadKey string, ck *rules.Checked) {
	c.mu.Lock()
	p := c.pending[threadKey]
	c.mu.Unlock()
	if p.key == "" || (c.budget > 0 && time.Since(p.start) >= c.budget) {
		return
	}
	c.add(p.key, c.encode(p.key, entryOf(ck, c.render)))
}

// get returns the entry of key, if the cache holds a valid one, and keeps
// it for the next run.
func (c *Threads) get(key string) (*threadEntry, bool) {
	data, ok := c.store.Get(key)
	if !ok || len(data) == 0 {
		return nil, false
	}
	var e threadEntry
	var err error
	switch data[0] {
	case 'B':
		err = decodeBinary(data[1:], &e, &c.strs)
	case 'J':
		err = json.Unmarshal(data[1:], &e)
	case 'G':
		err = gob.NewDecoder(bytes.NewReader(data[1:])).Decode(&e)
	default:
		err = errors.New("unknown encoding")
	}
	if err != nil || e.Format != threadFormat || e.Key != key {
		return nil, false // corrupt or foreign: a miss
	}
	c.store.Keep(key)
	return &e, true
}

// encode is the stored form of e under key (nil when it cannot be
// encoded: the thread is then not cached).
func (c *Threads) encode(key string, e *threadEntry) []byte {
	e.Format, e.Key = threadFormat, key
	// Binary ("B", codec.go) unless the artifacts' JSON would change a
	// string (below).
	if b, ok := encodeBinary(e); ok && (len(e.Arts) == 0 || !bytes.Contains(b, []byte(`\ufffd`))) {
		return append([]byte{'B'}, b...)
	}
	// JSON ("J"); but JSON writes a string that is not
	// UTF-8 (a file name, say) with U+FFFD, and a warm run's reports would
	// then differ from a cold one's. Such an entry — its encoding holds the
	// escape \ufffd, which the encoder writes only for invalid bytes (or,
	// harmlessly, for a literal backslash-u-fffd) — is stored in gob ("G"),
	// which keeps every byte.
	data, err := json.Marshal(e)
	if err == nil && !bytes.Contains(data, []byte(`\ufffd`)) {
		return append([]byte{'J'}, data...)
	}
	var buf bytes.Buffer
	buf.WriteByte('G')
	if err := gob.NewEncoder(&buf).Encode(e); err != nil {
		return nil
	}
	return buf.Bytes()
}

// add adds an encoded entry to this run's bundle.
func (c *Threads) add(key string, data []byte) {
	if data != nil {
		c.store.Add(key, data)
	}
}

// entryOf records a checked thread and its artifacts.
func entryOf(ck *rules.Checked, withRender bool) *threadEntry {
	r := &ck.Thread
	e := &threadEntry{Summary: r.Summary, Findings: r.Findings, Comments: r.Comments, Internal: r.Internal,
		Facts: r.Facts, Last: ck.Last, Render: ck.Render, HasRend: withRender, Cost: r.Cost}
	e.Summary.Rules = nil
	for _, a := range ck.Artifacts {
		ca := cachedArt{Summary: a.Summary, NoRules: len(a.Summary.Rules) == 0, Findings: a.Findings,
			Comments: a.Comments, Internal: a.Internal, Front: rules.FrontOf(a)}
		ca.Summary.Rules = nil
		e.Arts = append(e.Arts, ca)
	}
	return e
}

// checked rebuilds the thread's and its artifacts' results from e, whose
// summaries list threadRules and artifactRules (the engine's).
func (e *threadEntry) checked(threadRules, artifactRules []string) *rules.Checked {
	ck := &rules.Checked{Last: e.Last, Render: e.Render,
		Thread: rules.ThreadResult{Summary: e.Summary, Findings: e.Findings, Comments: e.Comments, Internal: e.Internal, Facts: e.Facts, Cost: e.Cost}}
	ck.Thread.Summary.Rules = threadRules
	for _, ca := range e.Arts {
		a := ca.Front.Result()
		a.Summary, a.Findings, a.Comments, a.Internal = ca.Summary, ca.Findings, ca.Comments, ca.Internal
		if !ca.NoRules {
			a.Summary.Rules = artifactRules
		}
		ck.Artifacts = append(ck.Artifacts, a)
	}
	return ck
}
