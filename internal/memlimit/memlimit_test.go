package memlimit

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestNext(t *testing.T) {
	for _, c := range []struct {
		limit int64
		live  uint64
		want  int64
	}{
		{Default, 0, Default},
		{Default, Default * 2 / 3, Default},                   // exactly two thirds: room enough
		{Default, Default*2/3 + 3, (Default*2/3 + 3) * 3 / 2}, // past it: 1.5 × live
		{Default, Default * 4, Default * 6},
		{1000, 999, 1498},
		{Default, math.MaxUint64, math.MaxInt64},
		// A raised limit comes down once live is under a third of it.
		{Default * 3, Default, Default * 3},               // exactly a third: stays
		{Default * 3, Default - 3, (Default - 3) * 3 / 2}, // under it: 1.5 × live
		{Default * 3, Default * 2, Default * 3},           // two thirds: stays
		{Default * 3, 1 << 20, Default},                   // never below Default
		{Default * 2, Default / 2, Default},               // 1.5 × live under Default: Default
		{Default, 0, Default},                             // Default itself is never lowered
		{1000, 1, 1000},                                   // nor a limit below it
		{math.MaxInt64, Default, Default * 3 / 2},         // from the top (no overflow)
		{math.MaxInt64, math.MaxInt64 / 2, math.MaxInt64}, // two thirds of the top is more
	} {
		if got := Next(c.limit, c.live); got != c.want {
			t.Errorf("Next(%d, %d) = %d, want %d", c.limit, c.live, got, c.want)
		}
	}
}

// TestNextKeepsRoom holds Next to its promise over a sweep of limits and
// live heaps: the collector always has at least a third of the limit to
// work in (live ≤ two thirds of it), the limit is never lowered below
// Default, and a limit it gives is one it keeps for the same live heap
// (no oscillation between two samples of the same heap).
func TestNextKeepsRoom(t *testing.T) {
	for _, limit := range []int64{1000, Default / 2, Default, Default + 1, Default * 3 / 2, Default * 2, Default * 5} {
		for live := uint64(0); live <= uint64(Default*6); live += uint64(Default) / 97 {
			got := Next(limit, live)
			if int64(live)*3 > got*2+2 { // +2: 1.5 × live rounds down
				t.Errorf("Next(%d, %d) = %d: live past two thirds", limit, live, got)
			}
			if got < limit && got < Default {
				t.Errorf("Next(%d, %d) = %d: lowered below Default", limit, live, got)
			}
			if again := Next(got, live); again != got {
				t.Errorf("Next(%d, %d) = %d, then Next(%d, %d) = %d: not stable", limit, live, got, got, live, again)
			}
		}
	}
}

func TestStartRespectsGOMEMLIMIT(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Setenv("GOMEMLIMIT", "1GiB")
	Start()()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit %d after Start with GOMEMLIMIT set, want %d untouched", got, before)
	}
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
	gcBefore := debug.SetGCPercent(100)
	defer debug.SetGCPercent(gcBefore)
	stop := Start()
	if got := debug.SetMemoryLimit(-1); got != Default {
		t.Errorf("limit %d, want %d", got, Default)
	}
	if got := debug.SetGCPercent(GCPercent); got != GCPercent {
		t.Errorf("GC percent %d, want %d", got, GCPercent)
	}
	stop()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit %d after stop, want %d restored", got, before)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent %d after stop, want 100 restored", got)
	}
	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	Start()()
	if got := debug.SetGCPercent(100); got != 50 {
		t.Errorf("GC percent %d with GOGC=50 set, want it untouched", got)
	}
}

func TestHugeHint(t *testing.T) {
	before := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(before)
	if got := hint(); got != Default {
		t.Errorf("hint() = %d with no limit, want %d", got, Default)
	}
	debug.SetMemoryLimit(100 << 20)
	if got := hint(); got != 100<<20 {
		t.Errorf("hint() = %d under a 100 MiB limit, want %d", got, 100<<20)
	}
}
