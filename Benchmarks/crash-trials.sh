#!/usr/bin/env bash
# Crash safety: SIGKILLs `feedwork run` at random moments of a large pass, then checks that the
# store is intact (PRAGMA integrity_check), that every feed's rows are all the previous pass's or
# all the new one's, and that the next run completes normally.
#
# Usage: Benchmarks/crash-trials.sh [TRIALS] [ITEMS_PER_FEED]   (defaults: 24 trials, 20000 items)
# Needs python3 (with its sqlite3 module). Prints "crash-trials: N passed, M failed" last and
# exits non-zero when any trial failed.
set -euo pipefail
cd "$(dirname "$0")/.."

trials=${1:-24}
items=${2:-20000}

swift build >/dev/null
binary="$(swift build --show-bin-path)/feedwork"
work=$(mktemp -d "${TMPDIR:-/tmp}/feedwork-crash.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Two fruit feeds of $items items each; every item's price is the pass's marker.
python3 - "$work" "$items" <<'PY'
import json, sys
work, items = sys.argv[1], int(sys.argv[2])
for marker in (1, 2):
    for feed in ("north", "south"):
        fruit = [{"type": f"{feed}-fruit-{i:07d}", "price": marker, "weight": i % 997} for i in range(items)]
        with open(f"{work}/{feed}-{marker}.json", "w") as out:
            json.dump({"fruit": fruit}, out)
with open(f"{work}/feeds.yaml", "w") as out:
    out.write("feeds:\n"
              "  - { name: north, adapter: fruit, url: north.json }\n"
              "  - { name: south, adapter: fruit, url: south.json }\n")
PY

use_marker() {
    cp "$work/north-$1.json" "$work/north.json"
    cp "$work/south-$1.json" "$work/south.json"
}

# Prints "ok" and each feed's state (old or new) when the store is intact and each feed holds
# only marker $1 or only marker $2; otherwise what is wrong.
check_store() {
    python3 - "$work/feeds.sqlite" "$items" "$1" "$2" <<'PY'
import sqlite3, sys
path, items, old, new = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
db = sqlite3.connect(path)
problems = []
states = []
integrity = db.execute("PRAGMA integrity_check").fetchall()
if integrity != [("ok",)]:
    problems.append(f"integrity_check: {integrity}")
for feed in ("north", "south"):
    prices = sorted(p for (p,) in db.execute("SELECT DISTINCT price FROM fruit WHERE _feed = ?", (feed,)))
    count = db.execute("SELECT count(*) FROM fruit WHERE _feed = ?", (feed,)).fetchone()[0]
    if prices not in ([old], [new]) or count != items:
        problems.append(f"feed {feed}: prices {prices}, {count} rows (expected all {old} or all {new}, {items} rows)")
    else:
        states.append(f"{feed} {'new' if prices == [new] and old != new else 'old'}")
print("ok " + ", ".join(states) if not problems else "; ".join(problems))
PY
}

# A first full pass, timed, to learn how long a pass takes.
use_marker 1
start=$(date +%s%N)
"$binary" run --config "$work/feeds.yaml" >/dev/null
duration_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "a full pass of 2 x $items items takes ${duration_ms} ms"
result=$(check_store 1 1)
[[ "$result" == ok* ]] || { echo "the first pass is wrong: $result"; exit 1; }

passed=0
failed=0
old=1
for trial in $(seq 1 "$trials"); do
    new=$(( 3 - old ))
    use_marker "$new"
    delay_ms=$(python3 -c "import random; print(random.randint(0, int($duration_ms * 1.1)))")
    "$binary" run --config "$work/feeds.yaml" >/dev/null 2>&1 &
    pid=$!
    python3 -c "import time; time.sleep($delay_ms / 1000)"
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true

    problem=""
    result=$(check_store "$old" "$new")
    state=${result#ok }
    [[ "$result" == ok* ]] || problem="after the kill at ${delay_ms} ms: $result"
    if [ -z "$problem" ] && ! "$binary" run --config "$work/feeds.yaml" >"$work/next.log" 2>&1; then
        problem="the next run failed: $(tail -5 "$work/next.log")"
    fi
    if [ -z "$problem" ]; then
        result=$(check_store "$new" "$new")
        [[ "$result" == ok* ]] || problem="after the next run: $result"
    fi
    if [ -z "$problem" ]; then
        passed=$(( passed + 1 ))
        echo "trial $trial: killed at ${delay_ms} ms: ok ($state); the next run completed"
    else
        failed=$(( failed + 1 ))
        echo "trial $trial: FAILED: $problem"
    fi
    old=$new
done

echo "crash-trials: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
