#!/usr/bin/env bash
# HTTP load figures: health_check and read-file requests per second at 64
# concurrent connections, measured with wrk (Debian package `wrk`) against
# a real `pyws serve` on loopback. Usage: tests/load/run.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-10}
command -v wrk >/dev/null || { echo "wrk is not installed: apt-get install wrk" >&2; exit 1; }
[ -x bin/pyws ] || make build >/dev/null

tmp=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
key=$(bin/pyws keys add --keys "$tmp/keys.json" --tier enterprise --workspace examples/sample-project | tail -n1)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
bin/pyws serve --workspace examples/sample-project --addr 127.0.0.1:$port --keys "$tmp/keys.json" \
	--state "$tmp/state" --log-level warn >"$tmp/server.log" 2>&1 &
pid=$!
for _ in $(seq 100); do curl -sf -o /dev/null http://127.0.0.1:$port/v1/openapi.json && break; sleep 0.1; done

run() {
	local name=$1 path=$2
	local out
	out=$(wrk -t2 -c64 -d${secs}s --latency -H "Authorization: Bearer $key" "http://127.0.0.1:$port$path")
	local rps p50 p99 non2xx
	rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
	p50=$(awk '$1=="50%" {print $2}' <<<"$out")
	p99=$(awk '$1=="99%" {print $2}' <<<"$out")
	non2xx=$(awk '/Non-2xx/ {print $5}' <<<"$out")
	printf '%-12s %10s req/s  p50 %-8s p99 %-8s non-2xx %s\n' "$name" "$rps" "$p50" "$p99" "${non2xx:-0}"
}
echo "wrk -t2 -c64 -d${secs}s against pyws on 127.0.0.1:$port ($(nproc) cores)"
run health_check /v1/tools/health_check
run read_file /v1/resources/file/inventory/models.py
