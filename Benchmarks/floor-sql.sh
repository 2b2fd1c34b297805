#!/usr/bin/env bash
# The floor of workload W1, as SQL on stdout: SQLite alone storing the rows feedwork stores, in
# one transaction, into the same tables and indexes (their SQL copied from a store feedwork
# wrote), in WAL mode like the store, every value generated inside SQLite: no HTTP, no JSON, no
# Swift. `Benchmarks/run.sh` times `sqlite3 NEW.sqlite ".read FILE"` of it.
#
# Usage: Benchmarks/floor-sql.sh STORE N > floor.sql
#   STORE   a store feedwork wrote for W1 (its `item` and `item__tags` tables are copied)
#   N       how many items (each with two tags)
set -euo pipefail
store=$1; n=$2

# Each column's value, by name; a column W1 does not fill is null.
value() {
    case "$1" in
        _feed) echo "'w1'" ;;
        _key) echo "CAST(i AS TEXT)" ;;
        _hash) echo "i * 2654435761" ;;
        _run) echo "1" ;;
        _first_seen | _last_seen) echo "'2026-01-01T00:00:00.000Z'" ;;
        id) echo "i" ;;
        name) echo "'item-' || i" ;;
        price) echo "printf('%d.%02d', i / 100, i % 100)" ;;
        updated_at) echo "printf('2024-01-01T00:00:%02dZ', i % 60)" ;;
        meta_source) echo "'bench'" ;;
        meta_rank) echo "i % 7" ;;
        *) echo "NULL" ;;
    esac
}

columns=$(sqlite3 "$store" "SELECT name FROM pragma_table_info('item') ORDER BY cid")
names=$(echo "$columns" | paste -sd, -)
values=$(for column in $columns; do value "$column"; done | paste -sd, -)
{
    echo "PRAGMA journal_mode = WAL;"
    sqlite3 "$store" "SELECT sql || ';' FROM sqlite_master WHERE tbl_name IN ('item', 'item__tags') AND sql IS NOT NULL ORDER BY type DESC"
    echo "BEGIN;"
    echo "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < $n)"
    echo "INSERT INTO item ($names) SELECT $values FROM s;"
    echo "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < $n)"
    echo "INSERT INTO item__tags (_feed, _key, _position, value)"
    echo "  SELECT 'w1', CAST(i AS TEXT), p, 't' || (i % (3 + 2 * p)) FROM s, (SELECT 0 AS p UNION ALL SELECT 1);"
    echo "COMMIT;"
}
