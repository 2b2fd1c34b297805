#!/usr/bin/env bash
# The throughput benchmark (workload W1): feedwork's json adapter against a synthetic API running
# as a separate process on 127.0.0.1, timed side by side with a hand-written Python loader that
# reads the same pages from local files, and next to SQLite's own floor: the same rows inserted
# by SQLite alone (Benchmarks/floor-sql.sh). Prints a table and a final summary line.
#
# Usage: Benchmarks/run.sh [N ...]        (default: 100000 1000000; exits 1 when a target is missed)
#        REPEAT=5 Benchmarks/run.sh      (each measurement is the median of REPEAT runs, default 3,
#                                         alternating reference and feedwork so noise hits both)
# Needs: a release build (made here), python3, GNU time (/usr/bin/time; apt-get install time).
set -euo pipefail
cd "$(dirname "$0")/.."

sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000)
if [ ! -x /usr/bin/time ]; then
    echo "installing GNU time"; apt-get install -y -qq time >/dev/null
fi

# A release build with the Swift runtime linked in, as a command-line tool is shipped (it saves
# the dynamic linking of the runtime libraries at every start); a folder of its own.
build=(swift build -c release --static-swift-stdlib --scratch-path .build-release-static)
"${build[@]}" --product feedwork >/dev/null
"${build[@]}" --product feedwork-bench-server >/dev/null
bin=$("${build[@]}" --show-bin-path)
work=$(mktemp -d)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

repeat=${REPEAT:-3}

# measure LABEL COMMAND...: runs the command under GNU time; sets WALL (s) and RSS (MB).
measure() {
    local label=$1; shift
    /usr/bin/time -f "%e %M" -o "$work/time-$label" "$@" >"$work/out-$label" 2>"$work/err-$label" || {
        echo "$label failed:"; cat "$work/err-$label" "$work/out-$label"; exit 1; }
    read -r WALL RSS_KB <"$work/time-$label"
    RSS=$(awk "BEGIN { printf \"%.1f\", $RSS_KB / 1024 }")
}

