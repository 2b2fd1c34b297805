#!/usr/bin/env bash
# Fails when an adapter uses more of FeedKit than an adapter in a package of its own could: a
# `package` declaration (what only the engine may call, such as `FeedPass.init` or
# `CachedResponse`), an `internal` one through `@testable import`, or an `@_spi` one.
#
# Each adapter folder is type-checked as a module of another package: against the modules of the
# last build, with a package name of its own, so the compiler applies the very rule that hides
# FeedKit's `package` declarations from an outside package. It reads what the build produced and
# builds nothing: about a second per adapter.
#
#   swift build && bash scripts/adapters-public-only.sh [ADAPTERS_DIR]
#
# FEEDWORK_MODULES names the build's module folder (default: `swift build --show-bin-path`/Modules).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
adapters="${1:-$root/Adapters}"
modules="${FEEDWORK_MODULES:-$(cd "$root" && swift build --show-bin-path)/Modules}"
if [ ! -e "$modules/FeedKit.swiftmodule" ]; then
    echo "no FeedKit module in $modules: build first (swift build)" >&2
    exit 2
fi

failed=0
# Doors that need no `package` declaration: attributes that reach past `public`.
doors="$(grep -rnE "@testable[[:space:]]+import|@_spi|@_private" --include='*.swift' --exclude-dir=Fixtures "$adapters" ||
    true)"
if [ -n "$doors" ]; then
    echo "$doors"
    echo "an adapter imports past FeedKit's public API (@testable, @_spi or @_private)" >&2
    failed=1
fi

for folder in "$adapters"/*/; do
    name="$(basename "$folder")"
    mapfile -t sources < <(find "$folder" -name '*.swift' -not -path '*/Fixtures/*' | sort)
    [ ${#sources[@]} -gt 0 ] || continue
    if ! output="$(swiftc -typecheck -swift-version 6 -module-name "${name}Feed" -package-name "outside-${name}" \
        -I "$modules" "${sources[@]}" 2>&1)"; then
        grep -E "error:" <<<"$output" | grep -v '^ *|' | sort -u || echo "$output"
        echo "the ${name} adapter does not build as a package of its own would: it uses what FeedKit does not make public" >&2
        failed=1
    fi
done
exit "$failed"
