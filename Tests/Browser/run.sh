#!/usr/bin/env bash
# The browser tests of `feedwork serve`: fills a store from the default feeds.yaml (offline,
# from the fixtures) plus a 100,000-row json feed and two classified ads (ads.json), serves it on a free loopback port and drives
# headless Chromium through Selenium (browser_test.py). Screenshots go to .build/screenshots/.
#
# Needs: FEEDWORK (the feedwork binary), FEEDWORK_SELENIUM_PYTHON (a python3 with selenium),
# FEEDWORK_CHROMIUM and FEEDWORK_CHROMEDRIVER (Debian's chromium and chromium-driver).
# Without them it says so and exits 0, or 1 when CI is set.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
source "$repo/scripts/scratch-serve.sh"
require_executables FEEDWORK FEEDWORK_SELENIUM_PYTHON FEEDWORK_CHROMIUM FEEDWORK_CHROMEDRIVER
scratch_folder "$repo/Tests/Browser/items.yaml"
# A loopback image server for the feed `mirrored-ads`, whose images the run mirrors.
"$FEEDWORK_SELENIUM_PYTHON" "$repo/Tests/Browser/image_server.py" "$repo" "$work" &
images=$!
trap 'kill "$images" 2>/dev/null || true; if [[ -n "$server" ]]; then kill "$server" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
for _ in $(seq 1 600); do [[ -f "$work/mirrored.yaml" ]] && break; sleep 0.1; done
[[ -f "$work/mirrored.yaml" ]] || { echo "the image server did not start"; exit 1; }
{ echo; cat "$work/mirrored.yaml"; } >> "$work/feeds.yaml"
"$FEEDWORK_SELENIUM_PYTHON" "$repo/Tests/Browser/generate_items.py" "$work/items.json" 100000
cp "$repo/Tests/Browser/ads.json" "$work/ads.json"
run_and_serve

mkdir -p "$repo/.build/screenshots"
"$FEEDWORK_SELENIUM_PYTHON" "$repo/Tests/Browser/browser_test.py" \
    --url "$url" --feedwork "$FEEDWORK" --config "$work/feeds.yaml" --screenshots "$repo/.build/screenshots"
