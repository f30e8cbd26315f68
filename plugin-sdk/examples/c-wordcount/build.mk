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
