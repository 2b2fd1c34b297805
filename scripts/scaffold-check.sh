#!/usr/bin/env bash
# Proves `feedwork new adapter` from outside the checkout: scaffolds a package into a temporary
# folder against this checkout (--feedwork-path), then, in that folder and as written, builds it,
# runs its feed offline and checks the rows, replays its recorded suite, runs its tests, and checks
# that `adapters --json` lists its adapter with its module beside the built-in ones.
#
#   swift build && bash scripts/scaffold-check.sh
#
# The scaffold is a package of its own, so it compiles Feedwork's libraries and dependencies
# again. Its build goes to a scratch folder inside this checkout's .build
# (FEEDWORK_SCAFFOLD_SCRATCH to choose another), kept between runs: with none, the whole check
# took 4.5 minutes on a shared 2-core machine (3.6 of them the first `swift build`); with the
# scratch folder of an earlier run, 1.5 minutes (SwiftPM builds Hummingbird's modules again when
# it goes from `swift build` to `swift run` or `swift test`, about 20 seconds each). The
# checkout's Package.resolved, when there is one, is copied in, so the scaffold builds the same
# versions of the dependencies, from SwiftPM's cache: the check needs no network.
set -euo pipefail
checkout="$(cd "$(dirname "$0")/.." && pwd)"
name=acme
scratch="${FEEDWORK_SCAFFOLD_SCRATCH:-$checkout/.build/scaffold-check}"
parent="$(mktemp -d)"
folder="$parent/$name-feedwork"
trap 'rm -rf "$parent"' EXIT

# Prints a step with the seconds since the previous one.
last=$SECONDS
step() { printf -- '-- %s (previous step: %ds)\n' "$1" $((SECONDS - last)); last=$SECONDS; }
# `swift SUBCOMMAND ...` in the scaffold, with its build in the scratch folder.
scaffold_swift() { local subcommand="$1"; shift; swift "$subcommand" --scratch-path "$scratch" "$@"; }

step "scaffold: feedwork new adapter $name"
# The checkout's own feedwork, as its build left it (built here only when there is none).
feedwork="$(cd "$checkout" && swift build --show-bin-path)/feedwork"
[ -x "$feedwork" ] || (cd "$checkout" && swift build --product feedwork >/dev/null)
"$feedwork" new adapter "$name" --path "$folder" --feedwork-path "$checkout"
if [ -f "$checkout/Package.resolved" ]; then cp "$checkout/Package.resolved" "$folder/"; fi
cd "$folder"

step "swift build"
scaffold_swift build 2>&1 | tee "$parent/build.log"
# The scaffold's own code builds without warnings, as written.
if grep -E "^$folder/.*warning:" "$parent/build.log"; then
    echo "the scaffold's code has warnings" >&2
    exit 1
fi

step "swift run $name-feedwork run: the feed loads the fixture file's records"
report="$(scaffold_swift run "$name-feedwork" run --json)"
python3 - "$report" <<'PY'
import json, sys
feeds = json.loads(sys.argv[1])["feeds"]
assert [feed["status"] for feed in feeds] == ["ok"], feeds
assert feeds[0]["counts"]["inserted"] == 3, feeds[0]
PY
rows="$(scaffold_swift run "$name-feedwork" export "${name}_item" | wc -l)"
[ "$rows" -eq 3 ] || { echo "export ${name}_item printed $rows row(s), not 3" >&2; exit 1; }

step "swift run $name-feedwork validate: an unknown option is an error at its line and column"
printf 'feeds:\n  - name: %s\n    adapter: %s\n    url: Fixtures/%s.json\n    ulr: typo\n' "$name" "$name" "$name" \
    >"$parent/typo.yaml"
status=0
scaffold_swift run "$name-feedwork" validate -c "$parent/typo.yaml" >"$parent/validate.log" 2>&1 || status=$?
cat "$parent/validate.log"
[ "$status" -eq 2 ] || { echo "validate of an unknown option exited $status, not 2" >&2; exit 1; }
grep -qE "typo.yaml:5:[0-9]+: error: unknown key 'ulr'" "$parent/validate.log"

step "swift run $name-feedwork test: the recorded suite replays"
scaffold_swift run "$name-feedwork" test | tee "$parent/test.log"
grep -q "^1 passed, 0 failed$" "$parent/test.log"

step "swift run $name-feedwork adapters --json: $name with its module beside the built-in adapters"
adapters="$(scaffold_swift run "$name-feedwork" adapters --json)"
python3 - "$adapters" "$name" <<'PY'
import json, sys
document, name = json.loads(sys.argv[1]), sys.argv[2]
modules = {adapter["name"]: adapter["module"] for adapter in document["adapters"]}
module = name.capitalize() + "Feed"
assert modules.get(name) == module, f"{name} is not listed with module {module}: {modules}"
for builtin, builtin_module in {"fruit": "FruitFeed", "json": "JSONFeed", "singer": "SingerFeed"}.items():
    assert modules.get(builtin) == builtin_module, f"built-in {builtin} missing: {modules}"
print(f"{len(modules)} adapters, {name} from {module}, feedkit {document['feedkit_version']}")
PY
# Last: `swift test` builds some dependencies (Hummingbird's modules) with other settings than
# `swift build`, which then builds them again.
step "swift test: the adapter's tests"
scaffold_swift test 2>&1 | tee "$parent/swift-test.log" | grep -E "✔|✘|error" || true
grep -qE "Test run with 2 tests .*passed" "$parent/swift-test.log"

step "the scaffold builds, runs, replays and passes its tests"
