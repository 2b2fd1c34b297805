#!/usr/bin/env bash
# Schedule soak for `feedwork worker`: FEEDS small json feeds on one worker with a SQLite store
# (or PostgreSQL: STORE), against a loopback HTTP server (python3 -m http.server), for MINUTES.
# Prints how late passes started after they were due (p50, p99, max, from the worker's --json
# lines), the passes that ran against those due, the worker's share of one core, and its RSS
# and open file descriptors at the start and the end, with the machine's load average over the
# run.
#
#   Benchmarks/worker-soak.sh [FEEDS] [MINUTES]     # defaults: 1000 30
#
# Settings (environment):
#   EVERY="30s 1m 2m 5m"  the feeds' intervals, given in turn (feed 1 the first, feed 2 the
#                         second...); EVERY=5s gives every feed 5 s
#   JITTER=10%            the feeds' jitter
#   SPREAD=               `true` or `false`: written as the feeds' `spread:` (left out when empty,
#                         for binaries older than the setting)
#   CONCURRENCY=          the worker's concurrency (the default when empty)
#   MINUTES may be a fraction (0.5 is 30 s).
#   FEEDWORK=path         a feedwork binary to use instead of the release build
#   STORE=postgres://...  a PostgreSQL server to use instead of a SQLite file (a new schema
#                         soak_<pid>, dropped at the end)
#
# On a new store each feed's first pass is due at its slot within its interval (feeds spread
# over their interval, the default), or at once when the worker starts (SPREAD=false, and
# binaries older than `spread`), a burst of FEEDS passes; lag is printed for those first passes
# and for the passes after them (the steady state), apart. Not a unit test: timings on a shared
# machine are read as figures, not asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
feeds=${1:-1000}
minutes=${2:-30}
every_list=${EVERY:-30s 1m 2m 5m}
jitter=${JITTER:-10%}
spread=${SPREAD:-}
concurrency=${CONCURRENCY:-}
postgres=${STORE:-}
schema="soak_$$"
seconds=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 }')

if [[ -z "${FEEDWORK:-}" ]]; then
    build=(bash scripts/release-build.sh -j 1)
    "${build[@]}" --product feedwork >/dev/null
    FEEDWORK="$("${build[@]}" --show-bin-path)/feedwork"
