// Package shard splits a check over machines: a nightly audit outgrows one
// machine, so `check --shard i/N` checks one part of the threads and writes
// a shard file, and `merge` runs the batch rules on the shard files, then
// the findings pipeline and the reporters, so that N shards give the reports
// of one unsharded run.
//
// Every shard scans every input, so all shards agree on the batch: the
// threads, their order, which artifact belongs to which thread. A thread
// goes to the shard of a hash of its thread id (Key); a persisted artifact
// goes with the thread it is paired with; a file-level input finding goes
// to the shard of a hash of its path. A thread the scan can check while it
// holds its file (mailbox.Early) is checked there by its own shard only,
// and the others keep nothing of it but its name (Early).
package shard

import (
	"bytes"
	"encoding/base64"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/diag"
	"github.com/brenner-ci/brenner-ci/internal/safefile"
	"github.com/brenner-ci/brenner-ci/rules"
)

// Format names the shard file format; FormatVersion is its version.
const (
	Format        = "brenner-ci-shard"
	FormatVersion = 5
)

// Of returns the shard (0 ≤ shard < n) of key.
func Of(key string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(key))
	return int(h.Sum64() % uint64(n))
}

// Key is the shard key of a thread of key and thread id: its thread id
// when it has one (all projects' threads of one id stay together), else
// its key. Lower case: threads whose artifact files would be one file on a
// case-insensitive file system (TH-008) are written by one shard, which
// sees the clash.
func Key(threadKey, threadID string) string {
	if threadID != "" {
		threadKey = threadID
	}
	return strings.ToLower(threadKey)
}

// Early is the scan's early check e (rules.Engine.Early) for shard i
// (0-based) of n: a thread of another shard, by its Key, is neither
// loaded nor checked, and OtherShard stands for it. Partition leaves it
// to its shard, where it was checked. Partition may yet give it to this
// shard, when another thread's id is the same as its key (Partition maps
// keys and ids alike): OtherShard is no result the engine takes, so the
// thread's file is then read again and the thread checked as any other.
func Early(e *mailbox.Early, i, n int) *mailbox.Early {
	if e == nil || n <= 1 {
		return e
	}
	out := *e
	out.Elsewhere = func(key, threadID string) any {
		if Of(Key(key, threadID), n) != i {
			return OtherShard{}
		}
		return nil
	}
	return &out
}

// OtherShard is what Early keeps for a thread of another shard: nothing.
type OtherShard struct{}

// Part is the part of a batch one shard checks. Order gives every kept
// artifact and thread its place in the unsharded run (artifacts first, in
// input order, then threads in key order), so a merge restores it.
type Part struct {
	Batch *mailbox.Batch
	// ArtifactOrder and ThreadOrder are aligned with the kept
	// Markdown+ArtifactJSON files and Threads.
	ArtifactOrder, ThreadOrder []int
}

// Sessions tells the session id a persisted artifact file declares
// (*rules.Engine).
type Sessions interface {
	ArtifactSession(path string, fromJSON bool) string
}

// Partition returns shard i (0-based) of n of b; artifacts go with the
// threads they declare (by sessions).
func Partition(b *mailbox.Batch, sessions Sessions, i, n int) *Part {
	// The shard key of every thread id and key (Key).
	keyOf := make(map[string]string, 2*len(b.Threads))
	for _, t := range b.Threads {
		k := Key(t.Key, t.ThreadID())
		keyOf[t.Key] = k
		if id := t.ThreadID(); id != "" {
			keyOf[id] = k
		}
	}
	part := &Part{Batch: &mailbox.Batch{Agents: b.Agents, Files: b.Files}}
	pb := part.Batch
	order := 0
	artifactKey := func(path string, fromJSON bool) string {
		sid := sessions.ArtifactSession(path, fromJSON)
		// Paired as persistedThreads pairs: by session_id when that is a
		// thread of the batch, else by file name.
		if k, ok := keyOf[sid]; ok && sid != "" {
			return k
		}
		if k, ok := keyOf[rules.ArtifactPathThread(path)]; ok {
			return k
		}
		if sid != "" {
			return strings.ToLower(sid)
		}
		return strings.ToLower(rules.ArtifactPathThread(path))
	}
	for _, p := range b.Markdown {
		if Of(artifactKey(p, false), n) == i {
			pb.Markdown = append(pb.Markdown, p)
			part.ArtifactOrder = append(part.ArtifactOrder, order)
		}
		order++
	}
	for _, p := range b.ArtifactJSON {
		if Of(artifactKey(p, true), n) == i {
			pb.ArtifactJSON = append(pb.ArtifactJSON, p)
			part.ArtifactOrder = append(part.ArtifactOrder, order)
		}
		order++
	}
	for _, t := range b.Threads {
		if Of(keyOf[t.Key], n) == i {
			pb.Threads = append(pb.Threads, t)
			part.ThreadOrder = append(part.ThreadOrder, order)
		}
		order++
	}
	for _, f := range b.Findings {
		if Of(f.Pos.File, n) == i {
			pb.Findings = append(pb.Findings, f)
		}
	}
	return part
}

