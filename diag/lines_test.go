package diag

import (
	"bytes"
	"testing"
)

// TestCountLinesAfter: counting on from a point whose newlines are known
// gives what counting the whole gives, wherever the point is.
func TestCountLinesAfter(t *testing.T) {
	cases := []string{"", "a", "a\n", "a\r\n", "a\r", "\n", "\n\n", "ab\ncd", "ab\r\ncd\r\n", "é\nüñï\r\n😀x", "\xff\xfe\n\x80abc", "\r\n\r\n"}
	for _, c := range cases {
		data := []byte(c)
		want := CountLines(data)
		for off := 0; off <= len(data); off++ {
			if got := CountLinesAfter(data, off, bytes.Count(data[:off], []byte{'\n'})); got != want {
				t.Errorf("%q from %d: %+v, want %+v", c, off, got, want)
			}
		}
	}
	for c, want := range map[string]Lines{"": {0, 1}, "ab": {1, 3}, "ab\n": {1, 3}, "ab\r\n": {1, 3}, "a\nbé\r": {2, 3}, "a\n\n": {2, 1}} {
		if got := CountLines([]byte(c)); got != want {
			t.Errorf("%q: %+v, want %+v", c, got, want)
		}
	}
}
