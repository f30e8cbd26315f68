# wasm/parser.mk: builds the tree-sitter-python parser module. Included by
# the top Makefile. `make parser` rebuilds wasm/parser.wasm and its SHA-256;
# `make parser-check` rebuilds into a temp dir and fails unless the result is
# byte-identical to the committed module. A plain `go build` never needs any
# of this: the .wasm is committed and embedded by package wasm.
#
# The C sources come from the Go module proxy at pinned versions, checked
# against pinned go.sum hashes (the go command also checks them against the
# checksum database). `go mod download` runs from / so it never touches this
# module's go.mod or go.sum. Our C wrapper lives in wasm/csrc/ because the go
# command refuses .c files in a package directory that does not use cgo.

PARSER_TS_CORE_MOD   := github.com/tree-sitter/go-tree-sitter@v0.25.0
PARSER_TS_CORE_SUM   := h1:sx6kcg8raRFCvc9BnXglke6axya12krCJF5xJ2sftRU=
PARSER_TS_PYTHON_MOD := github.com/tree-sitter/tree-sitter-python@v0.25.0
PARSER_TS_PYTHON_SUM := h1:O6XD9v8U1LOcRc3cNj9nM7XufrtEBezE6VrpRrHZDf0=

PARSER_CC     ?= clang-16
PARSER_LD     ?= wasm-ld-16
PARSER_WASM   := wasm/parser.wasm
PARSER_SHA    := wasm/parser.wasm.sha256
PARSER_SRC    := wasm/csrc/pyws_parser.c

# Deterministic output: no debug info, no embedded paths (the module cache
# location differs per machine), names section stripped. A 1 MiB shadow
# stack placed first in memory, so an overflow traps at address < 0 instead
# of silently overwriting static data.
PARSER_CFLAGS := --target=wasm32-wasi -mexec-model=reactor -O2 -std=c11 \
	-D_POSIX_C_SOURCE=200112L -D_DEFAULT_SOURCE -DHAVE_ENDIAN_H \
	-g0 -fno-ident -Wno-unused-command-line-argument
PARSER_LDFLAGS := --ld-path=$(shell command -v $(PARSER_LD)) \
	-Wl,--strip-all -Wl,--export=malloc -Wl,--export=free \
	-Wl,--stack-first -Wl,-z,stack-size=1048576

# parser_moddir prints the module cache directory of $(1) after checking its
# hash against $(2).
define parser_moddir
$$(cd / && go mod download -json $(1) | awk -F'"' -v want='$(2)' \
	'$$2=="Dir"{d=$$4} $$2=="Sum"{s=$$4} END{if(s!=want){print "hash mismatch for $(1): " s > "/dev/stderr"; exit 1}; print d}')
endef

# parser_build OUT: compile the module into OUT.
define parser_build
	set -e; \
	core=$(call parser_moddir,$(PARSER_TS_CORE_MOD),$(PARSER_TS_CORE_SUM)); \
	py=$(call parser_moddir,$(PARSER_TS_PYTHON_MOD),$(PARSER_TS_PYTHON_SUM)); \
	test -n "$$core" && test -n "$$py"; \
	$(PARSER_CC) $(PARSER_CFLAGS) \
		-ffile-prefix-map=$$core=tree-sitter -ffile-prefix-map=$$py=tree-sitter-python \
		-ffile-prefix-map=$(CURDIR)=. \
		-I$$core/include -I$$core/src -I$$py/src \
		$(PARSER_LDFLAGS) -o $(1) \
		$$core/src/lib.c $$py/src/parser.c $$py/src/scanner.c $(PARSER_SRC)
endef

.PHONY: parser parser-check

parser:
	$(call parser_build,$(PARSER_WASM))
	sha256sum $(PARSER_WASM) | cut -d' ' -f1 > $(PARSER_SHA)
	@echo "$(PARSER_WASM): $$(wc -c < $(PARSER_WASM)) bytes, sha256 $$(cat $(PARSER_SHA))"

parser-check:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(call parser_build,$$tmp/parser.wasm) && \
	got=$$(sha256sum $$tmp/parser.wasm | cut -d' ' -f1) && \
	want=$$(cat $(PARSER_SHA)) && \
	if [ "$$got" != "$$want" ]; then \
		echo "parser-check: rebuilt parser.wasm has sha256 $$got, committed $(PARSER_SHA) says $$want" >&2; exit 1; \
	fi && echo "parser-check: ok ($$got)"

# parser-native: the same C code built natively through cgo (build tag
# pyws_native), to benchmark wasm against native and to check that both
# produce identical blobs over the local stdlib. Needs a C compiler.
.PHONY: parser-native
parser-native:
	set -e; \
	core=$(call parser_moddir,$(PARSER_TS_CORE_MOD),$(PARSER_TS_CORE_SUM)); \
	py=$(call parser_moddir,$(PARSER_TS_PYTHON_MOD),$(PARSER_TS_PYTHON_SUM)); \
	CGO_ENABLED=1 CGO_CFLAGS="-I$$(dirname $$core) -I$$core/include -I$$core/src" \
	go test -tags pyws_native -run TestNativeMatchesWasm -bench 'BenchmarkParse(Wasm|Native)$$' -benchtime 5x ./wasm/parser/
