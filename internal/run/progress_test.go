package run

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// TestProgressOnlyOnATerminal: a pipe (a CI log) gets no progress line.
func TestProgressOnlyOnATerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if terminal(w) != nil {
		t.Error("a pipe was taken for a terminal")
	}
	if (&checker{CheckOptions: CheckOptions{Quiet: true}}).progressWriter() != nil {
		t.Error("--quiet still draws progress")
	}
}

func TestProgressLine(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, 100)
	p.start = time.Now().Add(-2 * time.Second)
	for range 100 {
		p.tick()
	}
	p.finish()
	out := buf.String()
	if !strings.Contains(out, "brenner-ci: 100/100 threads") || !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("progress output %q", out)
	}
	line := p.line(p.start.Add(4 * time.Second))
	if !strings.Contains(line, "25 threads/s") || !strings.Contains(line, "0s left") {
		t.Errorf("line %q", line)
	}
	var silent progress
	silent.tick() // no writer: nothing to draw, no panic
}