fi
work=$(mktemp -d)
server_pid=""
worker_pid=""
cleanup() {
    [[ -n "$worker_pid" ]] && kill "$worker_pid" 2>/dev/null || true
    [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null || true
    [[ -n "$postgres" ]] && psql -q "$postgres" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1
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

read -r -a intervals <<<"$every_list"
{
    if [[ -n "$postgres" ]]; then
        echo "store: $postgres"
        echo "schema: $schema"
    else
        echo "store: soak.sqlite"
    fi
    echo "defaults: { jitter: $jitter${concurrency:+, concurrency: $concurrency}${spread:+, spread: $spread} }"
    echo "feeds:"
    for i in $(seq "$feeds"); do
        every=${intervals[$(((i - 1) % ${#intervals[@]}))]}
        echo "  - { name: f$i, every: $every, adapter: json, url: \"http://127.0.0.1:$port/items.json?feed=$i\", records: items, entity: item, key: id, fields: { id: int, name: string, price: int } }"
    done
} >"$work/feeds.yaml"

# One sample of the worker: seconds of CPU (user + system), RSS in MB, open descriptors, and
# the machine's 1-minute load average.
sample() {
    local pid=$1 ticks
    ticks=$(getconf CLK_TCK)
    awk -v t="$ticks" '{ printf "%.2f ", ($14 + $15) / t }' "/proc/$pid/stat"
    awk '/VmRSS/ { printf "%.1f ", $2 / 1024 }' "/proc/$pid/status"
    printf '%s ' "$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)"
    awk '{ print $1 }' /proc/loadavg
}

(cd "$work" && exec "$FEEDWORK" worker --json >"$work/passes.jsonl" 2>"$work/worker.log") &
worker_pid=$!
started=$(date +%s.%N)
: >"$work/samples.txt"
# A sample 5 s in (the start: the first burst under way), then every 10 s to the end.
sleep 5
echo "5 $(sample "$worker_pid")" >>"$work/samples.txt"
elapsed=5
while ((elapsed < seconds)); do
    step=$((seconds - elapsed < 10 ? seconds - elapsed : 10))
    sleep "$step"
    elapsed=$((elapsed + step))
    kill -0 "$worker_pid" 2>/dev/null || { echo "the worker ended early:" >&2; cat "$work/worker.log" >&2; exit 1; }
    echo "$elapsed $(sample "$worker_pid")" >>"$work/samples.txt"
done
kill -TERM "$worker_pid"
wait "$worker_pid" || true
worker_pid=""
ended=$(date +%s.%N)

python3 - "$work/passes.jsonl" "$work/samples.txt" "$feeds" "$started" "$ended" "$every_list" "$jitter" \
    "${concurrency:-default}" "${postgres:+PostgreSQL}" "${spread:-default}" <<'PY'
import json, re, sys
path, samples_path, feeds, started, ended, every_list, jitter, concurrency, store, spread = sys.argv[1:11]
store = store or "SQLite"
feeds, started, ended = int(feeds), float(started), float(ended)
seconds = ended - started

def duration(text):
    total = 0
    for number, unit in re.findall(r"(\d+)(ms|s|m|h|d)", text):
        total += int(number) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}[unit]
    return total

intervals = [duration(e) for e in every_list.split()]
share = float(jitter.rstrip("%")) / 100
passes = [json.loads(line) for line in open(path) if line.strip()]

def stamp(text):
    from datetime import datetime
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()

# Spread (the first passes due over their interval, not all at the start): each feed due at
# its slot within its interval, then every `every` (jitter delays a pass after its slot).
# Not spread: each feed due at the start, then about every `every` plus half its jitter.
first_dues = {}
for p in passes:
    first_dues.setdefault(p["feed"], stamp(p["due_at"]))
spreading = bool(first_dues) and max(first_dues.values()) - min(first_dues.values()) > 1
if spreading:
    due = sum(int(seconds / intervals[i % len(intervals)]) for i in range(feeds))
else:
    due = sum(1 + int(seconds / (intervals[i % len(intervals)] * (1 + share / 2))) for i in range(feeds))
failed = sum(1 for p in passes if p["status"] not in ("ok", "ok_with_rejects"))
seen, first, steady = set(), [], []
for p in passes:
    (steady if p["feed"] in seen else first).append(p["lag_seconds"] * 1000)
    seen.add(p["feed"])

# Passes due once every feed had had its first pass: the schedule without the start's burst.
firsts = set()
drained = 0
for p in passes:
    if p["feed"] not in firsts:
        drained = max(drained, stamp(p["due_at"]) + p["lag_seconds"])
    firsts.add(p["feed"])
firsts = set()
settled = []
for p in passes:
    if p["feed"] in firsts and stamp(p["due_at"]) > drained:
        settled.append(p["lag_seconds"] * 1000)
    firsts.add(p["feed"])

def figures(lags):
    if not lags:
        return "none"
    lags = sorted(lags)
    pct = lambda q: lags[min(len(lags) - 1, int(q * len(lags)))]
    return f"p50 {pct(0.5):.1f} ms, p99 {pct(0.99):.1f} ms, max {lags[-1]:.1f} ms ({len(lags)} passes)"

# While at least one pass waited (due, not started), how many ran: a worker that starts a pass
# whenever a slot frees keeps every slot busy then.
changes = []
for p in passes:
    due_at = stamp(p["due_at"])
    start = due_at + p["lag_seconds"]
    changes += [(start, 0, 1), (stamp(p["finished_at"]), 0, -1), (due_at, 1, 1), (start, 1, -1)]
changes.sort()
running = waiting = 0
busy = span = 0.0
last = None
for moment, kind, delta in changes:
    if last is not None and waiting > 0:
        busy += running * (moment - last)
        span += moment - last
    last = moment
    if kind == 0:
        running += delta
    else:
        waiting += delta

samples = [line.split() for line in open(samples_path) if line.strip()]
start, end = samples[0], samples[-1]
cpu = (float(end[1]) - float(start[1])) / (float(end[0]) - float(start[0])) if len(samples) > 1 else float("nan")
loads = [float(s[4]) for s in samples]
print(f"worker soak: {feeds} feeds (every {every_list}, jitter {jitter}, concurrency {concurrency}, "
      f"spread {spread}) for {seconds:.0f} s on one worker ({store})")
print(f"  passes: {len(passes)} run of about {due} due, {failed} not ok; {len(seen)} of {feeds} feeds ran")
first_due = "due at their slots, spread over their interval" if spreading else "all due at the start"
print(f"  lag, each feed's first pass ({first_due}): {figures(first)}")
print(f"  lag, the passes after: {figures(steady)}")
print(f"  lag, the passes due once every feed had had its first (steady state): {figures(settled)}")
if span > 0:
    print(f"  while passes waited ({span:.1f} s in all): {busy / span:.2f} passes running on average")
print(f"  CPU: {cpu * 100:.1f}% of one core from {start[0]} s to the end")
print(f"  RSS: {float(start[2]):.1f} MB at {start[0]} s, {float(end[2]):.1f} MB at the end, "
      f"max {max(float(s[2]) for s in samples):.1f} MB")
print(f"  file descriptors: {start[3]} at {start[0]} s, {end[3]} at the end, max {max(int(s[3]) for s in samples)}")
print(f"  machine load average (1 min): min {min(loads):.2f}, mean {sum(loads) / len(loads):.2f}, max {max(loads):.2f}")
PY
