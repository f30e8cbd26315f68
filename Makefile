# pyws: `make run` serves the sample workspace, `make test` runs every test.
GO       ?= go
BIN      := bin/pyws
PLUGINS  := bin/plugins
PREPARED := bin/prepared
ADDR     ?= 127.0.0.1:8080
WORKSPACE ?= examples/sample-project
STATE    ?= .pyws-state
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

include wasm/parser.mk
include plugin-sdk/typeshed/stubs.mk
-include plugin-sdk/examples/c-wordcount/build.mk

.PHONY: build binary plugins prepared run test test-short bench soak chaos fuzz vet clean

build: stubs binary plugins prepared

binary:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/pyws

# Every directory under plugins/ with a manifest.json is a Go analyzer,
# packed next to the binary where `pyws serve` looks by default.
plugins: binary
	@for m in plugins/*/manifest.json; do \
		$(BIN) plugin pack $$(dirname $$m) $(PLUGINS) || exit 1; \
	done

# The plugins compiled and typeshed's stdlib summarized (for 3.12 and
# python3 on PATH), beside the binary where `pyws serve` looks by default:
# a fresh --state starts without compiling or summarizing them.
prepared: plugins
	$(BIN) prepare --out $(PREPARED)

run: build
	$(BIN) serve --workspace $(WORKSPACE) --addr $(ADDR) --state $(STATE) --dev-key

vet:
	$(GO) vet ./...

test: build vet
	$(GO) test -race -count=1 -timeout 60m ./...

test-short: stubs
	$(GO) test -short ./...

# bench ends with the side-by-side run (tests/bench): pyws against
# pyright, Black, pyflakes and Ruff's wasm build where installed, on
# Django and the standard library, as one table of ratios.
bench: build
	$(GO) test -run '^$$' -bench . -benchmem -count 1 -timeout 30m ./host/... ./wasm/... ./plugin-sdk/parsertest/
	$(GO) test -run '^$$' -bench . -benchtime 20000x -count 3 ./tests/load/
	$(GO) test -run '^$$' -bench . -benchtime 20x ./tests/e2e/
	$(GO) test -run '^$$' -bench CompletionsDjango -benchtime 3x ./tests/differential/pyright/
	tests/load/run.sh
	$(GO) run ./tests/bench

# soak is the operator's drill: 64 connections of mixed requests for
# SOAK while files change every second and a faulty analyzer spins on one
# file every 5 s; it fails unless the server stays up, nothing else
# answers 5xx, other tools' p99 stay within 2x of a run without the fault
# and memory stays flat. `make test` runs the same drill for seconds.
SOAK ?= 10m
soak: build
	PYWS_SOAK=$(SOAK) $(GO) test -count=1 -run '^TestSoak$$' -v -timeout 90m ./tests/e2e/

# chaos is the hostile-filesystem drill (tests/e2e TestHostileFilesystem)
# with phases of CHAOS each and a new seed; `make test` runs 2 s phases.
CHAOS ?= 30s
chaos: build
	PYWS_FSCHAOS=$(CHAOS) $(GO) test -race -count=1 -run '^TestHostileFilesystem$$' -v -timeout 60m ./tests/e2e/

# fuzz runs every fuzz target (untrusted bytes: paths, edits, trees,
# plugin messages and output, encodings, Python source) for FUZZTIME each.
FUZZTIME ?= 30s
fuzz:
	@grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u | while read d; do \
		for f in $$(grep -h '^func Fuzz' $$d/*_test.go | sed 's/func \(Fuzz[A-Za-z0-9_]*\).*/\1/'); do \
			echo "== $$d $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$d || exit 1; \
		done; \
	done

clean:
	rm -rf bin $(STATE)
