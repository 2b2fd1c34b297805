#!/usr/bin/env bash
# Crash safety: SIGKILLs `feedwork run` at random moments of a large pass, then checks that the
# store is intact, that every feed's rows are all the previous pass's or all the new one's, and
# that the next run completes normally.
#
# Usage: Benchmarks/crash-trials.sh [TRIALS] [ITEMS_PER_FEED]                (SQLite)
#        Benchmarks/crash-trials.sh --postgres URL [TRIALS] [ITEMS_PER_FEED] (PostgreSQL)
# Defaults: 24 trials, 20000 items per feed (two feeds: 40,000 rows a pass). FEEDWORK names the
# binary to kill (default: the debug build, built first).
#
# SQLite: the store is checked with PRAGMA integrity_check; the kill lands at a random moment
# between 0 and 1.1 times the duration of a first, uninterrupted pass, counted from the start.
#
# PostgreSQL: the trials run in a new schema of URL, dropped at the end, and are checked
# through psql. Each kill lands DURING a pass: the script waits until the pass has begun (its
# `running` rows are in `_runs`), then sleeps a random time within the measured duration of an
# uninterrupted pass of the same kind (every row changed), and kills. A kill that came after
# both feeds committed is reported and not counted: trials go on until TRIALS kills have landed
# while a feed's pass was still uncommitted. After each kill, the script waits (30 s at most)
# until no session holds a feed's lease (advisory lock) or any lock on the schema's tables
# (an idle transaction included), then the next run must complete with `--wait 0s`, so a lease
# left behind would fail it with "feed busy"; it marks the killed passes `interrupted`.
#
# Then the conversion trials: a store of CONVERSION_ROWS records (default 200000; 0 skips them)
# of a json feed with `n: int`, whose config changes to `n: decimal`, so the next pass converts
# the column in its transaction (SQLite: a rebuild of the table; PostgreSQL: ALTER COLUMN ...
# TYPE numeric USING). CONVERSION_KILLS times (default 4), the converting run is SIGKILLed while
# the conversion runs: on PostgreSQL a random moment (0-300 ms) after the server shows the ALTER
# running (pg_stat_activity); on SQLite a random moment, after the pass began (its `running` row
# in `_runs`), within the conversion's measured span (an uninterrupted converting pass on a copy
# of the store, less a pass on another copy that rewrites every row without converting). After each kill the column must have its old type and every value, and
# `schema --plan` still plan the conversion; a kill that came after the commit is reported, not
# counted, and the column converted back (decimal to int: every value is whole). Last, a run
# converts the column, every value kept.
#
# Needs python3 (with its sqlite3 module), the sqlite3 shell for the conversion trials on SQLite,
# and psql for PostgreSQL. Prints
# "crash-trials: N passed, M failed" last and exits non-zero when any trial failed.
set -euo pipefail
cd "$(dirname "$0")/.."

postgres_url=""
if [ "${1:-}" = "--postgres" ]; then
    postgres_url=${2:?"--postgres needs the server's URL"}
    shift 2
fi
trials=${1:-24}
items=${2:-20000}
conversion_rows=${CONVERSION_ROWS:-200000}
conversion_kills=${CONVERSION_KILLS:-4}

if [ -n "${FEEDWORK:-}" ]; then
    binary=$FEEDWORK
else
    swift build >/dev/null
    binary="$(swift build --show-bin-path)/feedwork"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/feedwork-crash.XXXXXX")
