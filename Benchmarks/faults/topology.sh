# The fault trials' machines: PostgreSQL, the API host and three workers, each in a network
# namespace of its own, joined by point-to-point links that a fault can cut one at a time.
# Sourced by run.sh, which sets `prefix` (unique per run: fwf<pid>) and `work` (a folder).
#
#   fwf<pid>-pg     PostgreSQL, listening on 10.77.0.1 (on its lo)
#   fwf<pid>-api    the API host (api_host.py), on 10.78.0.1 (on its lo)
#   fwf<pid>-w1..3  the workers
#   fwf<pid>-net    the wires: one bridge per link, nothing else
#
# Worker N reaches PostgreSQL over the link wNpg (10.77.N.2 <-> 10.77.N.1) and the API over
# wNapi (10.78.N.2 <-> 10.78.N.1), with a route to each service address through its own link,
# so every worker uses the same feeds.yaml and PostgreSQL sees each worker by its address. Each
# link is two veth pairs into a bridge in the wires' namespace; a cut (`cut wNpg`) makes both of
# the bridge's ports drop every packet they would send (a pfifo qdisc of limit 0), so packets
# are lost on the wire both ways: neither end is told (no reset, no unreachable; the neighbours
# are static entries, so no ARP either), exactly as when a switch between them dies. No
# address is set outside these namespaces, and the host's own interfaces and routes are never
# touched.

pg_address=10.77.0.1
api_address=10.78.0.1
api_port=8080
workers=(w1 w2 w3)
pg_bin=${PG_BIN:-/usr/lib/postgresql/15/bin}

ns() { echo "$prefix-$1"; }
# Runs a command in the namespace of host $1 (pg, api, net, w1...).
in_ns() {
    local host=$1
    shift
    ip netns exec "$(ns "$host")" "$@"
}
mac_of() { ip -n "$(ns "$1")" link show dev "$2" | awk '/link\/ether/ { print $2 }'; }

# link NAME A A_IF A_ADDR B B_IF B_ADDR: a /30 link from host A's interface A_IF to host B's
# B_IF through the bridge br-NAME of the wires' namespace (ports NAME-a and NAME-b).
link() {
    local name=$1 a=$2 a_if=$3 a_addr=$4 b=$5 b_if=$6 b_addr=$7 net
    net=$(ns net)
    ip -n "$(ns "$a")" link add "$a_if" type veth peer name "$name-a" netns "$net"
    ip -n "$(ns "$b")" link add "$b_if" type veth peer name "$name-b" netns "$net"
    ip -n "$net" link add "br-$name" type bridge
    ip -n "$net" link set "$name-a" master "br-$name"
    ip -n "$net" link set "$name-b" master "br-$name"
    ip -n "$net" link set "$name-a" up
    ip -n "$net" link set "$name-b" up
    ip -n "$net" link set "br-$name" up
    ip -n "$(ns "$a")" addr add "$a_addr/30" dev "$a_if"
    ip -n "$(ns "$b")" addr add "$b_addr/30" dev "$b_if"
    ip -n "$(ns "$a")" link set "$a_if" up
    ip -n "$(ns "$b")" link set "$b_if" up
    ip -n "$(ns "$a")" neigh replace "$b_addr" lladdr "$(mac_of "$b" "$b_if")" dev "$a_if" nud permanent
    ip -n "$(ns "$b")" neigh replace "$a_addr" lladdr "$(mac_of "$a" "$a_if")" dev "$b_if" nud permanent
}

# Drops every packet of link NAME, both ways, until heal.
cut() {
    in_ns net tc qdisc replace dev "$1-a" root pfifo limit 0
    in_ns net tc qdisc replace dev "$1-b" root pfifo limit 0
}
heal() {
    in_ns net tc qdisc del dev "$1-a" root 2>/dev/null || true
    in_ns net tc qdisc del dev "$1-b" root 2>/dev/null || true
}

