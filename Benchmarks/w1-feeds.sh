#!/usr/bin/env bash
# Workload W1's feeds.yaml on stdout: the json adapter reading `feedwork-bench-server` on PORT
# into bench.sqlite, `id` as key, `meta` flattened and `tags` as a child table.
#
# Usage: Benchmarks/w1-feeds.sh PORT > feeds.yaml
set -euo pipefail
port=$1
cat <<YAML
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
