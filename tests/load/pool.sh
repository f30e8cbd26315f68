#!/usr/bin/env bash
# Worker pool figures against a real `pyws serve --workers 2` on loopback,
# over a workspace of 80 stdlib modules (email, json, asyncio, logging,
# http and five large single modules of this machine's Python).
#
#   tests/load/pool.sh starve  4 calls to a plugin that loops forever (it
#                              serves get_diagnostics here), then
#                              format_document one at a time for 40 s:
#                              replies and latency, and when each loop call
#                              answered.
#   tests/load/pool.sh fair    tenant A keeps 32 format_document calls in
#                              flight for 20 s; tenant B calls one at a
#                              time: B's replies and latency.
#   tests/load/pool.sh memory [serve flags]
#                              format and diagnose every file, then idle
#                              40 s: worker RSS fresh, after the load and
#                              after idling (try --worker-idle-recycle 20s,
#                              or --worker-rss-limit-mib 200).
#
# PYWS_BIN=path runs another build (e.g. an older commit's) with this
# tree's plugins.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:?usage: tests/load/pool.sh starve|fair|memory [serve flags]}
shift
[ -x bin/pyws ] || make build >/dev/null
bin=${PYWS_BIN:-bin/pyws}
bin=$(realpath "$bin")

tmp=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$tmp" tests/load/.loopdiag' EXIT
stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')
mkdir "$tmp/ws"
for m in email json asyncio logging http typing.py argparse.py inspect.py dataclasses.py pydoc.py; do
	cp -r "$stdlib/$m" "$tmp/ws/"
done
find "$tmp/ws" -name __pycache__ -prune -exec rm -rf {} +
ka=$(bin/pyws keys add --keys "$tmp/keys.json" --tier enterprise --tenant A | tail -n1)
kb=$(bin/pyws keys add --keys "$tmp/keys.json" --tier enterprise --tenant B | tail -n1)
plugins=(--plugins bin/plugins)
if [ "$mode" = starve ]; then
	# A plugin that never returns, packed from a throwaway source inside
	# the module (its SDK import resolves there).
	mkdir -p tests/load/.loopdiag
	cat >tests/load/.loopdiag/main.go <<'EOF'
package main

import "github.com/pyws/pyws/plugin-sdk"

var x uint64

func handle(r *sdk.Request) (any, error) {
	for {
		x = x*6364136223846793005 + 1442695040888963407
	}
}

func init() { sdk.Serve(handle) }

func main() {}
EOF
	cat >tests/load/.loopdiag/manifest.json <<'EOF'
{"name": "loopdiag", "version": "1.0.0", "abi": "pyws_v1", "protocol": 1, "tools": ["get_diagnostics"], "needs": []}
EOF
	bin/pyws plugin pack tests/load/.loopdiag "$tmp/faulty" >/dev/null
	plugins+=(--plugins "$tmp/faulty")
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
base=http://127.0.0.1:$port
"$bin" serve --workspace "$tmp/ws" --addr 127.0.0.1:$port --keys "$tmp/keys.json" --state "$tmp/state" \
	"${plugins[@]}" --workers 2 "$@" >"$tmp/server.log" 2>&1 &
pid=$!
until curl -sf -o /dev/null $base/v1/openapi.json; do sleep 0.2; done
sleep 10 # the first index build

call() { # call KEY TOOL FILE: prints "status seconds"
	curl -s -o /dev/null -m 60 -w "%{http_code} %{time_total}\n" -H "Authorization: Bearer $1" \
		-X POST $base/v1/tools/$2 -d "{\"uri\":\"$3\"}" || true # a timed-out request prints 000
}
stats() { # stats FILE: count, median, p90 and max of column 2
	sort -n -k2 "$1" | awk '{a[NR]=$2} END {printf "%d replies, median %.3f s, p90 %.3f s, max %.3f s", NR, a[int((NR+1)/2)], a[int(NR*0.9)], a[NR]}'
}
rss() { # resident MiB of each worker
	for c in $(cat /proc/$pid/task/*/children); do
		printf '%d ' $(($(awk '{print $2}' /proc/$c/statm) * $(getconf PAGESIZE) >> 20))
	done
	echo MiB
}

case $mode in
starve)
	for i in 1 2 3 4; do
		(call "$ka" get_diagnostics typing.py | sed "s/^/loop call $i: /") &
		loops+=" $!"
	done
	sleep 0.5
	end=$((SECONDS + 40))
	while [ $SECONDS -lt $end ]; do call "$kb" format_document json/decoder.py; done >"$tmp/format"
	echo "format_document during the loop calls: $(stats "$tmp/format"); statuses: $(cut -d' ' -f1 "$tmp/format" | sort | uniq -c | tr -s ' \n' ' ')"
	wait $loops
	;;
fair)
	end=$((SECONDS + 20))
	for i in $(seq 32); do
		(while [ $SECONDS -lt $end ]; do call "$ka" format_document json/decoder.py; done >"$tmp/a$i") &
		burst+=" $!"
	done
	sleep 1
	while [ $SECONDS -lt $end ]; do call "$kb" format_document json/decoder.py; done >"$tmp/b"
	wait $burst
	cat "$tmp"/a* >"$tmp/a"
	echo "tenant A (32 in flight): $(stats "$tmp/a")"
	echo "tenant B (one at a time): $(stats "$tmp/b")"
	;;
memory)
	echo "fresh: $(rss)"
	(cd "$tmp/ws" && find . -name '*.py' | sed 's|^\./||') | while read -r f; do
		call "$ka" format_document "$f" >/dev/null
		call "$ka" get_diagnostics "$f" >/dev/null
	done
	echo "after formatting and diagnosing every file: $(rss)"
	sleep 40
	echo "after 40 s idle: $(rss)"
	;;
esac
curl -s $base/metrics | grep -E '^pyws_plugin_(timeouts|cancellations|worker_restarts|worker_recycles)_total' || true