// Shard is what a shard file carries (Write, Read): one shard's
// raw results (before the batch rules and the findings pipeline) and what
// the batch rules need of its threads and artifacts.
type Shard struct {
	Format        string `json:"format"`
	FormatVersion int    `json:"format_version"`
	Tool          string `json:"tool_version"`
	// Index is 1-based: shard Index of Count.
	Index int `json:"shard"`
	Count int `json:"shards"`
	// Config identifies the configuration (a hash of its file, "" with the
	// defaults) and Rules the rules it enabled: every shard of a merge must
	// agree on both.
	Config string   `json:"config"`
	Rules  []string `json:"rules"`
	Inputs []string `json:"inputs"`
	// Last is the instant of the last message of the shard's threads.
	Last          time.Time           `json:"last"`
	Findings      []diag.Finding      `json:"findings"`
	Comments      []diag.Comment      `json:"comments"`
	Notifications []diag.Notification `json:"notifications"`
	Internal      bool                `json:"internal"`
	Threads       []Thread            `json:"threads"`
	Artifacts     []Artifact          `json:"artifacts"`
	// Cost is what the shard's rules with a budget spent (rules.Output.Cost):
	// the merge adds them up and decides as one run would.
	Cost map[string]uint64 `json:"cost,omitempty"`
}

// Thread is one thread summary of a shard (an artifact's summary too:
// the report lists both), with its place in the unsharded run and, for
// threads, its facts.
type Thread struct {
	Order    int         `json:"order"`
	Summary  diag.Thread `json:"summary"`
	Artifact bool        `json:"artifact,omitempty"`
	// NoRules is set when no rule was evaluated on it (an artifact path
	// holding no artifact); otherwise its rules are the engine's.
	NoRules bool         `json:"no_rules,omitempty"`
	Facts   *rules.Facts `json:"facts,omitempty"`
}

// Artifact is a persisted artifact's front matter record with its place in
// the unsharded run.
type Artifact struct {
	Order int `json:"order"`
	rules.FrontRecord
}

// New records a shard's results: out and batch from RunThreads on
// part.
func New(out *rules.Output, batch *rules.Batch, part *Part) *Shard {
	s := &Shard{Format: Format, FormatVersion: FormatVersion,
		Findings: out.Findings, Comments: out.Comments, Notifications: out.Notifications, Internal: out.Internal, Cost: out.Cost}
	// out.Threads lists the artifacts kept (not skipped), then the threads.
	ai := 0
	for i := range batch.Artifacts {
		a := &batch.Artifacts[i]
		sa := Artifact{Order: part.ArtifactOrder[i], FrontRecord: rules.FrontOf(*a)}
		s.Artifacts = append(s.Artifacts, sa)
		if !a.Skipped {
			sum := out.Threads[ai]
			none := len(sum.Rules) == 0
			sum.Rules = nil // the merge's engine has the same rules
			s.Threads = append(s.Threads, Thread{Order: part.ArtifactOrder[i], Summary: sum, Artifact: true, NoRules: none})
			ai++
		}
	}
	// The threads' summaries follow the kept artifacts' in out.Threads.
	for i := range batch.Threads {
		sum := out.Threads[ai+i]
		sum.Rules = nil
		f := batch.Threads[i].Facts
		s.Threads = append(s.Threads, Thread{Order: part.ThreadOrder[i], Summary: sum, Facts: &f})
	}
	return s
}

