#!/usr/bin/env bash
# Builds a self-contained feedwork (the Swift runtime linked in, so the machine it runs on needs
# only the system libraries: libsqlite3, libcurl, libzstd, zlib, libpq) and installs it.
#
#   scripts/install.sh                  # to /usr/local/bin when writable, else ~/.local/bin
#   scripts/install.sh --prefix DIR     # to DIR/bin
#   PREFIX=DIR scripts/install.sh
#
# The binary is copied beside its destination and renamed over it, so a feedwork running at
# that moment keeps its own file and no one sees half a binary.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="${PREFIX:-}"
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; shift ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done
if [ -z "$prefix" ]; then
    if [ -w /usr/local/bin ]; then prefix=/usr/local; else prefix="$HOME/.local"; fi
fi

# The same build as Benchmarks/run.sh, so either reuses the other's work.
build=(bash scripts/release-build.sh --product feedwork)
"${build[@]}"
binary="$("${build[@]}" --show-bin-path)/feedwork"

mkdir -p "$prefix/bin"
staged="$(mktemp "$prefix/bin/.feedwork.XXXXXX")"
trap 'rm -f "$staged"' EXIT
cp "$binary" "$staged"
chmod 755 "$staged"
mv -f "$staged" "$prefix/bin/feedwork"
trap - EXIT

echo "installed $prefix/bin/feedwork ($("$prefix/bin/feedwork" --version))"
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "note: $prefix/bin is not on PATH; add it, e.g. export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
