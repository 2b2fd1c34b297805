#!/usr/bin/env bash
# The throughput benchmark (workload W1): feedwork's json adapter against a synthetic API running
# as a separate process on 127.0.0.1, timed side by side with a hand-written Python loader that
# reads the same pages from local files, and next to SQLite's own floor: the same rows inserted
# by SQLite alone (Benchmarks/floor-sql.sh). The unchanged second pass is timed next to its own
# floor: the curl command alone making the pass's conditional requests as many at a time
# (Benchmarks/revalidate-floor.sh), and a full refresh (every record written again) is timed, not
# as a target. Then the PostgreSQL column: the same passes into a
# PostgreSQL store, next to PostgreSQL's floor, `psql`'s `\copy` of the same rows from CSV files
# (Benchmarks/floor-postgres.sh). Prints a table and a final summary line.
#
# Usage: Benchmarks/run.sh [N ...]        (default: 100000 1000000; exits 1 when a target is missed)
#        REPEAT=5 Benchmarks/run.sh      (each measurement is the median of REPEAT runs, default 3,
#                                         alternating reference and feedwork so noise hits both)
# Needs: a release build (made here), python3, GNU time (/usr/bin/time; apt-get install time), curl.
# PostgreSQL: the server at FEEDWORK_BENCH_POSTGRES_URL, else FEEDWORK_TEST_POSTGRES_URL, else a
# throwaway one (scripts/postgres-throwaway.sh, stopped at exit); each pass writes a schema of its
# own, dropped afterwards. Without a server or psql the PostgreSQL rows are skipped, loudly.
set -euo pipefail
cd "$(dirname "$0")/.."

sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000)
if [ ! -x /usr/bin/time ]; then
    echo "installing GNU time"; apt-get install -y -qq time >/dev/null
fi
if ! command -v curl >/dev/null; then
    echo "installing curl"; apt-get install -y -qq curl >/dev/null
fi

# The release build that scripts/install.sh installs (scripts/release-build.sh).
build=(bash scripts/release-build.sh)
"${build[@]}" --product feedwork >/dev/null
"${build[@]}" --product feedwork-bench-server >/dev/null
bin=$("${build[@]}" --show-bin-path)
work=$(mktemp -d)
server_pid=""
pg_url=${FEEDWORK_BENCH_POSTGRES_URL:-${FEEDWORK_TEST_POSTGRES_URL:-}}
pg_dir=""      # the throwaway server's folder, when this script started one
pg_schemas=()  # schemas made by this run, dropped at exit
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    if [ -n "$pg_url" ]; then
        for schema in "${pg_schemas[@]}"; do
            pg_query "SET client_min_messages = warning" "DROP SCHEMA IF EXISTS $schema CASCADE" || true
        done
    fi
    [ -n "$pg_dir" ] && bash scripts/postgres-throwaway.sh stop "$pg_dir"
    rm -rf "$work"
}
trap cleanup EXIT

# pg_query SQL...: runs untimed statements with psql, trying again for a while when the server
# refuses the connection (a shared server may be at max_connections for a moment).
pg_query() {
    local args=() attempt sql
    for sql in "$@"; do args+=(-c "$sql"); done
    for attempt in 1 2 3 4 5 6 7 8 9 10; do
        psql -X -q -A -t -v ON_ERROR_STOP=1 "$pg_url" "${args[@]}" 2>"$work/pg-query" && return
        grep -q "too many clients" "$work/pg-query" || break
        sleep 1
    done
    cat "$work/pg-query" >&2
    return 1
}

pg_skipped=""  # why the PostgreSQL rows are not measured, when they are not
if ! command -v psql >/dev/null; then
    pg_skipped="no psql (apt-get install postgresql-client)"
