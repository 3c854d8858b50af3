package mailbox

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"github.com/brenner-ci/brenner-ci/internal/bundle"
)

// ScanCache keeps the scan of unchanged files between runs (check --cache
// DIR keeps it in DIR/scan), so that a re-run on an unchanged corpus does
// not tokenise its files again: each file's packed records are stored
// under a hash of the file's bytes, its path as reported, its role in an
// archive, the size limit and Salt. The file is still read once, to hash
// it. Only files whose scan found no problem are stored (a file with
// findings is scanned every time, so its findings are always fresh), and
// a file over maxCachedFile bytes is never stored.
//
// The entries of a run are one bundle file (internal/bundle), not a file
// each: a scan reads the bundles it finds, writes the entries it used or
// made to a new bundle and removes the bundles it read. Every entry also
// carries its key and a checksum, so a damaged or foreign entry is a miss,
// never another file's records.
type ScanCache struct {
	Dir string
	// Salt identifies the build that scans: an entry of another build
	// (whose scan could differ) is never used.
	Salt         string
	Hits, Misses atomic.Int64

	r *bundle.Reader
	w *bundle.Writer
}

// scanCacheFormat changes whenever the stored form or a scan's meaning
// changes.
const scanCacheFormat = 1

// maxCachedFile is the largest file whose scan is stored.
const maxCachedFile = 64 << 20

// scanBundles name the scan cache's bundle files.
const scanBundles = ".scan"

// open reads the indexes of the bundles of Dir and starts this run's.
func (c *ScanCache) open() {
	c.r = bundle.Open(c.Dir, scanBundles)
	c.w = bundle.Create(c.Dir, scanBundles)
}

// close puts this run's bundle in place of the ones read; a failure only
// costs misses in the next run.
func (c *ScanCache) close() {
	c.w.Commit(c.r)
	c.r.Close()
}

// scanCached is scanFile with the cache: a hit is decoded instead of
// scanned; a miss is scanned and, when clean, stored.
//
// The result carries the key as the file's content hash (fileResult.sum),
// which lets a thread's cache key name a file that holds only that thread
// instead of hashing its bytes again (ThreadRef.Digest). A file that
// changed while it was scanned (its size or time differ afterwards) is
// neither stored nor named by its hash.
func (c *ScanCache) scanCached(f *inFile) *fileResult {
	key, before, ok := c.key(f)
	if !ok {
		return scanFile(f)
	}
	// An entry is read on its own (its records are then used in place and
	// freed with its thread), not with the whole bundle.
	if e, ok := c.r.Get(key); ok {
		if res := decodeScan(e, key, f.disp); res != nil {
			c.Hits.Add(1)
			c.w.Keep(key)
			res.sum = key
			return res
		}
	}
	c.Misses.Add(1)
	res := scanFile(f)
	if after, err := os.Stat(f.osPath); err != nil || after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		return res
	}
	if res.read && len(res.findings) == 0 {
		c.w.Add(key, encodeScan(res, key))
		res.sum = key
	}
	return res
}

