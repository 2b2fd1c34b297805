#!/usr/bin/env bash
# Peak memory of one json feed's pass by the size of its response.
#
# Usage: Benchmarks/json-memory.sh [MB ...]        (default: 50 100 200; run from anywhere)
#
# 1. builds feedwork in release mode (or uses the binary FEEDWORK names);
# 2. writes, for each size, two JSON bodies of about MB megabytes into a temporary folder:
#    `records`, an array of small records (six fields each, about 120 bytes a record), and
#    `blobs`, 1,000 records each holding one long string (the body's bytes without the cost of
#    many values);
# 3. serves them from 127.0.0.1 (Python's http.server, with Content-Length) and runs
#    `/usr/bin/time -v feedwork run` on a json feed of each (`max_response_size: 4GB`, a new
#    SQLite store each time), after a baseline: the same feed over a body of ten records (the
#    process's fixed cost);
# 4. prints, per body, the peak resident set size and what it is per byte of the response
#    above the baseline.
#
# Needs python3 and GNU time (/usr/bin/time; on Debian/Ubuntu: apt-get install -y time).
set -euo pipefail

SIZES=("$@")
[[ ${#SIZES[@]} -gt 0 ]] || SIZES=(50 100 200)
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [[ ! -x /usr/bin/time ]]; then
    echo "GNU time is missing: install it with 'apt-get install -y time'" >&2
    exit 2
fi
if [[ -z "${FEEDWORK:-}" ]]; then
    (cd "$ROOT" && swift build -c release --product feedwork >&2)
    FEEDWORK="$ROOT/.build/release/feedwork"
fi

WORK="$(mktemp -d)"
server=""
trap '[[ -n "$server" ]] && kill "$server" 2>/dev/null || true; rm -rf "$WORK"' EXIT
cd "$WORK"

python3 - "${SIZES[@]}" <<'PY'
import json, sys

def records(count):
    return ('{"items":['
            + ",".join(json.dumps({"id": i, "name": f"item {i:09d}", "price": f"{i % 1000}.{i % 100:02d}",
                                   "active": i % 2 == 0, "seen": "2026-01-01T00:00:00Z", "tag": "benchmark"})
                       for i in range(count))
            + "]}")

with open("small.json", "w") as file:
    file.write(records(10))
for size in sys.argv[1:]:
    target = int(size) * 1_000_000
    per_record = len(records(1000)) / 1000
    with open(f"records-{size}.json", "w") as file:
        file.write(records(int(target / per_record)))
    blob = "x" * (target // 1000)
    with open(f"blobs-{size}.json", "w") as file:
        file.write('{"items":[' + ",".join(json.dumps({"id": i, "name": blob}) for i in range(1000)) + "]}")
PY

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/small.json" >/dev/null && break; sleep 0.1; done

# Peak RSS in MB of one pass over FILE (served), in a new folder.
peak() {
    local file="$1" fields="$2" folder
    folder="$(mktemp -d "$WORK/run.XXXX")"
    cat >"$folder/feeds.yaml" <<YAML
feeds:
  - name: big
    adapter: json
    url: http://127.0.0.1:$port/$file
    records: items
    entity: item
    key: id
    max_response_size: 4GB
    fields: { $fields }
YAML
    (cd "$folder" && /usr/bin/time -v "$FEEDWORK" run -q >/dev/null 2>"$folder/time.txt") || {
        echo "feedwork run failed on $file:" >&2
        cat "$folder/time.txt" >&2
        exit 1
    }
    awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$folder/time.txt"
    rm -rf "$folder"
}

record_fields="id: int, name: string, price: decimal, active: bool, seen: timestamp, tag: string"
baseline="$(peak small.json "$record_fields")"
echo "baseline (10 records): peak RSS $baseline MB"
printf '%-8s %10s %12s %16s\n' body "size MB" "peak RSS MB" "MB per MB above"
for size in "${SIZES[@]}"; do
    for shape in records blobs; do
        file="$shape-$size.json"
        fields="$record_fields"
        [[ $shape == blobs ]] && fields="id: int, name: string"
        mb="$(awk -v bytes="$(stat -c %s "$file")" 'BEGIN { printf "%.1f", bytes / 1000000 }')"
        rss="$(peak "$file" "$fields")"
        ratio="$(awk -v rss="$rss" -v base="$baseline" -v mb="$mb" 'BEGIN { printf "%.2f", (rss - base) / mb }')"
        printf '%-8s %10s %12s %16s\n' "$shape" "$mb" "$rss" "$ratio"
    done
done
