package cli

import (
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"
)

// startProfiles starts the profiles of --profile KIND=FILE (cpu, mem,
// trace) and returns the function that writes them at the end of the run.
// The execution trace (go tool trace) shows what the pprof profiles cannot:
// when a processor idles, and which phase of the run it waits for.
func startProfiles(specs []string) (stop func(), err error) {
	var cpu, tr *os.File
	var memPath string
	fail := func(err error) (func(), error) { // stop what was started
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if tr != nil {
			trace.Stop()
			tr.Close()
		}
		return nil, err
	}
	for _, spec := range specs {
		kind, file, ok := strings.Cut(spec, "=")
		if !ok || file == "" {
			return fail(usagef("--profile %q: want cpu=FILE, mem=FILE or trace=FILE", spec))
		}
		switch kind {
		case "cpu":
			if cpu != nil {
				return fail(usagef("--profile cpu given twice"))
			}
			f, err := os.Create(file)
			if err != nil {
				return fail(usagef("--profile: %v", err))
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				f.Close()
				return fail(usagef("--profile: %v", err))
			}
			cpu = f
		case "mem":
			memPath = file
		case "trace":
			if tr != nil {
				return fail(usagef("--profile trace given twice"))
			}
			f, err := os.Create(file)
			if err != nil {
				return fail(usagef("--profile: %v", err))
			}
			if err := trace.Start(f); err != nil {
				f.Close()
				return fail(usagef("--profile: %v", err))
			}
			tr = f
		default:
			return fail(usagef("--profile %q: the kind is cpu, mem or trace", spec))
		}
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if tr != nil {
			trace.Stop()
			tr.Close()
		}
		if memPath != "" {
			if f, err := os.Create(memPath); err == nil {
				runtime.GC()
				pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		}
	}, nil
}
