package rules

// The thread cache (check --cache DIR): a nightly audit re-checks a corpus
// that barely changes, so each thread's results are stored under a hash of
// everything they depend on — the tool version, the configuration and the
// rules (Salt, set by the caller), the thread's input bytes and their
// positions (mailbox.ThreadRef.Digest), and its persisted artifacts and
// evidence packs — and a thread whose hash is in the cache is neither
// loaded nor parsed nor compiled. Concurrent runs can share a cache: an
// entry that does not decode (being written, or cut short) or whose
// recorded key differs is a miss, never a wrong result. Batch rules always
// run on the facts of every thread.

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/bundle"
)

// cacheFormat changes whenever an entry's meaning changes.
const cacheFormat = 4

// ThreadCache is a folder of per-thread results: the entries of a run are
// one bundle file (internal/bundle), which replaces the bundles the run
// read; an entry a run reused is carried over into its bundle.
type ThreadCache struct {
	Dir string
	// Salt identifies everything outside the thread that its results
	// depend on: tool version, configuration, enabled rules, options.
	Salt         string
	Hits, Misses atomic.Int64

	r    *bundle.Reader
	w    *bundle.Writer
	strs interner // strings the entries repeat
}

// threadBundles name the thread cache's bundle files in Dir.
const threadBundles = ".threads"

// open reads the bundles of Dir and starts this run's.
func (c *ThreadCache) open() {
	c.r = bundle.Open(c.Dir, threadBundles)
	c.w = bundle.Create(c.Dir, threadBundles)
}

// close puts this run's bundle in place of the ones read. A failure only
// costs misses in the next run.
func (c *ThreadCache) close() {
	c.w.Commit(c.r)
	c.r.Close()
}

type cacheEntry struct {
	Format   int            `json:"format"`
	Key      string         `json:"key"`
	Summary  diag.Thread    `json:"summary"`
	Findings []diag.Finding `json:"findings"`
	Comments []diag.Comment `json:"comments"`
	Internal []string       `json:"internal"`
	Facts    Facts          `json:"facts"`
	Arts     []cachedArt    `json:"artifacts"`
	Last     time.Time      `json:"last"`
	Render   []byte         `json:"render,omitempty"`
	HasRend  bool           `json:"has_render"`
}

type cachedArt struct {
	Summary  diag.Thread    `json:"summary"`
	NoRules  bool           `json:"no_rules"`
	Findings []diag.Finding `json:"findings"`
	Comments []diag.Comment `json:"comments"`
	Internal []string       `json:"internal"`
	Front    ShardArtifact  `json:"front"`
}

// key hashes the thread's inputs and its persisted artifacts.
func (c *ThreadCache) key(ref *mailbox.ThreadRef, arts []artIn) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "brenner-ci cache %d\n%s\n", cacheFormat, c.Salt)
	if err := ref.Digest(h); err != nil {
		return "", err
	}
	for _, a := range arts {
		fmt.Fprintf(h, "artifact %q %t %t\n", a.path, a.json, a.atPath)
		for _, p := range []string{a.path, EvidencePath(a.path)} {
			data, err := os.ReadFile(filepath.FromSlash(p))
			if err != nil && !os.IsNotExist(err) {
				return "", err
			}
			fmt.Fprintf(h, "file %q %d %t\n", p, len(data), err == nil)
			h.Write(data)
		}
	}
	return string(h.Sum(nil)), nil // 32 bytes, not 64 hex digits: 100,000 keys are held
}

// get returns the entry of key, if the cache holds a valid one, and keeps
// it for the next run.
func (c *ThreadCache) get(key string) (*cacheEntry, bool) {
	data, ok := c.r.Get(key)
	if !ok || len(data) == 0 {
		return nil, false
	}
	var e cacheEntry
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
	if err != nil || e.Format != cacheFormat || e.Key != key {
		return nil, false // corrupt or foreign: a miss
	}
	c.w.Keep(key)
	return &e, true
}

// encode is the stored form of e under key (nil when it cannot be
// encoded: the thread is then not cached).
func (c *ThreadCache) encode(key string, e *cacheEntry) []byte {
	e.Format, e.Key = cacheFormat, key
	// Binary ("B", cachecodec.go) unless the artifacts' JSON would change a
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

// store adds an encoded entry to this run's bundle.
func (c *ThreadCache) store(key string, data []byte) {
	if data != nil {
		c.w.Add(key, data)
	}
}

// entryOf records a checked thread and its artifacts.
func entryOf(r ThreadResult, arts []ArtifactResult, last time.Time, render []byte, withRender bool) *cacheEntry {
	e := &cacheEntry{Summary: r.Summary, Findings: r.Findings, Comments: r.Comments, Internal: r.Internal,
		Facts: r.Facts, Last: last, Render: render, HasRend: withRender}
	e.Summary.Rules = nil
	for _, a := range arts {
		ca := cachedArt{Summary: a.Summary, NoRules: len(a.Summary.Rules) == 0, Findings: a.Findings,
			Comments: a.Comments, Internal: a.Internal, Front: frontOf(a)}
		ca.Summary.Rules = nil
		e.Arts = append(e.Arts, ca)
	}
	return e
}

// results rebuilds the thread's and its artifacts' results from e.
func (e *cacheEntry) results(eng *Engine) (ThreadResult, []ArtifactResult) {
	r := ThreadResult{Summary: e.Summary, Findings: e.Findings, Comments: e.Comments, Internal: e.Internal, Facts: e.Facts}
	r.Summary.Rules = eng.ids
	var arts []ArtifactResult
	for _, ca := range e.Arts {
		a := ArtifactResult{Summary: ca.Summary, Findings: ca.Findings, Comments: ca.Comments, Internal: ca.Internal,
			Skipped: ca.Front.Skipped, Parsed: ca.Front.parsed()}
		if !ca.NoRules {
			a.Summary.Rules = eng.artifactIDs
		}
		arts = append(arts, a)
	}
	return r, arts
}

// frontOf is the front matter a batch rule reads of an artifact result.
func frontOf(a ArtifactResult) ShardArtifact {
	sa := ShardArtifact{Skipped: a.Skipped}
	if p := a.Parsed; p != nil {
		sa.File, sa.FromJSON, sa.HasFrontMatter, sa.FrontPos = p.File, p.FromJSON, p.HasFrontMatter, p.FrontPos
		for _, f := range p.Front {
			if batchFrontKeys[f.Key] {
				sa.Front = append(sa.Front, ShardFront{Key: f.Key, Value: scalarValue(f.Value), Raw: f.Raw, Pos: f.Pos, KeyPos: f.KeyPos})
			}
		}
	}
	return sa
}

// parsed is the front-only Parsed of a recorded artifact (nil when it had
// none).
func (a ShardArtifact) parsed() *artifact.Parsed {
	if a.File == "" {
		return nil
	}
	p := &artifact.Parsed{File: a.File, FromJSON: a.FromJSON, HasFrontMatter: a.HasFrontMatter, FrontPos: a.FrontPos}
	for _, f := range a.Front {
		p.Front = append(p.Front, artifact.FrontField{Key: f.Key, Value: jsonScalar(f.Value), Raw: f.Raw, Pos: f.Pos, KeyPos: f.KeyPos})
	}
	return p
}
