#!/usr/bin/env bash
# The cost of a full-text index on W1's first pass: the same N rows (`item-i` names) loaded by
# the json adapter into a new SQLite store with `search: [name]` and without, alternately
# REPEAT times each; prints each wall time, the medians and their ratio (on / off).
#
# Usage: Benchmarks/search-insert.sh [N]      (default 1000000; REPEAT=3 by default)
# Needs: a release build (made here), GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-1000000}"
REPEAT="${REPEAT:-3}"
build=(bash scripts/release-build.sh)
"${build[@]}" --product feedwork >/dev/null
"${build[@]}" --product feedwork-bench-server >/dev/null
bin=$("${build[@]}" --show-bin-path)
work=$(mktemp -d)
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
"$bin/feedwork-bench-server" --rows "$N" >"$work/api" &
server=$!
for _ in $(seq 1 200); do grep -q listening "$work/api" 2>/dev/null && break; sleep 0.05; done
port=$(awk '/listening/ { print $3 }' "$work/api")

# config SEARCH: W1's feeds.yaml (Benchmarks/w1-feeds.sh), with `search: [name]` when SEARCH is on.
config() {
    if [ "$1" = on ]; then
        bash Benchmarks/w1-feeds.sh "$port" | sed 's/^    key: id$/    key: id\n    search: [name]/'
    else
        bash Benchmarks/w1-feeds.sh "$port"
    fi
}
declare -A walls=([on]="" [off]="")
for round in $(seq 1 "$REPEAT"); do
    for mode in off on; do
        dir="$work/$mode-$round"
        mkdir -p "$dir"
        config "$mode" >"$dir/feeds.yaml"
        /usr/bin/time -f "%e" -o "$dir/wall" "$bin/feedwork" run -q -c "$dir/feeds.yaml"
        rows=$(sqlite3 "$dir/bench.sqlite" "SELECT count(*) FROM item")
        [ "$rows" = "$N" ] || { echo "search $mode: $rows rows, expected $N" >&2; exit 1; }
        wall=$(cat "$dir/wall")
        walls[$mode]+="$wall "
        echo "round $round, search $mode: ${wall}s ($(du -k "$dir/bench.sqlite" | cut -f1) KB)"
        rm -rf "$dir"
    done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
off=$(median <<<"${walls[off]}")
on=$(median <<<"${walls[on]}")
echo "summary: N=$N, first pass without search ${off}s, with search: [name] ${on}s, ratio $(awk "BEGIN { printf \"%.2f\", $on / $off }")"
