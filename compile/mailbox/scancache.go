package mailbox

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
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
// The entries live in a Store (internal/cache keeps them as one bundle
// file per run). Every entry also carries its key and a checksum, so a
// damaged or foreign entry is a miss, never another file's records.
type ScanCache struct {
	// Store holds the entries; the scan closes it when it is done.
	Store Store
	// Salt identifies the build that scans: an entry of another build
	// (whose scan could differ) is never used.
	Salt         string
	Hits, Misses atomic.Int64
}

// Store is where a ScanCache keeps its entries between runs.
type Store interface {
	Get(key string) ([]byte, bool) // an entry of an earlier run
	Keep(key string)               // carry an entry read over into this run's
	Add(key string, data []byte)   // an entry of this run
	Close()                        // put this run's entries in place of those read
}

// scanCacheFormat changes whenever the stored form or a scan's meaning
// changes.
const scanCacheFormat = 3 // 3: a walk names what it does not read, and compares archive copies

// maxCachedFile is the largest file whose scan is stored.
const maxCachedFile = 64 << 20

// scanCached is scanFile with the cache: a hit is decoded instead of
// scanned; a miss is scanned and, when clean, stored.
//
// The result carries the key as the file's content hash (fileResult.sum),
// which lets a thread's cache key name a file that holds only that thread
// instead of hashing its bytes again (ThreadRef.Digest). A file that
// changed while it was scanned (its size or time differ afterwards) is
// neither stored nor named by its hash.
func (c *ScanCache) scanCached(f *inFile, k fileKey) *fileResult {
	key := k.key
	if key == "" {
		return scanFile(f)
	}
	// An entry is read on its own (its records are then used in place and
	// freed with its thread), not with the whole bundle.
	if e, ok := c.Store.Get(key); ok {
		if res := decodeScan(e, key, f.disp); res != nil {
			c.Hits.Add(1)
			c.Store.Keep(key)
			res.sum = key
			return res
		}
	}
	c.Misses.Add(1)
	res := scanFile(f)
	if after, err := os.Stat(f.osPath); err != nil || after.Size() != k.size || after.ModTime().UnixNano() != k.mtime {
		res.sum = "" // nor by an id known before (ScanOptions.Known)
		return res
	}
	if res.read && len(res.findings) == 0 {
		c.Store.Add(key, encodeScan(res, key))
		res.sum = key
	}
	return res
}

var keyBufs = sync.Pool{New: func() any { return new([]byte) }}

// key hashes what a file's scan depends on; its key is "" for a file that
// is not cached (not a regular file of at most maxCachedFile bytes, or not
// readable: the scan reports that).
func (c *ScanCache) key(f *inFile) fileKey {
	if f.skip != "" || f.dirErr != nil {
		return fileKey{}
	}
	fh, err := openInput(f.osPath)
	if err != nil {
		return fileKey{}
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil || !st.regular || st.size > maxCachedFile || (f.maxBytes > 0 && st.size > f.maxBytes) {
		return fileKey{}
	}
	h := sha256.New()
	fmt.Fprintf(h, "brenner-ci scan %d\n%s\n%q %d %t %d %q\n", scanCacheFormat, c.Salt, f.disp, f.role, f.explicit, f.maxBytes, f.agentDir)
	// The file in one read (a pooled buffer one byte longer than the size,
	// so a file that grew is seen) rather than in 32 KiB pieces: a cached
	// run reads every input and little else.
	bp := keyBufs.Get().(*[]byte)
	defer keyBufs.Put(bp)
	if need := int(st.size) + 1; cap(*bp) < need {
		*bp = make([]byte, need)
	}
	buf := (*bp)[:st.size+1]
	n, err := io.ReadFull(fh, buf)
	if int64(n) != st.size || err != io.ErrUnexpectedEOF && err != io.EOF {
		return fileKey{}
	}
	h.Write(buf[:n])
	if cap(*bp) > 4<<20 {
		*bp = nil // do not keep a large file's buffer
	}
	// 32 bytes, not 64 hex digits: 100,000 keys are held.
	return fileKey{key: string(h.Sum(nil)), size: st.size, mtime: st.mtime}
}

// An entry is "BCS", the format, the key, flags, the agents, the packed
// slices (records, shared strings, embedded JSON texts) and the records'
// places in them. The bundle holding it checksums it.
const (
	scanFlagRead = 1 << iota
	scanFlagMarkdown
	scanFlagArtifact
)

func encodeScan(res *fileResult, key string) []byte {
	b := appendString([]byte{'B', 'C', 'S', scanCacheFormat}, key)
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
		b = appendString(b, a)
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
		enc, strs := p.view()
		b = appendString(b, string(enc))
		b = binary.AppendUvarint(b, uint64(p.nstrs()))
		for i := 0; i < p.nstrs(); i++ {
			b = appendString(b, p.str(strs, i))
		}
		b = binary.AppendUvarint(b, uint64(len(p.mems)))
		for _, m := range p.mems {
			b = appendString(b, string(m))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(res.refs)))
	for _, r := range res.refs {
		b = binary.AppendUvarint(b, uint64(index[r.p]))
		b = binary.AppendUvarint(b, uint64(r.off))
	}
	return b
}

// decodeScan reads an entry; nil when it is not a complete entry of key
// (a miss). Every record is unpacked once, so an entry that does not hold
// what encodeScan wrote is a miss here, never a panic in merge.
func decodeScan(data []byte, key, disp string) *fileResult {
	if !bytes.HasPrefix(data, []byte{'B', 'C', 'S', scanCacheFormat}) {
		return nil
	}
	d := reader{B: data[4:]}
	if string(d.Bytes()) != key || len(d.B) == 0 {
		return nil
	}
	fl := d.Byte()
	res := &fileResult{disp: disp, read: fl&scanFlagRead != 0, markdown: fl&scanFlagMarkdown != 0, artifact: fl&scanFlagArtifact != 0}
	for i, n := 0, d.Count(); i < n; i++ {
		res.agents = append(res.agents, d.Str())
	}
	packs := make([]*packed, d.Count())
	for i := range packs {
		// Copied out of the entry, in their exact sizes, so the entry's
		// bytes (with its copies of the shared strings) are not kept.
		p := &packed{enc: append([]byte(nil), d.Bytes()...)}
		var strs []string
		for j, n := 0, d.Count(); j < n; j++ {
			strs = append(strs, d.Str())
		}
		p.setStrs(strs)
		for j, n := 0, d.Count(); j < n; j++ {
			p.mems = append(p.mems, append([]byte{}, d.Bytes()...))
		}
		packs[i] = p
	}
	refs := d.Count()
	res.refs = make([]msgRef, 0, refs)
	for i := 0; i < refs && !d.Bad; i++ {
		pi, off := d.Uvarint(), d.Uvarint()
		if pi >= uint64(len(packs)) || off >= uint64(len(packs[pi].enc)) {
			return nil
		}
		res.refs = append(res.refs, msgRef{packs[pi], uint32(off)})
	}
	if d.Bad || len(d.B) != 0 {
		return nil
	}
	res.keys = make([]uint32, len(res.refs))
	for i, r := range res.refs { // a record that does not unpack (source never panics): a miss
		if s, _, ok := r.source(); !ok || s.File != disp {
			return nil
		}
		k, ok := r.keyIndex()
		if !ok {
			return nil
		}
		res.keys[i] = k
	}
	return res
}
