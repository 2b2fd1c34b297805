#!/usr/bin/env bash
# Start-up of the release feedwork (scripts/release-build.sh, the build install.sh installs):
# hyperfine times `feedwork --version` and each command in a quick form on the default
# feeds.yaml's store (loaded once first), and the time `feedwork serve` takes to say where it
# listens. Prints each mean and fails when one is TARGET_MS (default 20) or more.
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
# need the network, so their start-up is their help; serve's is timed below).
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
arguments=()
for command in "${commands[@]}"; do arguments+=("$FEEDWORK $command"); done
hyperfine -N --warmup 3 --runs "$runs" --ignore-failure --export-json "$work/startup.json" --style basic \
    "${arguments[@]}" >&2

# `feedwork serve` on a free port: from its start to its "serving ... on http://..." line.
serve_ms=()
for _ in 1 2 3 4 5; do
    start=$(date +%s%N)
    exec 3< <("$FEEDWORK" serve --port 0 2>&1)
    serve_pid=$!
    read -r line <&3
    end=$(date +%s%N)
    kill "$serve_pid" 2>/dev/null || true
    exec 3<&-
    case "$line" in serving*) ;; *) echo "feedwork serve said: $line" >&2; exit 1 ;; esac
    serve_ms+=($(((end - start) / 1000000)))
done

python3 - "$work/startup.json" "$target_ms" "${serve_ms[@]}" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
target = float(sys.argv[2])
serve = [int(ms) for ms in sys.argv[3:]]
slow = []
# user + system: the CPU time, which a loaded machine does not stretch as it does the wall.
print(f"{'command':<70} {'mean':>9} {'min':>9} {'cpu':>9}")
for result in results:
    command = result["command"].split("/feedwork ", 1)[-1]
    mean, low = result["mean"] * 1000, result["min"] * 1000
    cpu = (result["user"] + result["system"]) * 1000
    print(f"feedwork {command:<61} {mean:7.1f}ms {low:7.1f}ms {cpu:7.1f}ms")
    if mean >= target:
        slow.append(command)
median = statistics.median(serve)
print(f"{'feedwork serve --port 0, until it prints where it listens (median of 5)':<70} {median:7.1f}ms")
if median >= target:
    slow.append("serve")
if slow:
    print(f"at or above {target:g} ms: {', '.join(slow)}", file=sys.stderr)
    sys.exit(1)
print(f"summary: every command starts in under {target:g} ms")
PY
