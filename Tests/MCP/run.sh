#!/usr/bin/env bash
# `feedwork mcp` driven by the official Python MCP SDK (the `mcp` package from PyPI) over
# stdio: fills a store from the default feeds.yaml (offline, from the fixtures) and this
# folder's feeds.yaml (a credential written in the config, a rejected record), then calls
# every tool and checks the answers against the store, over stdio (`feedwork mcp`) and over
# HTTP (`feedwork serve`'s /mcp). On SQLite, then on PostgreSQL when FEEDWORK_TEST_POSTGRES_URL
# is set (a schema of its own, dropped at the end).
#
# Needs: FEEDWORK (the feedwork binary) and FEEDWORK_MCP_PYTHON (a python with `mcp`
# installed). Without them it says so and exits 0, or 1 when CI is set.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
source "$repo/scripts/scratch-serve.sh"
require_executables FEEDWORK FEEDWORK_MCP_PYTHON
scratch_folder "$repo/Tests/MCP/feeds.yaml"
ln -s "$repo/Tests" "$work/Tests"

check() {
    local config=$1
    (cd "$work" && "$FEEDWORK" run -q -c "$config" > "$work/run.log" 2>&1) || { cat "$work/run.log"; exit 1; }
    "$FEEDWORK_MCP_PYTHON" "$repo/Tests/MCP/mcp_client_test.py" "$FEEDWORK" "$work/$config"
    "$FEEDWORK" serve -c "$work/$config" --port 0 2> "$work/serve.log" &
    server=$!
    url=""
    for _ in $(seq 1 600); do
        url=$(grep -o 'http://[^ ]*/' "$work/serve.log" 2>/dev/null || true)
        [[ -n "$url" ]] && break
        sleep 0.1
    done
    [[ -n "$url" ]] || { echo "feedwork serve did not start:"; cat "$work/serve.log"; exit 1; }
    "$FEEDWORK_MCP_PYTHON" "$repo/Tests/MCP/mcp_client_test.py" "$FEEDWORK" "$work/$config" "${url}mcp"
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=""
}

echo "== SQLite"
check feeds.yaml

if [[ -n "${FEEDWORK_TEST_POSTGRES_URL:-}" ]]; then
    echo "== PostgreSQL"
    schema="mcp_test_$$"
    sed "s|^store: feeds.sqlite|store: $FEEDWORK_TEST_POSTGRES_URL\nschema: $schema|" "$work/feeds.yaml" \
        > "$work/feeds-postgres.yaml"
    trap 'if [[ -n "$server" ]]; then kill "$server" 2>/dev/null || true; fi; psql -q "$FEEDWORK_TEST_POSTGRES_URL" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
    check feeds-postgres.yaml
else
    echo "NOT RUN on PostgreSQL: FEEDWORK_TEST_POSTGRES_URL is not set" >&2
fi
