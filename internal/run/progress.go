package run

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progress draws one self-erasing line on a terminal while threads are
// checked: done / total, rate, time left. It writes nothing unless its
// writer is a terminal, so logs and pipes never see it.
type progress struct {
	w           io.Writer // nil: silent
	total, done int
	start, last time.Time
	drawn       bool
}

func newProgress(w io.Writer, total int) *progress {
	now := time.Now()
	return &progress{w: w, total: total, start: now, last: now}
}

// progressWriter is standard error when it is a terminal and --quiet is
// not given, else nil.
func (c *checker) progressWriter() io.Writer {
	if c.Quiet {
		return nil
	}
	return terminal(os.Stderr)
}

// terminal returns f when it is a character device (a terminal), else nil.
func terminal(f *os.File) io.Writer {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return f
}

// tick counts one thread done and redraws at most five times a second.
func (p *progress) tick() {
	p.done++
	if p.w == nil {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 200*time.Millisecond && p.done < p.total {
		return
	}
	p.last = now
	fmt.Fprint(p.w, "\r\x1b[K"+p.line(now))
	p.drawn = true
}

// line is the progress text at now.
func (p *progress) line(now time.Time) string {
	el := now.Sub(p.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(p.done) / el
	}
	eta := "?"
	if rate > 0 {
		eta = (time.Duration(float64(p.total-p.done)/rate) * time.Second).Round(time.Second).String()
	}
	return fmt.Sprintf("brenner-ci: %d/%d threads · %.0f threads/s · %s left", p.done, p.total, rate, eta)
}

// finish erases the line.
func (p *progress) finish() {
	if p.w != nil && p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
