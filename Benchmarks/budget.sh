#!/usr/bin/env bash
# Request budgets: FEEDS json feeds sharing one budget of RATE requests a second (bursts of
# BURST) each page through PAGES pages of a loopback API that answers 429 above RATE a second
# (a token bucket of BURST + 2, two requests of slack for arrival jitter). Prints the requests
# sent, the 429s seen, the time from the first request to the last and the rate after the
# burst, next to the budget.
#
#   Benchmarks/budget.sh [FEEDS] [PAGES] [RATE] [BURST]     # defaults: 2 50 5 5
#   FEEDWORK=.build/debug/feedwork Benchmarks/budget.sh     # a built binary instead of the release build
#
# Not a unit test: timings on a shared machine are read as figures, not asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
feeds=${1:-2}
pages=${2:-50}
rate=${3:-5}
burst=${4:-$rate}

if [ -n "${FEEDWORK:-}" ]; then
    bin=$(dirname "$FEEDWORK")
else
    build=(bash scripts/release-build.sh)
    "${build[@]}" --product feedwork >/dev/null
    bin=$("${build[@]}" --show-bin-path)
fi
work=$(mktemp -d)
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 - "$port" "$pages" "$rate" "$((burst + 2))" "$work/arrivals.txt" <<'PY' &
import http.server, json, sys, threading, time, urllib.parse
port, pages, rate, capacity, log = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
lock = threading.Lock()
state = {"tokens": capacity, "updated": time.monotonic()}
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass
    def do_GET(self):
        with lock:
            now = time.monotonic()
            state["tokens"] = min(capacity, state["tokens"] + (now - state["updated"]) * rate)
            state["updated"] = now
            allowed = state["tokens"] >= 1
            if allowed: state["tokens"] -= 1
            with open(log, "a") as out: out.write(f"{now} {200 if allowed else 429}\n")
        if not allowed:
            self.send_response(429); self.send_header("Retry-After", "1"); self.send_header("Content-Length", "0"); self.end_headers(); return
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        page = int(query.get("page", ["1"])[0])
        body = json.dumps({"items": [{"id": f"{self.path.split('?')[0]}-{page}-{i}"} for i in range(2)], "total": pages * 2}).encode()
        self.send_response(200); self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body)
http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
PY
server_pid=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/ready" >/dev/null && break; sleep 0.1; done
: >"$work/arrivals.txt"

{
    echo "store: budget.sqlite"
    echo "defaults:"
    echo "  concurrency: $feeds"
    echo "  budgets:"
    echo "    api: { requests: $rate, per: 1s, burst: $burst }"
    echo "feeds:"
    for i in $(seq "$feeds"); do
        cat <<YAML
  - name: feed-$i
    adapter: json
    url: http://127.0.0.1:$port/feed-$i
    budget: api
    retries: 0
    pagination: { type: page, limit: 2, total_path: total }
    records: items
    entity: item_$i
    key: id
    fields: { id: string }
YAML
    done
} >"$work/feeds.yaml"

"$bin/feedwork" run -c "$work/feeds.yaml" >/dev/null || echo "(the run failed: see the 429s below)"
python3 - "$work/arrivals.txt" "$rate" "$burst" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1])]
rate, burst = float(sys.argv[2]), int(sys.argv[3])
times = [float(t) for t, _ in rows]
refused = sum(1 for _, status in rows if status == "429")
span = times[-1] - times[0] if len(times) > 1 else 0
after_burst = (len(times) - burst) / span if span > 0 and len(times) > burst else float("nan")
print(f"{len(times)} requests, {refused} answered 429, {span:.2f} s from the first to the last")
print(f"rate after the burst of {burst}: {after_burst:.2f} a second, budget {rate:g} ({after_burst / rate:.1%} of it)")
PY
