#!/usr/bin/env bash
# Prints the compiler warnings of a build log that are in Feedwork's own code (Sources,
# Adapters, Tests, Plugins, Benchmarks), each once, and exits 1 when there is any; warnings in
# the dependencies (.build/checkouts) are left to their authors.
#
#   swift build 2>&1 | tee .build/build.log && bash scripts/own-warnings.sh .build/build.log
set -euo pipefail
log="${1:?usage: own-warnings.sh BUILD_LOG}"
root="$(cd "$(dirname "$0")/.." && pwd)"
own="$(grep -E "^(${root}/)?(Sources|Adapters|Tests|Plugins|Benchmarks)/[^:]+:[0-9]+:[0-9]+: warning: " "$log" |
    sort -u || true)"
if [ -n "$own" ]; then
    echo "$own"
    echo "$(wc -l <<<"$own") compiler warning(s) in Feedwork's own code; it builds without any" >&2
    exit 1
fi
