#!/usr/bin/env bash
# The public API of the modules other packages build on (FeedKit, the adapter SDK, and
# FeedworkCLI, the command as a library), against the baseline recorded in api-baseline/.
#
#   swift build && bash scripts/api-baseline.sh check    # fails on a breaking change
#   swift build && bash scripts/api-baseline.sh update   # records the API of this build
#
# `check` runs `swift package diagnose-api-breaking-changes` with the recorded baseline, so it
# builds nothing but the current package (already built in CI). A deliberate break: run
# `update`, commit the new api-baseline/ with the change, and say what broke in CHANGELOG.md.
#
# api-baseline/COMMIT/MODULE.json is swift-api-digester's dump of MODULE; SwiftPM looks the
# baseline up by a commit of this repository, so the folder is named for the commit the
# baseline was recorded on (the API is that of the build `update` read, which is the commit
# the new baseline is committed with).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
modules=(FeedKit FeedworkCLI)
baselines="$root/api-baseline"

# Writes the public API of each module of `modules` to FOLDER/MODULE.json, from the last build.
dump() {
    local folder="$1" bin map include module
    bin="$(swift build --show-bin-path)"
    # The module maps of the C modules the dumped modules import, as the build used them.
    local maps=()
    for map in "$bin"/*.build/module.modulemap Sources/*/module.modulemap Sources/*/include/module.modulemap \
        $(find .build/checkouts -name module.modulemap -path "*/Sources/*" | grep -v SQLCipher); do
        if [ -f "$map" ]; then maps+=(-Xcc "-fmodule-map-file=$PWD/${map#"$PWD/"}"); fi
    done
    for include in Sources/*/include $(find .build/checkouts -type d -name include -path "*/Sources/*"); do
        maps+=(-Xcc "-I$PWD/$include")
    done
    mkdir -p "$folder"
    for module in "${modules[@]}"; do
        swift-api-digester -dump-sdk -module "$module" -I "$bin/Modules" "${maps[@]}" \
            -o "$folder/$module.json" -abort-on-module-fail
        [ -s "$folder/$module.json" ] || { echo "no API dump of $module" >&2; exit 1; }
        python3 scripts/api-public-only.py strip "$folder/$module.json"
    done
}

case "${1:-}" in
check)
    recorded=("$baselines"/*/)
    if [ "${#recorded[@]}" -ne 1 ] || [ ! -d "${recorded[0]}" ]; then
        echo "api-baseline/ must hold exactly one recorded baseline (run: bash scripts/api-baseline.sh update)" >&2
        exit 2
    fi
    commit="$(basename "${recorded[0]}")"
    targets=()
    for module in "${modules[@]}"; do targets+=(--targets "$module"); done
    log="$(mktemp)"
    status=0
    swift package diagnose-api-breaking-changes "$commit" "${targets[@]}" --baseline-dir "$baselines" >"$log" 2>&1 ||
        status=$?
    grep -vE "^\[[0-9]+/[0-9]+\] |^Building for|^Build complete" "$log" || true
    # SwiftPM reads the current modules with their `package` declarations, so a public one made
    # `package` looks unchanged to it: compare what is public on its own.
    current="$(mktemp -d)"
    trap 'rm -rf "$log" "$current"' EXIT
    dump "$current"
    for module in "${modules[@]}"; do
        python3 scripts/api-public-only.py compare "$baselines/$commit/$module.json" "$current/$module.json" ||
            status=1
    done
    if [ "$status" -ne 0 ] || grep -q "API breakage" "$log"; then
        echo "the public API of ${modules[*]} changed incompatibly: if that is meant, run" \
            "'bash scripts/api-baseline.sh update', commit api-baseline/, and add a CHANGELOG.md entry" >&2
        exit 1
    fi
    ;;
update)
    commit="$(git rev-parse HEAD)"
    fresh="$(mktemp -d)"
    trap 'rm -rf "$fresh"' EXIT
    dump "$fresh/$commit"
    rm -rf "$baselines"
    mkdir -p "$baselines"
    mv "$fresh/$commit" "$baselines/"
    echo "recorded the API of ${modules[*]} in api-baseline/$commit/"
    ;;
*)
    echo "usage: bash scripts/api-baseline.sh check|update" >&2
    exit 2
    ;;
esac
