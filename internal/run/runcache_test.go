package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPruneRunEntries: pruning keeps the newest MaxRunEntriesPerShard
// entries of the shard written, leaves other shards' alone, removes an
// earlier version's entries and stale temporaries, and never follows a
// link: what a link points to is untouched.
func TestPruneRunEntries(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	key := func(c byte) string { return strings.Repeat(string(c), 64) }
	now := time.Now()
	touch := func(name string, age time.Duration) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var all []string // newest first
	for i, c := range "0123456789" {
		all = append(all, touch("all-"+key(byte(c))+".run", time.Duration(i)*time.Minute))
	}
	other := touch("shard-1-of-2-"+key('a')+".run", time.Hour)
	legacy := touch(key('b')+".run", time.Second)
	staleTmp := touch(".run-123", 25*time.Hour)
	staleOut := touch(".stdout-123", 25*time.Hour)
	freshTmp := touch(".run-456", time.Minute)
	foreign := touch("notes.txt", 48*time.Hour)
	// A link named as an old entry, and one named as a stale temporary,
	// to files outside.
	target := filepath.Join(outside, "precious")
	os.WriteFile(target, []byte("keep"), 0o644)
	os.Chtimes(target, now.Add(-48*time.Hour), now.Add(-48*time.Hour))
	linkEntry := filepath.Join(dir, "all-"+key('c')+".run")
	linkTmp := filepath.Join(dir, ".stdout-link")
	if err := os.Symlink(target, linkEntry); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	os.Symlink(target, linkTmp)
	// The link's own time is now: make the ten entries newer still.
	for i, p := range all {
		future := now.Add(time.Hour - time.Duration(i)*time.Minute)
		os.Chtimes(p, future, future)
	}

	pruneRunEntries(dir, "all", now)

	exists := func(p string) bool { _, err := os.Lstat(p); return err == nil }
	for i, p := range all {
		if want := i < MaxRunEntriesPerShard; exists(p) != want {
			t.Errorf("entry %d (newest first): kept %t, want %t", i, exists(p), want)
		}
	}
	if exists(linkEntry) {
		t.Error("an old entry that is a link was kept")
	}
	if data, err := os.ReadFile(target); err != nil || string(data) != "keep" {
		t.Errorf("the file a link pointed to was touched: %q, %v", data, err)
	}
	for p, want := range map[string]bool{other: true, legacy: false, staleTmp: false, staleOut: false, freshTmp: true, foreign: true, linkTmp: true} {
		if exists(p) != want {
			t.Errorf("%s: kept %t, want %t", filepath.Base(p), exists(p), want)
		}
	}

	// A cache folder that is a link is left alone.
	link := filepath.Join(t.TempDir(), "run")
	os.Symlink(dir, link)
	pruneRunEntries(link, "shard-1-of-2", now.Add(100*time.Hour))
	if !exists(other) || !exists(freshTmp) {
		t.Error("pruning through a linked folder removed entries")
	}
}

func TestRunShardName(t *testing.T) {
	for spec, want := range map[string]string{"": "all", "2/8": "shard-2-of-8", "1/1": "shard-1-of-1"} {
		if got, ok := runShardName(spec); !ok || got != want {
			t.Errorf("runShardName(%q) = %q, %t; want %q", spec, got, ok, want)
		}
	}
	for _, spec := range []string{"0/2", "3/2", "a/b", "../x"} {
		if _, ok := runShardName(spec); ok {
			t.Errorf("runShardName(%q) accepted", spec)
		}
	}
}
