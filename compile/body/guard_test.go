package body

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile/limits"
)

// TestGuard: the inputs that make CommonMark parsing quadratic are refused
// before the parser sees them; ordinary bodies, deep but sane nesting and
// many closed links pass.
func TestGuard(t *testing.T) {
	for name, src := range map[string]string{
		"nested quotes":       strings.Repeat(">", 5000) + " x",
		"nested spaced quote": strings.Repeat("> ", 5000) + "x",
		"nested lists":        strings.Repeat("- ", 5000) + "x",
		"ordered lists":       strings.Repeat("1. ", 5000) + "x",
		"unclosed links":      strings.Repeat("[a](", 5000),
		"huge":                strings.Repeat("a", limits.DefaultBodyBytes+1),
		"indented lists":      indentedLists(300),
	} {
		if Guard(src, limits.DefaultBodyBytes) == "" {
			t.Errorf("%s: not refused", name)
		}
	}
	for name, src := range map[string]string{
		"plain":        "# Title\n\n## Context\nSome text with a [link](https://example.com).\n",
		"deep enough":  strings.Repeat("> ", 20) + "- - 1. quoted list\n",
		"many links":   strings.Repeat("[a](b) ", 5000),
		"delta fences": "```delta\n{\"operation\": \"ADD\"}\n```\n",
		"star prose":   "*emphasis* and - a dash - in text\n",
		"some nesting": indentedLists(20),
	} {
		if why := Guard(src, limits.DefaultBodyBytes); why != "" {
			t.Errorf("%s: refused: %s", name, why)
		}
	}
}

func indentedLists(n int) string {
	var b strings.Builder
	for k := 0; k < n; k++ {
		b.WriteString(strings.Repeat("  ", k) + "- x\n")
	}
	return b.String()
}

// TestGuardLimitIsTheCallers: the size limit is the argument, not a
// package setting.
func TestGuardLimitIsTheCallers(t *testing.T) {
	src := strings.Repeat("a", 11)
	if why := Guard(src, 10); !strings.Contains(why, "over the limit of 10") {
		t.Errorf("11 bytes under a limit of 10: %q", why)
	}
	if why := Guard(src, 11); why != "" {
		t.Errorf("11 bytes under a limit of 11: %q", why)
	}
}

// TestGuardIndentation: a list marker after 2*MaxNesting columns of spaces
// and tabs is refused, and the message counts them; one column less passes,
// and so does deep indentation before text that is no list marker.
func TestGuardIndentation(t *testing.T) {
	ind := strings.Repeat(" \t", MaxNesting)
	if why := Guard(ind+"- x\n", limits.DefaultBodyBytes); !strings.Contains(why, "indented 200 columns") {
		t.Errorf("200 columns: %q", why)
	}
	if why := Guard(ind[1:]+"- x\n", limits.DefaultBodyBytes); why != "" {
		t.Errorf("199 columns: refused: %q", why)
	}
	if why := Guard(ind+"text\n", limits.DefaultBodyBytes); why != "" {
		t.Errorf("indented text: refused: %q", why)
	}
}

// guardPlain is Guard as first written: every line looked at.
func guardPlain(src string, maxBytes int) string {
	if len(src) > maxBytes {
		return fmt.Sprintf("it is %d bytes, over the limit of %d", len(src), maxBytes)
	}
	for i := 0; i < len(src); {
		line := src[i:]
		if j := strings.IndexByte(line, '\n'); j >= 0 {
			line, i = line[:j], i+j+1
		} else {
			i = len(src)
		}
		if line == "" || !nestStart[line[0]] {
			continue
		}
		if d := markerDepth(line); d > MaxNesting {
			return fmt.Sprintf("a line opens %d nested block quotes or list items, over the limit of %d", d, MaxNesting)
		}
		if line[0] == ' ' || line[0] == '\t' {
			ind := len(line) - len(strings.TrimLeft(line, " \t"))
			if ind >= 2*MaxNesting && markerDepth(line[ind:]) > 0 {
				return fmt.Sprintf("a list item is indented %d columns, more than %d nesting levels", ind, MaxNesting)
			}
		}
	}
	if open := strings.Count(src, "](") - strings.Count(src, ")"); open > MaxOpenLinks {
		return fmt.Sprintf("it leaves %d link destinations \"](\" unclosed, over the limit of %d", open, MaxOpenLinks)
	}
	return ""
}

