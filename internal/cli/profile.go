package cli

import (
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
)

// startProfiles starts the profiles of --profile KIND=FILE (cpu, mem) and
// returns the function that writes them at the end of the run.
func startProfiles(specs []string) (stop func(), err error) {
	var cpu *os.File
	var memPath string
	for _, spec := range specs {
		kind, file, ok := strings.Cut(spec, "=")
		if !ok || file == "" {
			return nil, usagef("--profile %q: want cpu=FILE or mem=FILE", spec)
		}
		switch kind {
		case "cpu":
			if cpu != nil {
				return nil, usagef("--profile cpu given twice")
			}
			if cpu, err = os.Create(file); err != nil {
				return nil, usagef("--profile: %v", err)
			}
			if err := pprof.StartCPUProfile(cpu); err != nil {
				cpu.Close()
				return nil, usagef("--profile: %v", err)
			}
		case "mem":
			memPath = file
		default:
			return nil, usagef("--profile %q: the kind is cpu or mem", spec)
		}
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
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
