#!/usr/bin/env bash
# Fault trials for workers sharing a PostgreSQL store: PostgreSQL, three `feedwork worker`s and
# an API host, each a network host of its own on this machine (a network namespace per host,
# made here; topology.sh), with faults injected for a bounded time while the workers run, and
# the history they leave checked by check_history.py.
#
#   Benchmarks/faults/run.sh [--short] [TRIAL...]
#
# Trials (all by default; --short runs the five faults with short windows, for CI, under 5
# minutes; the full run also runs the baseline and holds each fault longer):
#   baseline       no fault: the checker's control
#   partition-pg   the worker running a pass is cut from PostgreSQL (packets dropped both ways)
#   pause          the worker running a pass is stopped (SIGSTOP) past its lease, then continued
#   skew           two workers restarted with clocks 30 s ahead and 30 s behind (libfaketime),
#                  then restarted with the right time
#   pg-restart     PostgreSQL stopped (-m fast) during a pass, down a few seconds, started again
#   partition-api  the worker running a pass is cut from the API host
#
# Each trial, in a schema of its own on the one cluster: the API host starts afresh; the three
# workers start (`feedwork worker --json`, each in its namespace, stdout to events-wN.jsonl);
# once every feed has committed a pass, the fault is injected (on the worker in the middle of a
# pass of the slow feed `items`, for the faults aimed at one worker), held for its window and
# healed; the workers run on; then the API freezes (its ground truth written), the workers run
# until every feed has committed a pass started after the freeze (bounded), and are stopped
# (SIGTERM, SIGKILL after a bounded wait). The store's history (audit.sql records every change
# to the trial's tables with the server's times), the final rows and the events are dumped into
# the trial's folder and checked. For partition-pg and pause the checker also measures how long
# after the fault the feed the worker held resumed on another worker, and fails the trial when
# that is over RESUME_BOUND.
#
# Settings (environment):
#   FEEDWORK=path     the feedwork binary (default: the debug build, built first)
#   OUT=dir           where each trial's files are kept (default .build/faults/<time>-<pid>)
#   RESUME_BOUND=s    the longest a feed may wait to resume elsewhere (default: lease + 4 s:
#                     the claim's lease runs out, a poll, the lease's lock, a second of slack)
#   FAULT_WINDOW=s    hold every fault this long instead (for experiments)
#   PG_BIN=dir        PostgreSQL's programs (default /usr/lib/postgresql/15/bin)
#   FAKETIME_LIBRARY  libfaketime (default /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1)
#
# Needs root (namespaces), iproute2 (ip, tc with the pfifo qdisc, bridges), PostgreSQL 15,
# psql, python3 and libfaketime; says which is missing and exits 3 without them. Traffic stays
# inside the namespaces made here: no address is set outside them, nothing on the host's
# interfaces or routes changes. The namespaces, the processes started and the cluster are
# removed on exit, failed trial or interrupt alike. Each trial's files (feeds.yaml, the
# workers' events and logs, the API's requests and truth, the dumped history) stay in OUT.
# Prints each trial's findings, then one line per trial and "faults: N passed, M failed" last;
# exits 1 when any failed.
set -euo pipefail
faults_dir="$(cd "$(dirname "$0")" && pwd)"
cd "$faults_dir/../.."

short=0
trials=()
for argument in "$@"; do
    case $argument in
    --short) short=1 ;;
    -h | --help)
        sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
        exit 0
        ;;
    -*)
        echo "faults: unknown option $argument" >&2
        exit 2
        ;;
    *) trials+=("$argument") ;;
    esac
