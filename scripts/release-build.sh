#!/usr/bin/env bash
# The release build of feedwork that is installed and benchmarked: `swift build` with these
# settings and any further arguments (`--product feedwork`, `--show-bin-path`...).
#
#   scripts/release-build.sh --product feedwork
#   bin=$(scripts/release-build.sh --show-bin-path)
#
# - The Swift runtime linked in (--static-swift-stdlib): the machine it runs on needs only the
#   system libraries, and no runtime libraries are loaded at each start.
# - A folder of its own (.build-release-static), which install.sh and the benchmarks share.
# - Generic types' metadata reached through accessor functions rather than by mangled name
#   (-disable-concrete-type-metadata-mangled-name-accessors, the code the compiler makes for
#   runtimes older than Swift 5.1), in every module: a type made from its mangled name has its
#   generic requirements checked at run time, each the first time a scan of the binary's 9,400
#   protocol conformance records. W1's unchanged second pass (Benchmarks/profile.sh): 139.8 M
#   instructions without it, 117.0 M with it, the scans 46.4 M and 25.4 M; the binary 0.7%
#   larger.
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift build -c release --static-swift-stdlib --scratch-path .build-release-static \
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors "$@"
