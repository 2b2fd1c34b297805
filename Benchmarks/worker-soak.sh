#!/usr/bin/env bash
# Schedule soak for `feedwork worker`: FEEDS json feeds, each `every: 1s`, for SECONDS on one
# worker with a SQLite store, against a loopback HTTP server (python3 -m http.server). Prints
# how late passes started after they were due (p50, p99, max, from the worker's --json lines),
# how many passes ran against how many were due, and the worker's RSS 5 s in and at the end.
#
#   Benchmarks/worker-soak.sh [FEEDS] [SECONDS]     # defaults: 200 60
#
# Not a unit test: timings on a shared machine are read as figures, not asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
feeds=${1:-200}
seconds=${2:-60}

build=(bash scripts/release-build.sh)
"${build[@]}" --product feedwork >/dev/null
bin=$("${build[@]}" --show-bin-path)
work=$(mktemp -d)
server_pid=""
worker_pid=""
cleanup() {
    [ -n "$worker_pid" ] && kill "$worker_pid" 2>/dev/null
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

mkdir "$work/site"
python3 - "$work/site/items.json" <<'PY'
import json, sys
json.dump({"items": [{"id": i, "name": f"item {i}", "price": i * 7} for i in range(1, 21)]}, open(sys.argv[1], "w"))
PY
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/site" >/dev/null 2>&1 &
server_pid=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/items.json" >/dev/null && break; sleep 0.1; done

{
    echo "store: soak.sqlite"
    echo "defaults: { every: 1s, concurrency: 8 }"
    echo "feeds:"
    for i in $(seq "$feeds"); do
        echo "  - { name: f$i, adapter: json, url: \"http://127.0.0.1:$port/items.json?feed=$i\", records: items, entity: item, key: id, fields: { id: int, name: string, price: int } }"
    done
} >"$work/feeds.yaml"

rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
(cd "$work" && exec "$bin/feedwork" worker --json >"$work/passes.jsonl" 2>"$work/worker.log") &
worker_pid=$!
sleep 5
rss_start=$(rss "$worker_pid")
sleep $((seconds - 5))
rss_end=$(rss "$worker_pid")
kill -TERM "$worker_pid"
wait "$worker_pid" || true
worker_pid=""

python3 - "$work/passes.jsonl" "$feeds" "$seconds" "$rss_start" "$rss_end" <<'PY'
import json, sys
path, feeds, seconds, rss_start, rss_end = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
passes = [json.loads(line) for line in open(path) if line.strip()]
lags = sorted(p["lag_seconds"] for p in passes)
def pct(q): return lags[min(len(lags) - 1, int(q * len(lags)))] * 1000 if lags else float("nan")
failed = sum(1 for p in passes if p["status"] not in ("ok", "ok_with_rejects"))
print(f"worker soak: {feeds} feeds every 1s for {seconds}s on one worker (SQLite)")
print(f"  passes: {len(passes)} of about {feeds * seconds} due, {failed} not ok")
print(f"  scheduling lag: p50 {pct(0.5):.1f} ms, p99 {pct(0.99):.1f} ms, max {lags[-1] * 1000 if lags else float('nan'):.1f} ms")
print(f"  worker RSS: {rss_start:.1f} MB after 5 s, {rss_end:.1f} MB at the end ({(rss_end / rss_start - 1) * 100:+.0f}%)")
PY