elif [ -z "$pg_url" ]; then
    if started=$(bash scripts/postgres-throwaway.sh start 2>"$work/postgres-start"); then
        eval "$started"
        pg_url=$FEEDWORK_TEST_POSTGRES_URL pg_dir=$FEEDWORK_TEST_POSTGRES_DIR
    else
        pg_skipped="no PostgreSQL server: $(cat "$work/postgres-start")"
    fi
fi
if [ -z "$pg_skipped" ] && ! psql -X -q "$pg_url" -c "SELECT 1" >/dev/null 2>"$work/postgres-check"; then
    pg_skipped="cannot reach PostgreSQL: $(cat "$work/postgres-check")"
fi
if [ -n "$pg_skipped" ]; then
    echo "!!! PostgreSQL rows SKIPPED: $pg_skipped" >&2
    echo "!!! (set FEEDWORK_BENCH_POSTGRES_URL, or install Debian's postgresql package)" >&2
fi

repeat=${REPEAT:-3}

# measure LABEL COMMAND...: runs the command under GNU time; sets WALL (s, to the microsecond:
# GNU time's own wall clock has 10 ms steps, a quarter of an unchanged second pass) and RSS (MB).
measure() {
    local label=$1; shift
    local start=$EPOCHREALTIME
    /usr/bin/time -f "%M" -o "$work/time-$label" "$@" >"$work/out-$label" 2>"$work/err-$label" || {
        echo "$label failed:"; cat "$work/err-$label" "$work/out-$label"; exit 1; }
    local end=$EPOCHREALTIME
    WALL=$(awk "BEGIN { printf \"%.4f\", $end - $start }")
    read -r RSS_KB <"$work/time-$label"
    RSS=$(awk "BEGIN { printf \"%.1f\", $RSS_KB / 1024 }")
}

