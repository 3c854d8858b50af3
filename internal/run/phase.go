package run

import (
	"context"
	"runtime/trace"
)

// phase marks one stage of a run in the execution trace (--profile
// trace=FILE; go tool trace lists them under "User-defined regions"): the
// listing, the scan, the threads, the batch rules, the findings pipeline,
// the reports' warm-up and their writing. Where a run's time goes between
// its stages, and which of them leaves a processor idle, is read from it
// without instrumenting the run again. Outside a trace a phase costs the
// check of a flag. Call the function it returns when the phase ends.
func phase(name string) (end func()) {
	return trace.StartRegion(context.Background(), name).End
}

// The phases' names. Each holds ": ", which no function name in the
// trace's stack tables does (TestPhasesInTrace looks for them there).
const (
	phaseList     = "check: list"
	phaseScan     = "check: scan"
	phaseThreads  = "check: threads"
	phaseBatch    = "check: batch rules"
	phasePipeline = "check: pipeline"
	phaseWarm     = "check: reports warm-up"
	phaseWrite    = "check: reports write"
)
