package cli

import (
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"
)

// streamed are the profiles written while the run goes on, to a file
// opened at the start. The execution trace (go tool trace) shows what the
// pprof profiles cannot: when a processor idles, and which phase of the run
// it waits for.
var streamed = map[string]struct {
	start func(io.Writer) error
	stop  func()
}{
	"cpu":   {pprof.StartCPUProfile, pprof.StopCPUProfile},
	"trace": {trace.Start, trace.Stop},
}

// startProfiles starts the profiles of --profile KIND=FILE (cpu, mem,
// trace) and returns the function that writes them at the end of the run.
func startProfiles(specs []string) (stop func(), err error) {
	var stops []func() // of the streamed profiles started
	started := map[string]bool{}
	var memPath string
	stopStreams := func() {
		for _, s := range stops {
			s()
		}
	}
	for _, spec := range specs {
		kind, file, ok := strings.Cut(spec, "=")
		if !ok || file == "" {
			stopStreams()
			return nil, usagef("--profile %q: want cpu=FILE, mem=FILE or trace=FILE", spec)
		}
		if kind == "mem" {
			memPath = file
			continue
		}
		p, ok := streamed[kind]
		switch {
		case !ok:
			err = usagef("--profile %q: the kind is cpu, mem or trace", spec)
		case started[kind]:
			err = usagef("--profile %s given twice", kind)
		default:
			var f *os.File
			if f, err = os.Create(file); err == nil {
				if err = p.start(f); err != nil {
					f.Close()
				}
			}
			if err != nil {
				err = usagef("--profile: %v", err)
			} else {
				started[kind] = true
				stops = append(stops, func() { p.stop(); f.Close() })
			}
		}
		if err != nil {
			stopStreams() // a later run in this process can start them again
			return nil, err
		}
	}
	return func() {
		stopStreams()
		if memPath != "" {
			if f, err := os.Create(memPath); err == nil {
				runtime.GC()
				pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		}
	}, nil
}