// guardPieces build bodies around the limits: nested lines of 100, 101
// and 102 levels, indentation of 199 and 200 columns, short lines.
var guardPieces = []string{
	"text\n", "\n", "- item\n", strings.Repeat(">", MaxNesting) + "\n", strings.Repeat(">", MaxNesting+1) + "\n",
	strings.Repeat("> ", MaxNesting+1) + "x\n", strings.Repeat(" ", 2*MaxNesting-1) + "- x\n",
	strings.Repeat(" ", 2*MaxNesting) + "- x\n", strings.Repeat("\t", 2*MaxNesting) + "1. x\n",
	strings.Repeat("a", MaxNesting+5) + "\n", strings.Repeat("- ", MaxNesting/2+1) + "\n", ">>>",
}

// TestGuardSkipsShortLines: Guard, which looks only at lines longer than
// MaxNesting bytes, answers as the version that looks at every line.
func TestGuardSkipsShortLines(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 3000; round++ {
		src := randomBody(rng, guardPieces, 8, "")
		if got, want := Guard(src, limits.DefaultBodyBytes), guardPlain(src, limits.DefaultBodyBytes); got != want {
			t.Fatalf("%q: Guard %q, every line looked at %q", src, got, want)
		}
	}
}

func FuzzGuard(f *testing.F) {
	for _, p := range guardPieces {
		f.Add(p + p)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if got, want := Guard(src, limits.DefaultBodyBytes), guardPlain(src, limits.DefaultBodyBytes); got != want {
			t.Fatalf("%q: Guard %q, every line looked at %q", src, got, want)
		}
	})
}

// guardThenParse is ParseGuarded as two steps: Guard, then the parse.
func guardThenParse(src string, maxBytes int, spans bool) (*Doc, string) {
	if why := Guard(src, maxBytes); why != "" {
		return nil, why
	}
	if spans {
		return Parse(src), ""
	}
	return ParseOutline(src), ""
}

// guardedLines are the lines TestParseGuarded and FuzzParseGuarded build
// bodies from: Guard's pieces at and past its limits, and the lines the
// one-pass reader answers for or declines, fences among them.
var guardedLines = append(append([]string{}, outlineLines...),
	strings.Repeat(">", MaxNesting+1), strings.Repeat("> ", MaxNesting+1)+"x",
	strings.Repeat(" ", 2*MaxNesting)+"- x", strings.Repeat("- ", MaxNesting/2+1)+"x",
	strings.Repeat("a", MaxNesting+5), strings.Repeat("[a](", MaxOpenLinks/4), "- "+strings.Repeat("[a](", 300))

func checkParseGuarded(t *testing.T, src string) {
	for _, spans := range []bool{false, true} {
		for _, limit := range []int{limits.DefaultBodyBytes, len(src) - 1} {
			d, why := ParseGuarded(src, limit, spans)
			wd, wwhy := guardThenParse(src, limit, spans)
			if why != wwhy || !reflect.DeepEqual(d, wd) {
				t.Fatalf("%q (spans %t, limit %d): ParseGuarded %q %+v; Guard and parse %q %+v", src, spans, limit, why, d, wwhy, wd)
			}
		}
	}
}

// TestParseGuarded holds ParseGuarded, whose one-pass reader applies
// Guard's test line by line, to Guard followed by the parse, on bodies of
// random guardedLines.
func TestParseGuarded(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for round := 0; round < 4000; round++ {
		checkParseGuarded(t, randomBody(rng, guardedLines, 10, "\n"))
	}
}

// randomBody joins one to most+1 pieces picked at random, each followed by
// end.
func randomBody(rng *rand.Rand, pieces []string, most int, end string) string {
	var b strings.Builder
	for n := rng.Intn(most); n >= 0; n-- {
		b.WriteString(pieces[rng.Intn(len(pieces))])
		b.WriteString(end)
	}
	return b.String()
}

// FuzzParseGuarded: each input byte picks a line of guardedLines.
func FuzzParseGuarded(f *testing.F) {
	f.Add([]byte{3, 25, 80, 26, 25})
	f.Add([]byte{80, 81, 0, 84})
	f.Fuzz(func(t *testing.T, picks []byte) {
		var b strings.Builder
		for _, p := range picks {
			b.WriteString(guardedLines[int(p)%len(guardedLines)])
			b.WriteByte('\n')
		}
		checkParseGuarded(t, b.String())
	})
}
