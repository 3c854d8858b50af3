package mailbox

import (
	"path/filepath"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/testutil"
)

// TestDecodeScanDamaged: a stored scan entry that is cut short or has a
// byte changed decodes to a miss or to records that all unpack, never to a
// panic (decodeScan checks every record with source, which does not panic);
// the intact entry decodes to the records scanned.
func TestDecodeScanDamaged(t *testing.T) {
	root := testutil.ModuleRoot(t)
	for _, name := range []string{"testdata/ingest/thread/thread.json", "testdata/ingest/jsonl/mailbox.jsonl"} {
		path := filepath.Join(root, filepath.FromSlash(name))
		res := scanFile(&inFile{disp: name, osPath: path, explicit: true})
		packRecs(res)
		if !res.read || len(res.refs) == 0 {
			t.Fatalf("%s: nothing scanned (%d records)", name, len(res.refs))
		}
		key := "0123456789abcdef0123456789abcdef"
		entry := encodeScan(res, key)
		got := decodeScan(entry, key, name)
		if got == nil || len(got.refs) != len(res.refs) {
			t.Fatalf("%s: the intact entry does not decode", name)
		}
		for i, r := range got.refs {
			if a, b := r.rec().m, res.refs[i].rec().m; a.ID != b.ID || a.Src.File != b.Src.File || a.Src.Line != b.Src.Line || a.Src.off != b.Src.off || a.Src.end != b.Src.end {
				t.Fatalf("%s #%d: decoded %+v, scanned %+v", name, i, a, b)
			}
		}
		check := func(what string, data []byte) {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("%s %s: panic %v", name, what, p)
				}
			}()
			if d := decodeScan(data, key, name); d != nil {
				for _, r := range d.refs {
					if _, _, ok := r.source(); !ok {
						t.Fatalf("%s %s: a record that does not unpack was kept", name, what)
					}
				}
			}
		}
		for n := 0; n < len(entry); n++ {
			check("cut", entry[:n])
		}
		for i := range entry {
			for _, x := range []byte{0x01, 0x80, 0xff} {
				bad := append([]byte(nil), entry...)
				bad[i] ^= x
				check("flipped", bad)
			}
		}
	}
}
