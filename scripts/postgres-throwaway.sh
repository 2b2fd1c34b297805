#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: `initdb` in a new temporary folder, `pg_ctl`
# on a free loopback port, run as the `postgres` user (the server refuses root).
#
#   eval "$(bash scripts/postgres-throwaway.sh start)"   # exports FEEDWORK_TEST_POSTGRES_URL
#   bash scripts/postgres-throwaway.sh stop "$FEEDWORK_TEST_POSTGRES_DIR"
#
# Needs Debian's postgresql package (its binaries are found under /usr/lib/postgresql).
set -euo pipefail

bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
if [ -z "$bin" ]; then
    echo "no PostgreSQL server binaries under /usr/lib/postgresql: install Debian's postgresql package" >&2
    exit 1
fi
# Runs a server binary as the postgres user when this is root, else as this user.
as_server() {
    if [ "$(id -u)" = 0 ]; then (cd / && su postgres -s /bin/sh -c "$(printf '%q ' "$@")"); else "$@"; fi
}

case "${1:-}" in
start)
    dir="$(mktemp -d)"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    as_server "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync >"$dir/initdb.log" 2>&1
    # Room for the tests, which run in parallel with a few connections per store (about 320 at
    # once were seen; the default 100 fails them).
    as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=1000" start >/dev/null
    echo "export FEEDWORK_TEST_POSTGRES_URL='postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable'"
    echo "export FEEDWORK_TEST_POSTGRES_DIR='$dir'"
    ;;
stop)
    dir="${2:?usage: postgres-throwaway.sh stop DIR}"
    as_server "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    rm -rf "$dir"
    ;;
*)
    echo "usage: postgres-throwaway.sh start | stop DIR" >&2
    exit 2
    ;;
esac
