#!/usr/bin/env bash
# Peak memory of `feedwork export` over a 1,000,000-row entity, in each format.
#
# Usage: Benchmarks/export-memory.sh [ROWS]        (default 1000000; run from anywhere)
#
# 1. builds feedwork in release mode;
# 2. makes a store in a temporary folder: `feedwork run` on a one-fruit file creates the store and
#    its system tables, then a Python generator adds an entity `bench_item` (integer, real, text,
#    boolean, decimal, timestamp and json columns) with the same table layout as the engine
#    writes (common `_` columns, then the schema's) and its schema row in `_entities`;
# 3. runs `/usr/bin/time -v feedwork export bench_item --format F --output FILE` for ndjson, json
#    and csv (in the entity's declared order, which makes SQLite sort), and prints the peak
#    resident set size of each with a PASS/FAIL line against 50 MB, after a baseline: the same
#    export with --limit 1 (the process's fixed cost).
#
# Needs python3 and GNU time (/usr/bin/time; on Debian/Ubuntu: apt-get install -y time).
# Exits 1 when any format goes over the limit.
set -euo pipefail

ROWS="${1:-1000000}"
LIMIT_MB=50
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [[ ! -x /usr/bin/time ]]; then
    echo "GNU time is missing: install it with 'apt-get install -y time'" >&2
    exit 2
fi

cd "$ROOT"
swift build -c release --product feedwork >&2
FEEDWORK="$ROOT/.build/release/feedwork"

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
echo '{"fruit":[{"type":"apple","price":149,"weight":120}]}' > fruit.json
printf 'store: bench.sqlite\nfeeds:\n  - { name: bench, adapter: fruit, url: fruit.json }\n' > feeds.yaml
"$FEEDWORK" run > /dev/null

python3 - "$ROWS" <<'PY'
import json, sqlite3, sys

rows = int(sys.argv[1])
schema = {
    "name": "bench_item",
    "columns": [
        {"name": n, "type": t, "nullable": True, "summary": ""}
        for n, t in [("id", "integer"), ("amount", "real"), ("title", "text"), ("active", "boolean"),
                     ("price", "decimal"), ("seen_at", "timestamp"), ("payload", "json")]
    ],
    "key": ["id"], "relations": [], "order": [{"column": "title", "descending": False}],
    "children": [], "summary": "",
}
db = sqlite3.connect("bench.sqlite")
db.execute('''CREATE TABLE bench_item ("_feed" TEXT NOT NULL, "_key" TEXT NOT NULL, "_hash" INTEGER NOT NULL,
    "_run" INTEGER NOT NULL, "_first_seen" TEXT NOT NULL, "_last_seen" TEXT NOT NULL, "id" INTEGER, "amount" REAL,
    "title" TEXT, "active" INTEGER, "price" TEXT, "seen_at" TEXT, "payload" TEXT)''')
db.execute("INSERT INTO _entities(name, schema) VALUES (?, ?)", ("bench_item", json.dumps(schema)))
stamp = "2026-01-01T00:00:00.000Z"
def generate():
    for i in range(rows):
        yield ("bench", str(i), i * 7919, 1, stamp, stamp, i, i / 7.0,
               f"item {i:07d}, \"quoted\" café\nline two", i % 2, f"{i}.{i % 100:02d}",
               "2026-01-01T00:00:00Z", json.dumps({"n": i, "tags": ["a", "b"]}))
db.executemany("INSERT INTO bench_item VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", generate())
db.commit()
db.close()
PY
echo "store: $(du -m bench.sqlite | cut -f1) MB, $ROWS rows" >&2

/usr/bin/time -v "$FEEDWORK" export bench_item --limit 1 > /dev/null 2> time.txt
baseline=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' time.txt)
echo "baseline (--limit 1): peak RSS $baseline MB"

failed=0
for format in ndjson json csv; do
    /usr/bin/time -v "$FEEDWORK" export bench_item --format "$format" --output "out.$format" 2> time.txt
    kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' time.txt)
    seconds=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' time.txt)
    mb=$(awk -v kb="$kb" 'BEGIN { printf "%.1f", kb / 1024 }')
    size=$(du -m "out.$format" | cut -f1)
    if awk -v mb="$mb" -v limit="$LIMIT_MB" 'BEGIN { exit !(mb < limit) }'; then verdict=PASS; else verdict=FAIL; failed=1; fi
    echo "$verdict $format: peak RSS $mb MB (limit $LIMIT_MB MB), $size MB written in $seconds"
    rm -f "out.$format"
done
exit $failed
