#!/usr/bin/env python3
"""Summarizes callgrind's per-thread profiles of one feedwork run (valgrind --separate-threads=yes).

Usage: callgrind_summary.py OUT_PREFIX [TOP]

Prints the instructions of the whole run, of the store's writer thread (the thread that runs
`StoreThread`'s job queue) and of all other threads, then for each of the two groups the
functions with the most instructions, inclusive (a function's own and its callees'), without
the frames every thread has (thread start, Dispatch, Swift's job runner, async resumptions).
Instruction counts are what this machine can compare between runs: they do not move with the
load of a shared machine, as seconds do.
"""
import collections
import glob
import re
import subprocess
import sys

prefix = sys.argv[1]
top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
WRITER = re.compile(r"StoreThreadC8JobQueue.*5drainyyF")
NOISE = re.compile(
    r"clone|start_thread|_dispatch_|dispatch_sync|swift_job_run|runJobInEstablishedExecutorContext|"
    r"jobInvoke|__swift_run_job|swift_task_switch|future_adapter|NSThreadStart|ThreadC4main|"
    r"T[QY][0-9]+_ |TA |Tm |TW |'[0-9]|\$sIeg|\$sIg|\$sxs5Error|below main|libc-start|"
    r"Dispatch0A5Queue|SerializedDatabaseC4sync|task_group_wait_resume"
)
LINE = re.compile(r"^\s*([0-9,]+) \(\s*[0-9.]+%\)\s+(?:\*\s+)?(.*)$")


def annotate(path, inclusive):
    """(function, instructions) of one profile file, and its total."""
    args = ["callgrind_annotate", "--threshold=100"] + (["--inclusive=yes"] if inclusive else [])
    text = subprocess.run(args + [path], capture_output=True, text=True, check=True).stdout
    rows, total = [], 0
    for line in text.splitlines():
        match = LINE.match(line)
        if not match:
            continue
        count, name = int(match.group(1).replace(",", "")), match.group(2)
        if "PROGRAM TOTALS" in name:
            total = count
        else:
            rows.append((name, count))
    return rows, total


def short(name):
    """A function's name without its file and library, shortened for a table."""
    name = re.sub(r"^\?\?\?:|^[^:]*:(?=[^:])", "", name, count=1)
    name = re.sub(r" \[[^\]]*\]$", "", name)
    return name[:110]


files = sorted(f for f in glob.glob(prefix + "*") if re.search(r"-\d+$", f)) or [prefix]
groups = {"writer thread": collections.Counter(), "other threads": collections.Counter()}
totals = {"writer thread": 0, "other threads": 0}
for path in files:
    rows, total = annotate(path, inclusive=True)
    group = "writer thread" if any(WRITER.search(name) for name, _ in rows) else "other threads"
    totals[group] += total
    for name, count in rows:
        if not NOISE.search(name):
            groups[group][short(name)] += count

everything = sum(totals.values())
print(f"instructions: {everything / 1e6:,.1f} M in all", end="")
for group, total in totals.items():
    print(f"; {group} {total / 1e6:,.1f} M", end="")
print()
for group, counter in groups.items():
    print(f"\n{group}: functions with the most instructions, inclusive (M)")
    for name, count in counter.most_common(top):
        print(f"{count / 1e6:9.1f}  {name}")
