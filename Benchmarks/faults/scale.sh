#!/usr/bin/env bash
# Scale on the fault trials' machines: FEEDS feeds (default 10,000) on three `feedwork worker`s
# sharing one PostgreSQL store, each host in a network namespace of its own (topology.sh), for
# MINUTES (default 30). Every feed is due every 1 to 10 minutes (feed N: N mod 10 + 1 minutes),
# jitter 10%, spread over its interval (the default), against a static page of the API host.
#
#   Benchmarks/faults/scale.sh [FEEDS] [MINUTES]
#
# Prints, from the workers' `--json` lines (one per pass) and /proc: passes run per worker,
# due times run more than once (must be 0), passes due by the schedule against those run, lag
# (how late a pass started after its due time) p50/p99/max, each worker's RSS at the start and
# the end of the steady state (its second half) and its CPU, and PostgreSQL's connections
# (sampled every 10 s: the most), and the machine's load average. Settings (environment): FEEDWORK (default: the release
# build), CONCURRENCY (default 8, per worker), PG_BIN, KEEP_EVENTS (a folder to copy the workers' events to). Needs root, iproute2, PostgreSQL 15 and
# python3; traffic stays inside the namespaces made here, which are removed on exit.
set -euo pipefail
faults_dir="$(cd "$(dirname "$0")" && pwd)"
cd "$faults_dir/../.."
feeds=${1:-10000}
minutes=${2:-30}
concurrency=${CONCURRENCY:-8}
seconds=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 }')
prefix="fws$$"
source "$faults_dir/topology.sh"

[ "$(id -u)" = 0 ] || {
    echo "scale: CANNOT RUN: it must run as root (network namespaces)" >&2
    exit 3
}
if [ -z "${FEEDWORK:-}" ]; then
    build=(bash scripts/release-build.sh -j 1)
    "${build[@]}" --product feedwork >/dev/null
    FEEDWORK="$("${build[@]}" --show-bin-path)/feedwork"
