#!/usr/bin/env python3
"""Checks the history a fault trial left: every pass of every feed, from the store and from the
workers, against what passes of one feed sharing a PostgreSQL store must never do.

    check_history.py TRIAL_DIR

Prints each violation (check, feed, the passes with their workers and times) and a summary;
exits 1 when there is any, 0 otherwise. Python's standard library only.

What it reads (run.sh writes them into TRIAL_DIR):

  trial.json      the trial: workers and their addresses, the feeds and their `every`, the
                  lease, the entity fields that must never go backwards, the fault (kind, victim,
                  start, end), when the API froze, whether the feeds settled after that
  log.jsonl       every committed change to the trial's `_runs`, `_state`, `_schedule` and entity
                  tables (audit.sql): the table, the operation, the row, and `at` (the server's
                  clock when the change was made), `committed_at` (its transaction's commit
                  timestamp, track_commit_timestamp), `client` (the worker's address), `xid`
  runs.jsonl      `_runs` as it is at the end (the final status of each pass)
  rows-E.jsonl    the rows of entity E at the end
  truth.json      the API host's ground truth: the rows each entity should hold once the feeds
                  have read it after it froze
  events-wN.jsonl worker N's `feedwork worker --json` lines: each finished pass's report, with
                  its run id, status, and `due_at`, the due time it ran for

A pass is a run row: it starts when its insert commits (the worker holds the feed's lease by
then) and ends when the store first records its outcome: its commit, for a pass that commits
(status ok, ok_with_rejects or stale: the run row's update is in the pass's own transaction); the
failure or interruption recorded otherwise (by the worker, or by another worker that found the
pass's lease gone and marked it interrupted). Its worker is the address its run row was
inserted from.

Clocks. Every time compared here is the PostgreSQL server's (`at`, `committed_at`) or this
machine's (the fault's times, the API's freeze), which are one clock: the server, the harness
and the API host run on this machine's kernel, outside libfaketime. The workers' own times
(`_runs.started_at` and `finished_at`, the events' `finished_at` and `next_run_at`) come from
clocks a trial skews by 30 s, and order nothing here. `due_at` is the schedule's due time as the
board holds it; it identifies a scheduled slot (due-once) and is compared with the server's
clock (due-early), which is what a schedule kept by the server's clock must satisfy.

The checks:

  overlap     No two passes of a feed overlap: a pass starts only after the one before it ended
              (from the log). A pass still running at the end, with another started after it,
              overlaps it.
  order       The committed passes of a feed commit in the order they started (from the log).
  fencing     No pass commits after another worker committed a later pass of the same feed (a
              pass that started after it), and none commits after the store had recorded its end
              (another worker found its lease gone and marked it interrupted): a stale pass
              must roll back (from the log).
  monotonic   State never goes backwards: a feed's incremental cursor (`_state` key `cursor`),
              in commit order, never decreases; nor does any field the trial names (an item's
              `version`), key by key, in commit order (from the log).
  due-once    Every due time is run at most once: no two committed passes of a feed ran for the
              same `due_at` (the events, joined with the store by run id).
  due-early   No pass starts before its due time by the server's clock (1 s of slack): workers
              whose clocks are ahead must not run feeds early (events and log).
  reported    What each worker printed for a pass agrees with the store: a pass it reported
              committed (ok...) is committed in `_runs`, and one it reported failed or
              interrupted is not; a reported run id is in `_runs` (events and runs).
  truth       At the end, each entity's rows are exactly the API's ground truth: no row missing,
              none extra, every field equal (rows and truth).
  settled     Each feed committed a pass started after the API froze, within the trial's limit:
              no feed was left stalled by the fault (from the log; the harness waited).
  resume      (partition-pg and pause) The feed the faulty worker was running resumed on another
              worker within `resume_bound` seconds of the fault: the first pass of it elsewhere
              that committed started by then. Printed as a "resume:" line for every trial with
              a faulty worker, checked where the trial says so.
  stall       (baseline and skew) No feed waits longer than `stall_bound` seconds between two
              commits (its `every`, plus the lease, plus a few seconds for the pass): workers
              whose clocks disagree must still agree on when a feed is due (from the log).

A run row whose outcome is recorded twice (another worker marked it interrupted, then its own
worker recorded it failed once it could) is a note, not a violation: the check above uses the
first, which is when the store counted the pass as over.
"""

