#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: `initdb` in a new temporary folder, `pg_ctl`
# on a free loopback port, run as the `postgres` user (the server refuses root).
#
#   eval "$(bash scripts/postgres-throwaway.sh start)"   # exports FEEDWORK_TEST_POSTGRES_URL
#   bash scripts/postgres-throwaway.sh stop "$FEEDWORK_TEST_POSTGRES_DIR"
#   bash scripts/postgres-throwaway.sh restart DIR [SECONDS]   # down SECONDS (default 1), then up
#
# Needs Debian's postgresql package (its binaries are found under /usr/lib/postgresql).
set -euo pipefail

bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
if [ -z "$bin" ]; then
    echo "no PostgreSQL server binaries under /usr/lib/postgresql: install Debian's postgresql package" >&2
    exit 1
fi
# Closes every descriptor above stderr this script inherited without close-on-exec. The server
# runs on after the script ends and would hold them: a caller that spawned the script with a
# pipe or socket of its own open (a test process, its other children's pipes) would never see
# that pipe end, nor, for Foundation's Process, the script itself end.
close_inherited() {
    local fd flags
    for fd in /proc/$$/fd/*; do
        fd="${fd##*/}"
        [ "$fd" -gt 2 ] && [ -e "/proc/$$/fdinfo/$fd" ] || continue
        flags="$(awk '/^flags:/ { print $2 }' "/proc/$$/fdinfo/$fd" 2>/dev/null || true)"
        # O_CLOEXEC is 02000000 (octal): bash's own descriptors have it and go at exec anyway.
        [ -n "$flags" ] && (( (8#$flags & 8#2000000) == 0 )) || continue
        eval "exec $fd>&-"
    done
}
# Runs a server binary as the postgres user when this is root, else as this user.
as_server() {
    if [ "$(id -u)" = 0 ]; then (cd / && su postgres -s /bin/sh -c "$(printf '%q ' "$@")"); else "$@"; fi
}

close_inherited
exec </dev/null

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
restart)
    # The server's own restart (its options kept in postmaster.opts), down for a while between.
    # Says when the server had stopped (seconds since 1970), for a caller that needs to know
    # when its sessions ended.
    dir="${2:?usage: postgres-throwaway.sh restart DIR [SECONDS]}"
    as_server "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    echo "stopped $(date +%s.%N)"
    sleep "${3:-1}"
    as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w restart >/dev/null 2>&1
    ;;
stop)
    dir="${2:?usage: postgres-throwaway.sh stop DIR}"
    as_server "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    rm -rf "$dir"
    ;;
*)
    echo "usage: postgres-throwaway.sh start | stop DIR | restart DIR [SECONDS]" >&2
    exit 2
    ;;
esac
