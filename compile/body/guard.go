package body

import (
	"fmt"
	"strings"
)

// Limits in front of goldmark. CommonMark parsing is quadratic on some
// inputs (hundreds of nested block quotes or list markers on one line,
// thousands of unclosed link destinations "[a]("), so one hostile message
// could stall a whole CI job. A body past a limit is not parsed at all: the
// caller reports it (IN-008) and checks the rest of the thread. The size
// limit is the run's (limits.Parse.Body); the others are fixed.
const (
	// MaxNesting is the most block-quote and list markers one line may
	// open.
	MaxNesting = 100
	// MaxOpenLinks is the most link destinations "](" a body may leave
	// unclosed.
	MaxOpenLinks = 1000
)

// Guard reports why src must not be given to the markdown parser, or "":
// it is over maxBytes, or nests or leaves open too much. It is linear in
// the size of src.
func Guard(src string, maxBytes int) string {
	if why := guardSize(src, maxBytes); why != "" {
		return why
	}
	for i := 0; i < len(src); {
		line := src[i:]
		if j := strings.IndexByte(line, '\n'); j >= 0 {
			line, i = line[:j], i+j+1
		} else {
			i = len(src)
		}
		if why := guardLine(line); why != "" {
			return why
		}
	}
	return guardLinks(src)
}

// guardSize is Guard's test of the body's size.
func guardSize(src string, maxBytes int) string {
	if len(src) > maxBytes {
		return fmt.Sprintf("it is %d bytes, over the limit of %d", len(src), maxBytes)
	}
	return ""
}

// guardLine is Guard's test of one line (without its "\n").
func guardLine(line string) string {
	// Only a line starting with white space, a block-quote marker or a
	// list marker can nest anything; and each level a line opens takes a
	// byte of it, as does each column of indentation, so a line of at most
	// MaxNesting bytes is within both limits.
	if len(line) <= MaxNesting || !nestStart[line[0]] {
		return ""
	}
	if d := markerDepth(line); d > MaxNesting {
		return fmt.Sprintf("a line opens %d nested block quotes or list items, over the limit of %d", d, MaxNesting)
	}
	// Lists nested by indentation: a marker after 2*MaxNesting columns of
	// indentation is more than MaxNesting levels deep.
	if line[0] == ' ' || line[0] == '\t' {
		ind := 1
		for ind < len(line) && (line[ind] == ' ' || line[ind] == '\t') {
			ind++
		}
		if ind >= 2*MaxNesting && markerDepth(line[ind:]) > 0 {
			return fmt.Sprintf("a list item is indented %d columns, more than %d nesting levels", ind, MaxNesting)
		}
	}
	return ""
}

// guardLinks is Guard's count of unclosed link destinations.
func guardLinks(src string) string {
	if open := strings.Count(src, "](") - strings.Count(src, ")"); open > MaxOpenLinks {
		return fmt.Sprintf("it leaves %d link destinations \"](\" unclosed, over the limit of %d", open, MaxOpenLinks)
	}
	return ""
}

// ParseGuarded is Guard, then Parse (spans) or ParseOutline (not spans)
// of a body Guard lets through; a body Guard stops gives nil and its
// reason. For the commonest body the one-pass reader applies Guard's test
// to each line as it reads it, so the body's lines are walked once, not
// twice. FuzzParseGuarded holds it to Guard followed by the parse.
func ParseGuarded(src string, maxBytes int, spans bool) (*Doc, string) {
	return ParseGuardedIn(nil, src, maxBytes, spans)
}

// ParseGuardedIn is ParseGuarded with the Doc in a (nil: the heap) when the
// one-pass reader reads the body; goldmark's Docs are on the heap.
func ParseGuardedIn(a *Arena, src string, maxBytes int, spans bool) (*Doc, string) {
	if why := guardSize(src, maxBytes); why != "" {
		return nil, why
	}
	comment := strings.Contains(src, "<!--")
	if !comment {
		if d, why, ok := readFast(a, src, spans, true); ok {
			if why == "" {
				why = guardLinks(src)
			}
			if why != "" {
				return nil, why
			}
			return d, ""
		}
	}
	if why := Guard(src, maxBytes); why != "" {
		return nil, why
	}
	if spans {
		return parseAt(src, 0), ""
	}
	return outlineSlow(src, comment), ""
}

// nestStart marks the bytes a line that opens a block quote or list item
// can start with.
var nestStart = func() (t [256]bool) {
	for _, c := range []byte(" \t>-*+0123456789") {
		t[c] = true
	}
	return t
}()

// markerDepth counts the block-quote markers and list markers at the start
// of a line ("> > - 1. text" is 4).
func markerDepth(line string) int {
	depth, i := 0, 0
	for {
		sp := 0
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') && sp < 4 {
			i++
			sp++
		}
		if i >= len(line) {
			return depth
		}
		switch c := line[i]; {
		case c == '>':
			i++
		case (c == '-' || c == '*' || c == '+') && i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t'):
			i += 2
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j+1 < len(line) && (line[j] == '.' || line[j] == ')') && (line[j+1] == ' ' || line[j+1] == '\t') {
				i = j + 2
			} else {
				return depth
			}
		default:
			return depth
		}
		depth++
	}
}
