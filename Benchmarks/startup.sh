#!/usr/bin/env bash
# Start-up of the release feedwork (scripts/release-build.sh, the build install.sh installs),
# against TARGET_MS (default 20), timed by hyperfine in two parts:
#
# 1. start-up: from exec until the command would begin its own work. With FEEDWORK_STARTUP_ONLY
#    set, feedwork loads, parses and checks the command line, sets up logging and exits 0 right
#    before the command's run(): so this is the kernel mapping the binary, the dynamic loader,
#    the Swift runtime and argument-parser, for every command (and `--version`, which ends
#    there anyway). The script fails when one mean is TARGET_MS or more.
# 2. whole commands: each command in a quick form on the default feeds.yaml's store (loaded once
#    first), from exec to exit. `run --feed bbc-fruit` is a tiny offline feed (a local JSON
#    file of 9 records, unchanged: the second pass), `test fruit` replays the fruit adapter's
#    fixture suites. Printed beside part 1, not held to the target.
#
# And the time `feedwork serve --port 0` takes to say where it listens (held to the target).
# Each row gives the mean, the minimum and the CPU time (user + system, which a loaded machine
# does not stretch as it does the wall).
#
#   Benchmarks/startup.sh                  # builds the release binary when missing
#   FEEDWORK=/usr/local/bin/feedwork RUNS=50 Benchmarks/startup.sh
#
# Needs hyperfine (Debian's hyperfine package) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
target_ms="${TARGET_MS:-20}"
runs="${RUNS:-30}"
if [ -z "${FEEDWORK:-}" ]; then
    bash scripts/release-build.sh --product feedwork >&2
    FEEDWORK="$(bash scripts/release-build.sh --show-bin-path)/feedwork"
fi
command -v hyperfine >/dev/null || { echo "hyperfine is needed: apt-get install -y hyperfine" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r feeds.yaml Adapters "$work/"
cd "$work"
"$FEEDWORK" run -q >/dev/null
"$FEEDWORK" run -q >/dev/null # the unchanged pass below is the second

# Each command in a form that does its job quickly (worker and record run until stopped or
# need the network, so their whole run is their help; serve's is timed below).
commands=(
    "--version"
    "run --feed bbc-fruit -q"
    "validate"
    "list"
    "runs --limit 5"
    "rejects --limit 5"
    "adapters"
    "schema fruit"
    "export fruit"
    "price milk --currency EUR"
    "init --print --from Adapters/JSON/Fixtures/products-page-1.json"
    "test fruit"
    "worker --help"
    "record --help"
    "serve --help"
)
# Every command's start-up, in the form it runs (worker, record and serve too).
startup_commands=(
    "--version"
    "run --feed bbc-fruit -q"
    "worker"
    "validate"
    "list"
    "runs --limit 5"
    "rejects --limit 5"
    "export fruit"
    "price milk --currency EUR"
    "adapters"
    "schema fruit"
    "init --print --from Adapters/JSON/Fixtures/products-page-1.json"
    "test fruit"
    "record bbc-fruit"
    "serve"
)
arguments=()
for command in "${startup_commands[@]}"; do arguments+=("$FEEDWORK $command"); done
FEEDWORK_STARTUP_ONLY=1 hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/startup.json" \
    --style basic "${arguments[@]}" >&2
arguments=()
for command in "${commands[@]}"; do arguments+=("$FEEDWORK $command"); done
hyperfine -N --warmup 3 --runs "$runs" --ignore-failure --export-json "$work/whole.json" --style basic \
    "${arguments[@]}" >&2

# `feedwork serve` on a free port: from its start to its "serving ... on http://..." line,
# SERVE_RUNS times (default 15). The clock is bash's own EPOCHREALTIME (microseconds), so the
# figure holds no start of a `date` process.
serve_ms=()
for _ in $(seq "${SERVE_RUNS:-15}"); do
    start=${EPOCHREALTIME/./}
    exec 3< <("$FEEDWORK" serve --port 0 2>&1)
    serve_pid=$!
    read -r line <&3
    end=${EPOCHREALTIME/./}
    kill "$serve_pid" 2>/dev/null || true
    exec 3<&-
    case "$line" in serving*) ;; *) echo "feedwork serve said: $line" >&2; exit 1 ;; esac
    serve_ms+=("$(((end - start) / 1000)).$(((end - start) % 1000 / 100))")
done

python3 - "$FEEDWORK" "$work/startup.json" "$work/whole.json" "$target_ms" "${serve_ms[@]}" <<'PY'
import json, statistics, sys
binary = sys.argv[1]
startup = json.load(open(sys.argv[2]))["results"]
whole = json.load(open(sys.argv[3]))["results"]
target = float(sys.argv[4])
serve = [float(ms) for ms in sys.argv[5:]]
slow = []


def rows(results, title, held):
    print(f"{title:<70} {'mean':>9} {'min':>9} {'cpu':>9}")
    for result in results:
        command = result["command"].removeprefix(binary + " ")
        mean, low = result["mean"] * 1000, result["min"] * 1000
        cpu = (result["user"] + result["system"]) * 1000
        print(f"feedwork {command:<61} {mean:7.1f}ms {low:7.1f}ms {cpu:7.1f}ms")
        if held and mean >= target:
            slow.append(command)


rows(startup, "start-up (FEEDWORK_STARTUP_ONLY=1): until the command's own work", True)
print()
rows(whole, "whole command, exec to exit (not held to the target)", False)
median = statistics.median(serve)
print(f"{f'feedwork serve --port 0, until it prints where it listens (median of {len(serve)})':<70} {median:7.1f}ms")
if median >= target:
    slow.append("serve")
if slow:
    print(f"start-up at or above {target:g} ms: {', '.join(slow)}", file=sys.stderr)
    sys.exit(1)
print(f"summary: every command starts in under {target:g} ms")
PY
