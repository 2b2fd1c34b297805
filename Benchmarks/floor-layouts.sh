#!/usr/bin/env bash
# SQLite's floor for W1 (Benchmarks/floor-sql.sh) in three table layouts, timed in alternation:
#   rowid:       the store's layout: `item` a rowid table with its primary key (_feed, _key) as an
#                index beside it, `item__tags` a rowid table with an index on (_feed, _key);
#   children:    `item__tags` WITHOUT ROWID, keyed by (_feed, _key, _position) (no index apart);
#   both:        `item` WITHOUT ROWID too, keyed by (_feed, _key).
# A WITHOUT ROWID table is one B-tree where a rowid table with an index is two, so each row is
# one B-tree insert instead of two; its rows are wider, as the whole row lives in the key's tree.
#
# Usage: Benchmarks/floor-layouts.sh STORE N [RUNS]
#   STORE   a store feedwork wrote for W1 (its tables' SQL is the starting point)
#   N       items (each with two tags); RUNS trials of each layout (default 5), medians printed
set -euo pipefail
cd "$(dirname "$0")/.."
store=$1; n=$2; runs=${3:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bash Benchmarks/floor-sql.sh "$store" "$n" >"$work/rowid.sql"
# The children keyed by (_feed, _key, _position), without their index.
sed -e 's/"value" TEXT);$/"value" TEXT, PRIMARY KEY ("_feed", "_key", "_position")) WITHOUT ROWID;/' \
    -e '/CREATE INDEX "item__tags_parent"/d' "$work/rowid.sql" >"$work/children.sql"
# And the items keyed by (_feed, _key) in their own tree.
sed -e 's/PRIMARY KEY ("_feed", "_key"));$/PRIMARY KEY ("_feed", "_key")) WITHOUT ROWID;/' \
    "$work/children.sql" >"$work/both.sql"
for layout in children both; do
    grep -q "WITHOUT ROWID" "$work/$layout.sql" || { echo "could not make the $layout layout" >&2; exit 1; }
done

declare -A times
for _ in $(seq 1 "$runs"); do
    for layout in rowid children both; do
        rm -f "$work/floor.sqlite" "$work/floor.sqlite-wal" "$work/floor.sqlite-shm"
        start=$EPOCHREALTIME
        sqlite3 "$work/floor.sqlite" ".read $work/$layout.sql" >/dev/null
        times[$layout]+="$(awk "BEGIN { printf \"%.4f\", $EPOCHREALTIME - $start }") "
    done
done
median() { printf "%s\n" "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
base=$(median ${times[rowid]})
for layout in rowid children both; do
    m=$(median ${times[$layout]})
    printf "N=%-8s %-9s %7.3f s  %5.2fx rowid  (runs: %s)\n" "$n" "$layout" "$m" "$(awk "BEGIN { print $m / $base }")" "${times[$layout]% }"
done
