# brenner-ci — make demo, make test.
GO       ?= go
BIN      := bin/brenner-ci
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS  := -s -w -X github.com/brenner-ci/brenner-ci/internal/cli.Version=$(VERSION)
DEMO_OUT ?= demo-out

.PHONY: all build test race vet fmt demo bench bench-10k bench-reference bench-goals docs man clean fuzz

all: build

build:
	$(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/brenner-ci

test:
	$(GO) test -count=1 ./...

# The race detector on every package that runs work concurrently (the
# compiler's workers and pools, the engine, the pipeline, the run, the
# report set whose files are written at once with pooled writers).
race:
	$(GO) test -race -count=1 ./compile/... ./rules/... ./pipeline/... ./internal/... ./reporters/...

vet:
	$(GO) vet ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

# The main job on the sample corpus in testdata/demo: compile every thread,
# check it, write every report into $(DEMO_OUT)/. Findings are expected
# (the sample has deliberate mistakes), so exit code 1 is shown, not fatal; 2 or 3 fail.
demo: build
	rm -rf $(DEMO_OUT)
	./$(BIN) compile testdata/demo --config testdata/demo/.brenner-ci.yaml --out $(DEMO_OUT)/compiled --compiled-body; c=$$?; [ $$c -le 1 ] || exit $$c
	./$(BIN) check testdata/demo --config testdata/demo/.brenner-ci.yaml --out $(DEMO_OUT) --repo-root . ; c=$$?; \
	  echo "brenner-ci check exit code: $$c (1 = findings, expected on the sample)"; [ $$c -le 1 ] || exit $$c
	@ls -l $(DEMO_OUT)

# Every parser entry's fuzz target and the policy's, FUZZTIME each (make fuzz FUZZTIME=1m).
# A crasher is written to the package's testdata/fuzz/ and kept as a
# regression test.
FUZZTIME ?= 10s
# Each new input that widens coverage is minimized first, for up to a minute
# by default: with seeds of whole export files that minimizing outlasted a
# 10 s run (no inputs tried, and the run stopping late). 5 s each is enough
# for a readable crasher.
FUZZMINIMIZETIME ?= 5s
FUZZ_TARGETS := \
	FuzzParse:./compile/jsonv \
	FuzzArenaParse:./compile/jsonv \
	FuzzAppendValid:./compile/jsonv \
	FuzzRawOffsets:./compile/jsonv \
	FuzzSpecials:./compile/jsonv \
	FuzzScanner:./compile/mailbox \
	FuzzScanLoad:./compile/mailbox \
	FuzzEarlyThread:./compile/mailbox \
	FuzzAnalyze:./compile/delta \
	FuzzParse:./compile/body \
	FuzzParseFast:./compile/subject \
	FuzzOutlineLines:./compile/body \
	FuzzGuard:./compile/body \
	FuzzScanLineEnd:./compile/body \
	FuzzParseGuarded:./compile/body \
	FuzzParseMarkdown:./compile/artifact \
	FuzzParseJSONObject:./compile/artifact \
	FuzzCollapseSpace:./diag \
	FuzzAppendJSONString:./reporters \
	FuzzWriteText:./reporters/junit \
	FuzzResultJSON:./reporters/sarif \
	FuzzEvidencePack:./rules \
	FuzzFieldLine:./rules \
	FuzzClaimKey:./rules \
	FuzzMetaField:./rules \
	FuzzDecodeCacheEntry:./internal/cache \
	FuzzParse:./internal/config \
	FuzzNestedConfigNeverOpensTheGate:./pipeline \
	FuzzCustomRule:./rules/custom \
	FuzzGuardedEvaluation:./rules/custom \
	FuzzMatchString:./compile/relit \
	FuzzPrefilter:./diag \
	FuzzRuneStarts:./diag \
	FuzzPrefilterVector:./diag
# Go's fuzzing engine now and then ends a run with "context deadline
# exceeded" when the time is up while a worker is busy, without any failing
# input: such a target is run once more (and the retry is printed); a real
# failure writes its input to testdata/fuzz/ and fails at once.
fuzz:
	@set -e; log=$$(mktemp); trap 'rm -f "$$log"' EXIT; for t in $(FUZZ_TARGETS); do \
	  name=$${t%%:*}; pkg=$${t#*:}; \
	  echo "== fuzz $$name $$pkg ($(FUZZTIME))"; \
	  rc=0; $(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) $$pkg >"$$log" 2>&1 || rc=$$?; cat "$$log"; \
	  if [ $$rc -ne 0 ]; then \
	    if grep -q 'context deadline exceeded' "$$log" && ! grep -q 'Failing input written' "$$log"; then \
	      echo "== fuzz $$name: the engine stopped late without a failing input; running it once more"; \
	      $(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) $$pkg; \
	    else exit $$rc; fi; \
	  fi; \
	done

# Benchmarks: every package's, and the stage and end-to-end ones of bench/
# (ingest, load, delta extraction, merge, compile, rules, each reporter, the
# engine and the check command with --jobs 1 and 2) on corpora that
# internal/gen writes once to $$TMPDIR/brenner-ci-bench; each reports threads/s.
# BENCH_THREADS sets the corpus sizes (comma separated; it becomes
# $$BRENNER_BENCH_THREADS), BENCHTIME go test's -benchtime. The default runs
# 1,000 threads in a few minutes on 2 cores; 10,000 threads one iteration each:
#   make bench BENCH_THREADS=1000,10000 BENCHTIME=1x   (or: make bench-10k)
# A corpus for manual runs: go run ./internal/gen/cmd/gencorpus -n 10000 -out DIR
# Another corpus folder (gen_corpus.py's, its manifest.json moved out):
#   BRENNER_BENCH_DIR=DIR go test -run '^$$' -bench 'Floor|Check' -benchtime 1x ./bench/
BENCH_THREADS ?= 1000
BENCHTIME     ?= 1s
bench:
	BRENNER_BENCH_THREADS=$(BENCH_THREADS) $(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...

bench-10k:
	$(MAKE) bench BENCH_THREADS=1000,10000 BENCHTIME=1x

# Issue 25's c10k goal in one run: gen_corpus.py's 10,000 typical threads
# (written once to C10K_DIR, its manifest beside the folder), then per
# iteration the reference harness's warm pass and check --jobs 2 with four
# reports (BenchmarkBesideReference: speedup, cpu-ratio), the read +
# encoding/json + GFM floor and BenchmarkCheck. Needs ../shared and the
# reference harness built as ../shared/research/upstream-harness.md
# describes:  make bench-reference REFHARNESS=/path/to/harness
C10K_DIR ?= $(or $(TMPDIR),/tmp)/brenner-ci-c10k
REF_RUNS ?= 5x
bench-reference:
	@[ -f ../shared/tools/gen_corpus.py ] || { echo "bench-reference: ../shared/tools/gen_corpus.py is absent"; exit 2; }
	@[ -n "$(REFHARNESS)" ] || { echo "bench-reference: set REFHARNESS to the reference harness folder"; exit 2; }
	[ -f $(C10K_DIR).manifest.json ] || python3 ../shared/tools/gen_corpus.py --out $(C10K_DIR) \
	  --threads 10000 --size typical --manifest $(C10K_DIR).manifest.json --quiet
	BRENNER_REFHARNESS=$(REFHARNESS) BRENNER_BENCH_DIR=$(C10K_DIR) $(GO) test -run '^$$' \
	  -bench 'BesideReference|Floor|Check/jobs=2' -benchtime $(REF_RUNS) ./bench/

# Every goal of issue 25 measured GOALS_RUNS times (about two minutes a
# run), as a table: each run's value, the median, in how many runs it was
# met (bench/goals.sh; the same needs as bench-reference):
#   make bench-goals REFHARNESS=/path/to/harness GOALS_RUNS=3
GOALS_RUNS ?= 1
bench-goals:
	@[ -n "$(REFHARNESS)" ] || { echo "bench-goals: set REFHARNESS to the reference harness folder"; exit 2; }
	C10K_DIR=$(C10K_DIR) bench/goals.sh $(REFHARNESS) $(REF_RUNS:x=) $(GOALS_RUNS)

# Regenerate docs/rules.md from the rule registry.
docs: build
	./$(BIN) rules --format markdown > docs/rules.md

# Regenerate the man page, docs/brenner-ci.1, from the command line model
# (a test fails when it is stale). Read it with: man -l docs/brenner-ci.1
man: build
	./$(BIN) man > docs/brenner-ci.1

clean:
	rm -rf bin $(DEMO_OUT)