done
all_trials=(baseline partition-pg pause skew pg-restart partition-api)
if [ ${#trials[@]} -eq 0 ]; then
    trials=("${all_trials[@]}")
    [ $short = 1 ] && trials=(partition-pg pause skew pg-restart partition-api)
fi
for trial in "${trials[@]}"; do
    [[ " ${all_trials[*]} " == *" $trial "* ]] || {
        echo "faults: no trial '$trial' (trials: ${all_trials[*]})" >&2
        exit 2
    }
done

# The windows, in seconds: each fault's, the run after it heals, and the most the settling may
# take. Short: a partition or pause 2.5 leases long, past the claim's lease and the half lease
# in which a silent worker's session should end. Full: the partition past the 25-30 s after
# which the server ends a silent session today (so the feed is taken over during it), healing
# while the cut worker's own attempts (30 s of unacknowledged data, then a 10 s connect) are
# under way, so it may reach the store again in the middle of its pass; the pause longer still.
if [ $short = 1 ]; then
    baseline_window=15 partition_window=15 pause_window=15 skew_window=20 down_window=4 api_window=12
    recover_window=6 settle_limit=25
else
    baseline_window=40 partition_window=35 pause_window=40 skew_window=60 down_window=10 api_window=30
    recover_window=15 settle_limit=60
fi
if [ -n "${FAULT_WINDOW:-}" ]; then
    baseline_window=$FAULT_WINDOW partition_window=$FAULT_WINDOW pause_window=$FAULT_WINDOW
    skew_window=$FAULT_WINDOW down_window=$FAULT_WINDOW api_window=$FAULT_WINDOW
fi
lease=6
resume_bound=${RESUME_BOUND:-$((lease + 4))}
# The longest a feed may wait between two commits in the trials without a faulty worker: the
# longest `every` (3 s), the lease, and 3 s for the pass.
stall_bound=$((3 + lease + 3))
faketime_library=${FAKETIME_LIBRARY:-/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1}
prefix="fwf$$"
source "$faults_dir/topology.sh"

# What these trials need, said loudly: a CI that asked for them fails without them.
need() {
    echo "faults: CANNOT RUN THE FAULT TRIALS: $*" >&2
    exit 3
}
[ "$(id -u)" = 0 ] || need "they must run as root (network namespaces, tc, PostgreSQL as the postgres user)"
for tool in ip tc runuser psql python3 timeout; do
    command -v "$tool" >/dev/null || need "$tool is not installed"
done
[ -x "$pg_bin/initdb" ] || need "no PostgreSQL in $pg_bin (set PG_BIN)"
[ -f "$faketime_library" ] ||
    need "no libfaketime at $faketime_library (apt-get install libfaketime, or set FAKETIME_LIBRARY)"
id postgres >/dev/null 2>&1 || need "there is no postgres user"
probe="fwfprobe$$"
ip netns add "$probe" 2>/dev/null || need "'ip netns add' fails here (no network namespaces?)"
ip netns del "$probe"

if [ -z "${FEEDWORK:-}" ]; then
    swift build --product feedwork >/dev/null
    FEEDWORK="$(swift build --show-bin-path)/feedwork"
fi
FEEDWORK=$(realpath "$FEEDWORK")
out=${OUT:-.build/faults/$(date -u +%Y%m%dT%H%M%SZ)-$$}
mkdir -p "$out"
out=$(realpath "$out")
work=$(mktemp -d "${TMPDIR:-/tmp}/feedwork-faults.XXXXXX")
chmod 755 "$work"

# Every process a trial starts is listed here (pid and what it runs), so that the cleanup ends
# it even when the trial's own cleanup could not.
pid_list="$work/pids"
: >"$pid_list"
remember() { echo "$1 $2" >>"$pid_list"; }
# Ends a process this run started: continued (it may be stopped), SIGTERM, then SIGKILL after
# $2 seconds; only while its command line still names what was started, so a reused pid is
# never hit.
end_process() {
    local pid=$1 wait=${2:-10} what deadline
    what=$(awk -v p="$pid" '$1 == p { print $2 }' "$pid_list" | tail -1)
    ours() { [ -n "$what" ] && tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF -- "$what"; }
    ours || return 0
    kill -CONT "$pid" 2>/dev/null || true
    kill -TERM "$pid" 2>/dev/null || true
    deadline=$((SECONDS + wait))
    while ours && [ $SECONDS -lt "$deadline" ]; do sleep 0.2; done
    if ours; then
        echo "faults: pid $pid ($what) still running ${wait}s after SIGTERM: SIGKILL" >&2
        kill -KILL "$pid" 2>/dev/null || true
    fi
}

cleanup() {
    local status=$? pid
    trap - EXIT INT TERM
    while read -r pid _; do end_process "$pid" 5; done <"$pid_list"
    stop_postgres
    remove_topology
    rm -rf "$work"
    exit "$status"
}
# A signal ends the trial under way first (its subshell stops its processes), at most 60 s.
trial_pid=""
on_signal() {
    local deadline=$((SECONDS + 60))
    if [ -n "$trial_pid" ]; then
        kill -TERM "$trial_pid" 2>/dev/null || true
        while kill -0 "$trial_pid" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
    fi
    exit "$1"
}
trap cleanup EXIT
trap 'on_signal 130' INT
trap 'on_signal 143' TERM

# Sleeps $1 seconds in a way a signal interrupts (a trap waits for a foreground sleep to end).
hold() {
    sleep "$1" &
    sleeping_pid=$!
    wait "$sleeping_pid"
    sleeping_pid=""
}

# The checker's own tests first: a broken checker would pass or fail every trial for nothing.
python3 -m unittest discover -q -s "$faults_dir" -p 'test_*.py'

remove_stale_topologies
make_topology
start_postgres
echo "faults: PostgreSQL, the API host and workers w1-w3 in namespaces $prefix-*; files in $out"

# The schema a trial's store lives in.
schema_of() { echo "t_${1//-/_}"; }

# A query's single value (or rows) from the trial's store, for the harness's waits.
query() { psql_ -At -c "$1"; }

# Feeds that have a committed pass whose run row was inserted after $2 (epoch seconds, the
# server's clock), in schema $1.
committed_feeds_since() {
    query "SELECT count(DISTINCT r.feed) FROM faults.log l JOIN $1._runs r ON r.id = (l.row_data->>'id')::bigint
        WHERE l.tbl = '$1._runs' AND l.op = 'INSERT' AND l.at > to_timestamp($2)
        AND r.status IN ('ok', 'ok_with_rejects', 'stale')" 2>/dev/null || echo 0
}

# Waits until both feeds have committed a pass started after $2, at most $3 seconds.
wait_committed() {
    local schema=$1 since=$2 limit=$3 deadline
    deadline=$((SECONDS + limit))
    while [ $SECONDS -lt $deadline ]; do
        [ "$(committed_feeds_since "$schema" "$since")" = 2 ] && return 0
        sleep 0.5
    done
    return 1
}

# The worker whose pass of `items` has been running for at least 0.3 s (from its run row's
# insert and its address), waiting for one at most $2 seconds.
worker_in_pass() {
    local schema=$1 limit=$2 deadline address
    deadline=$((SECONDS + limit))
    while [ $SECONDS -lt $deadline ]; do
        address=$(query "SELECT host(l.client) FROM faults.log l
            WHERE l.tbl = '$schema._runs' AND l.op = 'INSERT' AND l.row_data->>'feed' = 'items'
                AND l.at < clock_timestamp() - interval '300 ms'
                AND EXISTS (SELECT 1 FROM $schema._runs r
                    WHERE r.id = (l.row_data->>'id')::bigint AND r.status = 'running')
            ORDER BY l.seq DESC LIMIT 1" 2>/dev/null || true)
        if [[ $address =~ ^10\.77\.([0-9])\.2$ ]]; then
            echo "w${BASH_REMATCH[1]}"
            return 0
        fi
        sleep 0.2
    done
    return 1
}

now() { date +%s.%N; }

# One trial, in a subshell of its own (below); its files in $out/NAME.
run_trial() {
    local name=$1 dir schema victim="" fault_start fault_end frozen settled=true
    # Not local: the trial's cleanup (its EXIT trap) reads them after run_trial returned.
    api_pid=""
    declare -gA worker_pids=()
    # What the harness saw go wrong beside the history: a worker that died or did not stop.
    findings=()
    dir="$out/$name"
    schema=$(schema_of "$name")
    rm -rf "$dir"
    mkdir -p "$dir"
    # A trial before may have left PostgreSQL down (pg-restart that failed to start it).
    pg_ctl_ status >/dev/null 2>&1 || postgres_up

    # The trial's processes end with it, whatever happens.
    trial_cleanup() {
        local pid
        [ -n "${sleeping_pid:-}" ] && kill "$sleeping_pid" 2>/dev/null || true
        for pid in "${worker_pids[@]}"; do end_process "$pid" 10; done
        [ -n "${api_pid:-}" ] && end_process "$api_pid" 5
        for wire in w1pg w2pg w3pg w1api w2api w3api; do heal "$wire"; done
    }
    trap trial_cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM

    ip netns exec "$(ns api)" python3 "$faults_dir/api_host.py" "$api_address" "$api_port" "$dir" \
        >"$dir/api.log" 2>&1 &
    api_pid=$!
    remember "$api_pid" api_host.py
    local deadline=$((SECONDS + 15))
    until [ -f "$dir/api.ready" ]; do
        [ $SECONDS -lt $deadline ] || {
            echo "the API host did not start: $(cat "$dir/api.log")" >&2
            return 1
        }
        sleep 0.1
    done

    cat >"$dir/feeds.yaml" <<EOF
store: postgres://feedwork@$pg_address:5432/feeds
schema: $schema
defaults:
  lease: ${lease}s
  jitter: 0%
  retry_failed_after: 2s
  timeout: 3s
  connect_timeout: 2s
  retries: 1
  backoff: 200ms
  concurrency: 2
feeds:
  - name: events
    adapter: json
    url: http://$api_address:$api_port/events
    every: 2s
    records: \$.events
    entity: event
    key: seq
    fields: { seq: int, name: string, value: int }
    pagination: { type: cursor, cursor_path: \$.next, cursor_param: page, limit: 20 }
    incremental: { cursor_path: seq, param: since }
  - name: items
    adapter: json
    url: http://$api_address:$api_port/items
    every: 3s
    write: replace
    records: \$.items
    entity: item
    key: id
    fields: { id: int, version: int, price: int }
    pagination: { type: cursor, cursor_path: \$.next, cursor_param: page }
EOF

    # start_worker NAME [FAKETIME]: a worker in its namespace, its JSON lines appended to
    # events-NAME.jsonl, its log to worker-NAME.log.
    start_worker() {
        local worker=$1 skew=${2:-} environment=()
        # libfaketime is loaded into a second env(1) first: set up there, it leaves the
        # environment of the feedwork it starts as it is (set up in feedwork itself, it changes
        # the environment at load, and Swift then reads no command-line arguments).
        [ -n "$skew" ] && environment=(LD_PRELOAD="$faketime_library" FAKETIME="$skew" FAKETIME_DONT_FAKE_MONOTONIC=1
            /usr/bin/env)
        (cd "$dir" && exec ip netns exec "$(ns "$worker")" env "${environment[@]}" "$FEEDWORK" worker \
            -c feeds.yaml --json --name "$worker" --grace 3s --log-level info \
            >>"events-$worker.jsonl" 2>>"worker-$worker.log") &
        worker_pids[$worker]=$!
        remember "$!" "$FEEDWORK"
        echo "$(now) start $worker ${skew:-}" >>"$dir/harness.log"
    }
    # Stops a worker as systemd would (SIGTERM; SIGKILL 15 s later): it must still be running
    # and exit 0, within its grace of 3 s.
    stop_worker() {
        local pid=${worker_pids[$1]} status=0 state
        state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null || true)
        case $state in
        "" | Z | X) findings+=("$1 (pid $pid) was no longer running when it was to be stopped; see worker-$1.log") ;;
        esac
        end_process "$pid" 15
        wait "$pid" 2>/dev/null || status=$?
        [ "$status" = 0 ] || findings+=("$1 exited with status $status when stopped (0 expected); see worker-$1.log")
        # What libfaketime shares between the processes it runs in, when it ran in this one.
        rm -f "/dev/shm/faketime_shm_$pid" "/dev/shm/sem.faketime_sem_$pid"
        echo "$(now) stopped $1" >>"$dir/harness.log"
    }

    local started
    started=$(now)
    for worker in "${workers[@]}"; do start_worker "$worker"; done
    wait_committed "$schema" "$started" 60 || {
        echo "no pass of every feed committed within 60 s of the start; see $dir/worker-*.log" >&2
        return 1
    }

    # The fault, held for its window and healed; its start and end on this machine's clock,
    # which is the server's (same kernel).
    local window
    case $name in
    baseline)
        window=$baseline_window
        fault_start=$(now)
        hold "$window"
        ;;
    partition-pg | pause | partition-api)
        victim=$(worker_in_pass "$schema" 20) || {
            echo "no worker was in the middle of a pass of items within 20 s" >&2
            return 1
        }
        case $name in
        partition-pg) window=$partition_window ;;
        pause) window=$pause_window ;;
        partition-api) window=$api_window ;;
        esac
        fault_start=$(now)
        case $name in
        partition-pg) cut "${victim}pg" ;;
        pause) kill -STOP "${worker_pids[$victim]}" ;;
        partition-api) cut "${victim}api" ;;
        esac
        hold "$window"
        case $name in
        partition-pg) heal "${victim}pg" ;;
        pause) kill -CONT "${worker_pids[$victim]}" ;;
        partition-api) heal "${victim}api" ;;
        esac
        ;;
    skew)
        window=$skew_window
        fault_start=$(now)
        stop_worker w1
        start_worker w1 "+30s"
        stop_worker w2
        start_worker w2 "-30s"
        hold "$window"
        stop_worker w1
        start_worker w1
        stop_worker w2
        start_worker w2
        ;;
    pg-restart)
        window=$down_window
        victim=$(worker_in_pass "$schema" 20) || {
            echo "no worker was in the middle of a pass of items within 20 s" >&2
            return 1
        }
        victim=""
        fault_start=$(now)
        postgres_down fast
        hold "$window"
        postgres_up
        ;;
    esac
    fault_end=$(now)
    echo "$(now) fault $name on ${victim:-all} from $fault_start to $fault_end" >>"$dir/harness.log"
    hold "$recover_window"

    kill -USR1 "$api_pid"
    deadline=$((SECONDS + 10))
    until [ -f "$dir/truth.json" ]; do
        [ $SECONDS -lt $deadline ] || {
            echo "the API host wrote no truth.json" >&2
            return 1
        }
        sleep 0.1
    done
    frozen=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["frozen_at"])' "$dir/truth.json")
    wait_committed "$schema" "$frozen" "$settle_limit" || settled=false
    for worker in "${workers[@]}"; do stop_worker "$worker"; done
    end_process "$api_pid" 5

    # The history: every logged change to the trial's tables with its commit time, the runs,
    # the final rows and the board, by the server's clock.
    query "SELECT json_build_object('seq', seq, 'tbl', split_part(tbl, '.', 2), 'op', op, 'row', row_data,
            'at', extract(epoch FROM at), 'client', host(client), 'pid', pid, 'xid', xmin::text,
            'committed_at', extract(epoch FROM pg_xact_commit_timestamp(xmin)))
        FROM faults.log WHERE split_part(tbl, '.', 1) = '$schema' ORDER BY seq" >"$dir/log.jsonl"
    query "SELECT to_jsonb(r)
            || jsonb_build_object('committed_at', extract(epoch FROM pg_xact_commit_timestamp(r.xmin)))
        FROM $schema._runs r ORDER BY id" >"$dir/runs.jsonl"
    query "SELECT to_jsonb(t) FROM $schema.event t" >"$dir/rows-event.jsonl"
    query "SELECT to_jsonb(t) FROM $schema.item t" >"$dir/rows-item.jsonl"
    query "SELECT to_jsonb(s) FROM $schema._schedule s" >"$dir/schedule.jsonl"
    query "SELECT to_jsonb(s) FROM $schema._state s" >"$dir/state.jsonl"

    python3 - "$dir/trial.json" <<PY
