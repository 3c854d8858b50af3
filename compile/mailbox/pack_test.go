package mailbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestPackRoundTrip packs and unpacks every record of every fixture (and of
// the shared corpus when it is there): an unpacked record must equal the
// scanned one field by field, or Load, ordering and the IN- findings would
// see another message than Scan did.
func TestPackRoundTrip(t *testing.T) {
	inRoot(t)
	roots := []string{"testdata"}
	if _, err := os.Stat("../shared/corpus"); err == nil {
		roots = append(roots, "../shared/corpus")
	} else {
		t.Log("../shared/corpus is absent: round trip on testdata only")
	}
	n := 0
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			f := newInFile(p, filepath.ToSlash(p), filepath.ToSlash(p), true)
			f.maxBytes = DefaultMaxFileBytes
			res := scanRecs(&f)
			want := append([]*rec(nil), res.recs...)
			packRecs(res)
			if len(res.refs) != len(want) {
				t.Fatalf("%s: %d refs for %d records", p, len(res.refs), len(want))
			}
			for i, ref := range res.refs {
				got := ref.rec()
				if k := ref.threadKey(); k != want[i].m.ThreadKey {
					t.Errorf("%s #%d: thread key %q, want %q", p, i, k, want[i].m.ThreadKey)
				}
				got.ref, got.src = msgRef{}, msgRef{}
				if !reflect.DeepEqual(got.m, want[i].m) {
					t.Errorf("%s #%d: message\n got %+v\nwant %+v", p, i, *got.m, *want[i].m)
				}
				got.m = want[i].m
				if !reflect.DeepEqual(got, want[i]) {
					t.Errorf("%s #%d: record\n got %+v\nwant %+v", p, i, *got, *want[i])
				}
				n++
			}
			return nil
		})
	}
	if n < 50 {
		t.Fatalf("only %d records round-tripped; the fixtures should hold more", n)
	}
	t.Logf("%d records", n)
}
