# brenner-ci — make demo, make test.
GO       ?= go
BIN      := bin/brenner-ci
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS  := -s -w -X github.com/brenner-ci/brenner-ci/internal/cli.Version=$(VERSION)
DEMO_OUT ?= demo-out

.PHONY: all build test vet fmt demo bench docs clean

all: build

build:
	$(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/brenner-ci

test:
	$(GO) test -count=1 ./...

vet:
	$(GO) vet ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

# The main job on the sample corpus in testdata/demo: compile every thread,
# check it, write every report into $(DEMO_OUT)/. Findings are expected
# (the sample has deliberate mistakes), so exit code 1 is shown, not fatal; 2 or 3 fail.
demo: build
	rm -rf $(DEMO_OUT)
	./$(BIN) compile testdata/demo --out $(DEMO_OUT)/compiled --compiled-body; c=$$?; [ $$c -le 1 ] || exit $$c
	./$(BIN) check testdata/demo --out $(DEMO_OUT) --repo-root . ; c=$$?; \
	  echo "brenner-ci check exit code: $$c (1 = findings, expected on the sample)"; [ $$c -le 1 ] || exit $$c
	@ls -l $(DEMO_OUT)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Regenerate docs/rules.md from the rule registry.
docs: build
	./$(BIN) rules --format markdown > docs/rules.md

clean:
	rm -rf bin $(DEMO_OUT)
