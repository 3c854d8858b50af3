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
	} {
		if got := Next(c.limit, c.live); got != c.want {
			t.Errorf("Next(%d, %d) = %d, want %d", c.limit, c.live, got, c.want)
		}
		if got := Next(c.limit, c.live); got < c.limit {
			t.Errorf("Next(%d, %d) = %d lowers the limit", c.limit, c.live, got)
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