// key hashes what a file's scan depends on; ok is false for a file that is
// not cached (not a regular file of at most maxCachedFile bytes, or not
// readable: the scan reports that).
func (c *ScanCache) key(f *inFile) (string, os.FileInfo, bool) {
	if f.skip != "" || f.dirErr != nil {
		return "", nil, false
	}
	fh, err := os.Open(f.osPath)
	if err != nil {
		return "", nil, false
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxCachedFile || (f.maxBytes > 0 && st.Size() > f.maxBytes) {
		return "", nil, false
	}
	h := sha256.New()
	fmt.Fprintf(h, "brenner-ci scan %d\n%s\n%q %d %t %d %q\n", scanCacheFormat, c.Salt, f.disp, f.role, f.explicit, f.maxBytes, f.agentDir)
	n, err := io.Copy(h, fh)
	if err != nil || n != st.Size() {
		return "", nil, false
	}
	return hex.EncodeToString(h.Sum(nil)), st, true
}

// An entry is "BCS", the format, a checksum of the rest (the first 16
// bytes of its SHA-256: a damaged entry is a miss, never other records),
// then the key, flags, the agents, the packed slices (records, shared
// strings, embedded JSON texts) and the records' places in them.
const (
	scanFlagRead = 1 << iota
	scanFlagMarkdown
	scanFlagArtifact
)

func encodeScan(res *fileResult, key string) []byte {
	var b []byte
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	str(key)
	var fl byte
	if res.read {
		fl |= scanFlagRead
	}
	if res.markdown {
		fl |= scanFlagMarkdown
	}
	if res.artifact {
		fl |= scanFlagArtifact
	}
	b = append(b, fl)
	b = binary.AppendUvarint(b, uint64(len(res.agents)))
	for _, a := range res.agents {
		str(a)
	}
	var packs []*packed
	index := map[*packed]int{}
	for _, r := range res.refs {
		if _, ok := index[r.p]; !ok {
			index[r.p] = len(packs)
			packs = append(packs, r.p)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(packs)))
	for _, p := range packs {
		str(string(p.enc))
		b = binary.AppendUvarint(b, uint64(len(p.strs)))
		for _, s := range p.strs {
			str(s)
		}
		b = binary.AppendUvarint(b, uint64(len(p.mems)))
		for _, m := range p.mems {
			str(string(m))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(res.refs)))
	for _, r := range res.refs {
		b = binary.AppendUvarint(b, uint64(index[r.p]))
		b = binary.AppendUvarint(b, uint64(r.off))
	}
	sum := sha256.Sum256(b)
	return append(append(append([]byte("BCS"), scanCacheFormat), sum[:16]...), b...)
}

// decodeScan reads an entry; nil when it is not a complete entry of key
// (a miss). Every record is unpacked once, so a corrupt entry is a miss
// here, never a panic later.
func decodeScan(data []byte, key, disp string) (res *fileResult) {
	if !bytes.HasPrefix(data, []byte{'B', 'C', 'S', scanCacheFormat}) || len(data) < 20 {
		return nil
	}
	if sum := sha256.Sum256(data[20:]); !bytes.Equal(sum[:16], data[4:20]) {
		return nil
	}
	d := data[20:]
	bad := false
	uv := func() uint64 {
		v, n := binary.Uvarint(d)
		if n <= 0 {
			bad, d = true, nil
			return 0
		}
		d = d[n:]
		return v
	}
	bytesOf := func() []byte {
		n := uv()
		if n > uint64(len(d)) {
			bad, d = true, nil
			return nil
		}
		v := d[:n:n]
		d = d[n:]
		return v
	}
	count := func() int { // a count can never exceed the bytes left
		n := uv()
		if n > uint64(len(d)) {
			bad, d = true, nil
			return 0
		}
		return int(n)
	}
	if string(bytesOf()) != key || bad || len(d) == 0 {
		return nil
	}
	fl := d[0]
	d = d[1:]
	res = &fileResult{disp: disp, read: fl&scanFlagRead != 0, markdown: fl&scanFlagMarkdown != 0, artifact: fl&scanFlagArtifact != 0}
	for i, n := 0, count(); i < n; i++ {
		res.agents = append(res.agents, string(bytesOf()))
	}
	packs := make([]*packed, count())
	for i := range packs {
		// Copied out of the entry, in their exact sizes, so the entry's
		// bytes (with its copies of the shared strings) are not kept.
		p := &packed{enc: append([]byte(nil), bytesOf()...)}
		for j, n := 0, count(); j < n; j++ {
			p.strs = append(p.strs, string(bytesOf()))
		}
		for j, n := 0, count(); j < n; j++ {
			p.mems = append(p.mems, append([]byte{}, bytesOf()...))
		}
		packs[i] = p
	}
	refs := count()
	res.refs = make([]msgRef, 0, refs)
	for i := 0; i < refs && !bad; i++ {
		pi, off := uv(), uv()
		if pi >= uint64(len(packs)) || off >= uint64(len(packs[pi].enc)) {
			return nil
		}
		res.refs = append(res.refs, msgRef{packs[pi], uint32(off)})
	}
	if bad || len(d) != 0 {
		return nil
	}
	defer func() {
		if recover() != nil {
			res = nil // a record that does not unpack: a miss
		}
	}()
	for _, r := range res.refs {
		if m := r.rec().m; m.Src.File != disp {
			return nil
		}
	}
	return res
}
