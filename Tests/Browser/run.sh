#!/usr/bin/env bash
# The browser tests of `feedwork serve`: fills a store from the default feeds.yaml (offline,
# from the fixtures) plus a 100,000-row json feed, serves it on a free loopback port and drives
# headless Chromium through Selenium (browser_test.py). Screenshots go to .build/screenshots/.
#
# Needs: FEEDWORK (the feedwork binary), FEEDWORK_SELENIUM_PYTHON (a python3 with selenium),
# FEEDWORK_CHROMIUM and FEEDWORK_CHROMEDRIVER (Debian's chromium and chromium-driver).
# Without them it says so and exits 0, or 1 when CI is set.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
missing=()
for variable in FEEDWORK FEEDWORK_SELENIUM_PYTHON FEEDWORK_CHROMIUM FEEDWORK_CHROMEDRIVER; do
    if [[ -z "${!variable:-}" || ! -x "${!variable}" ]]; then missing+=("$variable"); fi
done
if ((${#missing[@]})); then
    echo "BROWSER TESTS NOT RUN: ${missing[*]} not set to an executable (see Tests/Browser/run.sh)" >&2
    [[ -n "${CI:-}" ]] && exit 1
    exit 0
fi

work=$(mktemp -d)
server=""
cleanup() {
    if [[ -n "$server" ]]; then kill "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

ln -s "$repo/Adapters" "$work/Adapters"
{ cat "$repo/feeds.yaml"; echo; cat "$repo/Tests/Browser/items.yaml"; } > "$work/feeds.yaml"
"$FEEDWORK_SELENIUM_PYTHON" "$repo/Tests/Browser/generate_items.py" "$work/items.json" 100000
(cd "$work" && "$FEEDWORK" run -q > "$work/run.log" 2>&1) || { cat "$work/run.log"; exit 1; }

"$FEEDWORK" serve -c "$work/feeds.yaml" --port 0 2> "$work/serve.log" &
server=$!
url=""
for _ in $(seq 1 100); do
    url=$(grep -o 'http://[^ ]*/' "$work/serve.log" 2>/dev/null || true)
    [[ -n "$url" ]] && break
    sleep 0.1
done
[[ -n "$url" ]] || { echo "feedwork serve did not start:"; cat "$work/serve.log"; exit 1; }

mkdir -p "$repo/.build/screenshots"
"$FEEDWORK_SELENIUM_PYTHON" "$repo/Tests/Browser/browser_test.py" \
    --url "$url" --feedwork "$FEEDWORK" --config "$work/feeds.yaml" --screenshots "$repo/.build/screenshots"