// Merge checks that shards are the N shards of one run — same tool,
// configuration, rules, inputs and count, each index once — and rebuilds
// the run's raw output and batch, in the unsharded run's order, for
// Engine.Finish. It also returns the instant of the last message.
func Merge(shards []*Shard, e *rules.Engine) (*rules.Output, *rules.Batch, time.Time, error) {
	if len(shards) == 0 {
		return nil, nil, time.Time{}, fmt.Errorf("no shard files")
	}
	first := shards[0]
	seen := map[int]bool{}
	for _, s := range shards {
		switch {
		case s.Format != Format || s.FormatVersion != FormatVersion:
			return nil, nil, time.Time{}, fmt.Errorf("shard %d/%d: not a brenner-ci shard file of format version %d", s.Index, s.Count, FormatVersion)
		case s.Count != first.Count:
			return nil, nil, time.Time{}, fmt.Errorf("shard %d/%d and shard %d/%d come from runs with different shard counts", first.Index, first.Count, s.Index, s.Count)
		case s.Tool != first.Tool || s.Config != first.Config || !slices.Equal(s.Rules, first.Rules) || !slices.Equal(s.Inputs, first.Inputs):
			return nil, nil, time.Time{}, fmt.Errorf("shard %d/%d and shard %d/%d come from different runs (tool version, configuration, rules or inputs differ)", first.Index, first.Count, s.Index, s.Count)
		case s.Index < 1 || s.Index > s.Count:
			return nil, nil, time.Time{}, fmt.Errorf("shard %d/%d: index out of range", s.Index, s.Count)
		case seen[s.Index]:
			return nil, nil, time.Time{}, fmt.Errorf("shard %d/%d is given twice", s.Index, s.Count)
		}
		seen[s.Index] = true
	}
	var missing []int
	for i := 1; i <= first.Count; i++ {
		if !seen[i] {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		return nil, nil, time.Time{}, fmt.Errorf("shards %v of %d are missing: a partial merge would report a partial run", missing, first.Count)
	}
	if !slices.Equal(first.Rules, e.Enabled()) {
		return nil, nil, time.Time{}, fmt.Errorf("the shards were checked with other rules enabled than this configuration enables: merge with the shards' configuration")
	}
	out := &rules.Output{}
	var last time.Time
	var threads []Thread
	var arts []Artifact
	for _, s := range shards {
		out.Findings = append(out.Findings, s.Findings...)
		out.Comments = append(out.Comments, s.Comments...)
		out.Notifications = append(out.Notifications, s.Notifications...)
		out.Internal = out.Internal || s.Internal
		for id, n := range s.Cost {
			if out.Cost == nil {
				out.Cost = map[string]uint64{}
			}
			out.Cost[id] += n
		}
		threads = append(threads, s.Threads...)
		arts = append(arts, s.Artifacts...)
		if s.Last.After(last) {
			last = s.Last
		}
	}
	sort.Slice(threads, func(i, j int) bool { return threads[i].Order < threads[j].Order })
	sort.Slice(arts, func(i, j int) bool { return arts[i].Order < arts[j].Order })
	batch := &rules.Batch{}
	for _, a := range arts {
		batch.Artifacts = append(batch.Artifacts, a.Result())
	}
	for _, t := range threads {
		sum := t.Summary
		switch {
		case t.NoRules:
			sum.Rules = nil
		case t.Artifact:
			sum.Rules = e.ArtifactRules()
		default:
			sum.Rules = e.Enabled()
		}
		out.Threads = append(out.Threads, sum)
		if t.Facts != nil {
			batch.Threads = append(batch.Threads, rules.ThreadFacts{Facts: *t.Facts, File: sum.File})
		}
	}
	return out, batch, last, nil
}

// shardFile is a shard file as written: a readable JSON header, and the
// shard itself gob-encoded (so that every string, a file name that is not
// UTF-8 included, survives byte for byte; JSON would replace such bytes) in
// base64.
type shardFile struct {
	Format        string `json:"format"`
	FormatVersion int    `json:"format_version"`
	Tool          string `json:"tool_version"`
	Index         int    `json:"shard"`
	Count         int    `json:"shards"`
	Config        string `json:"config"`
	Threads       int    `json:"threads"`
	Findings      int    `json:"findings"`
	Payload       string `json:"payload"`
}

// Write writes s as a shard file.
func Write(w io.Writer, s *Shard) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(s); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(shardFile{Format: s.Format, FormatVersion: s.FormatVersion, Tool: s.Tool, Index: s.Index, Count: s.Count,
		Config: s.Config, Threads: len(s.Threads), Findings: len(s.Findings), Payload: base64.StdEncoding.EncodeToString(buf.Bytes())})
}

// MaxFileBytes bounds a shard file: a shard holds its threads' findings,
// far below this; an oversize (or endless) file is refused, not read.
const MaxFileBytes = 2 << 30

// Read reads a shard file (a regular file, not a link, at most
// MaxFileBytes).
func Read(path string) (*Shard, error) {
	data, err := safefile.Read(path, MaxFileBytes)
	if err != nil {
		return nil, err
	}
	var f shardFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: not a shard file: %v", path, err)
	}
	if f.Format != Format {
		return nil, fmt.Errorf("%s: not a brenner-ci shard file (format %q)", path, f.Format)
	}
	if f.FormatVersion != FormatVersion {
		return nil, fmt.Errorf("%s: shard format version %d; this brenner-ci reads %d", path, f.FormatVersion, FormatVersion)
	}
	raw, err := base64.StdEncoding.DecodeString(f.Payload)
	if err != nil {
		return nil, fmt.Errorf("%s: damaged shard payload: %v", path, err)
	}
	var s Shard
	if err := gob.NewDecoder(bytes.NewReader(raw)).Decode(&s); err != nil {
		return nil, fmt.Errorf("%s: damaged shard payload: %v", path, err)
	}
	if s.Index != f.Index || s.Count != f.Count || s.Config != f.Config || s.Tool != f.Tool {
		return nil, fmt.Errorf("%s: the shard header and its payload disagree", path)
	}
	return &s, nil
}
