#!/bin/sh
# Same-run speed comparison: pyws's cold index (through the indexer plugin)
# and warm restart, then pyright's time to its first references answer, on
# Django and the CPython standard library. Run from the repository root
# after `make build` (the benchmark uses bin/plugins/indexer). `make bench`
# (tests/bench) measures the same with a real `pyws serve`, beside pyright,
# in one table.
set -e
go test ./host/index -run '^$' -bench 'ColdIndex|WarmRestart' -benchtime 1x -count 1 -timeout 30m
PYWS_PYRIGHT_TIMING=django,stdlib go test ./tests/differential/pyright -run TestFirstReferences -v -count 1 -timeout 30m | grep -E 'pyright first|ok|FAIL'
