#!/usr/bin/env bash
# Schemathesis against `feedwork serve`: fills a store from the default feeds.yaml (offline,
# from the fixtures), serves it on a free loopback port and runs every check of Schemathesis on
# the cases it generates from /api/openapi.json (schemathesis.toml says what it may expect).
# Fails on any failure.
#
# Needs: FEEDWORK (the feedwork binary) and FEEDWORK_SCHEMATHESIS (the `st` command of
# Schemathesis, from PyPI). Without them it says so and exits 0, or 1 when CI is set.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
source "$repo/scripts/scratch-serve.sh"
require_executables FEEDWORK FEEDWORK_SCHEMATHESIS
scratch_folder
run_and_serve

# One worker: the machine is shared, and the cases are cheap. A fixed seed would hide a new
# failure; Schemathesis prints the seed of each run, so a failure can be replayed.
# From the scratch folder, where Schemathesis keeps its .schemathesis cache.
cd "$work"
"$FEEDWORK_SCHEMATHESIS" --config-file "$repo/Tests/OpenAPI/schemathesis.toml" --no-color \
    run "${url}api/openapi.json" --workers 1