import json
import os
import sys
from collections import defaultdict
from datetime import datetime

COMMITTED = {"ok", "ok_with_rejects", "stale"}
ENDED = COMMITTED | {"failed", "interrupted"}
EARLY_SLACK = 1.0
# At most this many violations of one check and feed are printed; the rest are counted.
SHOWN = 8


def parse_time(text):
    """An ISO 8601 time (as Feedwork writes them, `Z` or an offset) in epoch seconds."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def read_json(path):
    with open(path) as handle:
        return json.load(handle)


def read_lines(path):
    if not os.path.exists(path):
        return []
    rows = []
    with open(path) as handle:
        for line in handle:
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


class Pass:
    """One run row's life, from the log."""

    def __init__(self, run, feed, worker, start):
        self.run = run
        self.feed = feed
        self.worker = worker
        self.start = start
        # Every outcome recorded, in commit order: (status, committed_at, worker that wrote it).
        self.outcomes = []
        self.final = "running"
        self.event = None

    @property
    def committed(self):
        return self.final in COMMITTED

    @property
    def commit_at(self):
        return next((at for status, at, _ in self.outcomes if status in COMMITTED), None)

    @property
    def first_end(self):
        return self.outcomes[0][1] if self.outcomes else None

    @property
    def end(self):
        """When the store counts the pass as over: its commit, else its first recorded outcome."""
        if self.committed and self.commit_at is not None:
            return self.commit_at
        return self.first_end if self.first_end is not None else float("inf")

    def describe(self, origin):
        end = self.end
        ended = "still running" if end == float("inf") else f"ended {end - origin:.3f}"
        return f"run {self.run} ({self.worker}, started {self.start - origin:.3f}, {ended}, {self.final})"


class History:
    """The trial's passes and changes, built from its files (or given directly, for tests)."""

    def __init__(self, trial, log, runs, events, rows, truth):
        self.trial = trial
        self.log = sorted(log, key=lambda r: r["seq"])
        self.workers_by_address = {address: name for name, address in trial.get("workers", {}).items()}
        self.passes = {}
        self.notes = []
        # A commit timestamp the server no longer has (none is expected: the cluster is new and
        # records them from the start) is taken as the change's own time, and said.
        missing = [r for r in self.log if r.get("committed_at") is None]
        for row in missing:
            row["committed_at"] = row["at"]
        if missing:
            self.notes.append(f"{len(missing)} change(s) without a commit timestamp: their own times used")
        # Times are printed relative to the first change the trial made.
        self.origin = min((r["committed_at"] for r in self.log if r.get("committed_at")), default=0.0)
        # The run a committed transaction belongs to (its `_runs` update to a committed status).
        self.run_of_xid = {}
        self._build(runs, events)
        self.rows = rows
        self.truth = truth

    def worker(self, address):
        return self.workers_by_address.get(address, address or "harness")

    def _build(self, runs, events):
        for row in self.log:
            if row["tbl"] != "_runs":
                continue
            data = row["row"]
            run = int(data["id"])
            if row["op"] == "INSERT":
                self.passes[run] = Pass(run, data["feed"], self.worker(row["client"]), row["committed_at"])
            elif row["op"] == "UPDATE" and run in self.passes and data.get("status") in ENDED:
                self.passes[run].outcomes.append((data["status"], row["committed_at"], self.worker(row["client"])))
                if data["status"] in COMMITTED:
                    self.run_of_xid[row["xid"]] = run
        for data in runs:
            run = int(data["id"])
            if run in self.passes:
                self.passes[run].final = data["status"]
            else:
                self.notes.append(f"run {run} of {data['feed']} is in _runs but its insert is not in the log")
        for pass_ in self.passes.values():
            pass_.outcomes.sort(key=lambda outcome: outcome[1])
            if len(pass_.outcomes) > 1:
                text = ", ".join(f"{s} by {w} at {t - self.origin:.3f}" for s, t, w in pass_.outcomes)
                self.notes.append(f"run {pass_.run} of {pass_.feed}: its outcome was recorded more than once: {text}")
        self.events = events
        for event in events:
            run = event.get("run")
            if run is not None and int(run) in self.passes:
                self.passes[int(run)].event = event

    def by_feed(self):
        feeds = defaultdict(list)
        for pass_ in self.passes.values():
            feeds[pass_.feed].append(pass_)
        for passes in feeds.values():
            passes.sort(key=lambda p: (p.start, p.run))
        return feeds

    def t(self, moment):
        return f"{moment - self.origin:.3f}"


