package bundle

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func write(t *testing.T, dir string, entries map[string][]byte, keep []string) {
	t.Helper()
	r := Open(dir, ".b")
	defer r.Close()
	w := Create(dir, ".b")
	for _, k := range keep {
		w.Keep(k)
	}
	var wg sync.WaitGroup
	for k, v := range entries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.Add(k, v)
		}()
	}
	wg.Wait()
	w.Add("k0", []byte("a second Add of a key is ignored"))
	if err := w.Commit(r); err != nil {
		t.Fatal(err)
	}
}

// TestBundles: entries written from several goroutines are read back
// whole; a damaged entry, a bundle cut short and a foreign file are
// misses, never wrong bytes; a commit replaces the bundles read.
func TestBundles(t *testing.T) {
	dir := t.TempDir()
	entries := map[string][]byte{}
	for i := range 200 {
		entries[fmt.Sprintf("k%d", i)] = bytes.Repeat([]byte{byte(i)}, i*7)
	}
	write(t, dir, entries, nil)
	r := Open(dir, ".b")
	if r.Len() != len(entries) {
		t.Fatalf("%d entries read, want %d", r.Len(), len(entries))
	}
	for k, v := range entries {
		got, ok := r.Get(k)
		if !ok || !bytes.Equal(got, v) {
			t.Fatalf("%s: got %d bytes (ok %t), want %d", k, len(got), ok, len(v))
		}
	}
	if _, ok := r.Get("absent"); ok {
		t.Error("absent key found")
	}
	r.Close()

	// A run that reuses every entry and adds none writes nothing.
	before, _ := filepath.Glob(filepath.Join(dir, "*.b"))
	var allKeys []string
	for k := range entries {
		allKeys = append(allKeys, k)
	}
	write(t, dir, nil, allKeys)
	after, _ := filepath.Glob(filepath.Join(dir, "*.b"))
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("an unchanged run replaced %v by %v", before, after)
	}

	// A run that keeps 60 entries and adds 40 replaces the bundle.
	half := map[string][]byte{}
	var keep []string
	for i := range 100 {
		k := fmt.Sprintf("k%d", i)
		if i < 60 {
			keep = append(keep, k)
		} else {
			half[k] = entries[k]
		}
	}
	write(t, dir, half, keep)
	names, _ := filepath.Glob(filepath.Join(dir, "*.b"))
	if len(names) != 1 {
		t.Fatalf("%d bundles after a commit that replaces the one read", len(names))
	}
	r = Open(dir, ".b")
	if r.Len() != 100 {
		t.Fatalf("%d entries after the replacement, want 100", r.Len())
	}
	r.Close()

	// Damage an entry's bytes: that entry is a miss, the others are read.
	data, _ := os.ReadFile(names[0])
	target := entries["k99"]
	i := bytes.Index(data, target)
	data[i+3] ^= 0xff
	os.WriteFile(names[0], data, 0o644)
	// A bundle cut short (a run that died) and a foreign file are skipped.
	os.WriteFile(filepath.Join(dir, "cut.b"), data[:len(data)/2], 0o644)
	os.WriteFile(filepath.Join(dir, "foreign.b"), []byte("hello"), 0o644)
	r = Open(dir, ".b")
	defer r.Close()
	if _, ok := r.Get("k99"); ok {
		t.Error("a damaged entry was returned")
	}
	if got, ok := r.Get("k98"); !ok || !bytes.Equal(got, entries["k98"]) {
		t.Error("an intact entry next to a damaged one was lost")
	}
	if len(r.Paths()) != 3 {
		t.Errorf("paths %v: a commit must replace the bundle and the two unreadable files", r.Paths())
	}
}

