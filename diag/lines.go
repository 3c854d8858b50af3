package diag

import "bytes"

// Lines is what a file's bytes say of its lines, counted the way GitHub
// code scanning counts them: N is the number of newlines, plus one when the
// last line has no newline (0 for an empty file); LastEnd is the 1-based
// code-point column just after the last character of line N, a carriage
// return before its newline not counted (1 for an empty line). A SARIF
// region is clamped to them.
type Lines struct{ N, LastEnd int }

// CountLines counts the lines of a file's bytes.
func CountLines(data []byte) Lines { return CountLinesAfter(data, 0, 0) }

// CountLinesAfter is CountLines for a caller that has already counted the
// newlines of data[:off]: there are breaks of them.
func CountLinesAfter(data []byte, off, breaks int) Lines {
	if len(data) == 0 {
		return Lines{N: 0, LastEnd: 1}
	}
	n := breaks + bytes.Count(data[off:], []byte{'\n'})
	body := data
	if data[len(data)-1] == '\n' {
		body = data[:len(data)-1]
	} else {
		n++
	}
	last := body[bytes.LastIndexByte(body, '\n')+1:]
	last = bytes.TrimSuffix(last, []byte{'\r'})
	return Lines{N: n, LastEnd: RuneCount(last) + 1}
}
