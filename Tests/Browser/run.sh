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
"$FEEDWORK_SELENIUM_PYTHON" "$repo/Tests/Browser/generate_items.py" "$work/items.json" 100000
cp "$repo/Tests/Browser/ads.json" "$work/ads.json"
run_and_serve

mkdir -p "$repo/.build/screenshots"
"$FEEDWORK_SELENIUM_PYTHON" "$repo/Tests/Browser/browser_test.py" \
    --url "$url" --feedwork "$FEEDWORK" --config "$work/feeds.yaml" --screenshots "$repo/.build/screenshots"