// TestForgedBundles: a cache folder restored from elsewhere is a hint.
// A sparse 64 GiB bundle whose index claims all of it, a bundle that is a
// link to /dev/zero or to a FIFO, and a folder that is a link outside are
// misses: nothing is allocated for them, nothing blocks, nothing outside
// is read, written or removed; Ignored says why.
func TestForgedBundles(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.b")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(magic)
	const size = 64 << 30
	var tail [8]byte
	tail[0] = byte(len(magic)) // the index "starts" after the magic: 64 GiB of it
	if _, err := f.WriteAt(append(tail[:], trailer...), size-int64(len(tail)+len(trailer))); err != nil {
		f.Close()
		t.Skipf("no sparse files here: %v", err)
	}
	f.Close()
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.b")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	r := Open(dir, ".b")
	if r.Len() != 0 || len(r.Ignored) != 2 {
		t.Fatalf("forged bundles: %d entries, ignored %q", r.Len(), r.Ignored)
	}
	w := Create(dir, ".b")
	w.Add("k", []byte("v"))
	if err := w.Commit(r); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if _, err := os.Lstat(filepath.Join(dir, "zero.b")); err != nil {
		t.Errorf("the link was removed or followed: %v", err)
	}

	outside := t.TempDir()
	link := filepath.Join(t.TempDir(), "scan")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(outside, "old.b"), []byte("someone else's file"), 0o644)
	r = Open(link, ".b")
	w = Create(link, ".b")
	w.Add("k", []byte("v"))
	if err := w.Commit(r); err == nil {
		t.Error("a bundle was committed through a link to a folder outside")
	}
	names, _ := os.ReadDir(outside)
	if len(names) != 1 || names[0].Name() != "old.b" {
		t.Errorf("the folder outside changed: %v", names)
	}
}

// TestBundleWriteInPlace: a committed bundle is the only file a run leaves
// (no temporary file), it is created with mode 0600 less the umask (a
// cache is the run's own), and a bundle folder that is a link is refused:
// nothing is written where it points.
func TestBundleWriteInPlace(t *testing.T) {
	dir := t.TempDir()
	w := Create(dir, ".b")
	w.Add("k", []byte("v"))
	if err := w.Commit(Open(dir, ".b")); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || filepath.Ext(ents[0].Name()) != ".b" || ents[0].Name()[0] == '.' {
		t.Fatalf("folder holds %v, want one bundle", ents)
	}
	if st, err := os.Stat(filepath.Join(dir, ents[0].Name())); err != nil || st.Mode().Perm()&0o077 != 0 {
		t.Errorf("bundle mode %v (%v)", st.Mode(), err)
	}

	elsewhere := t.TempDir()
	link := filepath.Join(t.TempDir(), "cache")
	if err := os.Symlink(elsewhere, link); err != nil {
		t.Skip(err)
	}
	w = Create(link, ".b")
	w.Add("k", []byte("v"))
	if err := w.Commit(Open(link, ".b")); err == nil {
		t.Error("a bundle written into a linked folder")
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("written through the link: %v", ents)
	}
}

// TestLateCallers: a thread left running past its time budget may still
// read, keep and add entries after the run has committed its bundle and
// closed the ones it read. Reads then miss (under -race: no race with
// Close), and nothing is stored or left behind: the folder holds the
// committed bundle alone. (Late entries added before the commit may be
// in it: the cache is a hint.)
func TestLateCallers(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string][]byte{"old": []byte("old entry")}, nil)
	r := Open(dir, ".b")
	w := Create(dir, ".b")
	w.Add("new", []byte("new entry"))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for j := range 200 {
				r.Get("old")
				w.Keep("old")
				w.Add(fmt.Sprintf("late%d-%d", i, j), []byte("late entry"))
			}
		}()
	}
	close(start)
	if err := w.Commit(r); err != nil {
		t.Fatal(err)
	}
	r.Close()
	wg.Wait()
	if _, ok := r.Get("old"); ok {
		t.Error("a closed Reader returned an entry")
	}
	w.Add("after", []byte("after the commit"))
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(names) != 1 {
		t.Fatalf("the folder holds %q, want the committed bundle alone", names)
	}
	got := Open(dir, ".b")
	defer got.Close()
	if _, ok := got.Get("new"); !ok {
		t.Error("the entry added before the commit is missing")
	}
	if _, ok := got.Get("after"); ok {
		t.Error("an entry added after the commit was stored")
	}
}
