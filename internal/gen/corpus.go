package gen

import (
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/brenner-ci/brenner-ci/compile"
	"github.com/brenner-ci/brenner-ci/compile/mailbox"
)

// Stats summarise a written corpus.
type Stats struct {
	Threads, Messages, Blocks, Faulted int
	Bytes                              int64
}

// WriteCorpus writes the opt.Threads threads of the corpus as
// dir/threads/<thread_id>.json (creating the folders), several at a time.
func WriteCorpus(dir string, opt Options) (Stats, error) {
	var st Stats
	if opt.Threads < 0 {
		return st, fmt.Errorf("gen: %d threads", opt.Threads)
	}
	out := filepath.Join(dir, "threads")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return st, err
	}
	workers := runtime.GOMAXPROCS(0)
	per := make([]Stats, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < opt.Threads; i += workers {
				t := Generate(opt, i)
				if err := os.WriteFile(filepath.Join(out, t.ID+".json"), t.JSON, 0o644); err != nil {
					errs[w] = err
					return
				}
				s := &per[w]
				s.Threads++
				s.Messages += t.Messages
				s.Blocks += t.Blocks
				s.Bytes += int64(len(t.JSON))
				if t.Fault != "" {
					s.Faulted++
				}
			}
		}(w)
	}
	wg.Wait()
	for _, s := range per {
		st.Threads += s.Threads
		st.Messages += s.Messages
		st.Blocks += s.Blocks
		st.Bytes += s.Bytes
		st.Faulted += s.Faulted
	}
	return st, errors.Join(errs...)
}

// WriteArtifacts compiles every thread under dir/threads with brenner-ci's
// compiler and writes its artifact as dir/artifacts/<thread_id>.md, the
// persisted artifacts a repository keeps beside its threads. It returns how
// many it wrote.
func WriteArtifacts(dir string, jobs int) (int, error) {
	batch, err := mailbox.Scan([]string{filepath.Join(dir, "threads")}, mailbox.ScanOptions{Jobs: jobs})
	if err != nil {
		return 0, err
	}
	out := filepath.Join(dir, "artifacts")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return 0, err
	}
	type art struct {
		id   string
		data []byte
	}
	n := 0
	var errs []error
	compile.Each(batch, compile.Options{}, jobs, func(t *compile.Thread) art {
		return art{id: t.ID(), data: t.Current.Render()}
	}, func(ref *mailbox.ThreadRef, a art, err error) {
		if err == nil {
			err = os.WriteFile(filepath.Join(out, a.id+".md"), a.data, 0o644)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("thread %s: %w", ref.Key, err))
			return
		}
		n++
	})
	return n, errors.Join(errs...)
}

// Cached returns a folder holding the corpus described by opt, written by
// WriteCorpus under os.TempDir()/brenner-ci-bench on first use and reused
// afterwards (benchmarks share it across runs). The folder's name carries a
// hash of the first and last threads' bytes, so a change to the generator
// gives a new folder; only a complete corpus (with its marker file) is ever
// found there.
func Cached(opt Options) (string, error) {
	h := fnv.New64a()
	if opt.Threads > 0 {
		h.Write(Generate(opt, 0).JSON)
		h.Write(Generate(opt, opt.Threads-1).JSON)
	}
	dir := filepath.Join(os.TempDir(), "brenner-ci-bench",
		fmt.Sprintf("gen-s%d-n%d-f%g-r%d-%016x", opt.Seed, opt.Threads, opt.FaultRate, opt.Rounds, h.Sum64()))
	marker := filepath.Join(dir, ".complete") // hidden: never read as input
	if _, err := os.Stat(marker); err == nil {
		return dir, nil
	}
	// Written beside it and renamed into place, so that concurrent test
	// binaries never see (or remove) each other's half-written corpus.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".partial-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if _, err := WriteCorpus(tmp, opt); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, ".complete"), nil, 0o644); err != nil {
		return "", err
	}
	if _, err := os.Stat(dir); err == nil {
		// An interrupted or concurrent writer left or made one: a complete
		// corpus is kept, anything else replaced.
		if _, err := os.Stat(marker); err == nil {
			return dir, nil
		}
		if err := os.RemoveAll(dir); err != nil {
			return "", err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(marker); serr == nil {
			return dir, nil
		}
		return "", err
	}
	return dir, nil
}
