#!/usr/bin/env bash
# The PostgreSQL floor of workload W1, prepared (not timed): PostgreSQL alone loading the rows
# feedwork stored, with `psql`'s `\copy` from CSV files, in one transaction, into empty tables of
# the same shape (columns, types, identity, keys and indexes, storage parameters) as feedwork's.
# `Benchmarks/run.sh` times `psql -X -q -1 -f DIR/floor.psql` of it: no HTTP, no JSON, no Swift.
#
# Usage: Benchmarks/floor-postgres.sh URL SCHEMA FLOOR DIR
#   URL     the PostgreSQL server (a libpq URL)
#   SCHEMA  the schema feedwork wrote W1 into (its `item` and `item__tags` tables)
#   FLOOR   a schema to create for the floor's tables (dropped first when it exists)
#   DIR     where the CSV files and DIR/floor.psql are written
set -euo pipefail
url=$1; schema=$2; floor=$3; dir=$4
mkdir -p "$dir"
psql_() { psql -X -q -v ON_ERROR_STOP=1 "$url" "$@"; }

# The table's columns that a load gives, in order: every column but generated ones (`_row`,
# numbered by its identity as rows come in, as it is for feedwork).
columns() {
    psql_ -A -t -c "SELECT string_agg(quote_ident(attname), ',' ORDER BY attnum) FROM pg_attribute
        WHERE attrelid = '$schema.$1'::regclass AND attnum > 0 AND NOT attisdropped AND attidentity = ''
            AND attgenerated = ''"
}

psql_ -c "DROP SCHEMA IF EXISTS $floor CASCADE" -c "CREATE SCHEMA $floor" 2>/dev/null
: >"$dir/floor.psql"
for table in item item__tags; do
    cols=$(columns "$table")
    # LIKE ... INCLUDING ALL copies columns, types, defaults, identity, constraints and indexes;
    # the storage parameters (such as fillfactor) are copied from pg_class.
    options=$(psql_ -A -t -c "SELECT coalesce(array_to_string(reloptions, ', '), '') FROM pg_class
        WHERE oid = '$schema.$table'::regclass")
    psql_ -c "CREATE TABLE $floor.$table (LIKE $schema.$table INCLUDING ALL)${options:+ WITH ($options)}"
    # The rows in the order feedwork inserted them: by `_row`, and a child table's as they lie
    # (called right after a first pass, which only appended to it).
    order=""; [ "$table" = item ] && order=" ORDER BY _row"
    psql_ -c "\\copy (SELECT $cols FROM $schema.$table$order) TO '$dir/$table.csv' CSV"
    echo "\\copy $floor.$table ($cols) FROM '$dir/$table.csv' CSV" >>"$dir/floor.psql"
done
