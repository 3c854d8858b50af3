package jsonv_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/internal/run"

	"github.com/brenner-ci/brenner-ci/compile/artifact"
	"github.com/brenner-ci/brenner-ci/compile/body"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/jsonv"
	"github.com/brenner-ci/brenner-ci/compile/limits"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/rules"
)

// The JSON entry points of brenner-ci: each returns the messages of the
// syntax problems it reports for the input text.

// exportMessages scans text as an Agent Mail export file.
func exportMessages(t *testing.T, text string) []string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "thread.json")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := mailbox.Scan([]string{p}, mailbox.ScanOptions{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, f := range b.Findings {
		msgs = append(msgs, f.Message)
	}
	return msgs
}

// deltaMessages analyses text as a ```delta block in a message body.
func deltaMessages(t *testing.T, text string) []string {
	t.Helper()
	blocks, probs := delta.Analyze(body.Parse("## Deltas\n\n```delta\n"+text+"\n```\n"), limits.Parse{})
	var msgs []string
	for _, p := range probs {
		msgs = append(msgs, p.Message)
	}
	for _, b := range blocks {
		for _, p := range b.Problems {
			msgs = append(msgs, p.Message)
		}
	}
	return msgs
}

// evidenceMessages loads text as the evidence pack of an artifact.
func evidenceMessages(t *testing.T, text string) []string {
	t.Helper()
	dir := t.TempDir()
	art := filepath.Join(dir, "artifact.md")
	if err := os.WriteFile(filepath.Join(dir, "evidence.json"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	pack, f := rules.LoadEvidence(run.OSFiles{}, art, limits.Parse{})
	if f != nil {
		t.Fatalf("LoadEvidence: %+v", f)
	}
	if pack == nil {
		t.Fatal("LoadEvidence found no pack")
	}
	var msgs []string
	for _, p := range pack.Problems {
		msgs = append(msgs, p.Message)
	}
	return msgs
}

// artifactMessages parses text as a JSON artifact object.
func artifactMessages(t *testing.T, text string) []string {
	t.Helper()
	p := artifact.ParseJSONObject([]byte(text), "artifact.json")
	var msgs []string
	for _, f := range p.Findings {
		msgs = append(msgs, f.Message)
	}
	return msgs
}

var entryPoints = []struct {
	name string
	msgs func(*testing.T, string) []string
}{
	{"export", exportMessages},
	{"delta block", deltaMessages},
	{"evidence pack", evidenceMessages},
	{"JSON artifact", artifactMessages},
}

// explanationIn returns the explanation in the one message that says the
// input is not valid JSON: the text after the first ": " that follows
// "is not valid JSON", up to the message's closing period.
func explanationIn(t *testing.T, where string, msgs []string) string {
	t.Helper()
	var found []string
	for _, m := range msgs {
		i := strings.Index(m, "is not valid JSON")
		if i < 0 {
			continue
		}
		rest := m[i:]
		j := strings.Index(rest, ": ")
		if j < 0 {
			t.Fatalf("%s: no explanation in %q", where, m)
		}
		rest = rest[j+2:]
		if k := strings.Index(rest, ". "); k >= 0 {
			rest = rest[:k]
		}
		found = append(found, strings.TrimSuffix(rest, "."))
	}
	if len(found) != 1 {
		t.Fatalf("%s: want one syntax message, got %q", where, msgs)
	}
	return found[0]
}

// TestSameMistakeSameExplanation: the same JSON mistake is explained with
// the same words whether it is in an export, a delta block, an evidence pack
// or a JSON artifact object.
func TestSameMistakeSameExplanation(t *testing.T) {
	cases := []struct {
		name, text, cause string
	}{
		{"trailing comma", `{"operation": "ADD", "section": "hypothesis_slate",}`, "trailing comma"},
		{"trailing comma in array", `{"records": [1, 2,]}`, "trailing comma"},
		{"single quotes", `{'operation': 'ADD'}`, "single quotes"},
		{"unquoted key", `{operation: "ADD"}`, "unquoted key"},
		{"comment", "{\"operation\": \"ADD\", // why\n\"section\": \"x\"}", "comment"},
		{"missing comma", `{"operation": "ADD" "section": "x"}`, "missing comma"},
		{"python literal", `{"operation": True}`, "not a JSON literal"},
		// (a delta block cannot end inside a string: its content ends with a line break)
		{"truncated", `{"operation": "ADD", "payload": {"a": [1, 2]`, "truncated input"},
		{"missing value", `{"operation": , "section": "x"}`, "missing value"},
		{"mismatched bracket", `{"records": [1, 2}`, "mismatched brace"},
		{"leading plus", `{"score": +1}`, "malformed number"},
		{"line break in string", "{\"operation\": \"AD\nD\"}", "line break in a string"},
		{"control character", "{\"operation\": \"AD\x01D\"}", "control character in a string"},
		{"bad escape", `{"operation": "A\qD"}`, "invalid escape"},
		{"extra value", `{"operation": "ADD"} {"x": 1}`, "extra text after the JSON value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := jsonv.Parse([]byte(c.text))
			se, ok := err.(*jsonv.SyntaxError)
			if !ok {
				t.Fatalf("jsonv.Parse: %v, want a *SyntaxError", err)
			}
			if !strings.Contains(se.Cause, c.cause) {
				t.Errorf("cause %q, want %q", se.Cause, c.cause)
			}
			want := se.Error()
			for _, ep := range entryPoints {
				got := explanationIn(t, ep.name, ep.msgs(t, c.text))
				if got != want {
					t.Errorf("%s explains %q, want %q", ep.name, got, want)
				}
			}
		})
	}
}

// TestUnterminatedStringSameExplanation: as above for input that ends inside
// a string (which a delta block, ending with its fence's line break, cannot).
func TestUnterminatedStringSameExplanation(t *testing.T) {
	text := `{"operation": "ADD`
	_, err := jsonv.Parse([]byte(text))
	want := err.Error()
	if !strings.HasPrefix(want, "unterminated string") {
		t.Fatalf("explanation %q", want)
	}
	for _, ep := range entryPoints {
		if ep.name == "delta block" {
			continue
		}
		if got := explanationIn(t, ep.name, ep.msgs(t, text)); got != want {
			t.Errorf("%s explains %q, want %q", ep.name, got, want)
		}
	}
}

// TestTooDeepEverywhere: input nested far deeper than the default depth
// limit is a "too deep" syntax error, not a crash, in every entry point.
func TestTooDeepEverywhere(t *testing.T) {
	for _, open := range []string{"[", `{"a":`} {
		text := strings.Repeat(open, 100000)
		for _, ep := range entryPoints {
			got := explanationIn(t, ep.name, ep.msgs(t, text))
			if !strings.HasPrefix(got, "too deep") {
				t.Errorf("%s, %d × %q: explanation %q, want too deep", ep.name, 100000, open, got)
			}
		}
	}
	// Just within the limit is fine.
	const max = limits.DefaultJSONDepth
	ok := strings.Repeat("[", max) + strings.Repeat("]", max)
	if _, err := jsonv.Parse([]byte(ok)); err != nil {
		t.Errorf("%d levels: %v", max, err)
	}
	if _, err := jsonv.Parse([]byte("[" + ok + "]")); err == nil {
		t.Errorf("%d levels accepted", max+1)
	}
}

// TestDepthIsAValue: a parse's depth limit is its own; a lower or higher
// limit for one call leaves the next call's default alone, and the error
// names the limit that was applied.
func TestDepthIsAValue(t *testing.T) {
	nested := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	_, err := jsonv.ParseStringDepth(nested(11), 10)
	var se *jsonv.SyntaxError
	if !errors.As(err, &se) || !strings.Contains(se.Cause, "at most 10 levels") {
		t.Fatalf("11 levels under a limit of 10: %v; want a too-deep error naming 10", err)
	}
	if _, err := jsonv.ParseString(nested(11)); err != nil {
		t.Fatalf("after a limit of 10, the default rejects 11 levels: %v", err)
	}
	deep := nested(limits.DefaultJSONDepth + 1)
	if _, err := jsonv.ParseStringDepth(deep, 2*limits.DefaultJSONDepth); err != nil {
		t.Fatalf("%d levels under a raised limit: %v", limits.DefaultJSONDepth+1, err)
	}
	if _, err := jsonv.ParseString(deep); err == nil {
		t.Fatal("a raised limit for one call leaked into the next")
	}
}
