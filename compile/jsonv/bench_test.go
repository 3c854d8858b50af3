package jsonv

import (
	"strings"
	"testing"
)

// benchDelta is a typical delta block.
const benchDelta = `{
  "operation": "ADD",
  "section": "discriminative_tests",
  "target_id": null,
  "payload": {
    "name": "Chromatin mark tracking",
    "procedure": "Monitor H3K27me3 in transplanted cells \u2014 \"daily\"",
    "discriminates": "H4 vs H1/H2",
    "expected_outcomes": {"H1": "Marks follow lineage", "H2": "Marks follow position"},
    "potency_check": "Positive control with known stable marks",
    "score": {"likelihood_ratio": 2, "cost": 2, "speed": 1, "ambiguity": 2.5e0},
    "anchors": ["§161", "§205", true, false]
  },
  "rationale": "Test specifically targeting the new hypothesis"
}`

func BenchmarkParse(b *testing.B) {
	for _, c := range []struct{ name, src string }{
		{"delta", benchDelta},
		{"pack", `{"version": "0.1", "records": [` + strings.Repeat(benchDelta+",", 200) + benchDelta + `]}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			src := []byte(c.src)
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendDecoded decodes message bodies as exports write them:
// prose, an escaped newline every line, some quotes and a few non-ASCII
// letters; and a delta block, whose every key and string value is quoted
// (gen_corpus.py's bodies escape a quote or a line break every 21 bytes).
func BenchmarkAppendDecoded(b *testing.B) {
	line := `- **Claim**: Variation in p99.9 latency reflects that pools \"reconnect\" after idle timeouts — §185.\n`
	delta := strings.ReplaceAll(strings.ReplaceAll(benchDelta, `\`, `\\`), `"`, `\"`)
	delta = "```delta\\n" + strings.ReplaceAll(delta, "\n", `\n`) + "\\n```\\n"
	for _, c := range []struct{ name, body string }{
		{"prose", strings.Repeat(line, 100)},
		{"delta", strings.Repeat(delta, 10)},
	} {
		b.Run(c.name, func(b *testing.B) {
			lit := []byte(`"` + c.body + `"`)
			if _, err := new(Scanner).Scan(lit, 0, len(lit)); err != nil {
				b.Fatal(err)
			}
			var dst []byte
			b.SetBytes(int64(len(lit)))
			for b.Loop() {
				dst = AppendDecoded(dst[:0], lit, nil)
			}
		})
	}
}

// BenchmarkScanExport scans a thread export: message objects whose bodies
// are long strings with an escaped newline on every line and escaped
// quotes in their delta blocks (most of a scan is string literals).
func BenchmarkScanExport(b *testing.B) {
	line := `- **Claim**: Variation in p99.9 latency reflects that pools \"reconnect\" after idle timeouts — §185.\n`
	delta := strings.ReplaceAll(strings.ReplaceAll(benchDelta, `\`, `\\`), `"`, `\"`)
	delta = strings.ReplaceAll(delta, "\n", `\n`)
	msg := `{"id": 12, "subject": "DELTA[gpt]: slate", "from": "BlueLake", "to": ["GreenCastle"], "body_md": "` +
		strings.Repeat(line, 20) + "```delta\\n" + delta + "\\n```\\n" + `", "created_ts": "2026-01-14T10:00:00Z"}`
	src := []byte(`{"thread_id": "RS-1", "messages": [` + strings.Repeat(msg+",", 9) + msg + `]}`)
	var s Scanner
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := s.Scan(src, 0, len(src)); err != nil {
			b.Fatal(err)
		}
	}
}
