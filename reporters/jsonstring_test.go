package reporters

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzAppendJSONString holds AppendJSONString to encoding/json with
// SetEscapeHTML(false), which the JSON and SARIF reports have always been
// written with: control bytes, quotes, backslashes, HTML characters, DEL, invalid
// and cut UTF-8, U+2028 and U+2029.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "say \"hi\" \\ back", "\x00\x01\b\f\n\r\t\x1f\x7f", "<a href=\"x\">&amp;</a>",
		"é 漢 😀", "\u2028\u2029", "\xff\xfe", "\xe6\x97", "cut \xf0\x9f\x98", "\ufffd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := AppendJSONString([]byte("x"), s); !bytes.Equal(got[1:], bytes.TrimSuffix(want.Bytes(), []byte("\n"))) || got[0] != 'x' {
			t.Fatalf("AppendJSONString(%q) = %s, encoding/json %s", s, got[1:], want.Bytes())
		}
	})
}