schema="crash_$(date +%s)_$$"
cleanup() {
    if [ -n "$postgres_url" ]; then
        psql "$postgres_url" -XAtq -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true
        psql "$postgres_url" -XAtq -c "DROP SCHEMA IF EXISTS ${schema}_conv CASCADE" >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# Two fruit feeds of $items items each; every item's price is the pass's marker.
python3 - "$work" "$items" <<'PY'
import json, sys
work, items = sys.argv[1], int(sys.argv[2])
for marker in (1, 2):
    for feed in ("north", "south"):
        fruit = [{"type": f"{feed}-fruit-{i:07d}", "price": marker, "weight": i % 997} for i in range(items)]
        with open(f"{work}/{feed}-{marker}.json", "w") as out:
            json.dump({"fruit": fruit}, out)
PY
{
    if [ -n "$postgres_url" ]; then printf 'store: %s\nschema: %s\n' "$postgres_url" "$schema"; fi
    printf 'feeds:\n'
    printf '  - { name: north, adapter: fruit, url: north.json }\n'
    printf '  - { name: south, adapter: fruit, url: south.json }\n'
} >"$work/feeds.yaml"

use_marker() {
    cp "$work/north-$1.json" "$work/north.json"
    cp "$work/south-$1.json" "$work/south.json"
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# One value (or rows, fields separated by |) from the PostgreSQL store, through psql.
pg() { psql "$postgres_url" -XAtq -v ON_ERROR_STOP=1 -c "$1"; }

# Prints "ok" and each feed's state (old or new) when the store is intact and each feed holds
# only marker $1 or only marker $2; otherwise what is wrong.
check_store() {
    if [ -n "$postgres_url" ]; then
        check_postgres "$@"
        return
    fi
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

# check_store on PostgreSQL: each feed's row count and distinct prices.
check_postgres() {
    local problems="" states="" feed count prices
    for feed in north south; do
        IFS='|' read -r count prices < <(pg "SELECT count(*), string_agg(DISTINCT price::text, ',') FROM $schema.fruit WHERE _feed = '$feed'")
        if [ "$count" != "$items" ] || { [ "$prices" != "$1" ] && [ "$prices" != "$2" ]; }; then
            problems+="feed $feed: prices {$prices}, $count rows (expected all $1 or all $2, $items rows); "
        elif [ "$prices" = "$2" ] && [ "$1" != "$2" ]; then
            states+="${states:+, }$feed new"
        else
            states+="${states:+, }$feed old"
        fi
    done
    if [ -z "$problems" ]; then echo "ok $states"; else echo "${problems%; }"; fi
}

# PostgreSQL: the sessions that still hold a feed's lease in the schema (an advisory lock keyed
# as PostgresFeedLease keys it) or any lock on its tables (an open transaction, idle or not).
holders() {
    pg "SELECT count(DISTINCT pid) FROM pg_locks l LEFT JOIN pg_class c ON c.oid = l.relation
        WHERE l.pid <> pg_backend_pid() AND (c.relnamespace = '$schema'::regnamespace
            OR (l.locktype = 'advisory' AND l.objsubid = 2
                AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND l.classid::bigint = (hashtext('feedwork.' || '$schema')::bigint & 4294967295)))"
}

# PostgreSQL: starts a run, waits until its passes have begun, sleeps $1 ms and kills it; sets
# `midpass` to whether a pass was still uncommitted.
kill_postgres_pass() {
    local before
    before=$(pg "SELECT COALESCE(max(id), 0) FROM $schema._runs")
    "$binary" run --config "$work/feeds.yaml" >/dev/null 2>&1 &
    pid=$!
    until [ "$(pg "SELECT count(*) FROM $schema._runs WHERE id > $before")" != 0 ]; do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.01
    done
    sleep "$(printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)))"
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    midpass=false
    [ "$(pg "SELECT count(*) FROM $schema._runs WHERE id > $before AND status = 'running'")" = 0 ] || midpass=true
}

# A first full pass, then a timed one that changes every row (what the killed passes do).
use_marker 1
"$binary" run --config "$work/feeds.yaml" >/dev/null
result=$(check_store 1 1)
[[ "$result" == ok* ]] || { echo "the first pass is wrong: $result"; exit 1; }
old=1
if [ -n "$postgres_url" ]; then
    use_marker 2
    before=$(pg "SELECT COALESCE(max(id), 0) FROM $schema._runs")
    "$binary" run --config "$work/feeds.yaml" >/dev/null &
    pid=$!
    until [ "$(pg "SELECT count(*) FROM $schema._runs WHERE id > $before")" != 0 ]; do
        kill -0 "$pid" 2>/dev/null || { echo "the timed pass ended before it began"; exit 1; }
        sleep 0.01
    done
    start=$(now_ms)
    wait "$pid"
    duration_ms=$(($(now_ms) - start))
    echo "PostgreSQL (schema $schema): a pass changing 2 x $items rows takes ${duration_ms} ms once begun"
    result=$(check_store 2 2)
    [[ "$result" == ok* ]] || { echo "the timed pass is wrong: $result"; exit 1; }
    old=2
else
    start=$(now_ms)
    "$binary" run --config "$work/feeds.yaml" >/dev/null
    duration_ms=$(($(now_ms) - start))
    echo "a full pass of 2 x $items items takes ${duration_ms} ms"
fi

passed=0
failed=0
landed=0
trial=0
while [ "$landed" -lt "$trials" ] && [ "$trial" -lt $((trials * 2)) ]; do
    trial=$((trial + 1))
    new=$((3 - old))
    use_marker "$new"
    problem=""
    when=""
    if [ -n "$postgres_url" ]; then
        delay_ms=$(python3 -c "import random; print(random.randint(0, $duration_ms))")
        kill_postgres_pass "$delay_ms"
        when="${delay_ms} ms into the pass"
        $midpass || when+=" (after both commits: not counted)"
        cleared=$(now_ms)
        until [ "$(holders)" = 0 ]; do
            if [ $(($(now_ms) - cleared)) -gt 30000 ]; then
                problem="a session still holds a lease or a lock 30 s after the kill"
                break
            fi
            sleep 0.05
        done
        when+=", released in $(($(now_ms) - cleared)) ms"
    else
        delay_ms=$(python3 -c "import random; print(random.randint(0, int($duration_ms * 1.1)))")
        "$binary" run --config "$work/feeds.yaml" >/dev/null 2>&1 &
        pid=$!
        python3 -c "import time; time.sleep($delay_ms / 1000)"
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        midpass=true
        when="at ${delay_ms} ms"
    fi
    $midpass && landed=$((landed + 1))

    if [ -z "$problem" ]; then
        result=$(check_store "$old" "$new")
        state=${result#ok }
        [[ "$result" == ok* ]] || problem="after the kill $when: $result"
    fi
    if [ -z "$problem" ] && ! "$binary" run --config "$work/feeds.yaml" --wait 0s >"$work/next.log" 2>&1; then
        problem="the next run failed: $(tail -5 "$work/next.log")"
    fi
    if [ -z "$problem" ] && grep -q "feed busy" "$work/next.log"; then
        problem="the next run found a feed busy: $(grep "feed busy" "$work/next.log" | head -1)"
    fi
    if [ -z "$problem" ]; then
        result=$(check_store "$new" "$new")
        [[ "$result" == ok* ]] || problem="after the next run: $result"
    fi
    if [ -z "$problem" ] && [ -n "$postgres_url" ] && [ "$(pg "SELECT count(*) FROM $schema._runs WHERE status = 'running'")" != 0 ]; then
        problem="after the next run, a killed pass is still 'running' in _runs"
    fi
    if [ -z "$problem" ]; then
        passed=$((passed + 1))
        echo "trial $trial: killed $when: ok ($state); the next run completed"
    else
        failed=$((failed + 1))
        echo "trial $trial: FAILED: $problem"
    fi
    old=$new
done

if [ -n "$postgres_url" ]; then
    echo "PostgreSQL: $landed of $trial kills landed while a pass was uncommitted"
    [ "$landed" -ge "$trials" ] || { echo "fewer than $trials kills landed during a pass"; failed=$((failed + 1)); }
fi

# --- Kills during a type conversion (int -> decimal) of a large table ---

conv="$work/conv"
conv_schema="${schema}_conv"

# Writes $conv/feeds.yaml (store in $1's folder on SQLite) with `n` of type $2.
conv_config() {
    local dir=$1 type=$2
    {
        if [ -n "$postgres_url" ]; then printf 'store: %s\nschema: %s\n' "$postgres_url" "$conv_schema"; fi
        printf 'feeds:\n'
        printf '  - { name: conv, adapter: json, url: %s/items.json, records: items, entity: conv, key: id, ' "$conv"
        printf 'retries: 0, fields: { id: int, n: %s } }\n' "$type"
    } >"$dir/feeds.yaml"
}

# "TYPE COUNT SUM" of the column n: its stored type, the rows and the sum of their values.
conv_state() {
    if [ -n "$postgres_url" ]; then
        pg "SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
            WHERE a.attrelid = '$conv_schema.conv'::regclass AND a.attname = 'n'" | tr -d '\n'
        printf ' '
        pg "SELECT count(*) || ' ' || sum(n::numeric) FROM $conv_schema.conv"
    else
        python3 - "$1/feeds.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
kind = [r[2] for r in db.execute("PRAGMA table_info(conv)") if r[1] == "n"][0]
count, total = db.execute("SELECT count(*), sum(CAST(n AS INTEGER)) FROM conv").fetchone()
integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
print(kind if integrity == "ok" else f"integrity:{integrity}", count, total)
PY
    fi
}

if [ "$conversion_rows" -gt 0 ]; then
    mkdir -p "$conv"
    expected_sum=$(python3 - "$conv" "$conversion_rows" <<'PY'
import json, sys
folder, rows = sys.argv[1], int(sys.argv[2])
items = [{"id": i, "n": (i * 7919) % 1000003} for i in range(rows)]
with open(f"{folder}/items.json", "w") as out:
    json.dump({"items": items}, out)
print(sum(item["n"] for item in items))
PY
)
    if [ -n "$postgres_url" ]; then old_type="bigint"; new_type="numeric"; else old_type="INTEGER"; new_type="TEXT"; fi
    conv_config "$conv" int
    "$binary" run --progress never --config "$conv/feeds.yaml" >/dev/null
    [ "$(conv_state "$conv")" = "$old_type $conversion_rows $expected_sum" ] \
        || { echo "conversion: the first pass is wrong: $(conv_state "$conv")"; exit 1; }

    if [ -z "$postgres_url" ]; then
        # The conversion's span: a converting pass on one copy, less a pass on another copy that
        # rewrites every row (a field added) without converting.
        for copy in converting rewriting; do
            mkdir -p "$work/$copy"
            cp "$conv/feeds.sqlite" "$work/$copy/feeds.sqlite"
        done
        conv_config "$work/converting" decimal
        conv_config "$work/rewriting" "int, m: { path: n, type: int }"
        start=$(now_ms)
        "$binary" run --progress never --config "$work/converting/feeds.yaml" >/dev/null
        converting_ms=$(($(now_ms) - start))
        start=$(now_ms)
        "$binary" run --progress never --config "$work/rewriting/feeds.yaml" >/dev/null
        rewriting_ms=$(($(now_ms) - start))
        span_ms=$((converting_ms > rewriting_ms ? converting_ms - rewriting_ms : converting_ms / 4))
        echo "conversion of $conversion_rows rows (SQLite): converting pass ${converting_ms} ms, rewriting pass ${rewriting_ms} ms: kills within the first ${span_ms} ms"
    fi

    conv_landed=0
    conv_trial=0
    while [ "$conv_landed" -lt "$conversion_kills" ] && [ "$conv_trial" -lt $((conversion_kills * 3)) ]; do
        conv_trial=$((conv_trial + 1))
        conv_config "$conv" decimal
        problem=""
        if [ -n "$postgres_url" ]; then
            delay_ms=$((RANDOM % 300))
        else
            delay_ms=$((RANDOM % (span_ms + 1)))
            before=$(sqlite3 "$conv/feeds.sqlite" "SELECT COALESCE(max(id), 0) FROM _runs")
        fi
        start=$(now_ms)
        "$binary" run --config "$conv/feeds.yaml" >/dev/null 2>&1 &
        pid=$!
        if [ -n "$postgres_url" ]; then
            # Once the server runs the ALTER, a random moment into it (0-300 ms).
            until [ "$(pg "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND state = 'active'
                AND query LIKE 'ALTER TABLE %conv%ALTER COLUMN%'")" != 0 ]; do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.005
            done
            began=$(now_ms)
            sleep "$(printf '0.%03d' "$delay_ms")"
            alter=$(pg "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND state = 'active'
                AND query LIKE 'ALTER TABLE %conv%ALTER COLUMN%'")
        else
            # Once the pass has begun (its `running` row), a random moment within the span.
            until [ "$(sqlite3 "$conv/feeds.sqlite" "SELECT count(*) FROM _runs WHERE id > $before" 2>/dev/null)" = 1 ]; do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.005
            done
            began=$(now_ms)
            sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
        fi
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        when="$(($(now_ms) - began)) ms into the $([ -n "$postgres_url" ] && echo ALTER || echo pass), $(($(now_ms) - start)) ms after the start"
        if [ -n "$postgres_url" ]; then
            [ "$alter" = 0 ] && when+=" (the ALTER had ended)"
            cleared=$(now_ms)
            until [ "$(pg "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                WHERE l.pid <> pg_backend_pid() AND c.relnamespace = '$conv_schema'::regnamespace")" = 0 ]; do
                if [ $(($(now_ms) - cleared)) -gt 30000 ]; then problem="a lock is still held 30 s after the kill"; break; fi
                sleep 0.05
            done
        fi
        state=$(conv_state "$conv")
        if [ -z "$problem" ] && [ "$state" = "$new_type $conversion_rows $expected_sum" ]; then
            echo "conversion trial $conv_trial: killed $when, after the commit: not counted; converting back"
            conv_config "$conv" int
            "$binary" run --progress never --config "$conv/feeds.yaml" >/dev/null
            continue
        fi
        conv_landed=$((conv_landed + 1))
        if [ -z "$problem" ] && [ "$state" != "$old_type $conversion_rows $expected_sum" ]; then
            problem="after the kill $when: column n is '$state', expected '$old_type $conversion_rows $expected_sum'"
        fi
        if [ -z "$problem" ] && ! "$binary" schema --plan --config "$conv/feeds.yaml" | grep -q "convert column 'n' from integer to decimal"; then
            problem="after the kill $when: schema --plan no longer plans the conversion"
        fi
        if [ -z "$problem" ]; then
            passed=$((passed + 1))
            echo "conversion trial $conv_trial: killed $when: ok (old type and every value intact)"
        else
            failed=$((failed + 1))
            echo "conversion trial $conv_trial: FAILED: $problem"
        fi
    done
    [ "$conv_landed" -ge "$conversion_kills" ] || { echo "fewer than $conversion_kills kills landed during the conversion"; failed=$((failed + 1)); }

    conv_config "$conv" decimal
    start=$(now_ms)
    if ! "$binary" run --config "$conv/feeds.yaml" --wait 0s >"$conv/next.log" 2>&1; then
        failed=$((failed + 1))
        echo "conversion: the next run failed: $(tail -5 "$conv/next.log")"
    elif [ "$(conv_state "$conv")" != "$new_type $conversion_rows $expected_sum" ]; then
        failed=$((failed + 1))
        echo "conversion: after the next run, column n is '$(conv_state "$conv")'"
    else
        passed=$((passed + 1))
        echo "conversion: the next run converted $conversion_rows rows to decimal in $(($(now_ms) - start)) ms, every value kept"
    fi
fi
echo "crash-trials: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
