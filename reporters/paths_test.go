package reporters

import (
	"strings"
	"testing"
)

// TestCountLinesFrom: the streamed line count equals countLines on the whole
// file, whatever the chunk size cuts (runes, CRLF pairs, invalid bytes).
func TestCountLinesFrom(t *testing.T) {
	cases := []string{"", "a", "a\n", "a\r\n", "a\r", "\n", "\n\n", "ab\ncd", "ab\r\ncd\r\n", "é\nüñï\r\n😀x", "x\n😀\r", "\xff\xfe\n\x80abc", "é", "\r\n\r\n", "a\rb\n"}
	for i := 0; i < 50; i++ {
		var b strings.Builder
		for j := 0; j < i*7; j++ {
			b.WriteString([]string{"a", "é", "😀", "\n", "\r\n", "\r", "\xff", "\xe2\x82"}[(i*31+j*17)%8])
		}
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		wl, we := countLines([]byte(c))
		for _, chunk := range []int{1, 2, 3, 5, 64 << 10} {
			l, e, err := countLinesFrom(strings.NewReader(c), chunk)
			if err != nil || l != wl || e != we {
				t.Errorf("%q chunk %d: %d lines, end %d (%v); want %d, %d", c, chunk, l, e, err, wl, we)
			}
		}
	}
}
