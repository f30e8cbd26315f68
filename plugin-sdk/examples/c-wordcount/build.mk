# c-wordcount: the example plugin in C (plugin ABI v1 without Go).
# Include from the top-level Makefile; `make c-plugin` rebuilds the module
# and reseals its manifest. The build is deterministic, so the committed
# plugin.wasm and manifest.json only change when wordcount.c does.
C_PLUGIN_DIR := plugin-sdk/examples/c-wordcount
C_PLUGIN_CC ?= clang-16
C_PLUGIN_CFLAGS := --target=wasm32-wasi -mexec-model=reactor -O2 -std=c11 \
	-Wall -Wextra -Werror -fno-ident -Wl,--strip-all

.PHONY: c-plugin
c-plugin: $(C_PLUGIN_DIR)/manifest.json

$(C_PLUGIN_DIR)/plugin.wasm: $(C_PLUGIN_DIR)/wordcount.c $(C_PLUGIN_DIR)/build.mk
	$(C_PLUGIN_CC) $(C_PLUGIN_CFLAGS) -o $@ $<

$(C_PLUGIN_DIR)/manifest.json: $(C_PLUGIN_DIR)/manifest.json.in $(C_PLUGIN_DIR)/plugin.wasm
	sed "s/@SHA256@/$$(sha256sum $(C_PLUGIN_DIR)/plugin.wasm | cut -d' ' -f1)/" $< > $@

# c-plugin-check: rebuild into a temp dir and fail unless the committed
# module is byte-identical (CI runs it beside parser-check).
.PHONY: c-plugin-check
c-plugin-check:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(C_PLUGIN_CC) $(C_PLUGIN_CFLAGS) -o $$tmp/plugin.wasm $(C_PLUGIN_DIR)/wordcount.c && \
	if ! cmp -s $$tmp/plugin.wasm $(C_PLUGIN_DIR)/plugin.wasm; then \
		echo "c-plugin-check: rebuilt plugin.wasm differs from the committed one" >&2; exit 1; \
	fi && echo "c-plugin-check: ok"
