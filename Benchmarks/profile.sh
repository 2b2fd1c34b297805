#!/usr/bin/env bash
# Instruction profiles of W1's first pass and of its second pass with nothing new, with
# valgrind's callgrind: counts of instructions do not move with the load of a shared machine, as
# seconds do, so a change can be judged by them. Prints a summary of each pass (the store's
# writer thread apart from the others, and the functions with the most instructions) and keeps
# the raw profiles for callgrind_annotate or kcachegrind.
#
# Usage: Benchmarks/profile.sh [N] [OUT]   (N rows, default 20000; profiles in OUT, default a
#                                           new temporary folder, printed at the end)
# Needs: valgrind (apt-get install valgrind), binutils' strip, python3; a release build is made.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
out=${2:-$(mktemp -d)}
mkdir -p "$out"

build=(bash scripts/release-build.sh)
"${build[@]}" --product feedwork >/dev/null
"${build[@]}" --product feedwork-bench-server >/dev/null
bin=$("${build[@]}" --show-bin-path)
# valgrind 3.19 refuses the DWARF of Swift's static binary ("possibly corrupted debuginfo"); a
# copy without it keeps its symbols, which is all callgrind needs to name functions.
strip --strip-debug -o "$out/feedwork" "$bin/feedwork"

"$bin/feedwork-bench-server" --rows "$n" >"$out/server.log" &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 1 200); do grep -q listening "$out/server.log" 2>/dev/null && break; sleep 0.05; done
port=$(awk '/listening/ { print $3 }' "$out/server.log")
bash Benchmarks/w1-feeds.sh "$port" >"$out/feeds.yaml"

for pass in first second; do
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out/$pass.callgrind" \
        "$out/feedwork" run -c "$out/feeds.yaml" >/dev/null 2>"$out/$pass.valgrind"
    echo "== W1, N=$n, $pass pass"
    python3 Benchmarks/callgrind_summary.py "$out/$pass.callgrind"
    echo
done
echo "profiles in $out ($pass.callgrind-NN, one a thread)"