# median VALUES...: the middle value.
median() { printf "%s\n" "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf "%-9s %-22s %9s %11s %9s %8s\n" "N" "run" "wall (s)" "rows/s" "RSS (MB)" "ratio"
declare -A wall rss ref second floor
for n in "${sizes[@]}"; do
    pages="$work/pages-$n"
    "$bin/feedwork-bench-server" --rows "$n" --write-pages "$pages" >"$work/server-$n" &
    server_pid=$!
    for _ in $(seq 1 200); do grep -q listening "$work/server-$n" 2>/dev/null && break; sleep 0.05; done
    port=$(awk '/listening/ { print $3 }' "$work/server-$n")

    cat >"$work/feeds-$n.yaml" <<YAML
store: bench.sqlite
feeds:
  - name: w1
    adapter: json
    url: http://127.0.0.1:$port/items
    pagination: { type: offset, limit: 1000, total_path: \$.total, max_pages: 100000, parallel: 2 }
    records: \$.items
    entity: item
    key: id
    fields:
      id: int
      name: string
      price: decimal
      updated_at: { type: timestamp, format: iso8601 }
      meta_source: { path: meta.source, type: string }
      meta_rank: { path: meta.rank, type: int }
      tags: { type: list, of: string }
YAML
    runs=$repeat; [ "$n" -gt 100000 ] && runs=1
    refs=(); fws=(); fw_rss=(); seconds=(); second_rss=(); floors=()
    for trial in $(seq 1 "$runs"); do
        measure "ref-$n" python3 Benchmarks/reference_loader.py "$pages" "$work/ref-$n.sqlite"
        refs+=("$WALL"); ref_rss=$RSS
        rm -rf "$work/fw-$n"; mkdir -p "$work/fw-$n"; cp "$work/feeds-$n.yaml" "$work/fw-$n/feeds.yaml"
        measure "fw-$n" "$bin/feedwork" run -c "$work/fw-$n/feeds.yaml"
        fws+=("$WALL"); fw_rss+=("$RSS")
        rows=$(sqlite3 "$work/fw-$n/bench.sqlite" "SELECT count(*) FROM item")
        [ "$rows" = "$n" ] || { echo "feedwork stored $rows rows, expected $n"; exit 1; }
        measure "fw2-$n" "$bin/feedwork" run -c "$work/fw-$n/feeds.yaml"
        seconds+=("$WALL"); second_rss+=("$RSS")
        bash Benchmarks/floor-sql.sh "$work/fw-$n/bench.sqlite" "$n" >"$work/floor-$n.sql"
        rm -f "$work/floor-$n.sqlite" "$work/floor-$n.sqlite-wal" "$work/floor-$n.sqlite-shm"
        measure "floor-$n" sqlite3 "$work/floor-$n.sqlite" ".read $work/floor-$n.sql"
        floors+=("$WALL"); floor_rss=$RSS
    done
    ref[$n]=$(median "${refs[@]}")
    wall[$n]=$(median "${fws[@]}")
    rss[$n]=$(printf "%s\n" "${fw_rss[@]}" | sort -g | tail -1)
    second[$n]=$(median "${seconds[@]}")
    floor[$n]=$(median "${floors[@]}")
    printf "%-9s %-22s %9.2f %11.0f %9s %8s\n" "$n" "python reference" "${ref[$n]}" "$(awk "BEGIN { print $n / ${ref[$n]} }")" "$ref_rss" "1.00"
    printf "%-9s %-22s %9.2f %11.0f %9s %8.2f\n" "$n" "feedwork run" "${wall[$n]}" "$(awk "BEGIN { print $n / ${wall[$n]} }")" "${rss[$n]}" "$(awk "BEGIN { print ${wall[$n]} / ${ref[$n]} }")"
    printf "%-9s %-22s %9.2f %11s %9s %8s\n" "$n" "feedwork, nothing new" "${second[$n]}" "-" "$(printf "%s\n" "${second_rss[@]}" | sort -g | tail -1)" "$(awk "BEGIN { printf \"%.0f%%\", 100 * ${second[$n]} / ${wall[$n]} }") of 1st"
    printf "%-9s %-22s %9.2f %11.0f %9s %8s\n" "$n" "sqlite floor" "${floor[$n]}" "$(awk "BEGIN { print $n / ${floor[$n]} }")" "$floor_rss" "$(awk "BEGIN { printf \"%.2f\", ${floor[$n]} / ${ref[$n]} }")"
    echo "          feedwork's first pass is $(awk "BEGIN { printf \"%.2f\", ${wall[$n]} / ${floor[$n]} }")x SQLite's floor"
    [ "$runs" -gt 1 ] && echo "          (medians of $runs runs; feedwork first passes: ${fws[*]} s; reference: ${refs[*]} s)"

    kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
    rm -rf "$pages"
done

first=${sizes[0]}
verdict() { awk "BEGIN { exit !($1) }" && echo PASS || echo FAIL; }
summary="W1 N=$first: feedwork ${wall[$first]}s vs reference ${ref[$first]}s (ratio $(awk "BEGIN { printf \"%.2f\", ${wall[$first]} / ${ref[$first]} }"), target <= 0.70: $(verdict "${wall[$first]} <= 0.70 * ${ref[$first]}"))"
summary+="; peak RSS ${rss[$first]} MB (target <= 64: $(verdict "${rss[$first]} <= 64"))"
summary+="; $(awk "BEGIN { printf \"%.2f\", ${wall[$first]} / ${floor[$first]} }")x the SQLite floor of ${floor[$first]}s (goal <= 1.25, not yet a target)"
summary+="; second pass $(awk "BEGIN { printf \"%.0f%%\", 100 * ${second[$first]} / ${wall[$first]} }") of first (target <= 10%: $(verdict "${second[$first]} <= 0.10 * ${wall[$first]}"))"
if [ ${#sizes[@]} -gt 1 ]; then
    last=${sizes[-1]}
    summary+="; N=$last: RSS ${rss[$last]} MB ($(awk "BEGIN { printf \"%+.0f%%\", 100 * (${rss[$last]} / ${rss[$first]} - 1) }") vs N=$first, target <= +10%: $(verdict "${rss[$last]} <= 1.10 * ${rss[$first]}"))"
    summary+=", time x$(awk "BEGIN { printf \"%.1f\", ${wall[$last]} / ${wall[$first]} }") (target <= 11: $(verdict "${wall[$last]} <= 11 * ${wall[$first]}"))"
fi
echo
echo "summary: $summary"
# A missed target fails the command, so the benchmark can gate a change.
[[ "$summary" != *FAIL* ]]