# median VALUES...: the middle value.
median() { printf "%s\n" "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Other work on the machine moves the ratios (a server-bound floor suffers more from it than a
# pass whose client and server overlap): say how busy the machine was.
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-9s %-22s %9s %11s %9s %8s\n" "N" "run" "wall (s)" "rows/s" "RSS (MB)" "ratio"
declare -A wall rss ref second revalidate worker floor full pg_wall pg_peak pg_second pg_full pg_floor
for n in "${sizes[@]}"; do
    pages="$work/pages-$n"
    "$bin/feedwork-bench-server" --rows "$n" --write-pages "$pages" >"$work/server-$n" &
    server_pid=$!
    for _ in $(seq 1 200); do grep -q listening "$work/server-$n" 2>/dev/null && break; sleep 0.05; done
    port=$(awk '/listening/ { print $3 }' "$work/server-$n")

    bash Benchmarks/w1-feeds.sh "$port" >"$work/feeds-$n.yaml"
    parallel=$(grep -o 'parallel: [0-9]*' "$work/feeds-$n.yaml" | awk '{ print $2 }')
    runs=$repeat
    refs=(); fws=(); fw_rss=(); seconds=(); second_rss=(); revalidates=(); floors=(); fulls=(); full_rss=()
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
        bash Benchmarks/revalidate-floor.sh "$work/fw-$n/bench.sqlite" w1 >"$work/revalidate-$n.curl"
        measure "revalidate-$n" curl --no-progress-meter --parallel --parallel-max "$parallel" \
            --config "$work/revalidate-$n.curl"
        requests=$(grep -c '^url' "$work/revalidate-$n.curl")
        [ "$(grep -c '^304$' "$work/out-revalidate-$n")" = "$requests" ] || {
            echo "curl's revalidation of $requests pages was not answered 304 throughout"; exit 1; }
        revalidates+=("$WALL"); revalidate_rss=$RSS
        bash Benchmarks/floor-sql.sh "$work/fw-$n/bench.sqlite" "$n" >"$work/floor-$n.sql"
        rm -f "$work/floor-$n.sqlite" "$work/floor-$n.sqlite-wal" "$work/floor-$n.sqlite-shm"
        measure "floor-$n" sqlite3 "$work/floor-$n.sqlite" ".read $work/floor-$n.sql"
        floors+=("$WALL"); floor_rss=$RSS
        # Every record sent again (no page skipped), all unchanged: the writer's own cost on a
        # table that holds the feed's rows. On a copy of the store, which the worker below reads.
        rm -rf "$work/fw3-$n"; cp -r "$work/fw-$n" "$work/fw3-$n"
        measure "fw3-$n" "$bin/feedwork" run --full-refresh -c "$work/fw3-$n/feeds.yaml"
        fulls+=("$WALL"); full_rss+=("$RSS")
        touched=$(sqlite3 "$work/fw3-$n/bench.sqlite" \
            "SELECT count(*) FROM item WHERE _last_seen = (SELECT max(_last_seen) FROM item)")
        [ "$touched" = "$n" ] || { echo "the full refresh delivered $touched rows, expected $n"; exit 1; }
        rm -rf "$work/fw3-$n"
    done
    # The same unchanged pass inside a long-running `feedwork worker`, the feed due every second,
    # on the last trial's store: what a pass costs without a process starting, reading
    # feeds.yaml and opening the store. Each pass's own time, as the worker reports it.
    sed 's/^    adapter: json$/&\n    every: 1s/' "$work/fw-$n/feeds.yaml" >"$work/fw-$n/worker.yaml"
    /usr/bin/time -f "%M" -o "$work/time-worker-$n" timeout -s TERM $((runs + 2)) \
        "$bin/feedwork" worker --json -c "$work/fw-$n/worker.yaml" >"$work/worker-$n.jsonl" 2>"$work/worker-$n.err" || true
    worker_passes=$(python3 - "$work/worker-$n.jsonl" "$n" <<'PY'
import json, sys
path, rows = sys.argv[1], int(sys.argv[2])
passes = [json.loads(line) for line in open(path)]
for report in passes:
    counts = report["counts"]
    if report["status"] != "ok" or counts["inserted"] or counts["updated"] or counts["unchanged"] != rows:
        sys.exit(f"a worker pass was not an unchanged one: {report}")
print(" ".join(f"{report['milliseconds'] / 1000:.3f}" for report in passes))
PY
) || { cat "$work/worker-$n.err"; exit 1; }
    read -r -a worker_walls <<<"$worker_passes"
    [ ${#worker_walls[@]} -gt 0 ] || { echo "the worker made no pass:"; cat "$work/worker-$n.err"; exit 1; }
    worker[$n]=$(median "${worker_walls[@]}")
    # The last line: GNU time writes timeout's exit status (124) before it.
    worker_rss=$(tail -1 "$work/time-worker-$n" | awk '{ printf "%.1f", $1 / 1024 }')
    ref[$n]=$(median "${refs[@]}")
    wall[$n]=$(median "${fws[@]}")
    rss[$n]=$(printf "%s\n" "${fw_rss[@]}" | sort -g | tail -1)
    second[$n]=$(median "${seconds[@]}")
    revalidate[$n]=$(median "${revalidates[@]}")
    floor[$n]=$(median "${floors[@]}")
    full[$n]=$(median "${fulls[@]}")
    printf "%-9s %-22s %9.2f %11.0f %9s %8s\n" "$n" "python reference" "${ref[$n]}" "$(awk "BEGIN { print $n / ${ref[$n]} }")" "$ref_rss" "1.00"
    printf "%-9s %-22s %9.2f %11.0f %9s %8.2f\n" "$n" "feedwork run" "${wall[$n]}" "$(awk "BEGIN { print $n / ${wall[$n]} }")" "${rss[$n]}" "$(awk "BEGIN { print ${wall[$n]} / ${ref[$n]} }")"
    printf "%-9s %-22s %9.3f %11s %9s %8s\n" "$n" "feedwork, nothing new" "${second[$n]}" "-" "$(printf "%s\n" "${second_rss[@]}" | sort -g | tail -1)" "$(awk "BEGIN { printf \"%.0f%%\", 100 * ${second[$n]} / ${wall[$n]} }") of 1st"
    printf "%-9s %-22s %9.2f %11.0f %9s %8s\n" "$n" "feedwork, full refresh" "${full[$n]}" "$(awk "BEGIN { print $n / ${full[$n]} }")" "$(printf "%s\n" "${full_rss[@]}" | sort -g | tail -1)" "$(awk "BEGIN { printf \"%.0f%%\", 100 * ${full[$n]} / ${wall[$n]} }") of 1st"
    printf "%-9s %-22s %9.3f %11s %9s %8s\n" "$n" "curl, revalidate only" "${revalidate[$n]}" "-" "$revalidate_rss" "$(awk "BEGIN { printf \"%.0f%%\", 100 * ${revalidate[$n]} / ${wall[$n]} }") of 1st"
    echo "          the second pass's floor: curl alone, its $requests conditional requests $parallel at a time; feedwork takes $(awk "BEGIN { printf \"%.0f\", 1000 * (${second[$n]} - ${revalidate[$n]}) }") ms more"
    printf "%-9s %-22s %9.3f %11s %9s %8s\n" "$n" "worker, nothing new" "${worker[$n]}" "-" "$worker_rss" "$(awk "BEGIN { printf \"%.0f%%\", 100 * ${worker[$n]} / ${wall[$n]} }") of 1st"
    echo "          the same pass inside \`feedwork worker\`, as it reports it: no process start, feeds.yaml or store to open (median of ${#worker_walls[@]} passes: ${worker_walls[*]} s)"
    printf "%-9s %-22s %9.2f %11.0f %9s %8s\n" "$n" "sqlite floor" "${floor[$n]}" "$(awk "BEGIN { print $n / ${floor[$n]} }")" "$floor_rss" "$(awk "BEGIN { printf \"%.2f\", ${floor[$n]} / ${ref[$n]} }")"
    echo "          feedwork's first pass is $(awk "BEGIN { printf \"%.2f\", ${wall[$n]} / ${floor[$n]} }")x SQLite's floor"
    [ "$runs" -gt 1 ] && echo "          (medians of $runs runs; feedwork first passes: ${fws[*]} s; reference: ${refs[*]} s; second passes: ${seconds[*]} s; full refresh: ${fulls[*]} s; curl: ${revalidates[*]} s)"

    if [ -z "$pg_skipped" ]; then
        # The same passes into PostgreSQL, each trial into a schema of its own, next to the floor.
        pg_fws=(); pg_rss=(); pg_seconds=(); pg_second_rss=(); pg_fulls=(); pg_full_rss=(); pg_floors=()
        for trial in $(seq 1 "$runs"); do
            schema="feedwork_bench_$$_${n}_$trial"
            pg_schemas+=("$schema" "${schema}_floor")
            rm -rf "$work/pg-$n"; mkdir -p "$work/pg-$n"
            { echo "store: $pg_url"; echo "schema: $schema"; sed 1d "$work/feeds-$n.yaml"; } >"$work/pg-$n/feeds.yaml"
            measure "pg-$n" "$bin/feedwork" run -c "$work/pg-$n/feeds.yaml"
            pg_fws+=("$WALL"); pg_rss+=("$RSS")
            rows=$(pg_query "SELECT count(*) FROM $schema.item")
            [ "$rows" = "$n" ] || { echo "feedwork stored $rows rows in PostgreSQL, expected $n"; exit 1; }
            # The floor's CSV files, written now from the rows the first pass stored (untimed).
            bash Benchmarks/floor-postgres.sh "$pg_url" "$schema" "${schema}_floor" "$work/pg-floor-$n"
            measure "pg2-$n" "$bin/feedwork" run -c "$work/pg-$n/feeds.yaml"
            pg_seconds+=("$WALL"); pg_second_rss+=("$RSS")
            # Every record sent again (no page skipped), all unchanged: the writer's own cost.
            measure "pg3-$n" "$bin/feedwork" run --full-refresh -c "$work/pg-$n/feeds.yaml"
            pg_fulls+=("$WALL"); pg_full_rss+=("$RSS")
            touched=$(pg_query \
                "SELECT count(*) FROM $schema.item WHERE _last_seen = (SELECT max(_last_seen) FROM $schema.item)")
            [ "$touched" = "$n" ] || { echo "the full refresh delivered $touched rows, expected $n"; exit 1; }
            measure "pg-floor-$n" psql -X -q -1 -v ON_ERROR_STOP=1 "$pg_url" -f "$work/pg-floor-$n/floor.psql"
            pg_floors+=("$WALL"); pg_floor_rss=$RSS
            pg_query "SET client_min_messages = warning" "DROP SCHEMA $schema CASCADE" "DROP SCHEMA ${schema}_floor CASCADE"
            rm -rf "$work/pg-floor-$n"
        done
        pg_wall[$n]=$(median "${pg_fws[@]}")
        pg_peak[$n]=$(printf "%s\n" "${pg_rss[@]}" | sort -g | tail -1)
        pg_second[$n]=$(median "${pg_seconds[@]}")
        pg_full[$n]=$(median "${pg_fulls[@]}")
        pg_floor[$n]=$(median "${pg_floors[@]}")
        printf "%-9s %-22s %9.2f %11.0f %9s %8s\n" "$n" "postgres: feedwork run" "${pg_wall[$n]}" "$(awk "BEGIN { print $n / ${pg_wall[$n]} }")" "${pg_peak[$n]}" "$(awk "BEGIN { printf \"%.2f\", ${pg_wall[$n]} / ${pg_floor[$n]} }") fl"
        printf "%-9s %-22s %9.2f %11s %9s %8s\n" "$n" "postgres: nothing new" "${pg_second[$n]}" "-" "$(printf "%s\n" "${pg_second_rss[@]}" | sort -g | tail -1)" "$(awk "BEGIN { printf \"%.0f%%\", 100 * ${pg_second[$n]} / ${pg_wall[$n]} }") of 1st"
        printf "%-9s %-22s %9.2f %11.0f %9s %8s\n" "$n" "postgres: full refresh" "${pg_full[$n]}" "$(awk "BEGIN { print $n / ${pg_full[$n]} }")" "$(printf "%s\n" "${pg_full_rss[@]}" | sort -g | tail -1)" "$(awk "BEGIN { printf \"%.0f%%\", 100 * ${pg_full[$n]} / ${pg_wall[$n]} }") of 1st"
        printf "%-9s %-22s %9.2f %11.0f %9s %8s\n" "$n" "postgres: \\copy floor" "${pg_floor[$n]}" "$(awk "BEGIN { print $n / ${pg_floor[$n]} }")" "$pg_floor_rss" "1.00 fl"
        echo "          feedwork's first pass into PostgreSQL is $(awk "BEGIN { printf \"%.2f\", ${pg_wall[$n]} / ${pg_floor[$n]} }")x psql's \\copy floor"
        [ "$runs" -gt 1 ] && echo "          (medians of $runs runs; first passes: ${pg_fws[*]} s; floor: ${pg_floors[*]} s; full refresh: ${pg_fulls[*]} s)"
    fi

    kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
    rm -rf "$pages"
done

first=${sizes[0]}
verdict() { awk "BEGIN { exit !($1) }" && echo PASS || echo FAIL; }
summary="W1 N=$first: feedwork ${wall[$first]}s vs reference ${ref[$first]}s (ratio $(awk "BEGIN { printf \"%.2f\", ${wall[$first]} / ${ref[$first]} }"), target <= 0.70: $(verdict "${wall[$first]} <= 0.70 * ${ref[$first]}"))"
for n in "${sizes[@]}"; do
    summary+="; N=$n: $(awk "BEGIN { printf \"%.2f\", ${wall[$n]} / ${floor[$n]} }")x the SQLite floor of ${floor[$n]}s (target <= 1.25: $(verdict "${wall[$n]} <= 1.25 * ${floor[$n]}"))"
    summary+=", second pass ${second[$n]}s, $(awk "BEGIN { printf \"%.1f%%\", 100 * ${second[$n]} / ${wall[$n]} }") of first (target <= 5%: $(verdict "${second[$n]} <= 0.05 * ${wall[$n]}"); curl's revalidation alone $(awk "BEGIN { printf \"%.1f%%\", 100 * ${revalidate[$n]} / ${wall[$n]} }"), the pass in a worker $(awk "BEGIN { printf \"%.1f%%\", 100 * ${worker[$n]} / ${wall[$n]} }"))"
    summary+=", full refresh $(awk "BEGIN { printf \"%.0f%%\", 100 * ${full[$n]} / ${wall[$n]} }") of first (not a target)"
    summary+=", peak RSS ${rss[$n]} MB (target <= 64: $(verdict "${rss[$n]} <= 64"))"
done
if [ ${#sizes[@]} -gt 1 ]; then
    last=${sizes[-1]}
    summary+="; N=$last: RSS ${rss[$last]} MB ($(awk "BEGIN { printf \"%+.0f%%\", 100 * (${rss[$last]} / ${rss[$first]} - 1) }") vs N=$first, target <= +10%: $(verdict "${rss[$last]} <= 1.10 * ${rss[$first]}"))"
    summary+=", time x$(awk "BEGIN { printf \"%.1f\", ${wall[$last]} / ${wall[$first]} }") (target <= 11: $(verdict "${wall[$last]} <= 11 * ${wall[$first]}"))"
fi
if [ -n "$pg_skipped" ]; then
    summary+="; PostgreSQL NOT MEASURED ($pg_skipped)"
else
    summary+="; PostgreSQL N=$first: $(awk "BEGIN { printf \"%.2f\", ${pg_wall[$first]} / ${pg_floor[$first]} }")x the \\copy floor of ${pg_floor[$first]}s (target <= 1.50: $(verdict "${pg_wall[$first]} <= 1.5 * ${pg_floor[$first]}"))"
    summary+=", second pass $(awk "BEGIN { printf \"%.0f%%\", 100 * ${pg_second[$first]} / ${pg_wall[$first]} }") of first (target <= 10%: $(verdict "${pg_second[$first]} <= 0.10 * ${pg_wall[$first]}"))"
    summary+=", full refresh $(awk "BEGIN { printf \"%.0f%%\", 100 * ${pg_full[$first]} / ${pg_wall[$first]} }") of first (not a target)"
    if [ ${#sizes[@]} -gt 1 ]; then
        summary+="; PostgreSQL N=$last: $(awk "BEGIN { printf \"%.2f\", ${pg_wall[$last]} / ${pg_floor[$last]} }")x the floor (target <= 1.50: $(verdict "${pg_wall[$last]} <= 1.5 * ${pg_floor[$last]}"))"
        summary+=", RSS ${pg_peak[$last]} MB ($(awk "BEGIN { printf \"%+.0f%%\", 100 * (${pg_peak[$last]} / ${pg_peak[$first]} - 1) }") vs N=$first, target <= +10%: $(verdict "${pg_peak[$last]} <= 1.10 * ${pg_peak[$first]}"))"
        summary+=", second pass $(awk "BEGIN { printf \"%.0f%%\", 100 * ${pg_second[$last]} / ${pg_wall[$last]} }") of first (target <= 10%: $(verdict "${pg_second[$last]} <= 0.10 * ${pg_wall[$last]}"))"
    fi
fi
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "summary: $summary"
# A missed target fails the command, so the benchmark can gate a change.
[[ "$summary" != *FAIL* ]]