class Checker:
    def __init__(self, history):
        self.history = history
        self.violations = []

    def violation(self, check, feed, message):
        self.violations.append((check, feed, message))

    def run(self):
        for check in (
            self.overlap,
            self.order_and_fencing,
            self.monotonic,
            self.due,
            self.reported,
            self.truth,
            self.settled,
            self.resume,
            self.stall,
        ):
            check()
        return self.violations

    def overlap(self):
        h = self.history
        for feed, passes in h.by_feed().items():
            latest = None
            for pass_ in passes:
                if latest is not None and pass_.start < latest.end:
                    self.violation(
                        "overlap",
                        feed,
                        f"{pass_.describe(h.origin)} started while {latest.describe(h.origin)} had not ended",
                    )
                if latest is None or pass_.end > latest.end:
                    latest = pass_

    def order_and_fencing(self):
        h = self.history
        for feed, passes in h.by_feed().items():
            committed = [p for p in passes if p.committed and p.commit_at is not None]
            for i, earlier in enumerate(committed):
                for later in committed[i + 1 :]:
                    if later.commit_at >= earlier.commit_at:
                        continue
                    if later.worker == earlier.worker:
                        self.violation(
                            "order",
                            feed,
                            f"{earlier.describe(h.origin)} committed after the later {later.describe(h.origin)}",
                        )
                    else:
                        self.violation(
                            "fencing",
                            feed,
                            f"{earlier.describe(h.origin)} committed at {h.t(earlier.commit_at)}, after "
                            f"{later.worker} had committed the later {later.describe(h.origin)} "
                            f"at {h.t(later.commit_at)}",
                        )
            for pass_ in committed:
                ended = [(s, t, w) for s, t, w in pass_.outcomes if s not in COMMITTED and t < pass_.commit_at]
                if ended:
                    status, at, by = ended[0]
                    self.violation(
                        "fencing",
                        feed,
                        f"{pass_.describe(h.origin)} committed at {h.t(pass_.commit_at)}, after the store had "
                        f"recorded it {status} at {h.t(at)} ({by}): its lease was gone",
                    )

    def monotonic(self):
        h = self.history
        fields = h.trial.get("monotonic", {})
        keys = h.trial.get("keys", {})
        # (table, feed or key) -> the greatest value so far and the change that set it.
        greatest = {}
        changes = [r for r in h.log if r["op"] in ("INSERT", "UPDATE")]
        changes.sort(key=lambda r: (r["committed_at"], r["seq"]))
        for row in changes:
            data = row["row"]
            if row["tbl"] == "_state" and data.get("key") == "cursor":
                subject, field, feed = ("cursor", data["feed"]), "value", data["feed"]
                label = f"the cursor of {feed}"
            elif row["tbl"] in fields:
                field = fields[row["tbl"]]
                key = data.get(keys.get(row["tbl"], "_key"), data.get("_key"))
                subject, feed = (row["tbl"], key), data.get("_feed", row["tbl"])
                label = f"{row['tbl']} {key}'s {field}"
            else:
                continue
            value = number(data.get(field))
            if value is None:
                continue
            run = h.run_of_xid.get(row["xid"])
            writer = f"run {run}" if run is not None else f"xid {row['xid']}"
            where = f"{writer} ({h.worker(row['client'])}, committed {h.t(row['committed_at'])})"
            if subject in greatest and value < greatest[subject][0]:
                before, before_where = greatest[subject]
                self.violation(
                    "monotonic", feed, f"{label} went back from {before} ({before_where}) to {value} by {where}"
                )
                continue
            if subject not in greatest or value > greatest[subject][0]:
                greatest[subject] = (value, where)

    def due(self):
        h = self.history
        slots = defaultdict(list)
        for pass_ in h.passes.values():
            due_at = (pass_.event or {}).get("due_at")
            if not due_at:
                continue
            if pass_.committed:
                slots[(pass_.feed, due_at)].append(pass_)
            due = parse_time(due_at)
            if pass_.start < due - EARLY_SLACK:
                self.violation(
                    "due-early",
                    pass_.feed,
                    f"{pass_.describe(h.origin)} started {due - pass_.start:.1f} s before its due time {due_at} "
                    f"(by the server's clock)",
                )
        for (feed, due_at), passes in sorted(slots.items()):
            if len(passes) > 1:
                runs = "; ".join(p.describe(h.origin) for p in passes)
                self.violation("due-once", feed, f"the due time {due_at} ran {len(passes)} times: {runs}")

    def reported(self):
        h = self.history
        for event in h.events:
            run = event.get("run")
            if run is None:
                continue
            pass_ = h.passes.get(int(run))
            worker = event.get("_worker", "a worker")
            if pass_ is None:
                self.violation(
                    "reported", event.get("feed"), f"{worker} reported run {run} ({event.get('status')}), not in _runs"
                )
                continue
            said_committed = event.get("status") in COMMITTED
            if said_committed != pass_.committed:
                error = f": {event.get('error')}" if event.get("error") else ""
                self.violation(
                    "reported",
                    pass_.feed,
                    f"{worker} reported {event.get('status')}{error} for {pass_.describe(h.origin)}",
                )

    def truth(self):
        h = self.history
        if not h.truth:
            self.violation("truth", None, "the API host wrote no ground truth")
            return
        keys = h.trial.get("keys", {})
        for entity, expected in h.truth["entities"].items():
            key_field = keys.get(entity, "id")
            actual = {}
            for row in h.rows.get(entity, []):
                actual[str(row.get(key_field))] = row
            missing = sorted(set(expected) - set(actual), key=sort_key)
            extra = sorted(set(actual) - set(expected), key=sort_key)
            different = []
            for key in sorted(set(expected) & set(actual), key=sort_key):
                fields = [f for f, v in expected[key].items() if not same(actual[key].get(f), v)]
                if fields:
                    got = {f: actual[key].get(f) for f in fields}
                    want = {f: expected[key][f] for f in fields}
                    different.append(f"{key} has {got}, not {want}")
            for kind, found in (("missing", missing), ("extra", extra), ("different", different)):
                if found:
                    shown = ", ".join(str(x) for x in found[:5]) + (" ..." if len(found) > 5 else "")
                    self.violation("truth", entity, f"{len(found)} row(s) {kind} of {len(expected)} expected: {shown}")

    def settled(self):
        h = self.history
        frozen = h.trial.get("frozen_at")
        if frozen is None:
            return
        for feed in h.trial.get("feeds", {}):
            after = [p for p in h.passes.values() if p.feed == feed and p.committed and p.start > frozen]
            if not after:
                self.violation(
                    "settled",
                    feed,
                    f"no pass started after the API froze (at {h.t(frozen)}) committed within "
                    f"{h.trial.get('settle_limit')} s",
                )

    def resume(self):
        h = self.history
        fault = h.trial.get("fault") or {}
        if not fault.get("victim") or fault.get("kind") == "pg-restart":
            return
        start, victim, bound = fault["start"], fault["victim"], h.trial.get("resume_bound")
        held = sorted(
            {p.feed for p in h.passes.values() if p.worker == victim and p.start <= start and p.end > start}
        )
        if not held:
            self.violation("resume", None, f"{victim} ran no pass when the fault began: nothing to measure")
            return
        for feed in held:
            elsewhere = [
                p for p in h.by_feed()[feed] if p.worker != victim and p.start > start and p.committed
            ]
            first = elsewhere[0] if elsewhere else None
            if first is None:
                line = f"resume: {h.trial['trial']}: {feed}, held by {victim}, never resumed on another worker"
            else:
                line = (
                    f"resume: {h.trial['trial']}: {feed}, held by {victim}: resumed on {first.worker} "
                    f"{first.start - start:.1f} s after the fault (committed after {first.commit_at - start:.1f} s; "
                    f"fault held {fault['end'] - start:.1f} s, bound {bound} s)"
                )
            print(line)
            if fault.get("measure_resume") and (first is None or first.start - start > bound):
                self.violation("resume", feed, line.split(": ", 2)[2] + f": over the bound of {bound} s")


    def stall(self):
        h = self.history
        bound = h.trial.get("stall_bound")
        if bound is None:
            return
        for feed, passes in sorted(h.by_feed().items()):
            commits = sorted((p.commit_at, p) for p in passes if p.committed and p.commit_at is not None)
            for (before, first), (after, second) in zip(commits, commits[1:]):
                if after - before > bound:
                    self.violation(
                        "stall",
                        feed,
                        f"{after - before:.1f} s between the commits of {first.describe(h.origin)} and "
                        f"{second.describe(h.origin)} (bound {bound} s)",
                    )