make_topology() {
    local host n
    for host in pg api net "${workers[@]}"; do
        ip netns add "$(ns "$host")"
        ip -n "$(ns "$host")" link set lo up
        in_ns "$host" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
    done
    ip -n "$(ns pg)" addr add "$pg_address/32" dev lo
    ip -n "$(ns api)" addr add "$api_address/32" dev lo
    for n in 1 2 3; do
        link "w${n}pg" "w$n" pg "10.77.$n.2" pg "w$n" "10.77.$n.1"
        link "w${n}api" "w$n" api "10.78.$n.2" api "w$n" "10.78.$n.1"
        ip -n "$(ns "w$n")" route add "$pg_address/32" via "10.77.$n.1" dev pg
        ip -n "$(ns "w$n")" route add "$api_address/32" via "10.78.$n.1" dev api
    done
    # pfifo of limit 0 is what cuts a link: make sure this kernel has it before any trial.
    cut w1pg
    heal w1pg
}

# The address worker $1 (w1...) connects to PostgreSQL from.
worker_address() { echo "10.77.${1#w}.2"; }

# Deletes every namespace of this run (their interfaces go with them).
remove_topology() {
    local name
    for name in $(ip netns list 2>/dev/null | awk '{ print $1 }' | grep -E "^$prefix-" || true); do
        ip netns del "$name" 2>/dev/null || echo "faults: could not delete namespace $name" >&2
    done
}

# Namespaces left by an earlier run that was killed before it could clean up (its pid is gone).
remove_stale_topologies() {
    local name pid
    local pattern='^fwf[0-9]+-(pg|api|net|w[0-9])$'
    for name in $(ip netns list 2>/dev/null | awk '{ print $1 }' | grep -E "$pattern" || true); do
        pid=${name#fwf}
        pid=${pid%%-*}
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "faults: removing namespace $name, left by run $pid which is gone" >&2
            ip netns del "$name" 2>/dev/null || true
        fi
    done
}

# PostgreSQL in the pg namespace, as the postgres user, its files in $work/pg: listening on
# $pg_address for the workers (trust for the links' addresses) and on a Unix socket in
# $work/pg for the harness; commit timestamps on, for the history.
pg_ctl_() { in_ns pg runuser -u postgres -- "$pg_bin/pg_ctl" -D "$work/pg/data" "$@"; }
start_postgres() {
    mkdir -p "$work/pg"
    chown postgres: "$work/pg"
    runuser -u postgres -- "$pg_bin/initdb" -D "$work/pg/data" -A trust -U postgres -E UTF8 --no-sync \
        >"$work/pg/initdb.log" 2>&1
    cat >>"$work/pg/data/postgresql.conf" <<EOF
listen_addresses = '$pg_address'
port = 5432
unix_socket_directories = '$work/pg'
track_commit_timestamp = on
fsync = off
full_page_writes = off
max_connections = 200
log_connections = on
log_disconnections = on
log_line_prefix = '%m [%p] %h '
EOF
    echo "host all all 10.77.0.0/16 trust" >>"$work/pg/data/pg_hba.conf"
    postgres_up
    psql_ -d postgres -c "CREATE ROLE feedwork LOGIN" -c "CREATE DATABASE feeds OWNER feedwork" >/dev/null
    psql_ -f "$faults_dir/audit.sql" >/dev/null
}
postgres_up() { pg_ctl_ -l "$work/pg/postgres.log" -w -t 60 start >/dev/null; }
postgres_down() { pg_ctl_ -m "${1:-fast}" -w -t 60 stop >/dev/null; }
stop_postgres() {
    [ -f "$work/pg/data/postmaster.pid" ] || return 0
    local pid
    pid=$(head -1 "$work/pg/data/postmaster.pid")
    # Fast, which removes the server's shared memory; immediate, then SIGKILL, when that hangs.
    timeout 40 runuser -u postgres -- "$pg_bin/pg_ctl" -D "$work/pg/data" -m fast -w -t 30 stop >/dev/null 2>&1 ||
        timeout 30 runuser -u postgres -- "$pg_bin/pg_ctl" -D "$work/pg/data" -m immediate -w -t 20 stop \
            >/dev/null 2>&1 || kill -KILL "$pid" 2>/dev/null || true
}
# psql as the superuser over the Unix socket, in the pg namespace; database feeds unless -d.
psql_() { in_ns pg psql -X -q -v ON_ERROR_STOP=1 -h "$work/pg" -U postgres -d feeds "$@"; }
