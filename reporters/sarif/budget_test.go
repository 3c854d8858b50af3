package sarif

import (
	"bytes"
	"compress/gzip"
	"math/rand/v2"
	"strings"
	"testing"
)

// eagerBudget is byteBudget as it was before it put compressing off: every
// spend compressed at once. TestBudgetPutsOffCompressing holds byteBudget
// to it.
type eagerBudget struct {
	maxBytes, maxCompressed int
	raw, pending            int
	z                       *gzip.Writer
	out                     countWriter
	enc                     bytes.Buffer
}

func newEager(maxBytes, maxCompressed int) *eagerBudget {
	b := &eagerBudget{maxBytes: maxBytes, maxCompressed: maxCompressed}
	b.z, _ = gzip.NewWriterLevel(&b.out, gzip.BestSpeed)
	return b
}

func (b *eagerBudget) spend(v any) ([]byte, bool) {
	b.enc.Reset()
	if err := encode(&b.enc, v); err != nil {
		return nil, false
	}
	data := bytes.TrimSuffix(b.enc.Bytes(), []byte{'\n'})
	if b.raw+len(data) > b.maxBytes || b.out.n+b.pending+len(data) > b.maxCompressed {
		return nil, false
	}
	b.raw += len(data)
	b.z.Write(data)
	b.pending += len(data)
	if b.pending >= flushEvery {
		b.z.Flush()
		b.pending = 0
	}
	return data, true
}

// TestBudgetPutsOffCompressing: on sequences of values that compress well,
// badly or not at all, under limits that are reached at different points,
// the budget that puts compressing off accepts and refuses exactly what
// the one that compresses at once does, returns the same bytes, and once
// it compresses has compressed the same bytes to the same size.
func TestBudgetPutsOffCompressing(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 11))
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/"
	value := func(kind int) string {
		n := 1 + rnd.IntN([]int{200, 5000, 70000}[rnd.IntN(3)])
		switch kind {
		case 0: // compresses well
			return strings.Repeat("finding message ", n/16+1)[:n]
		case 1: // random text: compresses a little
			b := make([]byte, n)
			for i := range b {
				b[i] = alphabet[rnd.IntN(len(alphabet))]
			}
			return string(b)
		default: // escape-heavy: raw JSON grows
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(rnd.IntN(32))
			}
			return string(b)
		}
	}
	var compressedSome, refusedSome, neverCompressed bool
	for trial := range 60 {
		maxC := []int{1 << 10, 300 << 10, 700 << 10, 2 << 20, 9 << 20}[trial%5]
		maxB := []int{64 << 20, 900 << 10, 4 << 20}[trial%3]
		lazy := &byteBudget{maxBytes: maxB, maxCompressed: maxC}
		eager := newEager(maxB, maxC)
		kind := trial % 4
		for i := range 150 {
			k := kind
			if k == 3 {
				k = rnd.IntN(3)
			}
			v := map[string]string{"text": value(k)}
			got, okL := lazy.spend(v)
			want, okE := eager.spend(v)
			if okL != okE || !bytes.Equal(got, want) {
				t.Fatalf("trial %d, value %d: put off %v, at once %v", trial, i, okL, okE)
			}
			if lazy.raw != eager.raw || lazy.pending != eager.pending {
				t.Fatalf("trial %d, value %d: raw %d/%d, pending %d/%d", trial, i, lazy.raw, eager.raw, lazy.pending, eager.pending)
			}
			if lazy.z != nil && lazy.out.n != eager.out.n {
				t.Fatalf("trial %d, value %d: compressed %d bytes, at once %d", trial, i, lazy.out.n, eager.out.n)
			}
			if lazy.z == nil && eager.out.n+eager.pending > gzipBound(eager.raw)+flushEvery {
				t.Fatalf("trial %d, value %d: %d compressed and pending bytes, over the bound %d", trial, i, eager.out.n+eager.pending, gzipBound(eager.raw)+flushEvery)
			}
			refusedSome = refusedSome || !okE
		}
		compressedSome = compressedSome || lazy.z != nil
		neverCompressed = neverCompressed || lazy.z == nil && lazy.raw > 1<<20
	}
	if !compressedSome || !refusedSome || !neverCompressed {
		t.Errorf("the trials did not reach every case: compressed %v, refused %v, a large budget never compressed %v", compressedSome, refusedSome, neverCompressed)
	}
}

// TestGzipBound: bytes that do not compress (random, where gzip writes
// more than it was given) never come out larger than gzipBound says, after
// any write and any flush, whatever the sizes of the writes.
func TestGzipBound(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 5))
	for _, chunk := range []int{1, 100, 4096, 65535, 65536, 300 << 10} {
		var out countWriter
		z, _ := gzip.NewWriterLevel(&out, gzip.BestSpeed)
		raw, pending, over := 0, 0, false
		for raw < 3<<20 {
			b := make([]byte, 1+rnd.IntN(chunk))
			for i := range b {
				b[i] = byte(rnd.Uint32())
			}
			z.Write(b)
			raw += len(b)
			pending += len(b)
			if pending >= flushEvery {
				z.Flush()
				pending = 0
			}
			if out.n > gzipBound(raw) {
				t.Fatalf("writes of up to %d bytes: %d bytes compressed from %d, over the bound %d", chunk, out.n, raw, gzipBound(raw))
			}
			over = over || out.n > raw
		}
		if !over {
			t.Errorf("writes of up to %d bytes: never more out than in, so the bound was not tested", chunk)
		}
	}
}