def number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def same(actual, expected):
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        return number(actual) == float(expected)
    return actual == expected


def sort_key(text):
    return (0, int(text), "") if str(text).lstrip("-").isdigit() else (1, 0, str(text))


def load(directory):
    trial = read_json(os.path.join(directory, "trial.json"))
    events = []
    for name in sorted(os.listdir(directory)):
        if name.startswith("events-") and name.endswith(".jsonl"):
            worker = name[len("events-") : -len(".jsonl")]
            for event in read_lines(os.path.join(directory, name)):
                event["_worker"] = worker
                events.append(event)
    rows = {}
    for name in os.listdir(directory):
        if name.startswith("rows-") and name.endswith(".jsonl"):
            rows[name[len("rows-") : -len(".jsonl")]] = read_lines(os.path.join(directory, name))
    truth_path = os.path.join(directory, "truth.json")
    truth = read_json(truth_path) if os.path.exists(truth_path) else None
    return History(
        trial,
        read_lines(os.path.join(directory, "log.jsonl")),
        read_lines(os.path.join(directory, "runs.jsonl")),
        events,
        rows,
        truth,
    )


def summary(history):
    """What the workers did, feed by feed: passes by outcome and worker, and the longest wait
    between two commits."""
    lines = []
    for feed, passes in sorted(history.by_feed().items()):
        outcomes = defaultdict(int)
        for p in passes:
            outcomes[f"{p.final} on {p.worker}"] += 1
        commits = sorted(p.commit_at for p in passes if p.committed and p.commit_at is not None)
        gap = max((b - a for a, b in zip(commits, commits[1:])), default=0.0)
        text = ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items()))
        lines.append(f"  {feed}: {len(passes)} passes ({text}); longest wait between commits {gap:.1f} s")
    return lines


def main():
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    history = load(sys.argv[1])
    violations = Checker(history).run()
    for line in summary(history):
        print(line)
    for note in history.notes:
        print(f"note: {note}")
    shown = defaultdict(int)
    for check, feed, message in violations:
        shown[(check, feed)] += 1
        if shown[(check, feed)] <= SHOWN:
            print(f"VIOLATION {check}{f' [{feed}]' if feed else ''}: {message}")
    for (check, feed), count in sorted(shown.items(), key=lambda item: (item[0][0], str(item[0][1]))):
        if count > SHOWN:
            print(f"VIOLATION {check}{f' [{feed}]' if feed else ''}: ... and {count - SHOWN} more like these")
    trial = history.trial.get("trial", "trial")
    if violations:
        checks = sorted({check for check, _, _ in violations})
        print(f"checker: {trial}: {len(violations)} violation(s) ({', '.join(checks)})")
        return 1
    print(f"checker: {trial}: history ok ({len(history.passes)} passes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