fi
FEEDWORK=$(realpath "$FEEDWORK")
work=$(mktemp -d "${TMPDIR:-/tmp}/feedwork-scale.XXXXXX")
chmod 755 "$work"
pids=()
cleanup() {
    local status=$? pid
    trap - EXIT INT TERM
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
    done
    stop_postgres
    remove_topology
    if [ -n "${KEEP_EVENTS:-}" ]; then mkdir -p "$KEEP_EVENTS" && cp "$work"/events-*.jsonl "$KEEP_EVENTS"/ 2>/dev/null; fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

remove_stale_topologies
make_topology
start_postgres
# The trials' audit of every change would weigh on the server: not for this run.
psql_ -c "DROP EVENT TRIGGER faults_watch" >/dev/null

mkdir "$work/site"
python3 - "$work/site/items.json" <<'PY'
import json, sys
json.dump({"items": [{"id": i, "name": f"item {i}", "price": i * 7} for i in range(1, 21)]}, open(sys.argv[1], "w"))
PY
# `ip netns exec` execs the server, so $! is the server itself, stopped by its pid at the end.
ip netns exec "$(ns api)" python3 -m http.server "$api_port" --bind "$api_address" --directory "$work/site" \
    >/dev/null 2>&1 &
pids+=($!)

python3 - "$work/feeds.yaml" "$feeds" "$pg_address" "$api_address:$api_port" "$concurrency" <<'PY'
import sys
path, count, pg, api, concurrency = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
# The first feed's keys are every feed's (a YAML merge key, `<<: *feed`): 10,000 feeds written
# out in full would pass the 1 MiB a config file may hold.
with open(path, "w") as out:
    out.write(f"store: postgres://feedwork@{pg}:5432/feeds\nschema: scale\n")
    out.write(f"defaults: {{ jitter: 10%, concurrency: {concurrency}, timeout: 10s }}\nfeeds:\n")
    out.write(
        f"  - &feed {{ name: f1, adapter: json, url: 'http://{api}/items.json', every: 2m, records: items,"
        " entity: item_1, key: id, fields: { id: int, name: string, price: int } }\n")
    for n in range(2, count + 1):
        out.write(f"  - {{ <<: *feed, name: f{n}, every: {n % 10 + 1}m, entity: item_{n % 50} }}\n")
PY

start=$(date +%s)
for worker in "${workers[@]}"; do
    (cd "$work" && exec ip netns exec "$(ns "$worker")" "$FEEDWORK" worker -c feeds.yaml --json --name "$worker" \
        >"events-$worker.jsonl" 2>"worker-$worker.log") &
    pids+=($!)
    echo "$!" >"$work/pid-$worker"
done

# The feedwork process of each worker (ip netns exec execs it, so the pid is the worker's).
sample() {
    local worker pid
    for worker in "${workers[@]}"; do
        pid=$(cat "$work/pid-$worker")
        [ -r "/proc/$pid/status" ] || continue
        printf '%s %s %s %s\n' "$(($(date +%s) - start))" "$worker" \
            "$(awk '/VmRSS/ { print $2 }' "/proc/$pid/status")" \
            "$(awk '{ print $14 + $15 }' "/proc/$pid/stat")" >>"$work/samples"
    done
    printf '%s load %s\n' "$(($(date +%s) - start))" "$(awk '{ print $1 }' /proc/loadavg)" >>"$work/samples"
    printf '%s connections %s\n' "$(($(date +%s) - start))" \
        "$(psql_ -At -c "SELECT count(*) FROM pg_stat_activity WHERE datname = 'feeds'" 2>/dev/null || echo 0)" \
        >>"$work/samples"
}
deadline=$((start + seconds))
while [ "$(date +%s)" -lt "$deadline" ]; do
    sample
    sleep 10
done
sample
for worker in "${workers[@]}"; do
    kill -TERM "$(cat "$work/pid-$worker")" 2>/dev/null || true
done
for worker in "${workers[@]}"; do
    for _ in $(seq 600); do kill -0 "$(cat "$work/pid-$worker")" 2>/dev/null || break; sleep 0.1; done
done

python3 - "$work" "$seconds" "$feeds" "$(getconf CLK_TCK)" "$start" <<'PY'
import collections, datetime, glob, json, os, sys

work, seconds, feeds, ticks, start = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
finished, lags, dues = collections.Counter(), [], collections.Counter()
failed = collections.Counter()
# The feeds each worker had run by half time and by the end: a worker keeps a little for each
# feed it ran (its metrics' series), so its RSS grows until it has run every feed once.
seen_half, seen_end = collections.defaultdict(set), collections.defaultdict(set)
for path in sorted(glob.glob(os.path.join(work, "events-*.jsonl"))):
    worker = os.path.basename(path)[len("events-"):-len(".jsonl")]
    for line in open(path):
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("event") != "pass":
            continue
        finished[worker] += 1
        seen_end[worker].add(event.get("feed"))
        ended = datetime.datetime.fromisoformat(event.get("finished_at", "").replace("Z", "+00:00")).timestamp()
        if ended < start + seconds / 2:
            seen_half[worker].add(event.get("feed"))
        lags.append(round(event.get("lag_seconds", 0) * 1000))
        dues[(event.get("feed"), event.get("due_at"))] += 1
        if event.get("status") not in ("ok", "ok_with_rejects", "stale"):
            failed[event.get("status")] += 1
lags.sort()


def pct(p):
    return lags[min(len(lags) - 1, int(p / 100 * len(lags)))] if lags else 0


# A feed every k minutes (k = n mod 10 + 1) is due seconds / (60 k) times in the run, give or
# take its first slot (spread within the interval) and jitter.
due = sum(seconds / (60 * (n % 10 + 1)) for n in range(1, feeds + 1))
twice = sum(1 for count in dues.values() if count > 1)
print(f"scale: {feeds} feeds, 3 workers, {seconds / 60:g} min")
print(f"  passes run: {sum(finished.values())} ({dict(finished)}), not ok: {sum(failed.values())} {dict(failed)}")
print(f"  due by the schedule: about {due:.0f} (with 10% jitter: about {due / 1.05:.0f});"
      f" due times run more than once: {twice}")
print(f"  lag: p50 {pct(50)} ms, p99 {pct(99)} ms, max {lags[-1] if lags else 0} ms")
samples = collections.defaultdict(list)
connections = []
loads = []
for line in open(os.path.join(work, "samples")):
    parts = line.split()
    if parts[1] == "connections":
        connections.append(int(parts[2]))
    elif parts[1] == "load":
        loads.append(float(parts[2]))
    else:
        samples[parts[1]].append((int(parts[0]), int(parts[2]), int(parts[3])))
for worker, rows in sorted(samples.items()):
    half = [row for row in rows if row[0] >= seconds / 2] or rows
    cpu = (rows[-1][2] - rows[0][2]) / ticks / max(1, rows[-1][0] - rows[0][0]) * 100
    print(f"  {worker}: RSS {rows[0][1] / 1024:.1f} MB at the start, {half[0][1] / 1024:.1f} MB at half time,"
          f" {rows[-1][1] / 1024:.1f} MB at the end; CPU {cpu:.1f}% of a core; feeds run by half time"
          f" {len(seen_half[worker])}, by the end {len(seen_end[worker])}")
print(f"  PostgreSQL connections: at most {max(connections) if connections else 0}")
if loads:
    print(f"  1-minute load average: min {min(loads)}, mean {sum(loads) / len(loads):.2f}, max {max(loads)}")
PY
