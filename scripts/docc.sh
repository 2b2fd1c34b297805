#!/usr/bin/env bash
# Builds the DocC documentation of the adapter SDK (FeedKit, and FeedTestSupport's) with warnings
# as errors, and fails when DocC or the compiler warns about our own code (an unresolved symbol
# link in an article or a doc comment, a parameter documented that does not exist...) or when a
# public declaration of FeedKit has no doc comment. Run by CI right after the build.
#
#   bash scripts/docc.sh                    # the archives go to .build/plugins/Swift-DocC/outputs/
#   swift package --disable-sandbox preview-documentation --target FeedKit   # to browse one
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(FeedKit FeedTestSupport)
log=.build/docc.log
mkdir -p .build

status=0
target_args=()
for target in "${targets[@]}"; do target_args+=(--target "$target"); done
swift package generate-documentation "${target_args[@]}" --warnings-as-errors 2>&1 | tee "$log" || status=$?
# Warnings in the dependencies' code (the plugin's own build) are left to their authors.
warnings="$(grep -E "warning: " "$log" | grep -v "/.build/checkouts/" || true)"
if [ -n "$warnings" ]; then
    echo "$(wc -l <<<"$warnings") DocC or compiler warning(s) in the documentation of ${targets[*]}" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    echo "generate-documentation failed (exit $status); the errors are above" >&2
    exit "$status"
fi

# Every public declaration of FeedKit carries a doc comment of its own (what the plugin extracted
# for the archive above; members that the standard library's protocols provide are not ours).
python3 - <<'PY'
import glob, json, os, sys

graphs = glob.glob(".build/*/extracted-symbols/*/FeedKit/FeedKit*.symbols.json")
if not graphs:
    sys.exit("no symbol graph of FeedKit under .build/*/extracted-symbols: did the plugin change its layout?")
newest = max(os.path.getmtime(path) for path in graphs)
undocumented = []
for path in graphs:
    if os.path.getmtime(path) < newest - 600:
        continue  # a graph of another checkout's identity, left from an earlier run
    for symbol in json.load(open(path))["symbols"]:
        uri = symbol.get("location", {}).get("uri", "")
        if "/Sources/FeedKit/" not in uri or symbol.get("accessLevel") not in ("public", "open"):
            continue
        comment = symbol.get("docComment")
        if not comment or comment.get("module", "FeedKit") != "FeedKit":
            line = symbol["location"]["position"]["line"] + 1
            undocumented.append(f"Sources/FeedKit/{uri.split('/Sources/FeedKit/')[1]}:{line}: "
                                + ".".join(symbol["pathComponents"]))
if undocumented:
    print("\n".join(sorted(set(undocumented))))
    sys.exit(f"{len(set(undocumented))} public declaration(s) of FeedKit without a doc comment")
print("every public declaration of FeedKit has a doc comment")
PY
echo "documentation of ${targets[*]}: no warnings; archives in .build/plugins/Swift-DocC/outputs/"