import json, sys
json.dump({
    "trial": "$name", "schema": "$schema", "lease": $lease, "resume_bound": $resume_bound,
    "workers": {w: "10.77.%s.2" % w[1:] for w in "${workers[*]}".split()},
    "feeds": {"events": {"every": 2}, "items": {"every": 3}},
    "monotonic": {"item": "version"}, "keys": {"event": "seq", "item": "id"},
    "fault": {"kind": "$name", "victim": "$victim" or None, "start": $fault_start, "end": $fault_end,
              "measure_resume": "$name" in ("partition-pg", "pause")},
    "stall_bound": $stall_bound if "$name" in ("baseline", "skew") else None,
    "frozen_at": $frozen, "settled": "$settled" == "true", "settle_limit": $settle_limit,
}, open(sys.argv[1], "w"), indent=1)
PY
    local checked=0
    python3 "$faults_dir/check_history.py" "$dir" || checked=$?
    for finding in "${findings[@]}"; do echo "VIOLATION worker: $finding"; done
    [ "$checked" = 0 ] && [ ${#findings[@]} = 0 ]
}

# Each trial in a subshell (its errors end it, not the run), its output in $out/TRIAL.txt.
passed=0
failed=0
summary=()
for trial in "${trials[@]}"; do
    echo "== $trial (at $((SECONDS / 60)):$(printf %02d $((SECONDS % 60))))"
    trial_began=$SECONDS
    set +e
    (
        set -e
        run_trial "$trial"
    ) >"$out/$trial.txt" 2>&1 &
    trial_pid=$!
    wait "$trial_pid"
    status=$?
    trial_pid=""
    set -e
    cat "$out/$trial.txt"
    if [ "$status" = 0 ]; then
        passed=$((passed + 1))
        summary+=("PASS $trial ($((SECONDS - trial_began)) s)")
    else
        failed=$((failed + 1))
        summary+=("FAIL $trial ($((SECONDS - trial_began)) s): see $out/$trial.txt")
    fi
done
echo "== summary (in $SECONDS s; files in $out)"
printf '%s\n' "${summary[@]}"
for trial in "${trials[@]}"; do grep -h "^resume:" "$out/$trial.txt" 2>/dev/null || true; done
echo "faults: $passed passed, $failed failed"
[ "$failed" = 0 ]
