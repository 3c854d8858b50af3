package run

import (
	"fmt"
	"strings"
	"testing"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/delta"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
	"github.com/brenner-ci/brenner-ci/internal/gen"
)

// threadLinePlain is threadLine written with fmt, as it was before it
// appended its numbers itself.
func threadLinePlain(t *compile.Thread) string {
	var counts []string
	for _, sec := range delta.Sections[1:] {
		active, killed := t.Current.Count(sec)
		s := fmt.Sprintf("%s%d", delta.Prefix[sec], active)
		if killed > 0 {
			s += fmt.Sprintf("(+%d killed)", killed)
		}
		counts = append(counts, s)
	}
	return fmt.Sprintf("%s: %d messages, %d delta blocks (%d valid, %d invalid), %d applied, version %d, %s",
		t.Key, len(t.Msgs), t.Stats.Blocks, t.Stats.Valid, t.Stats.Invalid, t.Stats.Applied, t.Version, strings.Join(counts, " "))
}

// TestThreadLineMatchesPlain: compile's line per thread is the plain
// version's on generated threads with faults and kills, and on a thread
// whose counts were changed to numbers of several digits.
func TestThreadLineMatchesPlain(t *testing.T) {
	dir := t.TempDir()
	if _, err := gen.WriteCorpus(dir, gen.Options{Seed: 5, Threads: 40, FaultRate: 0.5, Rounds: 4}); err != nil {
		t.Fatal(err)
	}
	batch, err := mailbox.Scan([]string{dir}, mailbox.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	killed, n := 0, 0
	compile.Each(batch, compile.Options{}, 1, func(th *compile.Thread) string {
		for _, sec := range delta.Sections {
			_, k := th.Current.Count(sec)
			killed += k
		}
		got, want := threadLine(th), threadLinePlain(th)
		if got != want {
			t.Errorf("thread %s:\n got %q\nwant %q", th.Key, got, want)
		}
		th.Stats.Blocks, th.Stats.Valid, th.Stats.Invalid, th.Stats.Applied, th.Version = 12345, 6789, -1, 100000, 42
		if got, want := threadLine(th), threadLinePlain(th); got != want {
			t.Errorf("thread %s, changed counts:\n got %q\nwant %q", th.Key, got, want)
		}
		n++
		return ""
	}, func(ref *mailbox.ThreadRef, _ string, err error) {
		if err != nil {
			t.Errorf("thread %s: %v", ref.Key, err)
		}
	})
	if n != 40 || killed == 0 {
		t.Errorf("%d threads compiled, %d items killed: the corpus does not cover the killed counts", n, killed)
	}
}
